package capture

import (
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWriteClosing: the packets captured, and the drops only when the
// kernel dropped some, in tshark's words.
func TestWriteClosing(t *testing.T) {
	for _, tc := range []struct {
		captured uint64
		st       Stats
		want     string
	}{
		{0, Stats{}, "0 packets captured\n"},
		{1, Stats{Received: 5}, "1 packet captured\n"},
		{7, Stats{Dropped: 1}, "7 packets captured\n1 packet dropped from lo\n"},
		{7, Stats{Dropped: 3, IfDropped: 2}, "7 packets captured\n3 packets dropped from lo\n"},
	} {
		var b strings.Builder
		WriteClosing(&b, "lo", tc.captured, tc.st)
		if b.String() != tc.want {
			t.Errorf("%d, %+v: %q, want %q", tc.captured, tc.st, b.String(), tc.want)
		}
	}
}

// stopCounter counts Stop calls.
type stopCounter struct {
	Source
	stops chan struct{}
}

func (s *stopCounter) Stop() { s.stops <- struct{}{} }

// TestStopOnSignals: SIGHUP stops the source; once undone, nothing is
// caught or stopped.
func TestStopOnSignals(t *testing.T) {
	src := &stopCounter{stops: make(chan struct{}, 2)}
	undo := StopOnSignals(src)
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	select {
	case <-src.stops:
	case <-time.After(time.Minute):
		t.Fatal("SIGHUP did not stop the source")
	}
	undo()
}

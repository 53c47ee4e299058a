package progress

import (
	"bytes"
	"io"
	"os"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/record"
)

func TestAppendLine(t *testing.T) {
	for _, c := range []struct {
		done, total, frames, records int64
		el                           time.Duration
		want                         string
	}{
		{12_300_000, 100_000_000, 45678, 3210, 500 * time.Millisecond, "mcdissect: 12.3 MB of 100.0 MB (12%), 45678 frames, 3210 records, 24.6 MB/s"},
		{0, 0, 0, 0, 0, "mcdissect: 0.0 MB of 0.0 MB (0%), 0 frames, 0.0 MB/s"},
		{2_000_000, 1_000_000, 10, 0, 2 * time.Second, "mcdissect: 1.0 MB of 1.0 MB (100%), 10 frames, 0.5 MB/s"}, // an estimate past the end is capped
	} {
		if got := string(appendLine(nil, c.done, c.total, c.frames, c.records, c.el)); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

// TestCounts: a frame counts its bytes and a pcap record header; a nil
// line counts nothing and stops.
func TestCounts(t *testing.T) {
	p := &Line{}
	p.Frame(100)
	p.Frame(50)
	p.Record()
	if b, f, r := p.bytes.Load(), p.frames.Load(), p.records.Load(); b != 150+2*pcapRecordHeader || f != 2 || r != 1 {
		t.Errorf("bytes %d, frames %d, records %d", b, f, r)
	}
	var none *Line
	none.Frame(1)
	none.Record()
	none.Stop()
}

// TestFrames: the frames given to Frames' function are counted, then go
// to the next; a nil line adds nothing.
func TestFrames(t *testing.T) {
	p := &Line{}
	var next []int
	fn := p.Frames(func(f record.FrameInfo) { next = append(next, f.CapLen) })
	fn(record.FrameInfo{CapLen: 100})
	fn(record.FrameInfo{CapLen: 50})
	if b, f := p.bytes.Load(), p.frames.Load(); b != 150+2*pcapRecordHeader || f != 2 || len(next) != 2 || next[1] != 50 {
		t.Errorf("bytes %d, frames %d, next %v", b, f, next)
	}
	p.Frames(nil)(record.FrameInfo{CapLen: 1})
	if p.frames.Load() != 3 {
		t.Error("without a next, no frame counted")
	}
	var none *Line
	if none.Frames(nil) != nil {
		t.Error("a nil line's Frames(nil) is not nil")
	}
}

// TestForFileNotInPipe: with standard error a pipe, a file or a buffer
// there is no progress line, however long the file takes.
func TestForFileNotInPipe(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, stderr := range []io.Writer{f, w, &bytes.Buffer{}} {
		if p := ForFile(f.Name(), &bytes.Buffer{}, stderr, true); p != nil {
			p.Stop()
			t.Errorf("%T: a progress line", stderr)
		}
	}
}

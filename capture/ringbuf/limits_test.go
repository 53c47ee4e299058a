package ringbuf

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/capture"
)

// TestParseLimits: -a and -b's specs in tshark's units, and their
// mistakes in one line.
func TestParseLimits(t *testing.T) {
	l, err := ParseLimits([]string{"duration:1.5", "packets:7", "files:3"}, []string{"filesize:100", "duration:2", "interval:60", "packets:9", "files:4"})
	if err != nil {
		t.Fatal(err)
	}
	want := Limits{Duration: 1500 * time.Millisecond, Packets: 7, Ring: Options{StopFiles: 3, FileSize: 100000, Duration: 2 * time.Second, Interval: time.Minute, Packets: 9, Files: 4}}
	if l.Duration != want.Duration || l.Packets != want.Packets || l.Ring.StopFiles != want.Ring.StopFiles || l.Ring.FileSize != want.Ring.FileSize ||
		l.Ring.Duration != want.Ring.Duration || l.Ring.Interval != want.Ring.Interval || l.Ring.Packets != want.Ring.Packets || l.Ring.Files != want.Ring.Files {
		t.Errorf("got  %+v\nwant %+v", l, want)
	}
	if l, _ := ParseLimits([]string{"filesize:2"}, nil); l.Ring.StopSize != 2000 || l.Ring.ring() {
		t.Errorf("-a filesize:2: %+v", l)
	}
	for _, tc := range []struct {
		a, b []string
		err  string
	}{
		{[]string{"duration:x"}, nil, `-a "duration:x": "x" is not a positive number of seconds`},
		{[]string{"packets:1.5"}, nil, `-a "packets:1.5": "1.5" is not a positive whole number`},
		{[]string{"packets:0"}, nil, `"0" is not a positive whole number`},
		{[]string{"bytes:1"}, nil, `-a "bytes:1": choose duration:S, filesize:KB, packets:N or files:N`},
		{nil, []string{"duration:0.5"}, `-b "duration:0.5": "0.5" is not a positive whole number`},
		{nil, []string{"size:10"}, `-b "size:10": choose filesize:KB`},
	} {
		if _, err := ParseLimits(tc.a, tc.b); err == nil || !strings.HasPrefix(err.Error(), tc.err) && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v %v: %v, want %q", tc.a, tc.b, err, tc.err)
		}
	}
}

// counting is a source of endless packets that counts what it gave. As a
// live capture may, it still gives packets once stopped.
type counting struct {
	capture.Source
	given   int
	stopped bool
}

func (c *counting) Next() (capture.Packet, error) {
	c.given++
	return capture.Packet{Data: make([]byte, 60), Info: gopacket.CaptureInfo{CaptureLength: 60, Length: 60, Timestamp: time.Unix(int64(c.given), 0)}, LinkType: layers.LinkTypeEthernet}, nil
}

func (c *counting) Stop() { c.stopped = true }

func drain(t *testing.T, src capture.Source) int {
	t.Helper()
	for n := 0; n < 1000; n++ {
		if _, err := src.Next(); err == io.EOF {
			return n
		}
	}
	t.Fatal("the source did not end")
	return 0
}

// TestSource: -a packets:N ends the input after N packets and stops the
// source beneath; a Writer that meets -a filesize: ends it at once; with
// neither the source is left alone.
func TestSource(t *testing.T) {
	src := &counting{}
	l := Limits{Packets: 5}
	if n := drain(t, l.Source(src)); n != 5 || !src.stopped {
		t.Errorf("-a packets:5: %d packets, stopped %v", n, src.stopped)
	}

	src = &counting{}
	l = Limits{Ring: Options{StopSize: 1000}}
	w, err := Open(filepath.Join(t.TempDir(), "x.pcapng"), l.Writing(src))
	if err != nil {
		t.Fatal(err)
	}
	in := l.Source(src)
	n := 0
	for ; n < 1000; n++ {
		p, err := in.Next()
		if err == io.EOF {
			break
		}
		w.WritePacket(p.Data, p.Info, p.LinkType)
	}
	w.Close()
	if n == 0 || n >= 1000 || !src.stopped {
		t.Errorf("-a filesize:1: ended after %d packets, stopped %v", n, src.stopped)
	}

	src = &counting{}
	if (&Limits{}).Source(src) != capture.Source(src) {
		t.Error("without a limit the source is wrapped")
	}
}

// TestCheck: the combinations tshark refuses, with -i (live) and -w
// (write) or without.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		a, b        []string
		live, write bool
		err         string
	}{
		{nil, nil, false, false, ""},
		{[]string{"packets:3"}, nil, false, false, ""},
		{[]string{"duration:1"}, nil, true, false, ""},
		{[]string{"duration:1"}, nil, false, false, "-a duration: is for live captures"},
		{nil, []string{"filesize:10"}, false, true, "-b writes a ring of files from a live capture"},
		{nil, []string{"filesize:10"}, true, false, "it needs -i and -w"},
		{nil, []string{"files:3"}, true, false, "it needs -i and -w"},
		{nil, []string{"files:3"}, true, true, "say when a file ends"},
		{nil, []string{"filesize:10", "files:3"}, true, true, ""},
		{[]string{"filesize:10"}, nil, false, false, "it needs -w"},
		{[]string{"filesize:10"}, nil, false, true, ""},
		{[]string{"filesize:10"}, []string{"filesize:10"}, true, true, "-a files:N"},
		{[]string{"files:2"}, nil, true, true, "-a files:N stops after N files of -b"},
		{[]string{"files:2"}, []string{"packets:5"}, true, true, ""},
	} {
		l, err := ParseLimits(tc.a, tc.b)
		if err != nil {
			t.Fatal(err)
		}
		err = l.Check(tc.live, tc.write)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("-a %v -b %v, live %v, write %v: %v, want %q", tc.a, tc.b, tc.live, tc.write, err, tc.err)
		}
	}
}

// stopped is a source that says when it is stopped.
type stopped struct {
	capture.Source
	done chan struct{}
}

func (s stopped) Stop() { close(s.done) }

// TestTimer: -a duration: stops the source once the time has passed;
// without it, the timer does nothing.
func TestTimer(t *testing.T) {
	src := stopped{done: make(chan struct{})}
	defer Limits{Duration: time.Millisecond}.Timer(src)()
	select {
	case <-src.done:
	case <-time.After(time.Minute):
		t.Fatal("the source was not stopped")
	}
	Limits{}.Timer(stopped{})() // no duration: nothing to stop
}

package ringbuf

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/capture"
)

// Limits are dumpcap's -a stop conditions and -b ring of files, as tshark
// and dumpcap take them: sizes in kB of 1000 bytes, durations in seconds.
type Limits struct {
	Duration time.Duration // -a duration:S (live)
	Packets  int           // -a packets:N: packets read or captured
	Ring     Options       // -b, and -a filesize:KB, -a files:N
	stopped  *atomic.Bool  // a Writer of Writing met its stop condition
}

// number reads the NUM of "key:NUM" for flag, positive; frac allows a
// fraction (seconds).
func number(flag, spec, v string, frac bool) (float64, error) {
	n, err := strconv.ParseFloat(v, 64)
	if err != nil || n <= 0 || !frac && n != float64(int64(n)) || n > 1<<40 {
		what := "a positive whole number"
		if frac {
			what = "a positive number of seconds"
		}
		return 0, fmt.Errorf("%s %q: %q is not %s", flag, spec, v, what)
	}
	return n, nil
}

// ParseLimits reads -a's and -b's specs.
func ParseLimits(autostop, ring []string) (Limits, error) {
	var l Limits
	for _, spec := range autostop {
		k, v, _ := strings.Cut(spec, ":")
		n, err := number("-a", spec, v, k == "duration")
		if err != nil && (k == "duration" || k == "filesize" || k == "packets" || k == "files") {
			return l, err
		}
		switch k {
		case "duration":
			l.Duration = time.Duration(n * float64(time.Second))
		case "filesize":
			l.Ring.StopSize = int64(n) * 1000
		case "packets":
			l.Packets = int(n)
		case "files":
			l.Ring.StopFiles = int(n)
		default:
			return l, fmt.Errorf("-a %q: choose duration:S, filesize:KB, packets:N or files:N", spec)
		}
	}
	for _, spec := range ring {
		k, v, _ := strings.Cut(spec, ":")
		n, err := number("-b", spec, v, false)
		if err != nil && (k == "duration" || k == "filesize" || k == "packets" || k == "files" || k == "interval") {
			return l, err
		}
		switch k {
		case "filesize":
			l.Ring.FileSize = int64(n) * 1000
		case "duration":
			l.Ring.Duration = time.Duration(n) * time.Second
		case "interval":
			l.Ring.Interval = time.Duration(n) * time.Second
		case "packets":
			l.Ring.Packets = int64(n)
		case "files":
			l.Ring.Files = int(n)
		default:
			return l, fmt.Errorf("-b %q: choose filesize:KB, duration:S, interval:S, packets:N or files:N", spec)
		}
	}
	return l, nil
}

// Check says in one line what is wrong with the limits of a run that
// captures live or not (-i) and writes files or not (-w), as tshark
// refuses it.
func (l Limits) Check(live, write bool) error {
	r := l.Ring
	rotates := r.ring()
	switch {
	case l.Duration > 0 && !live:
		return errors.New("-a duration: is for live captures (-i)")
	case (rotates || r.Files > 0) && (!live || !write):
		return errors.New("-b writes a ring of files from a live capture: it needs -i and -w (as tshark)")
	case r.Files > 0 && !rotates:
		return errors.New("-b files:N keeps the newest N files: say when a file ends with -b filesize:KB, duration:S, interval:S or packets:N")
	case r.StopSize > 0 && !write:
		return errors.New("-a filesize: stops when the -w file reaches the size: it needs -w")
	case r.StopSize > 0 && rotates:
		return errors.New("-a filesize: with -b: files end at -b filesize:KB; stop after a number of them with -a files:N")
	case r.StopFiles > 0 && !rotates:
		return errors.New("-a files:N stops after N files of -b")
	}
	return nil
}

// Timer stops src, a live capture, once -a duration: has passed; cancel
// stops the timer.
func (l Limits) Timer(src capture.Source) (cancel func()) {
	if l.Duration <= 0 {
		return func() {}
	}
	t := time.AfterFunc(l.Duration, src.Stop)
	return func() { t.Stop() }
}

// Writing is the options of a Writer of src's packets (the file read or
// the capture itself): when it meets a stop condition, src stops, and the
// source of Source ends.
func (l *Limits) Writing(src capture.Source) Options {
	o := l.Ring
	o.Snaplen = capture.MaxSnaplen
	if lt, ok := src.(interface{ LinkType() layers.LinkType }); ok {
		o.Link = lt.LinkType()
	}
	if l.stopped == nil {
		l.stopped = new(atomic.Bool)
	}
	stopped := l.stopped
	o.OnStop = func() {
		stopped.Store(true)
		src.Stop()
	}
	return o
}

// Source makes src end after l.Packets packets, or once the Writer of
// Writing met its stop condition: Next returns io.EOF, and src (a live
// capture) is stopped. Without either, it is src.
func (l *Limits) Source(src capture.Source) capture.Source {
	if l.Packets == 0 && l.stopped == nil {
		return src
	}
	s := &stopSource{Source: src, left: -1, stopped: l.stopped}
	if l.Packets > 0 {
		s.left = l.Packets
	}
	return s
}

// stopSource is Limits.Source.
type stopSource struct {
	capture.Source
	left    int // packets still to read; -1: no limit
	stopped *atomic.Bool
}

func (s *stopSource) Next() (capture.Packet, error) {
	if s.left == 0 || s.stopped != nil && s.stopped.Load() {
		s.Stop()
		return capture.Packet{}, io.EOF
	}
	p, err := s.Source.Next()
	if err == nil && s.left > 0 {
		s.left--
	}
	return p, err
}

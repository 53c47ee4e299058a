package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/capture"
	"github.com/mcdissect/mcdissect/capture/ringbuf"
)

// limits are -a's stop conditions and -b's ring of files, as tshark and
// dumpcap take them: sizes in kB of 1000 bytes, durations in seconds.
type limits struct {
	duration time.Duration   // -a duration:S (live)
	packets  int             // -a packets:N, and -c N with -w: packets read or captured
	ring     ringbuf.Options // -b, and -a filesize:KB, -a files:N
	stopped  *atomic.Bool    // the -w writer met its -a condition
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

// parseLimits reads -a and -b.
func parseLimits(autostop, ring []string) (limits, error) {
	var l limits
	for _, spec := range autostop {
		k, v, _ := strings.Cut(spec, ":")
		n, err := number("-a", spec, v, k == "duration")
		if err != nil && (k == "duration" || k == "filesize" || k == "packets" || k == "files") {
			return l, err
		}
		switch k {
		case "duration":
			l.duration = time.Duration(n * float64(time.Second))
		case "filesize":
			l.ring.StopSize = int64(n) * 1000
		case "packets":
			l.packets = int(n)
		case "files":
			l.ring.StopFiles = int(n)
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
			l.ring.FileSize = int64(n) * 1000
		case "duration":
			l.ring.Duration = time.Duration(n) * time.Second
		case "interval":
			l.ring.Interval = time.Duration(n) * time.Second
		case "packets":
			l.ring.Packets = int64(n)
		case "files":
			l.ring.Files = int(n)
		default:
			return l, fmt.Errorf("-b %q: choose filesize:KB, duration:S, interval:S, packets:N or files:N", spec)
		}
	}
	return l, nil
}

// checkLimits validates -a, -b and -c with -w, and resolves them.
func (c *config) checkLimits() error {
	l, err := parseLimits(c.autostop, c.ring)
	if err != nil {
		return err
	}
	r := l.ring
	rotates := r.FileSize > 0 || r.Duration > 0 || r.Interval > 0 || r.Packets > 0
	switch {
	case l.duration > 0 && c.iface == "":
		return errors.New("-a duration: is for live captures (-i)")
	case len(c.ring) > 0 && (c.iface == "" || c.write == ""):
		return errors.New("-b writes a ring of files from a live capture: it needs -i and -w (as tshark)")
	case len(c.ring) > 0 && !rotates:
		return errors.New("-b files:N keeps the newest N files: say when a file ends with -b filesize:KB, duration:S, interval:S or packets:N")
	case r.StopSize > 0 && c.write == "":
		return errors.New("-a filesize: stops when the -w file reaches the size: it needs -w")
	case r.StopSize > 0 && rotates:
		return errors.New("-a filesize: with -b: files end at -b filesize:KB; stop after a number of them with -a files:N")
	case r.StopFiles > 0 && !rotates:
		return errors.New("-a files:N stops after N files of -b")
	}
	if c.write != "" && c.count > 0 && (l.packets == 0 || c.count < l.packets) {
		// As tshark: with -w, -c counts packets (read or captured), not PDUs.
		l.packets = c.count
	}
	l.stopped = new(atomic.Bool)
	c.limits = l
	return nil
}

// ringOptions are the options of -w's writer of the packets of src (the
// file or the capture itself): when it meets a stop condition, src stops.
func (c *config) ringOptions(src analyze.Source) ringbuf.Options {
	o := c.limits.ring
	o.Snaplen = analyze.MaxSnaplen
	if l, ok := src.(interface{ LinkType() layers.LinkType }); ok {
		o.Link = l.LinkType()
	}
	stopped := c.limits.stopped
	o.OnStop = func() {
		stopped.Store(true)
		if s, ok := src.(analyze.Stopper); ok {
			s.Stop()
		}
	}
	return o
}

// pduCount is -c as a count of PDUs: without -w.
func (c *config) pduCount() int {
	if c.write != "" {
		return 0
	}
	return c.count
}

// stopSource ends the input after a number of packets (-a packets:N, -c N
// with -w), or once the -w writer met its -a condition: Next returns
// io.EOF, and a live capture is stopped.
type stopSource struct {
	analyze.Source
	left    int // packets still to read; -1: no limit
	stopped *atomic.Bool
}

func (s *stopSource) Next() (capture.Packet, error) {
	if s.left == 0 || s.stopped.Load() {
		s.Stop()
		return capture.Packet{}, io.EOF
	}
	p, err := s.Source.Next()
	if err == nil && s.left > 0 {
		s.left--
	}
	return p, err
}

func (s *stopSource) Stop() {
	if st, ok := s.Source.(analyze.Stopper); ok {
		st.Stop()
	}
}

// limitSource makes src end as -a packets:, -c with -w and the -w
// writer's stop conditions say.
func (c *config) limitSource(src analyze.Source) analyze.Source {
	if c.limits.packets == 0 && c.write == "" {
		return src
	}
	s := &stopSource{Source: src, left: -1, stopped: c.limits.stopped}
	if c.limits.packets > 0 {
		s.left = c.limits.packets
	}
	return s
}

package main

import (
	"errors"

	"github.com/mcdissect/mcdissect/capture/ringbuf"
)

// checkLimits validates -a, -b (ringbuf.ParseLimits) and -c with -w, and
// resolves them.
func (c *config) checkLimits() error {
	l, err := ringbuf.ParseLimits(c.autostop, c.ring)
	if err != nil {
		return err
	}
	r := l.Ring
	rotates := r.Rotates()
	switch {
	case l.Duration > 0 && c.iface == "":
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
	if c.write != "" && c.count > 0 && (l.Packets == 0 || c.count < l.Packets) {
		// As tshark: with -w, -c counts packets (read or captured), not PDUs.
		l.Packets = c.count
	}
	c.limits = l
	return nil
}

// pduCount is -c as a count of PDUs: without -w.
func (c *config) pduCount() int {
	if c.write != "" {
		return 0
	}
	return c.count
}

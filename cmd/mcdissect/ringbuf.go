package main

import "github.com/mcdissect/mcdissect/capture/ringbuf"

// checkLimits validates -a, -b (ringbuf.Limits) and -c with -w, and
// resolves them.
func (c *config) checkLimits() error {
	l, err := ringbuf.ParseLimits(c.autostop, c.ring)
	if err == nil {
		err = l.Check(c.iface != "", c.write != "")
	}
	if err != nil {
		return err
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

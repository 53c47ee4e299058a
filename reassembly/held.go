package reassembly

// Holder is an optional ConnHandler method, for a handler that must know
// how far back the units still to come for its connection may be reported
// (a caller that outputs in frame order holds later records back until
// then). Held is called whenever that frame changes, after the
// Reassembler worked on the connection (a segment fed, a sweep, its
// close), with the oldest frame among the bytes it holds undelivered: a
// partial PDU, data queued behind a hole, a retransmitted copy awaiting
// comparison, the frame that revealed bytes missing at the end of a
// direction (its bare segment or FIN past them; none is marked before the
// connection has a handler to tell), or, when bytes before a
// FIN are missing and no frame is so marked, the connection's last frame
// (the gap's). A unit made of them is reported at that frame
// or a later one. 0 means it holds nothing: every unit still to come is
// reported at a frame not yet fed.
type Holder interface {
	Held(frame uint64)
}

// heldFrom is the oldest frame among the bytes h holds undelivered, or 0.
func (h *half) heldFrom(c *conn) uint64 {
	var f uint64
	take := func(x uint64) {
		if x != 0 && (f == 0 || x < f) {
			f = x
		}
	}
	if !h.done {
		// The queued bytes start at fed, where the partial PDU's end.
		i := len(h.segs) - 1
		for ; i >= h.sh && h.segs[i].off >= h.fed; i-- {
			take(h.segs[i].frame)
		}
		if len(h.pend) > 0 && i >= h.sh {
			// A partial PDU is reported, if it ever is as undissected
			// bytes, whole, or what is left of it once PDUs were framed
			// off its front: at the newest frame of its parts, never
			// before that of its last range. Resynchronising, though,
			// it may be skipped piecemeal: any of its ranges.
			take(h.segs[i].frame)
			for i--; h.afterGap && i >= h.sh && h.segs[i].end > h.pendOff; i-- {
				take(h.segs[i].frame)
			}
		}
		take(h.tailFrame)
		if h.fin > h.fed {
			take(c.lastFrame)
		}
	}
	for i := range h.cmps {
		take(h.cmps[i].frame)
	}
	return f
}

// reportHeld tells c's handler, if it is a Holder, of a change in the
// oldest frame c holds.
func (r *Reassembler) reportHeld(c *conn) {
	if c == nil || c.h == nil {
		return
	}
	hd, ok := c.h.(Holder)
	if !ok {
		return
	}
	f := c.half[0].heldFrom(c)
	if g := c.half[1].heldFrom(c); g != 0 && (f == 0 || g < f) {
		f = g
	}
	if f != c.heldRep {
		c.heldRep = f
		hd.Held(f)
	}
}

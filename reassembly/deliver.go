package reassembly

import "time"

// onData receives bytes gopacket hands back for the current direction, in
// order. They start at fed, or further on when gopacket gave up a hole.
func (r *Reassembler) onData(data []byte) {
	c, d := r.cur, r.curDir
	if c == nil {
		return
	}
	h := &c.half[d]
	h.gpStarted = true
	// Every byte gopacket holds, including the segment being fed, is in
	// h.segs from fed on, so the chunk starts at the first such range; if
	// that is past fed, gopacket gave up the bytes in between.
	start := h.fed
	if i := h.firstQueued(); i < len(h.segs) {
		start = h.segs[i].off
		if start > h.fed {
			r.gap(c, h, start-h.fed, h.segs[i].frame, h.segs[i].ts)
		}
	} else {
		r.internalErrors++
	}
	h.fed = start + int64(len(data))
	h.gpNext = h.fed
	h.hist.add(start, data, r.lim.HistoryBytes, r.growHistory)
	if len(h.cmps) > 0 {
		r.checkPending(c, h)
	}
	r.consume(c, h, data, start)
}

// gap reports n missing bytes at fed: a partial PDU before them can never be
// completed, and the framer must resynchronise after them.
func (r *Reassembler) gap(c *conn, h *half, n int64, frame uint64, ts time.Time) {
	if len(h.pend) > 0 {
		r.emit(c, h, KindUndissected, h.pend, h.pendOff, ReasonNotCaptured)
		r.clearPend(c, h)
	}
	if h.skipLeft > 0 {
		if h.skipLeft > n {
			h.skipLeft -= n
		} else {
			h.skipLeft = 0
		}
	}
	h.afterGap = true
	h.resync = ReasonFramingLost
	r.stats.GapBytes += uint64(n)
	u := &r.unit
	*u = Unit{Conn: &c.info, Dir: h.dir, Kind: KindGap, Length: int(n), StreamOffset: h.fed, Reason: ReasonNotCaptured}
	switch {
	case r.inFeed:
		u.Frame, u.Time = r.curFrame, r.curTime
	case frame != 0 || !ts.IsZero():
		u.Frame, u.Time = frame, ts
	default:
		u.Frame, u.Time = c.lastFrame, c.lastTs
	}
	if c.h != nil {
		c.h.Deliver(u)
	}
}

// emit delivers stream bytes [off, off+len(b)) as one unit, attributing them
// to frames from h.segs.
func (r *Reassembler) emit(c *conn, h *half, k Kind, b []byte, off int64, reason string) {
	if len(b) == 0 {
		return
	}
	end := off + int64(len(b))
	h.dropSegsBefore(off)
	parts := r.parts[:0]
	var maxFrame uint64
	var maxTime time.Time
	for i := h.sh; i < len(h.segs) && h.segs[i].off < end; i++ {
		s := &h.segs[i]
		lo, hi := max(s.off, off), min(s.end, end)
		if hi <= lo {
			continue
		}
		if n := len(parts); n > 0 && parts[n-1].Frame == s.frame {
			parts[n-1].Bytes += int(hi - lo)
		} else {
			parts = append(parts, Part{Frame: s.frame, Bytes: int(hi - lo)})
		}
		if s.frame >= maxFrame {
			maxFrame, maxTime = s.frame, s.ts
		}
	}
	r.parts = parts
	switch k {
	case KindPDU:
		r.stats.PDUs++
		r.stats.PDUBytes += uint64(len(b))
	case KindUndissected:
		r.stats.Undissected += uint64(len(b))
	}
	if c.h == nil {
		return
	}
	u := &r.unit
	*u = Unit{Conn: &c.info, Dir: h.dir, Kind: k, Data: b, Length: len(b), StreamOffset: off, Parts: parts, Reason: reason}
	if r.inFeed {
		u.Frame, u.Time = r.curFrame, r.curTime
	} else {
		u.Frame, u.Time = maxFrame, maxTime
	}
	c.h.Deliver(u)
}

// conflict reports that a retransmitted copy p of the bytes at off differs
// from the copy used, between the offsets first and last.
func (r *Reassembler) conflict(c *conn, h *half, off int64, p []byte, first, last int64, frame uint64, ts time.Time) {
	r.stats.Conflicts++
	if c.h == nil {
		return
	}
	b := p[first-off : last-off+1]
	r.parts = append(r.parts[:0], Part{Frame: frame, Bytes: len(b)})
	u := &r.unit
	*u = Unit{Conn: &c.info, Dir: h.dir, Kind: KindConflict, Data: b, Length: len(b), StreamOffset: first,
		Parts: r.parts, Frame: frame, Time: ts, Reason: ReasonConflict}
	c.h.Deliver(u)
}

// compareUsed checks a retransmitted copy of bytes below fed against the
// history.
func (r *Reassembler) compareUsed(c *conn, h *half, off int64, p []byte) {
	r.stats.Retransmitted += uint64(len(p))
	n, first, last := h.hist.diff(off, p)
	r.stats.Unverified += uint64(len(p) - n)
	if first >= 0 {
		r.conflict(c, h, off, p, first, last, r.curFrame, r.curTime)
	}
}

// stashCompare keeps a retransmitted copy of bytes gopacket still queues, to
// compare when gopacket hands the first copy back. This is the rare path
// (a retransmission overlapping out-of-order data), so it may allocate.
func (r *Reassembler) stashCompare(h *half, off int64, p []byte) {
	r.stats.Retransmitted += uint64(len(p))
	if h.cmpN+len(p) > r.lim.HistoryBytes {
		r.stats.Unverified += uint64(len(p))
		return
	}
	h.cmps = append(h.cmps, pendingCompare{off: off, b: append([]byte(nil), p...), frame: r.curFrame, ts: r.curTime})
	h.cmpN += len(p)
}

// checkPending compares stashed copies with bytes just handed back.
func (r *Reassembler) checkPending(c *conn, h *half) {
	keep := h.cmps[:0]
	for _, p := range h.cmps {
		if p.off >= h.fed {
			keep = append(keep, p)
			continue
		}
		n, first, last := h.hist.diff(p.off, p.b)
		r.stats.Unverified += uint64(len(p.b) - n)
		if first >= 0 {
			r.conflict(c, h, p.off, p.b, first, last, p.frame, p.ts)
		}
		h.cmpN -= len(p.b)
	}
	clear(h.cmps[len(keep):])
	h.cmps = keep
}

// growHistory accounts for a history ring growing from old to new bytes.
func (r *Reassembler) growHistory(old, new int) bool {
	if r.stats.Buffered-old+new > r.lim.MaxBufferedTotal {
		return false
	}
	r.account(new - old)
	return true
}

func (r *Reassembler) account(n int) {
	r.stats.Buffered += n
	if r.stats.Buffered > r.stats.PeakBuffered {
		r.stats.PeakBuffered = r.stats.Buffered
	}
}

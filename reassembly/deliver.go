package reassembly

import "time"

// use hands the framer data, the stream bytes at off that were just added
// below fed, after keeping them for retransmission checks.
func (r *Reassembler) use(c *conn, h *half, data []byte, off int64) {
	// Ranges below fed are only needed for the bytes of a partial PDU;
	// forgetting the others here, once per segment, lets emit find a PDU's
	// frame in the last range without trimming each time.
	if len(h.pend) > 0 {
		h.dropSegsBefore(h.pendOff)
	} else {
		h.dropSegsBefore(off)
	}
	h.hist.add(off, data, r.lim.HistoryBytes, &r.rings, r.growHistory)
	if len(h.cmps) > 0 {
		r.checkPending(c, h)
	}
	r.consume(c, h, data, off)
}

// gap reports n missing bytes at fed: a partial PDU before them can never be
// completed, and the framer must resynchronise after them.
func (r *Reassembler) gap(c *conn, h *half, n int64) {
	if len(h.pend) > 0 {
		r.emitCut(c, h, ReasonNotCaptured)
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
	if h.tailFrame != 0 && h.fed+n >= h.tailOff {
		h.tailFrame = 0
	}
	frame, ts := r.at(c)
	if c.h != nil {
		c.h.Deliver(r.setUnit(c, h.dir, KindGap, nil, int(n), h.fed, nil, frame, ts, ReasonNotCaptured))
	}
}

// emit delivers stream bytes [off, off+len(b)) as one unit, attributing them
// to frames from h.segs, at the frame that decides it (at).
func (r *Reassembler) emit(c *conn, h *half, k Kind, b []byte, off int64, reason string) {
	if len(b) == 0 {
		return
	}
	end := off + int64(len(b))
	parts := r.parts[:0]
	if l := len(h.segs) - 1; l >= h.sh && h.segs[l].off <= off && end <= h.segs[l].end {
		// The usual case, a unit within one range, the last one (in order,
		// the segment just used), found without the loop.
		parts = append(parts, Part{Frame: h.segs[l].frame, Bytes: len(b)})
	} else {
		h.dropSegsBefore(off)
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
	frame, ts := r.at(c)
	u := r.setUnit(c, h.dir, k, b, len(b), off, parts, frame, ts, reason)
	c.h.Deliver(u)
}

// emitOne is emit for a PDU that lies within one range of segs, from frame
// from, to be reported at frame and ts: the per-PDU path of a segment
// carrying many small PDUs, kept lean.
func (r *Reassembler) emitOne(c *conn, h *half, b []byte, off int64, from, frame uint64, ts time.Time) {
	r.stats.PDUs++
	r.stats.PDUBytes += uint64(len(b))
	if c.h == nil {
		return
	}
	r.parts = append(r.parts[:0], Part{Frame: from, Bytes: len(b)})
	c.h.Deliver(r.setUnit(c, h.dir, KindPDU, b, len(b), off, r.parts, frame, ts, ""))
}

// at is the frame, and its time, that decides a unit of c made now: the
// frame being fed (the segment that completes a PDU, shows a gap, ends the
// stream, or acknowledges bytes the capture lost), or, for units made by a
// sweep, an eviction or the end of the input, c's own last frame
// (ConnInfo.Frame).
func (r *Reassembler) at(c *conn) (uint64, time.Time) { return c.info.Frame, c.info.Time }

// setUnit fills the reused Unit, every field, one by one: a composite
// literal is built on the stack and copied over with wide loads that
// straddle its narrow stores, a store-forwarding stall that cost a third of
// the per-PDU time in BenchmarkReassembler.
func (r *Reassembler) setUnit(c *conn, d Dir, k Kind, b []byte, n int, off int64, parts []Part, frame uint64, ts time.Time, reason string) *Unit {
	u := &r.unit
	u.Conn = &c.info
	u.Dir = d
	u.Kind = k
	u.Data = b
	u.Length = n
	u.StreamOffset = off
	u.Parts = parts
	u.Frame = frame
	u.Time = ts
	u.Reason = reason
	u.Need = r.need
	return u
}

// emitCut delivers the PDU buffer, a PDU that will never be completed, as
// undissected bytes with the length the framer asked for (Unit.Need), and
// empties it.
func (r *Reassembler) emitCut(c *conn, h *half, reason string) {
	if h.need > len(h.pend) && !h.afterGap {
		r.need = h.need
	}
	r.emit(c, h, KindUndissected, h.pend, h.pendOff, reason)
	r.need = 0
	r.clearPend(c, h)
}

// conflict reports that a retransmitted copy p of the bytes at off, from
// frame, differs from the copy used, between the offsets first and last.
func (r *Reassembler) conflict(c *conn, h *half, off int64, p []byte, first, last int64, frame uint64) {
	r.stats.Conflicts++
	if c.h == nil {
		return
	}
	b := p[first-off : last-off+1]
	r.parts = append(r.parts[:0], Part{Frame: frame, Bytes: len(b)})
	at, ts := r.at(c)
	c.h.Deliver(r.setUnit(c, h.dir, KindConflict, b, len(b), first, r.parts, at, ts, ReasonConflict))
}

// compareUsed checks a retransmitted copy of bytes below fed against the
// history.
func (r *Reassembler) compareUsed(c *conn, h *half, off int64, p []byte) {
	r.stats.Retransmitted += uint64(len(p))
	n, first, last := h.hist.diff(off, p)
	r.stats.Unverified += uint64(len(p) - n)
	if first >= 0 {
		r.conflict(c, h, off, p, first, last, r.curFrame)
	}
}

// stashCompare keeps a retransmitted copy of bytes the store holds, to
// compare with the history once the first copy is delivered (checkPending):
// a difference is reported then, at the frame that delivers it. This is the
// rare path (a retransmission overlapping out-of-order data), so it may
// allocate.
func (r *Reassembler) stashCompare(h *half, off int64, p []byte) {
	r.stats.Retransmitted += uint64(len(p))
	if h.cmpN+len(p) > r.lim.HistoryBytes {
		r.stats.Unverified += uint64(len(p))
		return
	}
	h.cmps = append(h.cmps, pendingCompare{off: off, b: append([]byte(nil), p...), frame: r.curFrame})
	h.cmpN += len(p)
}

// checkPending compares stashed copies with bytes just delivered.
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
			r.conflict(c, h, p.off, p.b, first, last, p.frame)
		}
		h.cmpN -= len(p.b)
	}
	clear(h.cmps[len(keep):])
	h.cmps = keep
}

// growHistory accounts for a history ring growing from old to new bytes.
func (r *Reassembler) growHistory(old, new int) bool {
	return r.account(new - old)
}

// account charges n bytes of partial-PDU buffers and histories (n < 0
// credits them), and reports false, charging nothing, when the account
// refuses.
func (r *Reassembler) account(n int) bool {
	if n > 0 && !r.chargeBuffer(r.bufAcct, int64(n)) {
		return false
	}
	if n < 0 {
		r.bufAcct.Credit(int64(-n))
	}
	r.stats.Buffered += n
	if r.stats.Buffered > r.stats.PeakBuffered {
		r.stats.PeakBuffered = r.stats.Buffered
	}
	return true
}

// peerAcked records ack, the acknowledgement number of a segment the peer
// of direction d sent, and gives up the holes of d it covers.
func (r *Reassembler) peerAcked(c *conn, d Dir, ack uint32) {
	h := &c.half[d]
	if !h.started {
		return
	}
	if !h.hasPeerAck || int32(ack-h.peerAck) > 0 {
		h.peerAck, h.hasPeerAck = ack, true
	}
	r.ackedHoles(c, d)
	r.ackedTail(c, h)
}

// noteTail marks, at the frame being fed, a tail hole of h: bytes missing
// at fed that nothing queued follows, which a segment of h without data or
// h's FIN lies past. It does not decide that they are lost: the data may
// still come (the mark goes when fed reaches it); the gap is given up at a
// FIN, the close, the peer's ACK of the bytes before a FIN (ackedTail), or
// GapTimeout after the mark (sweep).
func (r *Reassembler) noteTail(h *half) {
	if h.tailFrame != 0 || h.tailStale {
		if h.fed < h.tailOff {
			return
		}
		h.tailFrame, h.tailStale = 0, false
	}
	if h.done || !h.started {
		return
	}
	// Only a frame of the direction itself reveals its tail hole: its
	// FIN, or a bare segment whose sequence number lies past the bytes
	// seen. The peer's ACK tells as much, but a gap reported at the
	// peer's frame would carry that frame's layers (its ports, its seq)
	// under the gap's own direction.
	to := max(h.fin, h.seqSeen)
	if to <= h.fed || len(h.q) > 0 {
		return
	}
	h.tailFrame, h.tailTs, h.tailOff = r.curFrame, r.curTime, to
}

// ackedHoles gives up, as gaps, the holes of direction d that its peer
// has acknowledged: the peer received those bytes, so they will not be
// retransmitted, and only the capture lost them (Wireshark's "ACKed unseen
// segment"). Waiting GapTimeout for them would deliver the bytes after the
// hole long after the frames that carried them. A hole is given up only
// when the acknowledgement covers all of it, up to the bytes queued after
// it.
func (r *Reassembler) ackedHoles(c *conn, d Dir) {
	h := &c.half[d]
	if h.done || len(h.q) == 0 {
		return // nothing waits for a hole: the usual case, checked first
	}
	acked := h.offsetOf(h.peerAck)
	for len(h.q) > 0 && h.q[0].off <= acked && h.fed < acked {
		r.release(c, h)
	}
}

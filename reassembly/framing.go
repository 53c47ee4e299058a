package reassembly

import (
	"math/bits"
	"time"
)

// The framing loop, like Wireshark's tcp_dissect_pdus: ask the handler how
// long the PDU at the front is, deliver whole PDUs straight from the
// packet's bytes, and copy only the tail of a PDU that continues in a later
// segment.

// consume frames data, the stream bytes at off, which follow whatever is in
// the PDU buffer.
func (r *Reassembler) consume(c *conn, h *half, data []byte, off int64) {
	if c.h == nil {
		h.dropSegsBefore(off + int64(len(data)))
		return
	}
	pos := 0
	for pos < len(data) {
		switch {
		case h.skipLeft > 0:
			n := len(data) - pos
			if int64(n) > h.skipLeft {
				n = int(h.skipLeft)
			}
			r.emit(c, h, KindUndissected, data[pos:pos+n], off+int64(pos), h.skipReason)
			pos += n
			h.skipLeft -= int64(n)
		case h.lost:
			r.emit(c, h, KindUndissected, data[pos:], off+int64(pos), h.lostReason)
			pos = len(data)
		case len(h.pend) > 0:
			pos = r.framePend(c, h, data, off, pos)
		default:
			pos = r.frameDirect(c, h, data, off, pos)
		}
	}
}

// frameDirect frames PDUs in place; when one is incomplete it moves the
// tail into the PDU buffer.
func (r *Reassembler) frameDirect(c *conn, h *half, data []byte, off int64, pos int) int {
	// When data lies within one range of segs (always on the in-order fast
	// path), each PDU found in it is that range's frame's alone, and is
	// decided at the same frame: emitOne, with those worked out once.
	one := false
	var from, frame uint64
	var ts time.Time
	if l := len(h.segs) - 1; l >= h.sh && h.segs[l].off <= off && off+int64(len(data)) <= h.segs[l].end {
		one = true
		from = h.segs[l].frame
		frame, ts = r.at(c)
	}
	for pos < len(data) && !h.lost && h.skipLeft == 0 {
		rest := data[pos:]
		res := r.frame(c, h, rest)
		switch res.Status {
		case FrameOK:
			if one {
				r.emitOne(c, h, rest[:res.Len], off+int64(pos), from, frame, ts)
			} else {
				r.emit(c, h, KindPDU, rest[:res.Len], off+int64(pos), "")
			}
			if h.afterGap { // set and cleared with resync
				h.afterGap, h.resync = false, ""
			}
			pos += res.Len
		case FrameNeedMore:
			if res.Len > r.lim.MaxBufferedPerConn || !r.growPend(c, h, len(rest), res.Len) {
				r.bufferLimit(c, h)
				return pos
			}
			h.pend = append(h.pend, rest...)
			h.pendOff = off + int64(pos)
			h.need = res.Len
			return len(data)
		case FrameSkip:
			r.skip(c, h, rest, off+int64(pos), res.Len)
			pos += min(res.Len, len(rest))
		default:
			r.lose(h, h.resyncReason())
		}
	}
	return pos
}

// framePend completes the PDU in the buffer with bytes from data[pos:]. It
// appends only what the framer asked for (or a growing step when it does not
// know), and goes back to framing in place as soon as the buffer holds no
// byte from an earlier chunk.
func (r *Reassembler) framePend(c *conn, h *half, data []byte, off int64, pos int) int {
	appended := 0 // trailing bytes of h.pend that came from data
	for {
		if pos == len(data) {
			return pos
		}
		take := len(data) - pos
		if h.need > len(h.pend) {
			take = min(take, h.need-len(h.pend))
		} else {
			take = min(take, max(64, len(h.pend)))
		}
		if !r.growPend(c, h, len(h.pend)+take, h.need) {
			r.bufferLimit(c, h)
			return pos
		}
		h.pend = append(h.pend, data[pos:pos+take]...)
		pos += take
		appended += take
		for {
			res := r.frame(c, h, h.pend)
			var used int
			switch res.Status {
			case FrameOK:
				r.emit(c, h, KindPDU, h.pend[:res.Len], h.pendOff, "")
				h.afterGap, h.resync = false, ""
				used = res.Len
			case FrameNeedMore:
				h.need = res.Len
				if h.need > r.lim.MaxBufferedPerConn {
					r.bufferLimit(c, h)
					return pos
				}
			case FrameSkip:
				r.skip(c, h, h.pend, h.pendOff, res.Len)
				used = min(res.Len, len(h.pend))
			default:
				r.lose(h, h.resyncReason())
				r.emit(c, h, KindUndissected, h.pend, h.pendOff, h.lostReason)
				r.clearPend(c, h)
				return pos
			}
			if res.Status == FrameNeedMore {
				break
			}
			rest := len(h.pend) - used
			if rest <= appended {
				// What is left is all in data: frame it there.
				r.clearPend(c, h)
				return pos - rest
			}
			copy(h.pend, h.pend[used:])
			h.pend = h.pend[:rest]
			h.pendOff += int64(used)
			h.need = 0
		}
	}
}

// frame asks the handler and turns answers that make no sense into
// FrameLost, so a buggy framer cannot stall the loop or index out of range.
func (r *Reassembler) frame(c *conn, h *half, buf []byte) FrameResult {
	res := c.h.Frame(h.dir, buf, h.afterGap)
	if r.reframe {
		r.reframe = false
		r.reframeOther(c, h)
	}
	if res.Status == FrameOK && res.Len > 0 && res.Len <= len(buf) {
		return res // the common answer, checked first
	}
	return checkFrame(res, len(buf))
}

// checkFrame is the rest of frame's checks, for a buffer of n bytes.
func checkFrame(res FrameResult, n int) FrameResult {
	switch res.Status {
	case FrameNeedMore:
		if res.Len <= n {
			res.Len = 0
		}
		return res
	case FrameSkip:
		if res.Len > 0 {
			return res
		}
	}
	return Lost()
}

// skip reports up to n bytes of b (stream offset off) as undissected and
// remembers how many more to skip.
func (r *Reassembler) skip(c *conn, h *half, b []byte, off int64, n int) {
	m := min(n, len(b))
	h.skipReason = h.resyncReason()
	r.emit(c, h, KindUndissected, b[:m], off, h.skipReason)
	h.skipLeft = int64(n - m)
}

// lose gives up framing for the rest of the direction.
func (r *Reassembler) lose(h *half, reason string) {
	h.lost = true
	h.lostReason = reason
}

// bufferLimit reports the buffered part of a PDU that would exceed the
// limits and gives up framing; consume reports the rest.
func (r *Reassembler) bufferLimit(c *conn, h *half) {
	r.stats.BufferLimitHits++
	h.lost = true
	h.lostReason = ReasonBufferLimit
	if len(h.pend) > 0 {
		r.emit(c, h, KindUndissected, h.pend, h.pendOff, ReasonBufferLimit)
		r.clearPend(c, h)
	}
}

// growPend makes room for n bytes in the PDU buffer, within the limits.
// need, when larger, is the size the framer announced: the buffer is sized
// for it at once so a long PDU is not copied again and again.
func (r *Reassembler) growPend(c *conn, h *half, n, need int) bool {
	if n <= cap(h.pend) {
		return true
	}
	nc := max(n, 2*cap(h.pend))
	if need >= n {
		nc = need
	}
	fits := func(nc int) bool {
		return c.pendCap+nc-cap(h.pend) <= r.lim.MaxBufferedPerConn && r.account(nc-cap(h.pend))
	}
	// Buffers of a power of two bytes come from and go back to the ring
	// pool: a busy capture's short connections each need one. Near a
	// limit, the most the direction and the budget take, halving the
	// distance to n until a size fits, so that the buffer grows in a few
	// steps (growing by exactly n, segment after segment, copied the
	// buffer each time).
	if p := 1 << bits.Len(uint(nc-1)); fits(p) {
		nc = p
	} else {
		try := min(nc, cap(h.pend)+r.lim.MaxBufferedPerConn-c.pendCap)
		for try > n && !fits(try) {
			try = n + (try-n)/2
		}
		if try < n || try == n && !fits(n) {
			return false
		}
		nc = try
	}
	nb := r.rings.get(nc)[:len(h.pend)]
	copy(nb, h.pend)
	c.pendCap += nc - cap(h.pend)
	r.putPend(h.pend)
	h.pend = nb
	return true
}

// pendKeep is the largest PDU buffer kept for reuse once empty; a direction
// that once reassembled a huge PDU should not hold on to it.
const pendKeep = 64 << 10

func (r *Reassembler) clearPend(c *conn, h *half) {
	h.pend = h.pend[:0]
	h.need = 0
	if cap(h.pend) > pendKeep {
		r.freePend(c, h)
	}
}

func (r *Reassembler) freePend(c *conn, h *half) {
	c.pendCap -= cap(h.pend)
	r.account(-cap(h.pend))
	r.putPend(h.pend)
	h.pend = nil
}

// putPend gives a PDU buffer that is done with to the ring pool, when it
// has a size the pool hands out for PDU buffers.
func (r *Reassembler) putPend(b []byte) {
	if n := cap(b); n > 0 && n&(n-1) == 0 {
		r.rings.put(b[:n])
	}
}

// Reframe, called by a handler during Frame, asks for the bytes the other
// direction of the same connection holds in its PDU buffer to be framed
// again at once, before the PDU the handler is answering about is
// delivered: the handler has learnt something (the connection's protocol,
// decided by this direction's bytes) that lets it frame bytes it had asked
// to wait for. Without it they would wait for the other direction's next
// segment and be reported after later frames.
func (r *Reassembler) Reframe() { r.reframe = true }

// reframeOther frames again the PDU buffer of the direction opposite h.
func (r *Reassembler) reframeOther(c *conn, h *half) {
	o := &c.half[1-h.dir]
	if len(o.pend) == 0 || o.lost || o.skipLeft > 0 {
		return
	}
	// consume appends what stays incomplete to the emptied buffer: a copy
	// within the same array, from a later position to the front.
	data, off := o.pend, o.pendOff
	o.pend, o.need = o.pend[:0], 0
	r.consume(c, o, data, off)
}

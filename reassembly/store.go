package reassembly

import (
	"math/bits"
	"sort"
	"time"
	"unsafe"
)

// The out-of-order store. Bytes that arrive ahead of fed wait in their
// direction's q, each range with a copy of its bytes (the caller reuses
// packet buffers), its frame and its time, until the hole before them
// fills (inOrder) or is given up (release): GapTimeout after the first
// range behind it arrived (sweep), when the peer acknowledged the missing
// bytes (ackedHoles), when the limits leave no room (hold), or at the
// close. Whatever the reason, the bytes then go to the framer in one
// chunk per run of contiguous ranges, as they would have had they come in
// order.

// qseg is a range of bytes held out of order.
type qseg struct {
	off   int64
	b     []byte // a buffer of the ring pool, cut to the range's length
	frame uint64 // the frame that carried the bytes (the first copy)
	ts    time.Time
}

func (s *qseg) end() int64 { return s.off + int64(len(s.b)) }

// qsegBytes is the cost of a held range's record.
const qsegBytes = int(unsafe.Sizeof(qseg{}))

// minQueueBuf is the smallest buffer a held range takes.
const minQueueBuf = 64

// queueBuf is the size of the buffer that holds n bytes: a power of two,
// so buffers go back to the ring pool and serve again.
func queueBuf(n int) int { return max(minQueueBuf, 1<<bits.Len(uint(n-1))) }

// joinKeep is the largest chunk buffer kept for the next run; a larger
// one (a long run released at once) is left to the collector.
const joinKeep = 64 << 10

// place hands on p, bytes never seen before at off >= fed: those at fed go
// to the framer, with whatever the store holds right after them (inOrder);
// those ahead of fed are held. With viaStore (tests), bytes at fed are held
// and released as well, so that every byte goes through the store.
func (r *Reassembler) place(c *conn, h *half, off int64, p []byte) {
	if off > h.fed || r.viaStore {
		if r.hold(c, h, off, p) {
			if off == h.fed {
				r.release(c, h)
			}
			return
		}
	}
	r.inOrder(c, h, off, p)
}

// hold stores p, new bytes at off, in h.q. It first makes room within the
// limits (MaxBufferedPerConn for the direction, MaxBufferedTotal for every
// direction of every connection) by giving up h's oldest holes, the one
// before p last. It returns false when that brought fed to off: p is then
// in order and is not held.
func (r *Reassembler) hold(c *conn, h *half, off int64, p []byte) bool {
	n := queueBuf(len(p))
	cost := n + qsegBytes
	for h.queued+cost > r.lim.MaxBufferedPerConn || !r.chargeBuffer(r.queueAcct, int64(cost)) {
		if len(h.q) == 0 || off < h.q[0].off {
			if off > h.fed {
				r.gap(c, h, off-h.fed)
				h.fed = off
			}
			return false
		}
		r.release(c, h)
		if off == h.fed {
			return false
		}
	}
	b := r.rings.get(n)[:len(p)]
	copy(b, p)
	// Ranges mostly arrive in offset order: look from the end.
	i := len(h.q)
	for i > 0 && h.q[i-1].off > off {
		i--
	}
	h.q = append(h.q, qseg{})
	copy(h.q[i+1:], h.q[i:])
	h.q[i] = qseg{off: off, b: b, frame: r.curFrame, ts: r.curTime}
	h.queued += cost
	r.stats.Queued += cost
	r.stats.PeakQueued = max(r.stats.PeakQueued, r.stats.Queued)
	return true
}

// firstHeldAfter is the index of the first range of h.q that ends after
// off.
func (h *half) firstHeldAfter(off int64) int {
	return sort.Search(len(h.q), func(i int) bool { return h.q[i].end() > off })
}

// inOrder hands the framer p, the bytes at fed, from the frame being fed.
// When they fill the hole before held bytes, those follow in the same
// chunk (copied together), up to the next hole.
func (r *Reassembler) inOrder(c *conn, h *half, off int64, p []byte) {
	end := off + int64(len(p))
	if h.segs == nil {
		h.segs = r.takeSegs()
	}
	// Every range in segs ends at or before fed: append keeps the order.
	h.segs = append(h.segs, seg{off: off, end: end, frame: r.curFrame})
	h.fed = end
	if len(h.q) == 0 || h.q[0].off != end {
		r.use(c, h, p, off)
		return
	}
	data := r.takeRun(h, append(r.join[:0], p...))
	r.use(c, h, data, off)
	r.keepJoin(data)
}

// release gives up the hole before h's first held range, if there is one,
// and hands the framer the run of contiguous ranges that starts there.
func (r *Reassembler) release(c *conn, h *half) {
	start := h.q[0].off
	if start > h.fed {
		r.gap(c, h, start-h.fed)
		h.fed = start
	}
	data := r.takeRun(h, r.join[:0])
	r.use(c, h, data, start)
	r.keepJoin(data)
}

// takeRun appends to chunk the bytes of the contiguous ranges at the front
// of h.q, which start at fed, and takes them out of the store: fed moves
// past them, their frames go to segs, their buffers back to the pool.
func (r *Reassembler) takeRun(h *half, chunk []byte) []byte {
	k := 0
	for ; k < len(h.q) && h.q[k].off == h.fed; k++ {
		s := &h.q[k]
		chunk = append(chunk, s.b...)
		end := s.end()
		h.segs = append(h.segs, seg{off: s.off, end: end, frame: s.frame})
		h.fed = end
		r.unhold(h, s)
	}
	n := copy(h.q, h.q[k:])
	clear(h.q[n:])
	h.q = h.q[:n]
	return chunk
}

// unhold gives a held range's buffer back and its cost with it.
func (r *Reassembler) unhold(h *half, s *qseg) {
	cost := cap(s.b) + qsegBytes
	h.queued -= cost
	r.stats.Queued -= cost
	r.queueAcct.Credit(int64(cost))
	r.rings.put(s.b[:cap(s.b)])
	s.b = nil
}

// keepJoin keeps the chunk buffer for the next run, unless it is large.
func (r *Reassembler) keepJoin(chunk []byte) {
	if cap(chunk) <= joinKeep {
		r.join = chunk[:0]
	} else {
		r.join = nil
	}
}

// drain gives up h's holes, and hands the framer the bytes behind them,
// while the first held range arrived before olderThan (any, when it is
// zero).
func (r *Reassembler) drain(c *conn, h *half, olderThan time.Time) {
	for len(h.q) > 0 && (olderThan.IsZero() || h.q[0].ts.Before(olderThan)) {
		r.release(c, h)
	}
}

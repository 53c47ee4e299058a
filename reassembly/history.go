package reassembly

import (
	"bytes"
	"math/bits"
)

// history keeps the last bytes of a direction that were handed to the
// framer, so a retransmission of them can be compared with what was used.
// It is a ring that grows by doubling up to the configured size, so short
// connections (a status ping) never pay for the full window.
type history struct {
	b        []byte // ring; offset o lives at b[o%len(b)]
	from, to int64  // offsets held: [from, to)
}

// add appends p at offset off; a jump (gap) restarts the history there.
// grow is asked for a bigger ring and may refuse (memory limit).
func (hs *history) add(off int64, p []byte, max int, pool *ringPool, grow func(old, new int) bool) {
	if max <= 0 || len(p) == 0 {
		return
	}
	if off != hs.to {
		hs.from, hs.to = off, off
	}
	if want := int(hs.to-hs.from) + len(p); want > len(hs.b) && len(hs.b) < max {
		n := len(hs.b) * 2
		if n < 256 {
			n = 256
		}
		for n < want && n < max {
			n *= 2
		}
		if n > max {
			n = max
		}
		if grow(len(hs.b), n) {
			nb := pool.get(n)
			for o := hs.from; o < hs.to; {
				a := hs.span(o, hs.to)
				put(nb, o, a)
				o += int64(len(a))
			}
			pool.put(hs.b)
			hs.b = nb
		}
	}
	if len(hs.b) == 0 {
		hs.from, hs.to = off+int64(len(p)), off+int64(len(p))
		return
	}
	if len(p) > len(hs.b) {
		off += int64(len(p) - len(hs.b))
		p = p[len(p)-len(hs.b):]
	}
	put(hs.b, off, p)
	hs.to = off + int64(len(p))
	if hs.to-hs.from > int64(len(hs.b)) {
		hs.from = hs.to - int64(len(hs.b))
	}
}

// put writes p at offset off of ring b, wrapping at its end. p is never
// longer than b, so one division and at most two copies do.
func put(b []byte, off int64, p []byte) {
	n := copy(b[off%int64(len(b)):], p)
	copy(b, p[n:])
}

// span returns the longest contiguous piece of the ring starting at o and
// ending at most at end; o must be held.
func (hs *history) span(o, end int64) []byte {
	i := int(o % int64(len(hs.b)))
	n := len(hs.b) - i
	if int64(n) > end-o {
		n = int(end - o)
	}
	return hs.b[i : i+n]
}

// diff compares p, a copy of the bytes at off, with the history. It returns
// the number of bytes it could compare and the offsets of the first and last
// differing bytes (first < 0 when none differ).
func (hs *history) diff(off int64, p []byte) (compared int, first, last int64) {
	first, last = -1, -1
	if len(hs.b) == 0 {
		return 0, first, last
	}
	lo, hi := off, off+int64(len(p))
	if lo < hs.from {
		lo = hs.from
	}
	if hi > hs.to {
		hi = hs.to
	}
	for o := lo; o < hi; {
		a := hs.span(o, hi)
		q := p[o-off : o-off+int64(len(a))]
		if !bytes.Equal(a, q) {
			for i := range a {
				if a[i] != q[i] {
					if first < 0 {
						first = o + int64(i)
					}
					last = o + int64(i)
				}
			}
		}
		o += int64(len(a))
		compared += len(a)
	}
	return compared, first, last
}

// release gives the ring back to pool; it returns the bytes freed.
func (hs *history) release(pool *ringPool) int {
	n := len(hs.b)
	pool.put(hs.b)
	hs.b = nil
	return n
}

// ringPoolBytes bounds the rings a ringPool keeps.
const ringPoolBytes = 1 << 20

// ringPool keeps the rings of ended connections for new ones. A busy
// capture opens thousands of short connections (a status ping each), and
// every one would otherwise allocate and zero its rings 256, 512, ... bytes
// at a time as they grow. Only held bytes of a ring are ever read, so a
// reused ring needs no clearing. The pool is not counted in Stats.Buffered
// (nothing is buffered in it) and is bounded by ringPoolBytes.
type ringPool struct {
	free  [65][][]byte // by bits.Len(len(ring))
	bytes int
}

// get returns a ring of exactly n bytes.
func (p *ringPool) get(n int) []byte {
	l := &p.free[bits.Len(uint(n))]
	for i := len(*l) - 1; i >= 0; i-- {
		if b := (*l)[i]; len(b) == n {
			last := len(*l) - 1
			(*l)[i] = (*l)[last]
			(*l)[last] = nil
			*l = (*l)[:last]
			p.bytes -= n
			return b
		}
	}
	return make([]byte, n)
}

// put keeps b for a later get, if the pool has room.
func (p *ringPool) put(b []byte) {
	if len(b) == 0 || p.bytes+len(b) > ringPoolBytes {
		return
	}
	l := &p.free[bits.Len(uint(len(b)))]
	*l = append(*l, b)
	p.bytes += len(b)
}

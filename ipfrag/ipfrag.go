// Package ipfrag reassembles fragmented IP datagrams, IPv4's and IPv6's
// alike, within bounds: the bytes it holds are the fragments' own (never
// a size the wire declares), their sum and the number of datagrams under
// reassembly are limited, and every datagram it gives up on — timed out,
// pushed out by the bounds, left at the end — is handed back to the
// caller to be reported, with the frames its fragments came in.
//
// It is pure: fragments, their frame numbers and packet times in;
// datagrams and given-up lists out. The caller owns I/O and reporting.
package ipfrag

import (
	"net/netip"
	"slices"
	"sort"
	"time"
)

// Key identifies a datagram under reassembly: its addresses, its
// identification (IPv4's 16 bits, IPv6's 32), its protocol (IPv4's; for
// IPv6 the fragment header's next header) and its IP version.
type Key struct {
	Src, Dst netip.Addr
	ID       uint32
	Proto    uint8
	V6       bool
}

// Part is one fragment's frame and the bytes of payload it carried.
type Part struct {
	Frame uint64
	Bytes int
}

// Reason says why a datagram was given up.
type Reason uint8

const (
	// Timeout: no fragment came for Limits.Timeout of packet time.
	Timeout Reason = iota + 1
	// Bounds: the bytes or datagrams held reached Limits; the datagram
	// least recently added to went first.
	Bounds
	// End: the input ended before the datagram completed.
	End
	// Malformed: a fragment went past the largest datagram IP allows,
	// or disagreed with the datagram's end.
	Malformed
)

func (r Reason) String() string {
	switch r {
	case Timeout:
		return "timed out"
	case Bounds:
		return "given up to stay within the memory bound"
	case End:
		return "the capture ended first"
	case Malformed:
		return "its fragments do not fit together"
	}
	return "given up"
}

// Charger is the memory budget's account the bytes held are charged to
// (budget.Account): Charge refuses what would pass the budget.
type Charger interface {
	Charge(n int64) bool
	Credit(n int64)
}

// Limits bound the reassembly. Zero values take the defaults.
type Limits struct {
	// Account is charged the bytes held, overhead included. When it
	// refuses, the datagram being added to is given up (Bounds). The
	// budget asks for room back through Shed. Nil: MaxBytes bounds them.
	Account Charger
	// MaxBytes bounds the payload bytes held over all datagrams when
	// there is no Account (default 16 MiB).
	MaxBytes int
	// MaxDatagrams bounds the datagrams under reassembly (default 4096).
	MaxDatagrams int
	// Timeout is how long, in packet time, a datagram waits for its next
	// fragment (default 30 s, Linux's ipfrag_time).
	Timeout time.Duration
}

// maxPayload is the largest payload a datagram can carry: IPv4's total
// length and IPv6's payload length are 16 bits.
const maxPayload = 65535

// overhead is what a datagram under reassembly costs beyond its bytes,
// counted against MaxBytes so that many tiny fragments are bounded too.
const overhead = 256

// GivenUp is a datagram that did not complete.
type GivenUp[T any] struct {
	Key    Key
	Parts  []Part
	Tag    T // the caller's value of its latest fragment
	Reason Reason
	Bytes  int // payload bytes that had arrived
}

// Result is what Add gives back when a datagram completes.
type Result struct {
	Payload []byte // the whole datagram's payload; the caller owns it
	Parts   []Part // the frames of its fragments, in arrival order
	// Overlap: fragments covered some bytes twice with different
	// contents; the first copy was kept.
	Overlap bool
}

type chunk struct {
	off  int
	data []byte
}

type dgram[T any] struct {
	key        Key
	chunks     []chunk // sorted by off, not overlapping
	have       int     // payload bytes held
	end        int     // the payload's length, -1 until the last fragment came
	parts      []Part
	tag        T
	last       time.Time
	overlap    bool
	charged    int       // bytes charged to the account
	prev, next *dgram[T] // by last activity, oldest first
}

// Defragmenter reassembles datagrams. T is the caller's value kept with
// each datagram's latest fragment (its frame's headers, for a report).
type Defragmenter[T any] struct {
	lim        Limits
	acct       Charger
	m          map[Key]*dgram[T]
	head, tail *dgram[T] // oldest, newest
	held       int       // bytes charged, with overhead
	adding     *dgram[T] // the datagram Add is adding to: Shed leaves it
	given      []GivenUp[T]
}

// ownLimit is the account of a Defragmenter without one: MaxBytes.
type ownLimit struct{ limit, used int64 }

func (o *ownLimit) Charge(n int64) bool {
	if o.used+n > o.limit {
		return false
	}
	o.used += n
	return true
}

func (o *ownLimit) Credit(n int64) { o.used -= n }

// New returns a Defragmenter bounded by lim.
func New[T any](lim Limits) *Defragmenter[T] {
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = 16 << 20
	}
	if lim.MaxDatagrams <= 0 {
		lim.MaxDatagrams = 4096
	}
	if lim.Timeout <= 0 {
		lim.Timeout = 30 * time.Second
	}
	d := &Defragmenter[T]{lim: lim, acct: lim.Account, m: map[Key]*dgram[T]{}}
	if d.acct == nil {
		d.acct = &ownLimit{limit: int64(lim.MaxBytes)}
	}
	return d
}

// Shed gives up the oldest datagrams (Bounds) until need bytes are
// credited back to the account, and returns how many were: the budget's
// way to ask for room. It leaves the datagram being added to.
func (d *Defragmenter[T]) Shed(need int64) int64 {
	var got int64
	for g := d.head; g != nil && got < need; {
		next := g.next
		if g != d.adding {
			got += int64(g.charged)
			d.drop(g, Bounds)
		}
		g = next
	}
	return got
}

// charge charges n bytes to g, giving up the oldest others when the
// account refuses: the budget's own shedding, for a Defragmenter without
// a shared one. It reports false when even that does not make room.
func (d *Defragmenter[T]) charge(g *dgram[T], n int) bool {
	for !d.acct.Charge(int64(n)) {
		if _, own := d.acct.(*ownLimit); !own || d.Shed(int64(n)) == 0 {
			return false
		}
	}
	g.charged += n
	d.held += n
	return true
}

// Held is the bytes held, overhead included.
func (d *Defragmenter[T]) Held() int { return d.held }

// Pending is the number of datagrams under reassembly.
func (d *Defragmenter[T]) Pending() int { return len(d.m) }

// Add adds a fragment: payload at byte offset off of the datagram k, the
// last one unless more. It copies payload. When the datagram is complete
// it returns it and forgets it (ok true). Datagrams given up on while
// adding (the bounds, a malformed fragment) are kept for GivenUp.
func (d *Defragmenter[T]) Add(k Key, off int, more bool, payload []byte, frame uint64, ts time.Time, tag T) (r Result, ok bool) {
	g := d.m[k]
	if g == nil {
		g = &dgram[T]{key: k, end: -1}
		d.m[k] = g
		d.pushBack(g)
	} else {
		d.moveBack(g)
	}
	d.adding = g
	defer func() { d.adding = nil }()
	g.parts = append(g.parts, Part{Frame: frame, Bytes: len(payload)})
	g.tag, g.last = tag, ts
	switch {
	case off < 0 || off+len(payload) > maxPayload,
		!more && g.end >= 0 && g.end != off+len(payload),
		!more && g.maxEnd() > off+len(payload),
		g.end >= 0 && off+len(payload) > g.end:
		d.drop(g, Malformed)
		return Result{}, false
	}
	if g.charged == 0 && !d.charge(g, overhead) {
		d.drop(g, Bounds)
		return Result{}, false
	}
	if !more {
		g.end = off + len(payload)
	}
	if n := g.insert(off, payload); !d.charge(g, n) {
		d.drop(g, Bounds)
		return Result{}, false
	}
	if g.end >= 0 && g.have == g.end && g.contiguous() {
		r = Result{Payload: g.assemble(), Parts: g.parts, Overlap: g.overlap}
		d.forget(g)
		return r, true
	}
	d.bound(g)
	return Result{}, false
}

// Expire gives up the datagrams whose latest fragment is older than the
// timeout before now.
func (d *Defragmenter[T]) Expire(now time.Time) {
	limit := now.Add(-d.lim.Timeout)
	for g := d.head; g != nil && g.last.Before(limit); g = d.head {
		d.drop(g, Timeout)
	}
}

// End gives up every datagram: the input ended.
func (d *Defragmenter[T]) End() {
	for d.head != nil {
		d.drop(d.head, End)
	}
}

// GivenUp returns the datagrams given up since it was last called, in the
// order they were given up, and forgets them.
func (d *Defragmenter[T]) GivenUp() []GivenUp[T] {
	g := d.given
	d.given = nil
	return g
}

// bound gives up the oldest datagrams, keep aside, until MaxDatagrams
// holds.
func (d *Defragmenter[T]) bound(keep *dgram[T]) {
	for len(d.m) > d.lim.MaxDatagrams {
		g := d.head
		if g == keep {
			g = g.next
		}
		if g == nil {
			g = keep // it alone is past the bound
		}
		if g == nil {
			return
		}
		d.drop(g, Bounds)
	}
}

func (d *Defragmenter[T]) drop(g *dgram[T], why Reason) {
	d.given = append(d.given, GivenUp[T]{Key: g.key, Parts: g.parts, Tag: g.tag, Reason: why, Bytes: g.have})
	d.forget(g)
}

func (d *Defragmenter[T]) forget(g *dgram[T]) {
	d.acct.Credit(int64(g.charged))
	d.held -= g.charged
	g.charged = 0
	delete(d.m, g.key)
	d.unlink(g)
}

func (d *Defragmenter[T]) pushBack(g *dgram[T]) {
	g.prev, g.next = d.tail, nil
	if d.tail != nil {
		d.tail.next = g
	} else {
		d.head = g
	}
	d.tail = g
}

func (d *Defragmenter[T]) unlink(g *dgram[T]) {
	if g.prev != nil {
		g.prev.next = g.next
	} else {
		d.head = g.next
	}
	if g.next != nil {
		g.next.prev = g.prev
	} else {
		d.tail = g.prev
	}
	g.prev, g.next = nil, nil
}

func (d *Defragmenter[T]) moveBack(g *dgram[T]) {
	if d.tail != g {
		d.unlink(g)
		d.pushBack(g)
	}
}

// maxEnd is the end of the furthest bytes held.
func (g *dgram[T]) maxEnd() int {
	if n := len(g.chunks); n > 0 {
		c := g.chunks[n-1]
		return c.off + len(c.data)
	}
	return 0
}

// insert copies the bytes of payload at off that no chunk holds yet (the
// first copy of a byte wins) and returns how many it added.
func (g *dgram[T]) insert(off int, payload []byte) int {
	added := 0
	end := off + len(payload)
	// The first chunk ending past off: chunks do not overlap, so their
	// ends are sorted as their starts are.
	i := sort.Search(len(g.chunks), func(i int) bool { c := g.chunks[i]; return c.off+len(c.data) > off })
	for pos := off; pos < end; {
		if i < len(g.chunks) && g.chunks[i].off <= pos {
			c := g.chunks[i]
			cEnd := min(c.off+len(c.data), end)
			if string(c.data[pos-c.off:cEnd-c.off]) != string(payload[pos-off:cEnd-off]) {
				g.overlap = true
			}
			pos = cEnd
			i++
			continue
		}
		next := end
		if i < len(g.chunks) {
			next = min(g.chunks[i].off, end)
		}
		g.chunks = slices.Insert(g.chunks, i, chunk{pos, append([]byte(nil), payload[pos-off:next-off]...)})
		added += next - pos
		pos = next
		i++
	}
	g.have += added
	return added
}

// contiguous reports whether the chunks cover 0..end without a hole.
func (g *dgram[T]) contiguous() bool {
	pos := 0
	for _, c := range g.chunks {
		if c.off != pos {
			return false
		}
		pos += len(c.data)
	}
	return pos == g.end
}

func (g *dgram[T]) assemble() []byte {
	out := make([]byte, 0, g.have)
	for _, c := range g.chunks {
		out = append(out, c.data...)
	}
	return out
}

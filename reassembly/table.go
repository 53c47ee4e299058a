package reassembly

import (
	"slices"
	"time"
	"unsafe"
)

// Bounds on what the Reassembler keeps, whatever the input: a cap on the
// connections it tracks (oldest idle evicted first), handlers made only
// when a connection carries its first payload byte, and a cap on the byte
// ranges a direction remembers the frames of.

// DefaultMaxConns is the number of connections tracked at once. A
// connection costs about 1 KiB before its first payload byte (entrySize),
// so a flood of SYNs costs at most tens of megabytes, charged to the
// Account when there is one. A busy server has a few thousand
// connections open; closed ones linger ClosedLinger.
const DefaultMaxConns = 32768

// entrySize is what a connection's entry takes in the reassembler: its
// conn, its slot in the table's map and its place in order.
const entrySize = int64(unsafe.Sizeof(conn{})) + 64

// maxLiveSegs bounds the byte ranges (each with its frame) a direction
// keeps below fed, for the frame list of a PDU still being reassembled.
// Past it, neighbouring ranges are merged, each merged range keeping its
// newer frame: a PDU sent a byte per segment lists about this many parts,
// not one per frame.
const maxLiveSegs = 1024

// Note kinds, for Noter.
type NoteKind uint8

const (
	// NoteRetransmission: a segment carried bytes already seen (Wireshark's
	// tcp.analysis.retransmission). The first copy was used.
	NoteRetransmission NoteKind = iota
	// NoteOutOfOrder: a segment carried new bytes below the highest
	// sequence number already seen: it fills a hole (Wireshark's
	// tcp.analysis.out_of_order).
	NoteOutOfOrder
)

// Note is what a Noter is told about a segment.
type Note struct {
	Kind  NoteKind
	Dir   Dir
	Frame uint64
	Time  time.Time
	// Offset and Length are the segment's payload in the direction's
	// stream; Seen is how many of its bytes were already seen.
	Offset int64
	Length int
	Seen   int
}

// Noter is an optional ConnHandler method: Noted is called for each
// retransmitted or out-of-order segment of the connection, during the Feed
// of its frame.
type Noter interface {
	Noted(c *ConnInfo, n Note)
}

// Evicter is an optional ConnHandler method: Evicted is called when the
// connection is dropped to make room for a new one (MaxConns), before it
// is closed (Closed follows); idle is the connection's last segment time.
type Evicter interface {
	Evicted(c *ConnInfo, idle time.Time)
}

// handlerFor makes c's handler, once, at its first payload byte. The
// factory may swap the roles: the halves swap with them (nothing has been
// delivered or held yet, so only their places change). It reports whether
// they swapped.
func (r *Reassembler) handlerFor(c *conn) bool {
	c.made = true
	if r.factory == nil {
		return false
	}
	r.charge(c, int64(r.lim.ConnCost)-r.entryCost)
	src, dst := c.info.Client, c.info.Server
	if !c.clientIsSrc {
		src, dst = dst, src
	}
	c.h = r.factory(&c.info)
	r.stats.Handlers++
	was := c.clientIsSrc
	if c.info.Client == dst && c.info.Server == src {
		c.clientIsSrc = false
	} else if c.info.Client == src && c.info.Server == dst {
		c.clientIsSrc = true
	}
	if was == c.clientIsSrc {
		return false
	}
	c.half[0], c.half[1] = c.half[1], c.half[0]
	c.half[0].dir, c.half[1].dir = ClientToServer, ServerToClient
	return true
}

// charge charges n more bytes for c to the account, evicting other
// connections while it is refused, attempts (no payload byte yet) before
// connections with data, so that a SYN flood evicts itself first; with
// nothing left to evict, c goes on with that much uncharged.
func (r *Reassembler) charge(c *conn, n int64) {
	for n > 0 {
		if r.bufAcct.Charge(n) {
			c.charged += n
			return
		}
		if r.evict(c, true) == 0 && r.evict(c, false) == 0 {
			return
		}
	}
}

// chargeBuffer charges n bytes of buffers (a PDU's, a history's, held
// out-of-order bytes) to acct. While it is refused, entries that are only
// attempts (no payload byte yet, no handler: a SYN flood's) are evicted,
// the longest idle first, as evict does; with none left it reports false
// and the caller gives up bytes instead. Connections with data are not
// evicted here: one may be mid-delivery, its flush reusing the unit and
// parts buffers. Nor while the table is being walked (a sweep, Close, an
// eviction's flush), whose walk an eviction would reorder.
func (r *Reassembler) chargeBuffer(acct Charger, n int64) bool {
	for !acct.Charge(n) {
		if r.entryCost == 0 || r.walking || r.evict(nil, true) == 0 {
			return false
		}
	}
	return true
}

// makeRoom evicts connections when the table is full.
func (r *Reassembler) makeRoom() {
	if r.open >= r.lim.MaxConns && r.evict(nil, true) == 0 {
		r.evict(nil, false)
	}
}

// evict evicts connections other than keep (with attempts, only those
// without a payload byte yet), closed ones first, then the longest idle
// (ties: the oldest stream), an eighth of the table at a time so that a
// flood costs a sort per few thousand connections, and returns how many
// it dropped.
func (r *Reassembler) evict(keep *conn, attempts bool) int {
	was := r.walking
	r.walking = true
	defer func() { r.walking = was }()
	cands := r.evictBuf[:0]
	for _, c := range r.order {
		if !c.removed && c != keep && (!attempts || !c.made) {
			cands = append(cands, c)
		}
	}
	slices.SortFunc(cands, func(a, b *conn) int {
		if a.closed != b.closed {
			if a.closed {
				return -1
			}
			return 1
		}
		if c := a.lastTs.Compare(b.lastTs); c != 0 {
			return c
		}
		return a.info.Stream - b.info.Stream
	})
	n := min(max(1, r.lim.MaxConns/8), len(cands))
	for _, c := range cands[:n] {
		if r.OnEvict != nil {
			r.OnEvict(&c.info)
		}
		if !c.closed {
			r.stats.Evicted++
			if e, ok := c.h.(Evicter); ok {
				e.Evicted(&c.info, c.lastTs)
			}
			r.closeConn(c)
		}
		r.forget(c)
	}
	clear(cands)
	r.evictBuf = cands[:0]
	kept := r.order[:0]
	for _, c := range r.order {
		if !c.removed {
			kept = append(kept, c)
		}
	}
	clear(r.order[len(kept):])
	r.order = kept
	return n
}

// note tells c's handler about a retransmitted or out-of-order segment.
func (r *Reassembler) note(c *conn, h *half, k NoteKind, off int64, n, seen int) {
	if k == NoteRetransmission {
		r.stats.RetransSegments++
	} else {
		r.stats.OutOfOrderSegments++
	}
	if nt, ok := c.h.(Noter); ok {
		nt.Noted(&c.info, Note{Kind: k, Dir: h.dir, Frame: r.curFrame, Time: r.curTime, Offset: off, Length: n, Seen: seen})
	}
}

// boundSegs merges neighbouring ranges below fed when a direction keeps
// more than maxLiveSegs of them. Merged ranges keep the newer frame.
func (h *half) boundSegs() {
	q := len(h.segs)
	if q-h.sh <= maxLiveSegs {
		return
	}
	j := h.sh
	for i := h.sh; i < q; {
		s := h.segs[i]
		if i+1 < q && s.end == h.segs[i+1].off {
			n := h.segs[i+1]
			s.end, s.frame = n.end, n.frame
			i++
		}
		h.segs[j] = s
		j++
		i++
	}
	h.segs = h.segs[:j]
}

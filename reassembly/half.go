package reassembly

import "time"

// half is the state of one direction of a connection.
//
// Offsets are int64 positions in the direction's stream: 0 is ISN+1 when the
// SYN was seen, else the first payload byte seen. Sequence numbers are turned
// into offsets with 32-bit modular arithmetic against the expected position,
// so wrap-around needs no special case.
type half struct {
	dir     Dir
	started bool   // base is known
	base    uint32 // sequence number of offset 0
	// fed is the end of the bytes handed to the framer, data or gap:
	// every offset below it has been delivered.
	fed int64
	// segs records, in offset order and without overlap, which frame each
	// byte range below fed came from, for the frame lists of units still
	// to be made from them (a partial PDU). segs[sh:] is live.
	segs []seg
	sh   int
	// q is the out-of-order store (store.go): the ranges that arrived
	// ahead of fed, in offset order and without overlap, each with its own
	// copy of the bytes. queued is what they cost (hold).
	q      []qseg
	queued int
	fin    int64 // offset after the last byte (FIN seen), or -1
	// peerAck is the highest acknowledgement number the peer sent for this
	// direction (hasPeerAck once one was seen): holes it covers were lost
	// by the capture only (ackedHoles).
	peerAck    uint32
	hasPeerAck bool
	hi         int64 // end of the highest byte seen: a segment below it is out of order
	// tailFrame is the first frame that revealed a tail hole, bytes
	// missing at fed with nothing queued after them: a segment of this
	// direction without data, or its FIN, past them (noteTail). Its gap, whenever it is given
	// up (a FIN, the close), is reported there, up to tailOff; 0 when
	// there is none. tailStale: the mark expired (sweep), none is made
	// again until fed reaches tailOff.
	tailFrame uint64
	tailTs    time.Time
	tailOff   int64
	tailStale bool
	// seqSeen is the furthest stream offset a bare segment (an ACK, a
	// window update) of this direction started at: past fed, it shows
	// bytes missing before it (tshark's "previous segment not captured").
	seqSeen int64
	done    bool // FIN reached or connection closed: no more data

	// Framing state.
	pend       []byte // bytes of an incomplete PDU, from pendOff
	pendOff    int64
	need       int    // total length the framer asked for, 0 if unknown
	afterGap   bool   // tell the framer to resynchronise
	resync     string // reason for bytes skipped while resynchronising
	skipLeft   int64  // bytes still to skip after FrameSkip
	skipReason string
	lost       bool
	lostReason string

	// Retransmission checking.
	hist history
	cmps []pendingCompare // retransmitted copies of bytes held in q
	cmpN int              // bytes held in cmps
}

// seg is a byte range taken from one frame.
type seg struct {
	off, end int64
	frame    uint64
}

// pendingCompare is a retransmitted copy of bytes that were held out of
// order when it arrived, checked against the history once the first copy
// is delivered.
type pendingCompare struct {
	off   int64
	b     []byte
	frame uint64
}

// offsetOf turns a sequence number into a stream offset near fed.
func (h *half) offsetOf(seq uint32) int64 {
	return h.fed + int64(int32(seq-(h.base+uint32(h.fed))))
}

// dropSegsBefore forgets ranges that end at or before off and compacts the
// slice when the dead head is large, so it is reused without growing.
func (h *half) dropSegsBefore(off int64) {
	for h.sh < len(h.segs) && h.segs[h.sh].end <= off {
		h.sh++
	}
	if h.sh == len(h.segs) {
		h.segs, h.sh = h.segs[:0], 0
	} else if h.sh > 32 && h.sh*2 > len(h.segs) {
		n := copy(h.segs, h.segs[h.sh:])
		h.segs, h.sh = h.segs[:n], 0
	}
}

// resyncReason is why bytes skipped or abandoned now are undissected.
func (h *half) resyncReason() string {
	if h.resync != "" {
		return h.resync
	}
	return ReasonFramingLost
}

// Bounds of the spare segs lists a Reassembler keeps (at most 768 KiB): a
// list holds a few ranges unless a PDU spans many segments, so only small
// ones are worth keeping.
const (
	maxSpareSegs   = 1024
	maxSpareSegCap = 16
)

// spareSegs keeps h's segs list, emptied, for a later connection: thousands
// of short connections would otherwise each grow their own.
func (r *Reassembler) spareSegs(h *half) {
	if c := cap(h.segs); c > 0 && c <= maxSpareSegCap && len(r.spare) < maxSpareSegs {
		r.spare = append(r.spare, h.segs[:0])
	}
}

// takeSegs returns a spare empty segs list, or nil (append allocates).
func (r *Reassembler) takeSegs() []seg {
	n := len(r.spare)
	if n == 0 {
		return nil
	}
	s := r.spare[n-1]
	r.spare[n-1] = nil
	r.spare = r.spare[:n-1]
	return s
}

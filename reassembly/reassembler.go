package reassembly

import (
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// maxAhead is how far past the expected position a segment may start; a
// sequence number further away is garbage (or a 4-tuple reused without a
// SYN) and is dropped rather than queued.
const maxAhead = 1 << 30

// Reassembler turns TCP segments into framed units per connection. It is
// not safe for concurrent use.
type Reassembler struct {
	factory Factory
	lim     Limits
	// OnSegment, when set, is called for each segment fed, once its
	// connection is found and its relative numbers known (ConnInfo.Relative),
	// before any of its bytes are delivered.
	OnSegment func(c *ConnInfo, tcp *layers.TCP)
	// OnEvict, when set, is called for each connection evicted to make
	// room (MaxConns, a refused charge), with a handler or not, closed or
	// not, before it leaves the table: what the caller keeps of it in
	// ConnInfo.Ends goes with it.
	OnEvict func(c *ConnInfo)

	// bufAcct is charged the partial-PDU buffers and histories, queueAcct
	// the out-of-order store: the memory budget's account for both, or
	// each its own MaxBufferedTotal.
	bufAcct, queueAcct Charger
	// entryCost is what each entry is charged to bufAcct from its first
	// segment (Limits.EntryCost): 0 without an Account.
	entryCost int64

	fast  map[uint64]*conn    // each connection under key.hash(), unless another has that hash
	conns map[connKey]connRef // those others, under their key and rkey
	open  int                 // connections in conns
	last  *conn               // the connection of the last segment, if still in conns
	fed   *conn               // the connection of the segment Feed was last given (Fed)
	order []*conn             // by Stream: sweeps and Close go in this order

	// The segment being fed.
	curFrame uint64
	curTime  time.Time
	need     int  // the Need of the unit being delivered (emitCut)
	reframe  bool // the handler asked, during Frame, to frame the other direction's buffered bytes again (Reframe)

	rings    ringPool // buffers of histories, PDU buffers and the store
	spare    [][]seg  // emptied segs lists of ended connections (spareSegs)
	evictBuf []*conn  // reused by makeRoom
	walking  bool     // a sweep, Close or evict walks order: chargeBuffer evicts nothing

	unit   Unit   // reused for every Deliver
	parts  []Part // reused for every Unit.Parts
	pieces []seg  // reused by segment
	join   []byte // reused for the chunks the store releases (takeRun)

	now        time.Time // newest packet time seen
	lastSweep  time.Time
	sweepAt    time.Time // lastSweep + sweepEvery
	sweepEvery time.Duration

	stats          Stats
	internalErrors int // must stay 0; checked by the tests
	// viaStore makes every byte go through the out-of-order store, even
	// bytes that come in order: the tests hold the usual path to it.
	viaStore bool
}

// New makes a Reassembler that creates a handler per connection with f.
func New(f Factory, l Limits) *Reassembler {
	l = l.withDefaults()
	r := &Reassembler{factory: f, lim: l, conns: make(map[connKey]connRef), fast: make(map[uint64]*conn)}
	r.bufAcct, r.queueAcct = l.Account, l.Account
	if l.Account == nil {
		r.bufAcct = &ownTotal{limit: int64(l.MaxBufferedTotal)}
		r.queueAcct = &ownTotal{limit: int64(l.MaxBufferedTotal)}
	} else {
		r.entryCost = entrySize + int64(l.EntryCost)
	}
	r.sweepEvery = min(l.IdleTimeout, l.GapTimeout) / 4
	if r.sweepEvery <= 0 {
		r.sweepEvery = time.Second
	}
	return r
}

// Feed processes one TCP segment of frame number frame. Only
// ci.Timestamp is used, as the clock for timeouts (packet time). tcp.Payload
// may be a buffer the caller reuses: it is not kept after Feed returns. Feed
// also runs FlushIdle when packet time has moved on enough.
func (r *Reassembler) Feed(frame uint64, ci gopacket.CaptureInfo, netFlow gopacket.Flow, tcp *layers.TCP) {
	if tcp == nil {
		return
	}
	ts := ci.Timestamp
	if ts.After(r.now) {
		r.now = ts
	}
	if r.lastSweep.IsZero() {
		r.lastSweep = r.now
		r.sweepAt = r.now.Add(r.sweepEvery)
	} else if !r.now.Before(r.sweepAt) { // r.now.Sub(r.lastSweep) >= r.sweepEvery
		r.sweep(r.now)
	}
	r.stats.Segments++
	r.stats.PayloadBytes += uint64(len(tcp.Payload))

	c, d := r.lookup(netFlow, tcp)
	if !c.made && (len(tcp.Payload) > 0 || finPastData(&c.half[d], tcp)) && !c.closed && r.handlerFor(c) {
		d = 1 - d
	}
	h := &c.half[d]
	if tcp.SYN && !tcp.ACK && (c.closed || (h.started && tcp.Seq+1 != h.base)) {
		// A new SYN on a known 4-tuple: the port was reused.
		if !c.closed {
			r.closeConn(c)
		}
		r.forget(c)
		c, d = r.lookup(netFlow, tcp)
		if !c.made && len(tcp.Payload) > 0 && r.handlerFor(c) {
			d = 1 - d
		}
		h = &c.half[d]
	}
	if ts.After(c.lastTs) {
		c.lastTs = ts
	}
	r.fed = c
	c.info.Frame, c.info.Time = frame, ts
	if tcp.SYN {
		c.info.SawSYN = true
	}
	seqFrom := 0
	if c.dirOf(true) != d {
		seqFrom = 1
	}
	c.info.seqSegment(seqFrom, tcp)
	if r.OnSegment != nil {
		r.OnSegment(&c.info, tcp)
	}

	r.curFrame, r.curTime = frame, ts
	defer func() {
		if !c.closed && c.h != nil {
			r.noteTail(&c.half[0])
			r.noteTail(&c.half[1])
		}
	}()

	if c.closed {
		r.afterClose(h, tcp)
		return
	}
	if tcp.RST {
		r.stats.Dropped += uint64(len(tcp.Payload))
		r.closeConn(c)
		return
	}
	seq, payload := tcp.Seq, tcp.Payload
	if tcp.SYN {
		if !h.started {
			h.started, h.base = true, seq+1
		}
		seq++ // data in a SYN starts after it
	}
	if tcp.ACK {
		r.peerAcked(c, 1-d, tcp.Ack)
	}
	if !h.started {
		if len(payload) == 0 && !tcp.FIN {
			return // a bare ACK does not tell where data starts
		}
		h.started, h.base = true, seq
		h.afterGap, h.resync = true, ReasonMidStream
	}
	off := h.offsetOf(seq)
	end := off + int64(len(payload))
	if len(payload) == 0 && off > h.seqSeen && off-h.fed <= maxAhead {
		h.seqSeen = off // a bare segment past the bytes seen (noteTail)
	}
	if tcp.FIN && h.fin < 0 && end >= h.fed {
		h.fin = end
	}
	if len(payload) > 0 {
		r.segment(c, d, off, payload)
		h.boundSegs()
		if h.hasPeerAck {
			r.ackedHoles(c, d)
		}
	}
	r.ackedTail(c, h)
	r.checkFin(c, h)
}

// segment handles payload bytes at stream offset off.
func (r *Reassembler) segment(c *conn, d Dir, off int64, p []byte) {
	h := &c.half[d]
	if end := off + int64(len(p)); end <= 0 {
		r.stats.Dropped += uint64(len(p)) // before the first byte we saw
		return
	}
	if off < 0 {
		r.stats.Dropped += uint64(-off)
		p, off = p[-off:], 0
	}
	if off-h.fed > maxAhead {
		r.stats.Dropped += uint64(len(p))
		return
	}
	if h.fin >= 0 && off+int64(len(p)) > h.fin {
		cut := max(h.fin, off)
		r.stats.Dropped += uint64(off + int64(len(p)) - cut)
		p = p[:cut-off]
	}
	segOff, segLen, seen := off, len(p), 0
	defer func() {
		switch {
		case seen > 0:
			r.note(c, h, NoteRetransmission, segOff, segLen, seen)
		case segOff < h.hi:
			r.note(c, h, NoteOutOfOrder, segOff, segLen, 0)
		}
		h.hi = max(h.hi, segOff+int64(segLen))
	}()
	// Bytes already handed to the framer: the first copy won.
	if off < h.fed {
		n := int(min(h.fed-off, int64(len(p))))
		r.compareUsed(c, h, off, p[:n])
		p, off = p[n:], off+int64(n)
		seen += n
	}
	if len(p) == 0 {
		return
	}
	if len(h.q) == 0 {
		r.place(c, h, off, p) // nothing held: the usual case
		return
	}
	// Bytes the store holds: the first copy wins there too, so only the
	// ranges in between are placed.
	base := off
	end := off + int64(len(p))
	pieces := r.pieces[:0]
	for i := h.firstHeldAfter(off); i < len(h.q) && h.q[i].off < end; i++ {
		s := &h.q[i]
		if s.off > off {
			pieces = append(pieces, seg{off: off, end: s.off})
		}
		lo, hi := max(off, s.off), min(end, s.end())
		r.stashCompare(h, lo, p[lo-base:hi-base])
		seen += int(hi - lo)
		off = hi
	}
	if off < end {
		pieces = append(pieces, seg{off: off, end: end})
	}
	r.pieces = pieces
	for _, pc := range pieces {
		if pc.off < h.fed { // cannot happen: fed never passes a hole's bytes
			r.internalErrors++
			continue
		}
		r.place(c, h, pc.off, p[pc.off-base:pc.end-base])
	}
}

// checkFin ends a direction once all bytes before its FIN are delivered,
// and the connection once both directions ended.
func (r *Reassembler) checkFin(c *conn, h *half) {
	if h.fin >= 0 && !h.done && h.fed >= h.fin {
		r.finishDir(c, h)
	}
	if c.half[0].done && c.half[1].done && !c.closed {
		r.closeConn(c)
	}
}

// finishDir reports what the direction still holds: a PDU that will never
// be completed, and missing bytes at its end (before a FIN, or revealed by
// a bare segment: bareTail).
func (r *Reassembler) finishDir(c *conn, h *half) {
	if h.done {
		return
	}
	r.bareTail(c, h)
	h.done = true
	if len(h.pend) > 0 {
		r.emitCut(c, h, ReasonIncomplete)
	}
	if h.fin > h.fed {
		r.gap(c, h, h.fin-h.fed)
		h.fed = h.fin
	}
	h.dropSegsBefore(h.fed)
}

// closeConn flushes and closes a connection: held data is delivered with
// its gaps and incomplete PDUs are reported. The connection stays in the
// table, closed, so late segments (the ACK after a FIN, retransmissions)
// are recognised until it idles out.
func (r *Reassembler) closeConn(c *conn) {
	if c.closed {
		return
	}
	for d := range c.half {
		r.drain(c, &c.half[d], time.Time{})
	}
	for d := range c.half {
		r.finishDir(c, &c.half[d])
	}
	c.closed = true
	if cl, ok := c.h.(Closer); ok {
		cl.Closed(&c.info)
	}
	// A closed connection stays in the table a while to absorb late
	// retransmissions, which only need counting: the handler, and all the
	// protocol state it holds, can go now.
	c.h = nil
	for d := range c.half {
		h := &c.half[d]
		r.freePend(c, h)
		r.account(-h.hist.release(&r.rings))
		r.spareSegs(h)
		h.segs, h.sh, h.q, h.cmps, h.cmpN = nil, 0, nil, nil, 0
	}
}

// afterClose accounts for a segment on a closed connection.
func (r *Reassembler) afterClose(h *half, tcp *layers.TCP) {
	if len(tcp.Payload) == 0 || !h.started {
		r.stats.Dropped += uint64(len(tcp.Payload))
		return
	}
	off := h.offsetOf(tcp.Seq)
	used := min(max(h.fed-off, 0), int64(len(tcp.Payload)))
	r.stats.Retransmitted += uint64(used)
	r.stats.Unverified += uint64(used)
	r.stats.Dropped += uint64(int64(len(tcp.Payload)) - used)
}

// sweep gives up holes older than GapTimeout and closes connections idle for
// IdleTimeout, in Stream order so output does not depend on map order.
func (r *Reassembler) sweep(now time.Time) {
	r.lastSweep = now
	r.sweepAt = now.Add(r.sweepEvery)
	gapBefore := now.Add(-r.lim.GapTimeout)
	idleBefore := now.Add(-r.lim.IdleTimeout)
	closedBefore := now.Add(-ClosedLinger)
	r.walking = true
	defer func() { r.walking = false }()
	keep := r.order[:0]
	for _, c := range r.order {
		if c.removed {
			continue
		}
		if !c.closed {
			for d := range c.half {
				h := &c.half[d]
				if h.tailFrame != 0 && h.tailTs.Before(gapBefore) || h.tailFrame == 0 && finTail(h) && c.lastTs.Before(gapBefore) {
					if !r.giveUpTail(c, h) {
						h.tailFrame, h.tailStale = 0, true
					}
				}
				r.drain(c, h, gapBefore)
				r.checkFin(c, &c.half[d])
			}
		}
		if c.lastTs.Before(idleBefore) || c.closed && c.lastTs.Before(closedBefore) {
			r.closeConn(c)
			r.forget(c)
			continue
		}
		keep = append(keep, c)
	}
	clear(r.order[len(keep):])
	r.order = keep
}

// finPastData tells whether tcp is a FIN of h that lies past bytes never
// captured: they must be reported as a gap, so the connection needs its
// handler although no payload byte was seen (FuzzReassembler found a
// SYN and a FIN 10 bytes on, whose gap went unreported).
func finPastData(h *half, tcp *layers.TCP) bool {
	return tcp.FIN && h.started && int32(tcp.Seq-h.base) > 0
}

// finTail tells whether h's sender finished (FIN) past bytes that never
// came, with nothing queued after them: a FIN is not followed by data, so
// the hole is given up GapTimeout after the direction's last segment, or
// sooner when the peer acknowledges it (ackedTail), rather than at the
// close, up to IdleTimeout later.
func finTail(h *half) bool {
	return !h.done && h.fin > h.fed && len(h.q) == 0
}

// giveUpTail gives up h's tail hole once it waited GapTimeout: before a
// FIN (finTail) or a lost one (finLost) the direction is finished;
// revealed by a bare segment (bareTail), it goes on after the gap. It
// tells whether there was such a hole.
func (r *Reassembler) giveUpTail(c *conn, h *half) bool {
	switch {
	case finTail(h):
	case r.bareTail(c, h):
		if h.fin < 0 {
			return true
		}
	default:
		return false
	}
	r.finishDir(c, h)
	return true
}

// bareTail gives up h's tail hole revealed by a bare segment, without a
// FIN (noteTail): GapTimeout after its mark, or at the close. When
// finLost says the hole's last sequence number was h's FIN, that is not a
// byte: h ends there (its fin is set, for the caller to finish). It tells
// whether there was such a hole.
func (r *Reassembler) bareTail(c *conn, h *half) bool {
	if h.done || h.fin >= 0 || h.seqSeen <= h.fed || len(h.q) > 0 {
		return false
	}
	if finLost(c, h) {
		h.fin = h.seqSeen - 1
		return true
	}
	r.gap(c, h, h.seqSeen-h.fed)
	h.fed = h.seqSeen
	return true
}

// finLost tells whether the sequence number after h's last byte is most
// likely h's FIN, lost by the capture: h showed no FIN, its peer closed,
// and h acknowledged the peer's FIN (a direction still open answers a FIN
// with its own, at that number). A bare segment of h at that number looks
// the same whether it follows h's lost FIN or lost data.
func finLost(c *conn, h *half) bool {
	p := &c.half[1-h.dir]
	return h.fin < 0 && p.fin >= 0 && p.hasPeerAck && p.offsetOf(p.peerAck) > p.fin
}

// ackedTail gives up h's bytes missing before its FIN (finTail) as soon
// as the peer has acknowledged them: they were received, only the capture
// lost them, and nothing will come to fill the hole (ackedHoles does the
// same for a hole with bytes queued after it).
//
// A tail hole without a FIN still waits: its last byte may be a FIN that
// was not captured rather than data (a peer's FIN acknowledging it, or the
// direction's own ACK of that FIN, looks the same either way), and the
// close or GapTimeout tells.
func (r *Reassembler) ackedTail(c *conn, h *half) {
	if finTail(h) && h.hasPeerAck && h.offsetOf(h.peerAck) >= h.fin {
		r.finishDir(c, h)
	}
}

// FlushIdle applies the timeouts as if packet time were now: holes waiting
// longer than GapTimeout become gaps, connections idle longer than
// IdleTimeout are closed and their incomplete PDUs reported. Feed calls it
// by itself as packet time advances; call it when packets stop arriving but
// time goes on (a quiet live capture).
func (r *Reassembler) FlushIdle(now time.Time) {
	if now.After(r.now) {
		r.now = now
	}
	r.sweep(r.now)
}

// Close ends the capture: every connection is flushed and closed, in Stream
// order, and incomplete PDUs are reported. The Reassembler can be fed again
// afterwards; stream numbers carry on.
func (r *Reassembler) Close() {
	r.walking = true
	defer func() { r.walking = false }()
	for _, c := range r.order {
		if !c.removed {
			r.closeConn(c)
			r.forget(c)
		}
	}
	clear(r.order)
	r.order = r.order[:0]
}

// Stats returns running totals.
func (r *Reassembler) Stats() Stats {
	s := r.stats
	s.Open = r.open
	return s
}

// ChargeEntry charges n more bytes to the Account for the entry of the
// segment being fed (call it from OnSegment), for state the caller keeps
// in it only for some connections (ConnInfo.Ends); they are credited when
// the entry leaves the table. A refused charge evicts other connections,
// as an entry's does. Without an Account it does nothing.
func (r *Reassembler) ChargeEntry(n int) {
	if r.entryCost > 0 && r.fed != nil && !r.fed.removed {
		r.charge(r.fed, int64(n))
	}
}

// Fed is the connection of the segment Feed was last given, and its
// handler (nil until its first payload byte): what a per-frame observer
// reads of the frame just fed (its stream number, its protocol). It stays
// valid after the connection ends.
func (r *Reassembler) Fed() (*ConnInfo, ConnHandler) {
	if r.fed == nil {
		return nil, nil
	}
	return &r.fed.info, r.fed.h
}

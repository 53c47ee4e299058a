package reassembly

import (
	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	gpr "github.com/gopacket/gopacket/reassembly"
)

// This file is the only place that talks to gopacket's Assembler.
//
// gopacket stores and orders out-of-order bytes; everything else is done
// before or after it, because of known gopacket v1.1.19 behaviours:
//   - Sequence.Difference is off by one across the 2^32 wrap (issue #410,
//     fixed only in the old tcpassembly package), so gopacket never sees
//     real sequence numbers: it sees stream offsets, shifted back by the
//     bytes delivered without it (half.gpSeq).
//   - A queued segment is overwritten by a later copy (last copy wins); we
//     want the first copy, so only bytes gopacket has never seen are fed.
//   - A FIN without payload that arrives early is dropped, RST closes one
//     direction only, and there is no way to flush one connection; so FIN
//     and RST are never passed on, and a connection is flushed and closed
//     with the synthetic segments below.
//   - sg.CaptureInfo panics on a page continuing a segment longer than a
//     page (issue #483), so frames are attributed from our own seg list.

// frameCtx is the AssemblerContext passed for every call. It is a field of
// the Reassembler, so passing it does not allocate; gopacket keeps the
// pointer in queued pages but we never read it back.
type frameCtx struct{ ci gopacket.CaptureInfo }

func (f *frameCtx) GetCaptureInfo() gopacket.CaptureInfo { return f.ci }

// glue is both gopacket's StreamFactory and the single Stream for every
// connection: gopacket only ever calls back for the segment being assembled,
// so the Reassembler's "current connection" fields say whose data it is.
type glue struct {
	r    *Reassembler
	live int // connections in gopacket's pool, to check none leak
}

func (g *glue) New(_, _ gopacket.Flow, _ *layers.TCP, _ gpr.AssemblerContext) gpr.Stream {
	g.live++
	return g
}

func (g *glue) Accept(_ *layers.TCP, _ gopacket.CaptureInfo, _ gpr.TCPFlowDirection, _ gpr.Sequence, start *bool, _ gpr.AssemblerContext) bool {
	if g.r.gpStart {
		*start = true
	}
	return true
}

func (g *glue) ReassembledSG(sg gpr.ScatterGather, _ gpr.AssemblerContext) {
	n, _ := sg.Lengths()
	if n == 0 {
		return
	}
	// Fetch returns the packet's own bytes when they are alone (the
	// in-order case) and copies only when queued pages are joined.
	g.r.onData(sg.Fetch(n))
}

func (g *glue) ReassemblyComplete(_ gpr.AssemblerContext) bool {
	g.live--
	return true // remove it from gopacket's pool
}

// gpSeq maps a stream offset to the sequence number gopacket sees: the
// offset less the bytes delivered without gopacket (see gpSync). Those
// numbers start at 0 and grow only with what gopacket handled, so its wrap
// (and its off-by-one there) is only met after 4 GiB in one direction.
func (h *half) gpSeq(off int64) uint32 { return uint32(off - h.gpShift) }

// gpSync makes gopacket's next expected sequence number stand for fed again
// after the in-order fast path (deliver.go) moved fed on without it. Moving
// the origin of gopacket's sequence space is all it takes: the fast path
// only runs while gopacket queues nothing for the direction, so no queued
// byte has a number that would change meaning.
func (h *half) gpSync() {
	if h.gpNext != h.fed {
		h.gpShift += h.fed - h.gpNext
		h.gpNext = h.fed
	}
}

// gpFeed hands gopacket bytes it has never seen, at offset off.
func (r *Reassembler) gpFeed(c *conn, d Dir, off int64, p []byte) {
	h := &c.half[d]
	h.gpSync()
	r.gtcp.Seq = h.gpSeq(off)
	r.gtcp.Payload = p
	r.gtcp.FIN = false
	r.gpStart = !h.gpStarted && off == h.fed
	r.call(c, d)
	r.gtcp.Payload = nil // never keep the caller's buffer
}

// gpSkip makes gopacket give up the oldest hole of one direction: with the
// per-connection page limit lowered to one, an empty out-of-order segment
// makes it release its first queued page and whatever follows it.
func (r *Reassembler) gpSkip(c *conn, d Dir) {
	h := &c.half[d]
	old := r.asm.MaxBufferedPagesPerConnection
	r.asm.MaxBufferedPagesPerConnection = 1
	r.gtcp.Seq = h.gpSeq(h.gpNext + 1)
	r.gtcp.Payload = nil
	r.gtcp.FIN = false
	r.gpStart = false
	r.call(c, d)
	r.asm.MaxBufferedPagesPerConnection = old
}

// gpClose closes both gopacket halves with an in-order empty FIN, which
// makes gopacket remove the connection from its pool. Queued data must have
// been drained first or gopacket would release it silently.
func (r *Reassembler) gpClose(c *conn) {
	if !c.inGopacket {
		return
	}
	for d := range c.half {
		r.gtcp.Seq = c.half[d].gpSeq(c.half[d].gpNext)
		r.gtcp.Payload = nil
		r.gtcp.FIN = true
		r.gpStart = true
		r.call(c, Dir(d))
	}
	r.gtcp.FIN = false
	c.inGopacket = false
}

func (r *Reassembler) call(c *conn, d Dir) {
	r.cur, r.curDir = c, d
	c.inGopacket = true
	r.ctx.ci.Timestamp = c.lastTs
	r.asm.AssembleWithContext(c.gpFlow[d], &r.gtcp, &r.ctx)
	r.cur = nil
}

package analyze

import (
	"net/netip"
	"strconv"
	"time"
	"unsafe"

	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/reassembly"
	"github.com/mcdissect/mcdissect/record"
)

// Who could not connect: the front end follows every TCP connection
// through its SYN, FIN and RST segments (only those: a data segment costs
// nothing here), for two things.
//
// How a connection ended, for the requests still waiting when it did
// (protocols.Conn.Close): the first FIN or the RST, who sent it and in
// which frame. A status request the server closed the connection on is
// "closed", one whose client gave up "unanswered" (dissect.ConnEnd).
//
// And records for what no Minecraft byte carries, on a Minecraft port (a
// TCP protocol's, not a shared one such as the heartbeat's 80, or a -d
// rule's, or the port of a server a UDP protocol's heuristics found):
//
//   - a connection attempt that did not open: its SYN refused by a RST
//     (nothing listens there), never answered within SYNWindow, or still
//     waiting when the capture ended. The record is the SYN's (its layers
//     are the SYN's: tcp.flags.syn == 1), with the outcome (mc.outcome
//     refused, unanswered or ended) and the frame that decided it; it goes
//     out when that is known: at the RST, when the window passes, at the
//     end. A RST that refuses a SYN is a record of its own too, naming the
//     SYN (mc.request_in), so that tcp.flags.reset == 1 finds it.
//   - a RST that ends a connection before any FIN (a session cut short,
//     an aborted ping), at the RST.
//
// Not every SYN is a record: the SYN of a connection that opens is the
// start of its Minecraft records, and a record for each of those would
// double the count of records of every capture of healthy pings (-z
// mc,stat, -c, io,stat) for nothing a filter on the protocol cannot find.
// A SYN is a record exactly when it is the whole story. Likewise a RST
// after a FIN (a common way to finish) is not one.
//
// The state lives in the reassembler's connection entry
// (reassembly.ConnInfo.Ends), made at the first SYN, FIN or RST: there is
// one connection table, bounded by the memory budget. When the
// reassembler evicts a connection whose attempt still waits, the attempt
// is counted and reported in one note at the end.

// SYNWindow is how long, in packet time, a SYN waits for its SYN-ACK
// after the last time it was sent (a client retransmits after 1 s, 3 s,
// 7 s...): past it the attempt is unanswered.
const SYNWindow = 5 * time.Second

// maxSYNParts bounds the SYN transmissions a record lists.
const maxSYNParts = 8

// Connection states.
const (
	wSeen uint8 = iota // known by a FIN or RST only (its SYN not captured)
	wSYN               // a SYN waits for its SYN-ACK
	wOpen              // the SYN-ACK came (or data flowed)
	wDone              // the attempt was decided and reported
)

type watched struct {
	client, server netip.AddrPort // the SYN's sender is the client; without a SYN, as the first segment guessed
	state          uint8
	ours           bool // on a Minecraft port: its failures are records
	nSYN           uint8
	syn            [maxSYNParts]uint64 // the SYN transmissions' frames
	synT           time.Time           // the last SYN's time
	head           *head               // the last SYN's header while it waits (its record's layers)
	// end is the first FIN or the RST (How ConnFIN, ConnRST; ConnOpen
	// while neither came), endBy its sender.
	end   dissect.ConnEnd
	endBy netip.AddrPort
}

// What the watch keeps for a connection, charged to its entry
// (Reassembler.ChargeEntry) when it is made: its watched, and a waiting
// SYN's head when a SYN makes it.
const (
	watchedCost = int(unsafe.Sizeof(watched{}))
	synHeadCost = int(unsafe.Sizeof(head{}))
)

type tcpWatch struct {
	a     *Analyzer
	ports map[uint16]bool // the Minecraft TCP ports
	pend  []*watched      // the attempts that may still wait (wSYN), oldest first
	// lost counts attempts evicted from the table while they waited:
	// reported in one note at the end.
	lost int
}

func newTCPWatch(a *Analyzer) *tcpWatch {
	w := &tcpWatch{a: a, ports: map[uint16]bool{}}
	for _, p := range protocols.Of(protocols.TCP) {
		if p.Shared != nil {
			continue
		}
		for _, port := range p.Ports {
			w.ports[port] = true
		}
	}
	for _, d := range a.opts.DecodeAs {
		if d.Transport == protocols.TCP {
			if p := protocols.ByName(d.Proto); p != nil && p.Shared == nil {
				w.ports[d.Port] = true
			}
		}
	}
	return w
}

// segment notes a segment's SYN, FIN and RST flags in its connection's
// entry c, before its bytes are delivered (whose Closed may ask how the
// connection ended).
func (w *tcpWatch) segment(c *reassembly.ConnInfo, src, dst netip.AddrPort, tcp *layers.TCP) {
	frame, t := c.Frame, c.Time
	e, _ := c.Ends.(*watched)
	switch {
	case tcp.SYN && !tcp.ACK:
		if !w.ports[dst.Port()] && !w.server(dst) {
			return
		}
		if e == nil {
			e = w.add(c, watchedCost+synHeadCost)
		}
		if e.state != wSYN || e.client != src {
			// a new attempt (a 4-tuple reused by a later connection too)
			*e = watched{client: src, server: dst, state: wSYN, ours: true}
			w.pend = append(w.pend, e)
		}
		if int(e.nSYN) < maxSYNParts {
			e.syn[e.nSYN] = frame
			e.nSYN++
		} else {
			e.syn[maxSYNParts-1] = frame
		}
		e.synT = t
		w.keepHead(e)
		return
	case tcp.SYN: // SYN-ACK
		if e != nil && e.state == wSYN && src == e.server {
			e.state = wOpen
			e.head = nil
		}
		return
	}
	if e == nil {
		e = w.add(c, watchedCost)
		e.client, e.server = src, dst
		if w.ports[src.Port()] && !w.ports[dst.Port()] {
			e.client, e.server = dst, src
		}
		e.ours = w.ports[e.server.Port()] || w.ports[e.client.Port()]
	}
	first := e.end.Frame == 0
	if tcp.RST {
		switch {
		case e.state == wSYN && src == e.server:
			e.state = wDone
			e.end = dissect.ConnEnd{How: dissect.ConnRST, By: dissect.DirS2C, Frame: frame, Time: t}
			e.endBy = src
			w.attempt(e, dissect.End{Outcome: dissect.Refused, Frame: frame, Time: t, By: dissect.DirS2C, Via: "RST"})
			w.rst(e, src, dst, frame, t, true)
			e.head = nil
		case e.state == wSYN:
			// the client gave up on its own attempt
			e.state = wDone
			e.end = dissect.ConnEnd{How: dissect.ConnRST, By: dissect.DirC2S, Frame: frame, Time: t}
			e.endBy = src
			w.attempt(e, dissect.End{Outcome: dissect.Unanswered, Frame: frame, Time: t, By: dissect.DirC2S, Via: "RST"})
			e.head = nil
		case first:
			e.end = dissect.ConnEnd{How: dissect.ConnRST, Frame: frame, Time: t}
			e.endBy = src
			if e.ours {
				w.rst(e, src, dst, frame, t, false)
			}
		}
		return
	}
	if first { // FIN
		e.end = dissect.ConnEnd{How: dissect.ConnFIN, Frame: frame, Time: t}
		e.endBy = src
	}
}

// add makes c's state, charging cost to its entry.
func (w *tcpWatch) add(c *reassembly.ConnInfo, cost int) *watched {
	e := new(watched)
	c.Ends = e
	w.a.tcpState.r.ChargeEntry(cost)
	return e
}

// evicted is told of a connection the reassembler evicts: an attempt
// still waiting is counted, for the note at the end.
func (w *tcpWatch) evicted(c *reassembly.ConnInfo) {
	if e, ok := c.Ends.(*watched); ok && e.state == wSYN {
		e.state = wDone
		e.head = nil
		w.lost++
	}
}

// server reports whether a UDP protocol's heuristics found a server at
// dst: a client that tries TCP there (gamedig tries a status ping on a
// Query port) is trying a Minecraft server.
func (w *tcpWatch) server(dst netip.AddrPort) bool {
	_, ok := w.a.learned[dst]
	return ok
}

// endOf is how the connection c, between client and server, ended, as
// its handler is told when it closes; closing says the capture ends.
func (w *tcpWatch) endOf(c *reassembly.ConnInfo, client netip.AddrPort, closing bool) dissect.ConnEnd {
	if x, ok := c.Ends.(*watched); ok {
		if e := x.end; e.Frame != 0 {
			e.By = dissect.DirS2C
			if x.endBy == client {
				e.By = dissect.DirC2S
			}
			return e
		}
	}
	if closing {
		return dissect.ConnEnd{How: dissect.ConnOpen}
	}
	return dissect.ConnEnd{How: dissect.ConnIdle}
}

// expire decides the attempts whose SYN waited past SYNWindow at now;
// at the end (final), every attempt still waiting: the capture ended
// first.
func (w *tcpWatch) expire(now time.Time, final bool) {
	keep := w.pend[:0]
	for _, e := range w.pend {
		if e.state != wSYN {
			continue
		}
		switch {
		case final:
			w.attempt(e, dissect.End{Outcome: dissect.Ended, Why: "no SYN-ACK before the capture ended"})
		case now.Sub(e.synT) > SYNWindow:
			w.attempt(e, dissect.End{Outcome: dissect.Unanswered, Why: "no SYN-ACK within " + SYNWindow.String() + " of the last SYN"})
		default:
			keep = append(keep, e)
			continue
		}
		e.state = wDone
		e.head = nil
	}
	clear(w.pend[len(keep):])
	w.pend = keep
	if final && w.lost > 0 {
		a := w.a
		j := a.newJob()
		j.op, j.kind, j.frame, j.time, j.dir, j.udp, j.proto = opEmit, record.KindNote, a.frame, a.pnow, dissect.DirUnknown, udpNone, "tcp"
		j.gapLen = noteWatchLost
		j.reason = strconv.Itoa(w.lost) + " connection attempts on Minecraft ports were forgotten before their SYN was answered or not: the connection table was full (the memory budget or its bound of " + strconv.Itoa(reassembly.DefaultMaxConns) + " connections)"
		b := a.pp.cur
		j.addrs = int32(len(b.addrs))
		b.addrs = append(b.addrs, netip.AddrPort{}, netip.AddrPort{})
		a.commit(nil)
	}
}

// attempt makes the record of e's SYN, decided by out.
func (w *tcpWatch) attempt(e *watched, out dissect.End) {
	a := w.a
	j := a.newJob()
	last := e.syn[min(int(e.nSYN), maxSYNParts)-1]
	j.op, j.kind, j.frame, j.time, j.dir, j.udp, j.proto = opEmit, record.KindNote, last, e.synT, dissect.DirC2S, udpNone, "tcp"
	j.gapLen = noteSYN
	j.out = decided{frame: out.Frame, outcome: out.Outcome, by: out.By}
	if out.Frame != 0 {
		j.out.dt = out.Time.Sub(e.synT)
	}
	j.reason = out.Why
	j.head = a.addHead(e.head)
	b := a.pp.cur
	j.addrs = int32(len(b.addrs))
	b.addrs = append(b.addrs, e.client, e.server)
	j.parts = span{int32(len(b.parts)), int32(min(int(e.nSYN), maxSYNParts))}
	for _, f := range e.syn[:min(int(e.nSYN), maxSYNParts)] {
		b.parts = append(b.parts, record.Part{Frame: f})
	}
	a.commit(nil)
}

// rst makes the record of a RST, the segment being fed: refusing a SYN
// (refused), or ending a connection before any FIN.
func (w *tcpWatch) rst(e *watched, src, dst netip.AddrPort, frame uint64, t time.Time, refused bool) {
	a := w.a
	j := a.newJob()
	j.op, j.kind, j.frame, j.time, j.udp, j.proto = opEmit, record.KindNote, frame, t, udpNone, "tcp"
	j.dir = dissect.DirS2C
	if src == e.client {
		j.dir = dissect.DirC2S
	}
	j.gapLen = noteRST
	if refused {
		last := e.syn[min(int(e.nSYN), maxSYNParts)-1]
		j.out = decided{frame: last, outcome: dissect.Refused, dt: t.Sub(e.synT)}
	}
	j.head = a.addHead(&a.net.cur)
	b := a.pp.cur
	j.addrs = int32(len(b.addrs))
	b.addrs = append(b.addrs, src, dst)
	a.commit(nil)
}

// keepHead keeps the frame being fed (a SYN) as e's record's layers.
func (w *tcpWatch) keepHead(e *watched) {
	if w.a.opts.NoLayers {
		return
	}
	if e.head == nil {
		e.head = new(head)
	}
	*e.head = w.a.net.cur
}

// The records the watch makes (record.KindNote, job.gapLen).
var (
	ExpertSYN        = netlayers.RegTCP.Expert("tcp.connection.syn", dissect.SevWarn, "a connection attempt on a Minecraft port that did not open: refused by a RST, never answered, or still waiting when the capture ended")
	ExpertRST        = netlayers.RegTCP.Expert("tcp.connection.rst", dissect.SevWarn, "a RST on a Minecraft port: it refused a connection, or ended one before any FIN")
	ExpertLost       = dissect.Core.Expert("mc.conn.untracked", dissect.SevNote, "connection attempts forgotten before they were decided: too many connections at once")
	FieldConnAttempt = netlayers.RegTCP.Label("tcp.connection.attempt", "Connection attempt that did not open")
	FieldConnReset   = netlayers.RegTCP.Label("tcp.connection.reset", "Connection reset")
	FieldUntracked   = dissect.Core.Label("mc.conn.untracked", "Connection attempts not followed")
)

// connPDU makes the PDU of a connection record the watch decided, sent at
// t (the SYN's time, for an attempt).
func connPDU(p *dissect.PDU, kind int, dir dissect.Dir, t time.Time, out decided, why string, src, dst netip.AddrPort, parts []record.Part) {
	c := dissect.Begin(p, netlayers.RegTCP.Root(), nil, 0)
	p.Dir = dir
	switch kind {
	case noteSYN:
		i := p.AddGenerated(0, FieldConnAttempt, dissect.Value{}, src.String()+" → "+dst.String()+", "+plural(len(parts), "SYN"))
		e := dissect.End{Outcome: out.outcome, Frame: out.frame, By: out.by, Why: why}
		if out.frame != 0 {
			e.Time, e.Via = t.Add(out.dt), "RST"
		}
		new(dissect.Outcomes).Mark(p, t, e) // the expert item is tcp.connection.syn, below
		var msg string
		switch out.outcome {
		case dissect.Refused:
			msg = "connection refused: the SYN to " + dst.String() + " was answered by a RST in frame " + strconv.FormatUint(out.frame, 10) + " (nothing listens there)"
			p.Message, p.Info = "Connection attempt", "[Connection refused] SYN to "+dst.String()+", RST in frame "+strconv.FormatUint(out.frame, 10)
		case dissect.Ended:
			msg = "connection attempt to " + dst.String() + " still waiting when the capture ended: " + why
			p.Message, p.Info = "Connection attempt", "[Connection attempt not answered before the capture ended] SYN to "+dst.String()
		case dissect.Unanswered:
			if out.frame != 0 {
				msg = "connection attempt to " + dst.String() + " abandoned by the client (RST in frame " + strconv.FormatUint(out.frame, 10) + ") before any SYN-ACK"
			} else {
				msg = "connection attempt to " + dst.String() + " unanswered: " + why + " (" + plural(len(parts), "SYN") + " sent)"
			}
			p.Message, p.Info = "Connection attempt", "[Connection attempt unanswered] SYN to "+dst.String()+", "+plural(len(parts), "SYN")
		}
		p.AddExpert(i, ExpertSYN, msg)
	case noteRST:
		i := p.AddGenerated(0, FieldConnReset, dissect.Value{}, src.String()+" → "+dst.String())
		who := "server"
		if dir == dissect.DirC2S {
			who = "client"
		}
		if out.outcome == dissect.Refused {
			p.AddGenerated(i, dissect.FieldRequestIn, dissect.U(out.frame), "")
			p.AddExpert(i, ExpertRST, "refuses the connection attempt of frame "+strconv.FormatUint(out.frame, 10)+" ("+strconv.FormatFloat(out.dt.Seconds(), 'f', 6, 64)+" s later): nothing listens on "+src.String())
			p.Message, p.Info = "Connection refused", "[Connection refused] RST from "+src.String()+" to the SYN in frame "+strconv.FormatUint(out.frame, 10)
		} else {
			p.AddExpert(i, ExpertRST, "the "+who+" reset the connection before any FIN")
			p.Message, p.Info = "Connection reset", "[Connection reset by the "+who+"] "+src.String()+" → "+dst.String()
		}
	case noteWatchLost:
		i := p.AddGenerated(0, FieldUntracked, dissect.Value{}, "")
		p.AddExpert(i, ExpertLost, why)
		p.Message, p.Info = "Connection attempts not followed", "["+why+"]"
	}
	c.Finish()
}

func plural(n int, what string) string {
	s := strconv.Itoa(n) + " " + what
	if n != 1 {
		s += "s"
	}
	return s
}

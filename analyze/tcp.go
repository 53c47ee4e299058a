package analyze

import (
	"net/netip"
	"time"
	"unsafe"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/reassembly"
	"github.com/mcdissect/mcdissect/record"
)

// maxPairBytes is how much of a client's waiting bytes a connection keeps
// for detectPair.
const maxPairBytes = 16

// maxDetectBytes: a client that has sent this much without any protocol
// recognising it is not speaking one of ours.
const maxDetectBytes = 1024

// tcpState is the analyzer's TCP side: the reassembler and the TCP
// protocols, in the order their detectors are asked (protocols.Of).
type tcpState struct {
	a      *Analyzer
	r      *reassembly.Reassembler
	protos []*protocols.Protocol
	w      *tcpWatch // SYN, FIN and RST (watch.go)
	// closing: the input ended, connections are closed by the end
	closing bool
}

// connCost is what a connection with a protocol costs the memory budget
// beyond the bytes the reassembler holds for it: its tcpConn, the
// protocol's framing and decoding state, the reassembler's own entry.
// Measured on the hostile idents capture (Classic connections each
// holding a partial identification): 3.8 KB a connection.
const connCost = 4 << 10

// entryCost is what the analyzer keeps for every connection's entry in
// the reassembler, from its first segment: the last frame's head
// (ConnInfo.User). The watch's state, made for some connections only, is
// charged when it is (tcpWatch.add).
const entryCost = int(unsafe.Sizeof(head{}))

func newTCPState(a *Analyzer) *tcpState {
	t := &tcpState{a: a, protos: protocols.Of(protocols.TCP), w: newTCPWatch(a)}
	// The reassembler gives up its own oldest holes, or evicts the longest
	// idle connections, when its account is refused: it has nothing to
	// shed on another's behalf.
	lim := reassembly.Limits{Account: a.pp.front.Account("TCP connections and reassembly", nil), ConnCost: connCost}
	if !a.opts.NoLayers {
		lim.EntryCost = entryCost
	}
	t.r = reassembly.New(t.factory, lim)
	t.r.OnSegment = t.segment
	t.r.OnEvict = t.w.evicted
	return t
}

// packet feeds a TCP segment of frame.
func (t *tcpState) packet(frame uint64, ci gopacket.CaptureInfo, flow gopacket.Flow, tcp *layers.TCP) {
	t.r.Feed(frame, ci, flow, tcp)
}

// segment is told of each segment by the reassembler, once its connection
// is found and before any of its bytes are delivered: the frame's head
// takes the connection's relative numbers, and the watch sees the
// segments that open and end connections.
func (t *tcpState) segment(c *reassembly.ConnInfo, tcp *layers.TCP) {
	a := t.a
	if !a.opts.NoLayers {
		a.net.segment(c, tcp)
	}
	if tcp.SYN || tcp.FIN || tcp.RST {
		src, dst := a.endpoints(uint16(tcp.SrcPort), uint16(tcp.DstPort))
		t.w.segment(c, src, dst, tcp)
	}
}

func (t *tcpState) flushIdle(now time.Time) {
	t.r.FlushIdle(now)
	t.w.expire(now, false)
}

func (t *tcpState) close() {
	t.closing = true
	t.r.Close()
	t.w.expire(time.Time{}, true)
}

// cand is a protocol a connection may speak, and whether its port says so
// (a stream on a protocol's port that starts mid-way is still reported as
// that protocol's undissected bytes, never dropped).
type cand struct {
	p      *protocols.Protocol
	byPort bool
}

// tcpConn routes one connection's bytes to the protocol that claims it.
type tcpConn struct {
	t      *tcpState
	info   *reassembly.ConnInfo
	proto  *protocols.Protocol
	conn   protocols.Conn     // the front end's instance: framing
	dec    protocols.Conn     // the back end's instance: decoding (see back.go)
	ignore bool               // no protocol of ours: its bytes produce no records
	cands  []cand             // protocols still possible (port, -d or heuristics)
	reason [2]string          // the framer's last reason for losing or skipping bytes, per direction
	sides  [2]*side           // what the records of each direction share; made again when proto is set
	lost   *[2]unclaimedBytes // a stream on a Minecraft port no protocol claims (notes.go)

	// Records of units and notes delivered before the protocol is named,
	// made when it is, so that they say which protocol (deferUnit).
	deferred []func()
	defBytes int
	noDefer  bool // too many waited: the rest are made at once

	// The client's bytes waiting for a mid-stream decision, when they are
	// few (detectPair); waitLen 0 when none or too many.
	wait    [maxPairBytes]byte
	waitLen uint8
	// gaveUp: a side whose mid-stream bytes proved no protocol within
	// maxDetectBytes; its bytes are skipped while the other side may still
	// decide (midStream). guessed: both sides gave up, and the port's
	// first protocol was named without proof: neither side is framed.
	gaveUp  [2]bool
	guessed bool
}

func (t *tcpState) factory(c *reassembly.ConnInfo) reassembly.ConnHandler {
	h := &tcpConn{t: t, info: c}
	if p, serverIsDst, ok := t.a.decodeAs(protocols.TCP, c.Client.Port, c.Server.Port); ok {
		if !serverIsDst { // the rule names the side taken for the client
			c.Client, c.Server = c.Server, c.Client
		}
		h.setProto(p)
		return h
	}
	for _, p := range t.protos {
		port, byPort := onPort(p, c.Server.Port, c.Client.Port)
		if byPort || !t.a.opts.NoHeuristics {
			if c.Client.Port == port && c.Server.Port != port {
				c.Client, c.Server = c.Server, c.Client
			}
			h.cands = append(h.cands, cand{p, byPort})
		}
	}
	if len(h.cands) == 0 {
		h.ignore = true
	}
	return h
}

// onPort tells whether either port is one of p's, and which.
func onPort(p *protocols.Protocol, a, b uint16) (uint16, bool) {
	for _, port := range p.Ports {
		if port == a || port == b {
			return port, true
		}
	}
	return 0, false
}

func (h *tcpConn) setProto(p *protocols.Protocol) {
	h.proto, h.cands, h.sides = p, nil, [2]*side{}
	if p == nil {
		h.ignore = true
		h.undefer()
		return
	}
	h.conn, h.dec = p.NewConn(h.t.a.run), p.NewConn(h.t.a.run)
	h.undefer()
	h.found(p)
}

// side is what the records of direction d share, made at the first record
// since the connection's protocol was last set. Jobs in flight keep the
// sides they point to, which never change.
func (h *tcpConn) side(d reassembly.Dir, c *reassembly.ConnInfo) *side {
	if s := h.sides[d]; s != nil {
		return s
	}
	client := netip.AddrPortFrom(c.Client.IP, c.Client.Port)
	server := netip.AddrPortFrom(c.Server.IP, c.Server.Port)
	s := &side{src: client, dst: server, stream: c.Stream, proto: "tcp", dec: h.dec}
	if d == reassembly.ServerToClient {
		s.src, s.dst = server, client
	}
	if h.proto != nil {
		s.proto = h.proto.Registry.Proto
		// The endpoints as the protocol trackers key them ("ip:port"),
		// made once per connection rather than once per PDU.
		if o := h.sides[1-d]; o != nil && o.client != "" {
			s.client, s.server = o.client, o.server
		} else {
			s.client, s.server = client.String(), server.String()
		}
	}
	h.sides[d] = s
	return s
}

func ddir(d reassembly.Dir) dissect.Dir {
	if d == reassembly.ClientToServer {
		return dissect.DirC2S
	}
	return dissect.DirS2C
}

// Frame decides the protocol from the client's first bytes, then frames
// with that protocol's framer.
func (h *tcpConn) Frame(dir reassembly.Dir, buf []byte, afterGap bool) reassembly.FrameResult {
	if h.ignore {
		return reassembly.Lost()
	}
	if h.guessed && h.gaveUp[dir] && afterGap {
		h.reason[dir] = h.midwayReason("no " + h.proto.Name + " PDU boundary found")
		return reassembly.Lost() // named without proof (midStream): not framed
	}
	if h.proto == nil {
		// Once this direction's bytes decide the protocol, the other
		// direction's bytes, kept waiting, are framed at once: before
		// this direction's PDU and not after its next segment.
		defer h.reframe()
		if afterGap {
			return h.midStream(dir, buf)
		}
		if dir != reassembly.ClientToServer {
			// Servers of our protocols speak second: the client's bytes
			// decide, unless the server's own are unmistakable (the
			// client's were not captured).
			if !h.detectServer(buf) {
				if len(buf) > maxDetectBytes {
					return reassembly.Lost()
				}
				return reassembly.NeedMore(0)
			}
			return h.result(dir, h.conn.Frame(ddir(dir), buf, afterGap))
		}
		need := false
		for _, c := range h.cands {
			switch c.p.Detect(buf) {
			case dissect.DetectYes:
				h.setProto(c.p)
			case dissect.DetectNeedMore:
				need = true
			}
			if h.proto != nil {
				break
			}
		}
		if h.proto == nil {
			if need && len(buf) < maxDetectBytes {
				return reassembly.NeedMore(0)
			}
			h.ignore = true
			h.undefer()
			return reassembly.Lost()
		}
	}
	return h.result(dir, h.conn.Frame(ddir(dir), buf, afterGap))
}

// result translates a protocol framer's answer for the reassembler,
// keeping its reason for the undissected record that may follow.
func (h *tcpConn) result(dir reassembly.Dir, f dissect.Frame) reassembly.FrameResult {
	switch f.Status {
	case dissect.FrameOK:
		// Framing holds again (after a resync or a mid-stream start):
		// the reason for bytes it could not frame no longer applies,
		// and a PDU cut later is decoded as cut (cut).
		if h.reason[dir] != "" {
			h.reason[dir] = ""
		}
		return reassembly.OK(f.Len)
	case dissect.FrameNeedMore:
		return reassembly.NeedMore(f.Len)
	case dissect.FrameSkip:
		h.reason[dir] = f.Reason
		return reassembly.Skip(f.Len)
	}
	h.reason[dir] = f.Reason
	return reassembly.Lost()
}

// Deliver turns a unit into a job: the record itself is made and its PDU
// decoded or built on the back end.
func (h *tcpConn) Deliver(u *reassembly.Unit) {
	if h.ignore && h.proto == nil {
		h.unclaimed(u) // counted, reported once at close (notes.go)
		return
	}
	if h.proto == nil && h.deferUnit(u) {
		return
	}
	h.job(u, h.reason[u.Dir], false)
}

// headAt is the head of frame: the frame being fed, or this connection's
// last (a record decided by a sweep or the end).
func (h *tcpConn) headAt(frame uint64) *head {
	c := h.info
	return h.t.a.net.headOf(frame, c)
}

// job makes u's job; why is the framer's last reason for losing bytes in
// its direction. A unit delivered before the protocol was named (replay) is
// made as it was then: as undissected bytes, never decoded.
func (h *tcpConn) job(u *reassembly.Unit, why string, replay bool) {
	a := h.t.a
	j := a.newJob()
	j.op, j.frame, j.time, j.dir = opEmit, u.Frame, u.Time, ddir(u.Dir)
	j.side = h.side(u.Dir, u.Conn)
	j.off = u.StreamOffset
	j.head = a.addHead(h.headAt(u.Frame))
	switch u.Kind {
	case reassembly.KindPDU:
		h.decodeJob(j)
	case reassembly.KindGap:
		j.kind, j.gapLen, j.reason = record.KindGap, u.Length, u.Reason
		if h.dec != nil && !replay {
			j.op = opGap
		}
	case reassembly.KindConflict:
		j.kind, j.reason = record.KindConflict, u.Reason
	default:
		if !replay && u.Reason == reassembly.ReasonIncomplete && h.atEnd(j, u) {
			break
		}
		if !replay && h.cut(j, u) {
			break
		}
		j.kind, j.reason = record.KindUndissected, u.Reason
		if why != "" && (replay || h.proto == nil || u.Reason != reassembly.ReasonIncomplete && u.Reason != reassembly.ReasonNotCaptured) {
			j.reason = why
		}
	}
	b := a.pp.cur
	j.parts = span{int32(len(b.parts)), int32(len(u.Parts))}
	for _, p := range u.Parts {
		b.parts = append(b.parts, record.Part{Frame: p.Frame, Bytes: p.Bytes})
	}
	a.commit(u.Data)
}

// decodeJob makes j the back end's job of decoding a PDU of this connection.
func (h *tcpConn) decodeJob(j *job) {
	j.op, j.kind = opTCP, record.KindPDU
}

// rootField is the protocol's own field, or the core's for unclaimed streams.
func rootField(proto string) *dissect.Field {
	if f, _, ok := dissect.LookupField(proto); ok && f.Type == dissect.FTProtocol {
		return f
	}
	return dissect.Core.Root()
}

func undissectedPDU(p *dissect.PDU, proto string, dir dissect.Dir, data []byte, off int64, reason string) {
	c := dissect.Begin(p, rootField(proto), data, len(data))
	i := c.Field(dissect.FieldUndissected, len(data), dissect.B(data))
	p.AddGenerated(i, dissect.FieldUndissectedLength, dissect.U(uint64(len(data))), "")
	p.AddExpert(i, record.ExpertStreamLost, itoa(len(data))+" bytes at stream offset "+itoa64(off)+" not dissected: "+reason)
	c.Finish()
	p.Dir = dir
	p.Message = "Undissected bytes"
	p.Info = "[" + itoa(len(data)) + " undissected bytes: " + reason + "]"
}

func gapPDU(p *dissect.PDU, proto string, dir dissect.Dir, length int, off int64, reason string) {
	c := dissect.Begin(p, rootField(proto), nil, 0)
	i := p.AddGenerated(0, record.FieldGap, dissect.Value{}, "")
	p.AddGenerated(i, record.PFGapLength, dissect.U(uint64(length)), "")
	p.AddGenerated(i, FieldLostSegment, dissect.Value{}, "") // Wireshark's name for a hole in the stream
	p.AddExpert(i, record.ExpertGap, itoa(length)+" bytes missing at stream offset "+itoa64(off)+" ("+reason+"); nothing is parsed across them")
	c.Finish()
	p.Dir = dir
	p.Message = "Missing bytes"
	p.Info = "[" + itoa(length) + " bytes missing: " + reason + "]"
}

func conflictPDU(p *dissect.PDU, proto string, dir dissect.Dir, data []byte, off int64) {
	c := dissect.Begin(p, rootField(proto), data, len(data))
	i := c.Field(record.FieldRetrans, len(data), dissect.U(uint64(len(data))))
	p.AddExpert(i, record.ExpertRetransDiffer, itoa(len(data))+" retransmitted bytes at stream offset "+itoa64(off)+" differ from the first copy, which was used")
	c.Finish()
	p.Dir = dir
	p.Message = "Differing retransmission"
	p.Info = "[retransmission with " + itoa(len(data)) + " differing bytes; first copy used]"
}

// Closed tells the protocol connection that no more bytes will come, so
// that it can let go of requests still waiting for a response.
func (h *tcpConn) Closed(c *reassembly.ConnInfo) {
	h.undefer()
	h.reportUnclaimed(c)
	if h.dec != nil {
		client := netip.AddrPortFrom(c.Client.IP, c.Client.Port)
		e := h.t.w.endOf(c, client, h.t.closing)
		h.t.a.submit(job{op: opClose, side: h.side(reassembly.ClientToServer, h.info), gapLen: int(e.How), dir: e.By, frame: e.Frame, time: e.Time})
	}
}

// closeEnd is how the connection of an opClose job ended.
func closeEnd(j *job) dissect.ConnEnd {
	return dissect.ConnEnd{How: dissect.ConnHow(j.gapLen), By: j.dir, Frame: j.frame, Time: j.time}
}

// cut makes j the decoding of u, the start of a PDU cut by the
// connection's end or by a gap whose length the framer gave, when the
// protocol decodes cut PDUs: it is shown as far as its bytes go rather
// than as undissected bytes.
func (h *tcpConn) cut(j *job, u *reassembly.Unit) bool {
	if u.Need <= len(u.Data) || u.Need > 1<<30 || h.dec == nil || !h.proto.DecodesCut || h.reason[u.Dir] != "" {
		return false
	}
	h.decodeJob(j)
	j.wire = int32(u.Need)
	return true
}

// atEnd offers the bytes left when a direction ended to the protocol's
// FrameAtEnd. When it frames them all, they become one PDU (j its decoding job);
// otherwise nothing is done and they stay undissected.
func (h *tcpConn) atEnd(j *job, u *reassembly.Unit) bool {
	if h.conn == nil {
		return false
	}
	f := h.conn.FrameAtEnd(j.dir, u.Data)
	if f.Status == dissect.FrameNeedMore && f.Len > len(u.Data) && h.reason[u.Dir] == "" {
		// Cut by the end, though the framer had no length to wait for
		// (an HTTP head without its empty line): decoded as cut, when
		// the protocol decodes cut PDUs (cut, back.go).
		if h.proto.DecodesCut {
			h.decodeJob(j)
			j.wire = int32(min(f.Len, 1<<30))
			return true
		}
	}
	if f.Status != dissect.FrameOK || f.Len != len(u.Data) {
		return false
	}
	h.decodeJob(j)
	return true
}

func (h *tcpConn) reframe() {
	if h.proto != nil {
		h.t.r.Reframe()
	}
}

// detectServer decides the protocol from the server's first bytes, among
// the connection's candidates: forms only a server of that protocol sends,
// strong enough to decide on any port (a status response whose lengths
// agree and whose JSON closes where it ends; a Classic identification).
func (h *tcpConn) detectServer(buf []byte) bool {
	for _, c := range h.cands {
		if c.p.DetectServer != nil && c.p.DetectServer(buf) == dissect.DetectYes {
			h.setProto(c.p)
			return true
		}
	}
	return false
}

// midStream picks the protocol of a stream whose start the capture missed
// (or whose first bytes are missing). A protocol is kept only when its
// framer proves a frame boundary in buf: skipping what it must, it reaches
// a PDU (Classic a run of valid fixed-length packets, SLP a frame of the
// status state or a handshake; see their resync). On a port that is not
// the protocol's (heuristics), it must reach two PDUs in a row. The
// server's first bytes may decide too (detectServer). Until one proves
// itself, the bytes wait, up to maxDetectBytes, for the other direction
// to decide; then, on a port of ours, this side's bytes are skipped and no
// longer tried while the other side may still decide (its framer then
// resyncs this side), and once both sides gave up they are reported as
// undissected bytes of the port's first protocol; on a port that is none
// of ours they are ignored.
func (h *tcpConn) midStream(dir reassembly.Dir, buf []byte) reassembly.FrameResult {
	if h.gaveUp[dir] {
		return reassembly.Skip(len(buf))
	}
	need := false
	var first *protocols.Protocol
	for _, c := range h.cands {
		if first == nil && c.byPort && c.p.Shared == nil {
			first = c.p
		}
		want := 1
		if !c.byPort {
			want = 2
		}
		switch proves(c.p.NewConn(h.t.a.run), dir, buf, want) {
		case dissect.DetectYes:
			h.setProto(c.p)
			return h.result(dir, h.conn.Frame(ddir(dir), buf, true))
		case dissect.DetectNeedMore:
			need = true
		}
	}
	if dir == reassembly.ServerToClient && h.detectServer(buf) {
		return h.result(dir, h.conn.Frame(ddir(dir), buf, true))
	}
	if dir == reassembly.ServerToClient && h.waitLen > 0 {
		for _, c := range h.cands {
			if c.p.DetectPair != nil && c.p.DetectPair(h.wait[:h.waitLen], buf) == dissect.DetectYes {
				h.setProto(c.p)
				return h.result(dir, h.conn.Frame(ddir(dir), buf, true))
			}
		}
	}
	if len(h.cands) > 0 && len(buf) < maxDetectBytes && (need || first == nil) {
		h.reason[dir] = h.midwayReason("no PDU boundary found")
		if dir == reassembly.ClientToServer {
			h.waitLen = 0
			if len(buf) <= maxPairBytes {
				h.waitLen = uint8(copy(h.wait[:], buf))
			}
		}
		return reassembly.NeedMore(0)
	}
	if first == nil {
		h.ignore = true
		h.undefer()
		return reassembly.Lost()
	}
	if !h.gaveUp[1-dir] {
		// No protocol proved itself within the wait: this side's bytes
		// are skipped, no longer tried (a weak proof found in a long run
		// of bytes, encrypted play traffic, say, would be false), and the
		// other side may still decide; this side's framer then resyncs
		// (SLP: a status response picked up mid-way and longer than the
		// wait, then the pong of a ping the client sends).
		h.gaveUp[dir] = true
		h.reason[dir] = h.midwayReason("no PDU boundary found")
		return reassembly.Skip(len(buf))
	}
	h.setProto(first)
	h.guessed = true
	h.reason[dir] = h.midwayReason("no " + first.Name + " PDU boundary found")
	return reassembly.Lost()
}

// proves runs a fresh framer over buf as the reassembler would after a
// gap: dissect.DetectYes when it reaches want PDUs in a row (after skipping bytes,
// if it must), dissect.DetectNeedMore when it waits for bytes first, dissect.DetectNo when
// it gives up.
func proves(conn protocols.Conn, dir reassembly.Dir, buf []byte, want int) dissect.Detection {
	afterGap := true
	for pos := 0; pos < len(buf); {
		f := conn.Frame(ddir(dir), buf[pos:], afterGap)
		switch f.Status {
		case dissect.FrameOK:
			if want--; want == 0 {
				return dissect.DetectYes
			}
			afterGap = false
			pos += f.Len
		case dissect.FrameNeedMore:
			return dissect.DetectNeedMore
		case dissect.FrameSkip:
			if f.Len <= 0 || !afterGap {
				return dissect.DetectNo
			}
			pos += f.Len
		default:
			return dissect.DetectNo
		}
	}
	return dissect.DetectNeedMore
}

// Bounds of the records a connection keeps waiting for its protocol to be
// named: past them, they are made at once, saying "tcp" as before.
const (
	maxDeferred      = 16
	maxDeferredBytes = 4 << 10
)

// deferUnit keeps u's record, delivered before the connection's protocol
// is named, until it is (undefer): a gap before a stream's first PDU
// then says "slp", not "tcp". It reports whether it kept it. The record is
// made at the frame that names the protocol, or that ends the connection
// without one: the frame that decides what the record says.
func (h *tcpConn) deferUnit(u *reassembly.Unit) bool {
	c := *u
	c.Data = append([]byte(nil), u.Data...)
	c.Parts = append([]reassembly.Part(nil), u.Parts...)
	why := h.reason[u.Dir]
	return h.deferRec(len(u.Data), func() {
		c.Frame, c.Time = h.info.Frame, h.info.Time
		h.job(&c, why, true)
	})
}

// deferRec keeps mk, the making of a record of n bytes, while the
// protocol is not named; it reports whether it did.
func (h *tcpConn) deferRec(n int, mk func()) bool {
	if h.noDefer {
		return false
	}
	if len(h.deferred) >= maxDeferred || h.defBytes+n > maxDeferredBytes {
		h.undefer()
		h.noDefer = true
		return false
	}
	h.deferred = append(h.deferred, mk)
	h.defBytes += n
	return true
}

// undefer makes the records kept by deferUnit, in the order they came:
// the protocol is named, or never will be.
func (h *tcpConn) undefer() {
	if d := h.deferred; len(d) > 0 {
		h.deferred, h.defBytes = nil, 0
		for _, mk := range d {
			mk()
		}
	}
}

package analyze

import (
	"encoding/binary"
	"net/netip"
	"strconv"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"
)

// ICMP errors about Minecraft traffic: a Query sent to a port where
// nothing listens is answered by the host's ICMP port unreachable (ICMPv6
// destination unreachable, code 4), which quotes the datagram. Such an
// ICMP destination unreachable, when the datagram it quotes is one of a
// Minecraft protocol's (routed as the datagram itself was: -d, the ports,
// a server learned, the heuristics) or a TCP segment to a Minecraft port,
// is a record of its own (protocol icmp or icmpv6, its layers as tshark
// shows them, the quoted IP and UDP headers inside), linked both ways to
// the request it answers: the request's outcome is refused (mc.outcome,
// mc.outcome.frame the ICMP's), the ICMP names the request
// (mc.request_in). Other ICMP messages are not Minecraft's business and
// are not shown.

// quoted is the datagram an ICMP error quotes: its transport (6, 17),
// ends and, for UDP, the payload bytes quoted.
type quoted struct {
	proto    uint8
	src, dst netip.AddrPort
	payload  []byte
	v6       bool
	code     uint8
	hdr      int // the ICMP message's bytes to keep for the layers: header and quoted headers
}

// parseUnreachable reads an ICMP (v6: ICMPv6) destination unreachable in
// b, the IP payload: its code and what it quotes. ok is false for any
// other message, or a quote too short to name the ports.
func parseUnreachable(b []byte, v6 bool) (q quoted, ok bool) {
	if len(b) < 8 {
		return q, false
	}
	if v6 && b[0] != 1 || !v6 && b[0] != 3 {
		return q, false
	}
	q.v6, q.code = v6, b[1]
	ip := b[8:]
	var next uint8
	var hl int
	switch {
	case len(ip) >= 20 && ip[0]>>4 == 4:
		hl = int(ip[0]&15) * 4
		if hl < 20 || len(ip) < hl || binary.BigEndian.Uint16(ip[6:8])&0x1fff != 0 {
			return q, false // cut, or a later fragment: no ports
		}
		next = ip[9]
		s, _ := netip.AddrFromSlice(ip[12:16])
		d, _ := netip.AddrFromSlice(ip[16:20])
		q.src, q.dst = netip.AddrPortFrom(s, 0), netip.AddrPortFrom(d, 0)
	case len(ip) >= 40 && ip[0]>>4 == 6:
		hl, next = 40, ip[6]
		s, _ := netip.AddrFromSlice(ip[8:24])
		d, _ := netip.AddrFromSlice(ip[24:40])
		q.src, q.dst = netip.AddrPortFrom(s, 0), netip.AddrPortFrom(d, 0)
	default:
		return q, false
	}
	t := ip[hl:]
	if (next != 6 && next != 17) || len(t) < 8 {
		return q, false
	}
	q.proto = next
	q.src = netip.AddrPortFrom(q.src.Addr(), binary.BigEndian.Uint16(t[0:2]))
	q.dst = netip.AddrPortFrom(q.dst.Addr(), binary.BigEndian.Uint16(t[2:4]))
	q.hdr = 8 + hl + 8
	switch {
	case next == 17:
		q.payload = t[8:]
	case len(t) >= 20 && t[12]>>4 >= 5:
		q.hdr = 8 + hl + min(int(t[12]>>4)*4, len(t))
	}
	return q, true
}

// icmp makes the record of the frame being fed when it is an ICMP
// destination unreachable about Minecraft traffic; it reports whether
// the frame was ICMP at all (nothing else to do with it then).
func (a *Analyzer) icmp(ci frameCI) bool {
	if len(a.decoded) == 0 {
		return false
	}
	var payload []byte
	v6 := false
	switch last := a.decoded[len(a.decoded)-1]; {
	case last == layers.LayerTypeIPv4 && a.ip4.Protocol == layers.IPProtocolICMPv4:
		payload = a.ip4.Payload
	case last == layers.LayerTypeIPv6 && a.ip6.NextHeader == layers.IPProtocolICMPv6:
		payload, v6 = a.ip6.Payload, true
	default:
		return false
	}
	q, ok := parseUnreachable(payload, v6)
	if !ok {
		return true
	}
	udp := udpNone
	var link decided
	switch q.proto {
	case 17:
		p, dir, ok := a.routeQuoted(q.src, q.dst, q.payload)
		if !ok || dir != dissect.DirC2S {
			return true
		}
		udp = p
	case 6:
		w := a.tcpState.w
		if !w.ports[q.dst.Port()] && !w.server(q.dst) {
			return true
		}
		link = w.refusedByICMP(q, a.frame, ci.ts)
	}
	a.keepHead(q.hdr)
	src, dst := a.endpoints(0, 0)
	proto := "icmp"
	if v6 {
		proto = "icmpv6"
	}
	j := a.newJob()
	j.op, j.kind, j.frame, j.time, j.dir, j.udp, j.proto = opICMP, record.KindNote, a.frame, ci.ts, dissect.DirS2C, udp, proto
	j.gapLen = int(q.code)
	j.out = link
	j.head = a.addHead(&a.net.cur)
	b := a.pp.cur
	j.addrs = int32(len(b.addrs))
	b.addrs = append(b.addrs, src, dst, q.src, q.dst)
	a.commit(nil)
	return true
}

// routeQuoted is routeUDP for a datagram an ICMP error quotes: the same
// choice, without learning anything from it.
func (a *Analyzer) routeQuoted(src, dst netip.AddrPort, payload []byte) (uint8, dissect.Dir, bool) {
	if p, serverIsDst, ok := a.decodeAs(protocols.UDP, src.Port(), dst.Port()); ok {
		return a.udpIndex(p), dirOf(serverIsDst), true
	}
	if i, ok := a.learned[dst]; ok {
		return i, dissect.DirC2S, true
	}
	for i, p := range a.udpProtos {
		if _, byPort := onPort(p, src.Port(), dst.Port()); p.Proof && (byPort || !a.opts.NoHeuristics) {
			if d, ok := p.Looks(payload); ok {
				return uint8(i), d, true
			}
		}
	}
	for i, p := range a.udpProtos {
		if p.Proof {
			continue
		}
		for _, port := range p.Ports {
			if port == dst.Port() {
				return uint8(i), dissect.DirC2S, true
			}
		}
	}
	if a.opts.NoHeuristics {
		return 0, dissect.DirUnknown, false
	}
	for i, p := range a.udpProtos {
		if !p.Proof {
			if d, ok := p.Looks(payload); ok {
				return uint8(i), d, true
			}
		}
	}
	return 0, dissect.DirUnknown, false
}

// refusedByICMP decides the connection attempt an ICMP error about its
// SYN answers, if one waits, and returns the link its record shows.
func (w *tcpWatch) refusedByICMP(q quoted, frame uint64, t time.Time) decided {
	et := layers.EndpointIPv4
	if q.src.Addr().Is6() {
		et = layers.EndpointIPv6
	}
	flow := gopacket.NewFlow(et, q.src.Addr().AsSlice(), q.dst.Addr().AsSlice())
	c := w.a.tcpState.r.Find(flow, q.src.Port(), q.dst.Port())
	if c == nil {
		return decided{}
	}
	e, ok := c.Ends.(*watched)
	if !ok || e.state != wSYN || e.client != q.src {
		return decided{}
	}
	why := "ICMP " + lower(netlayers.ICMPUnreachable(q.v6, q.code))
	w.attempt(e, dissect.End{Outcome: dissect.Refused, Frame: frame, Time: t, Via: why})
	e.state = wDone
	e.head = nil
	last := e.syn[min(int(e.nSYN), maxSYNParts)-1]
	return decided{frame: last, outcome: dissect.Refused, dt: t.Sub(e.synT)}
}

// ICMP records' fields and expert items.
var (
	ExpertUnreachable = netlayers.RegICMP.Expert("icmp.unreachable", dissect.SevWarn, "an ICMP destination unreachable about a Minecraft request: nothing listens on the port, or the host or network cannot be reached")
	ExpertUnreach6    = netlayers.RegICMP6.Expert("icmpv6.unreachable", dissect.SevWarn, "an ICMPv6 destination unreachable about a Minecraft request: nothing listens on the port, or the address cannot be reached")
)

// refuser is a UDP tracker that can end a waiting request with an ICMP
// error (query.Tracker.Refused).
type refuser interface {
	Refused(m dissect.Meta, why string) (request uint64, ok bool)
}

// icmpPDU makes the ICMP record r's PDU, and ends the request it answers:
// a UDP protocol's, through its tracker, or a SYN the watch decided
// (out). client and server are the ends of the quoted datagram.
func (a *backEnd) icmpPDU(j *job, r *record.Record, client, server netip.AddrPort) {
	p := &r.PDU
	v6 := r.Proto == "icmpv6"
	reg, ex := netlayers.RegICMP, ExpertUnreachable
	if v6 {
		reg, ex = netlayers.RegICMP6, ExpertUnreach6
	}
	code := netlayers.ICMPUnreachable(v6, uint8(j.gapLen))
	c := dissect.Begin(p, reg.Root(), nil, 0)
	p.Dir = dissect.DirS2C
	var what string
	req := uint64(0)
	switch {
	case j.udp != udpNone:
		what = "the " + a.udpProtos[j.udp].Column + " datagram from " + client.String() + " to " + server.String()
		if t, ok := a.trackers[j.udp].(refuser); ok && !p.Lite {
			m := dissect.Meta{Frame: r.Frame, Time: r.Time, Client: a.keys.of(client), Server: a.keys.of(server), Dir: dissect.DirC2S}
			if f, ok := t.Refused(m, "ICMP "+lower(code)); ok {
				req = f
				p.AddGenerated(0, dissect.FieldRequestIn, dissect.U(req), "")
			}
		}
	case j.out.frame != 0:
		what = "the SYN from " + client.String() + " to " + server.String()
		req = j.out.frame
		p.AddGenerated(0, dissect.FieldRequestIn, dissect.U(req), "")
	default:
		what = "a TCP segment from " + client.String() + " to " + server.String()
	}
	msg := code + " for " + what
	if req != 0 {
		msg += " (frame " + strconv.FormatUint(req, 10) + ")"
	} else {
		msg += ": no request of it waits"
	}
	p.AddExpert(0, ex, msg)
	c.Finish()
	p.Message = "Destination unreachable"
	if v6 {
		p.Message = "Destination Unreachable"
	}
	// the same with or without a tree (Lite): the link is in the tree only
	p.Info = p.Message + " (" + code + ") for " + client.String() + " → " + server.String()
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

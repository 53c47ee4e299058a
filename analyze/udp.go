package analyze

import (
	"net/netip"

	"github.com/gopacket/gopacket"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"
)

// maxLearned bounds the servers learned from heuristic matches.
const maxLearned = 4096

// udpNone is a datagram job's udp for records of no UDP protocol (IP
// fragments never completed): their protocol is "ip".
const udpNone uint8 = 255

// datagramProto is the mc.protocol of the records of a datagram job's
// protocol (its index in udpProtos).
func (a *backEnd) datagramProto(p uint8) string {
	if int(p) < len(a.udpProtos) {
		return a.udpProtos[p].Registry.Proto
	}
	return "ip"
}

// routeUDP picks a datagram's protocol (its index in udpProtos) and direction:
// a -d rule, then a proof (RakNet's magic) on any port, then a server a
// protocol's heuristic learned, then the default ports, then the
// heuristics.
func (a *Analyzer) routeUDP(src, dst netip.AddrPort, payload []byte) (uint8, dissect.Dir, bool) {
	if p, serverIsDst, ok := a.decodeAs(protocols.UDP, src.Port(), dst.Port()); ok {
		return a.udpIndex(p), dirOf(serverIsDst), true
	}
	for i, p := range a.udpProtos {
		if !p.Proof {
			continue
		}
		if _, byPort := onPort(p, src.Port(), dst.Port()); a.opts.NoHeuristics && !byPort {
			continue
		}
		if d, ok := p.Looks(payload); ok {
			a.foundUDP(p, src, dst, d)
			return uint8(i), d, true
		}
	}
	if i, ok := a.learned[dst]; ok {
		return i, dissect.DirC2S, true
	}
	if i, ok := a.learned[src]; ok {
		return i, dissect.DirS2C, true
	}
	// By port: not for a protocol known by proof (Geyser answers Query on
	// Bedrock's port 19132: what is not RakNet there may be Query).
	for i, p := range a.udpProtos {
		if p.Proof {
			continue
		}
		for _, port := range p.Ports {
			switch port {
			case dst.Port():
				return uint8(i), dissect.DirC2S, true
			case src.Port():
				return uint8(i), dissect.DirS2C, true
			}
		}
	}
	if a.opts.NoHeuristics {
		return 0, dissect.DirUnknown, false
	}
	for i, p := range a.udpProtos {
		if p.Proof {
			continue
		}
		if d, ok := p.Looks(payload); ok {
			if p.Learn && len(a.learned) < maxLearned {
				server := dst
				if d == dissect.DirS2C {
					server = src
				}
				a.learned[server] = uint8(i)
			}
			a.foundUDP(p, src, dst, d)
			return uint8(i), d, true
		}
	}
	return 0, dissect.DirUnknown, false
}

// udpIndex is p's index in udpProtos.
func (a *Analyzer) udpIndex(p *protocols.Protocol) uint8 {
	for i, q := range a.udpProtos {
		if q == p {
			return uint8(i)
		}
	}
	return udpNone
}

// handleUDP routes a datagram and makes its job.
func (a *Analyzer) handleUDP(ci gopacket.CaptureInfo, src, dst netip.AddrPort, payload []byte, wireLen int, parts []record.Part) {
	p, dir, ok := a.routeUDP(src, dst, payload)
	if !ok {
		return
	}
	if int(p) < len(a.udpProtos) {
		a.routed = a.udpProtos[p].Name
	}
	j := a.newJob()
	j.op, j.kind, j.frame, j.time, j.dir, j.wire, j.udp = opUDP, record.KindPDU, a.frame, ci.Timestamp, dir, int32(wireLen), p
	b := a.pp.cur
	j.addrs = int32(len(b.addrs))
	b.addrs = append(b.addrs, src, dst)
	j.head = a.addHead(&a.net.cur)
	a.addParts(j, parts)
	a.commit(payload)
}

func dirOf(serverIsDst bool) dissect.Dir {
	if serverIsDst {
		return dissect.DirC2S
	}
	return dissect.DirS2C
}

// expire runs every tracker's Expire at the back end's packet time.
func (a *backEnd) expire() {
	for _, t := range a.trackers {
		if t != nil {
			t.Expire(a.bnow)
		}
	}
}

// addrKeys remembers the "ip:port" strings the trackers key conversations
// by, so that a datagram does not format its two addresses again. It is
// direct-mapped, as render's pairCache: a clash formats again. A map
// cost more than that, its entries scattered over a megabyte: a capture
// of many short Query sessions looks up two addresses per datagram, most
// of them seen a few datagrams before.
type addrKeys struct{ slots *[addrKeySlots]addrKey }

type addrKey struct {
	a netip.AddrPort
	s string
}

const addrKeySlots = 4096 // a power of two

func (k *addrKeys) of(a netip.AddrPort) string {
	if k.slots == nil {
		k.slots = new([addrKeySlots]addrKey)
	}
	e := &k.slots[addrHash(a)&(addrKeySlots-1)]
	if e.s == "" || e.a != a {
		e.a, e.s = a, a.String()
	}
	return e.s
}

// addrHash mixes the port and the address's last four bytes, which tell
// a capture's hosts apart.
func addrHash(a netip.AddrPort) uint32 {
	b := a.Addr().As16()
	h := uint32(a.Port()) ^ (uint32(b[12])<<24 | uint32(b[13])<<16 | uint32(b[14])<<8 | uint32(b[15]))
	h *= 0x9e3779b1 // Fibonacci hashing: the high bits mix all the input
	return h >> 16
}

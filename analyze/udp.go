package analyze

import (
	"net/netip"

	"github.com/gopacket/gopacket"

	"github.com/mcdissect/mcdissect/dissect"
)

// maxQueryServers bounds the servers learned from heuristic matches.
const maxQueryServers = 4096

// PortBedrock is a Bedrock server's default port (RakNet).
const PortBedrock = 19132

// routeUDP picks a datagram's protocol and direction: a -d rule, then a
// proof (RakNet's magic) on any port, then a server learned by the Query
// heuristic, then the default ports, then the heuristics.
func (a *Analyzer) routeUDP(src, dst netip.AddrPort, payload []byte) (uint8, dissect.Dir, bool) {
	if name, serverIsDst, ok := a.decodeAs(false, src.Port(), dst.Port()); ok {
		p, ok := udpProtoByName(name)
		return p, dirOf(serverIsDst), ok
	}
	for i := range udpProtocols {
		p := &udpProtocols[i]
		if !p.proof || a.opts.NoHeuristics && src.Port() != p.port && dst.Port() != p.port {
			continue
		}
		if d, ok := p.looks(payload); ok {
			return uint8(i), d, true
		}
	}
	if _, ok := a.queryServers[dst]; ok {
		return udpQuery, dissect.DirC2S, true
	}
	if _, ok := a.queryServers[src]; ok {
		return udpQuery, dissect.DirS2C, true
	}
	// By port: not for a protocol known by proof (Geyser answers Query on
	// Bedrock's port 19132: what is not RakNet there may be Query).
	for i := range udpProtocols {
		if udpProtocols[i].proof {
			continue
		}
		switch udpProtocols[i].port {
		case dst.Port():
			return uint8(i), dissect.DirC2S, true
		case src.Port():
			return uint8(i), dissect.DirS2C, true
		}
	}
	if a.opts.NoHeuristics {
		return 0, dissect.DirUnknown, false
	}
	for i := range udpProtocols {
		p := &udpProtocols[i]
		if p.proof {
			continue
		}
		if d, ok := p.looks(payload); ok {
			if p.learn && len(a.queryServers) < maxQueryServers {
				server := dst
				if d == dissect.DirS2C {
					server = src
				}
				a.queryServers[server] = struct{}{}
			}
			return uint8(i), d, true
		}
	}
	return 0, dissect.DirUnknown, false
}

// handleUDP routes a datagram and makes its job.
func (a *Analyzer) handleUDP(ci gopacket.CaptureInfo, src, dst netip.AddrPort, payload []byte, wireLen int, parts []Part) {
	p, dir, ok := a.routeUDP(src, dst, payload)
	if !ok {
		return
	}
	if parts == nil {
		a.net.udp(a, a.udp.Length)
	} else {
		a.net.udp(a, uint16(wireLen+8))
	}
	j := a.newJob()
	j.op, j.kind, j.frame, j.time, j.dir, j.wire, j.udp = opUDP, KindPDU, a.frame, ci.Timestamp, dir, int32(wireLen), p
	b := a.pp.cur
	j.addrs = int32(len(b.addrs))
	b.addrs = append(b.addrs, src, dst)
	j.lay = a.net.cur
	a.addParts(j, parts)
	a.commit(payload)
}

func init() {
	protoColumn["raknet"] = "RakNet"
}

func dirOf(serverIsDst bool) dissect.Dir {
	if serverIsDst {
		return dissect.DirC2S
	}
	return dissect.DirS2C
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

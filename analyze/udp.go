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
	b := a.curBatch()
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
// bounded: when full it starts afresh.
type addrKeys struct{ m map[netip.AddrPort]string }

const maxAddrKeys = 8192

func (k *addrKeys) of(a netip.AddrPort) string {
	if s, ok := k.m[a]; ok {
		return s
	}
	if k.m == nil || len(k.m) >= maxAddrKeys {
		k.m = make(map[netip.AddrPort]string, 256)
	}
	s := a.String()
	k.m[a] = s
	return s
}

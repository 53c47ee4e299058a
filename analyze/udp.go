package analyze

import (
	"net/netip"

	"github.com/google/gopacket"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/query"
)

// maxQueryServers bounds the servers learned from heuristic matches.
const maxQueryServers = 4096

// handleUDP routes a datagram: a -d rule, then the default port, then the
// Query heuristic (which also learns the server, so that its replies, whose
// shape is less telling, are recognised too).
func (a *Analyzer) handleUDP(ci gopacket.CaptureInfo, src, dst netip.AddrPort, payload []byte, wireLen int, parts []Part) {
	dir := dissect.DirUnknown
	if proto, serverIsDst, ok := a.decodeAs(false, src.Port(), dst.Port()); ok {
		if proto != "query" {
			return
		}
		dir = dirOf(serverIsDst)
	} else if _, ok := a.queryServers[dst]; ok {
		dir = dissect.DirC2S
	} else if _, ok := a.queryServers[src]; ok {
		dir = dissect.DirS2C
	} else if dst.Port() == PortMinecraft {
		dir = dissect.DirC2S
	} else if src.Port() == PortMinecraft {
		dir = dissect.DirS2C
	} else if a.opts.NoHeuristics {
		return
	} else if d, ok := query.Looks(payload); ok {
		dir = d
		server := dst
		if d == dissect.DirS2C {
			server = src
		}
		if len(a.queryServers) < maxQueryServers {
			a.queryServers[server] = struct{}{}
		}
	} else {
		return
	}
	if parts == nil {
		a.net.udp(a, a.udp.Length)
	} else {
		a.net.udp(a, uint16(wireLen+8))
	}
	j := a.newJob()
	j.op, j.kind, j.frame, j.time, j.dir, j.wire = opQuery, KindPDU, a.frame, ci.Timestamp, dir, int32(wireLen)
	b := a.curBatch()
	j.addrs = int32(len(b.addrs))
	b.addrs = append(b.addrs, src, dst)
	j.lay = a.net.cur
	a.addParts(j, parts)
	a.commit(payload)
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

package analyze

import (
	"net/netip"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
)

// Found is a server whose protocol the heuristics recognised on a port
// that is not the protocol's own: a live capture that discovers servers
// makes its kernel filter pass that port (Options.OnFound).
type Found struct {
	Transport string // "tcp" or "udp"
	Server    netip.AddrPort
	Protocol  string // the -d name: slp, classic, query, raknet
}

// found reports a TCP connection's protocol when it was not told by the
// server's port (the heuristics, or a -d rule). A protocol on a port it
// shares with other traffic (the heartbeat) is not reported: its port is
// not to be passed whole.
func (h *tcpConn) found(p *protocols.Protocol) {
	on := h.t.a.opts.OnFound
	if _, own := onPort(p, h.info.Server.Port, h.info.Server.Port); on == nil || p.Shared != nil || own {
		return
	}
	on(Found{Transport: "tcp", Server: netip.AddrPortFrom(h.info.Server.IP, h.info.Server.Port), Protocol: p.Name})
}

// foundUDP reports a datagram's protocol recognised by its heuristics on
// another port than the protocol's own; d is the datagram's direction. A
// protocol told by its magic (RakNet) counts from the server's answer: a
// client pings any port (gamedig pings a Java server's for Bedrock too).
func (a *Analyzer) foundUDP(p *protocols.Protocol, src, dst netip.AddrPort, d dissect.Dir) {
	if a.opts.OnFound == nil || p.Proof && d != dissect.DirS2C {
		return
	}
	server := dst
	if d == dissect.DirS2C {
		server = src
	}
	if _, own := onPort(p, server.Port(), server.Port()); own {
		return
	}
	a.opts.OnFound(Found{Transport: "udp", Server: server, Protocol: p.Name})
}

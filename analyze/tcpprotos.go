package analyze

import (
	"github.com/mcdissect/mcdissect/dissect/classic"
	"github.com/mcdissect/mcdissect/dissect/slp"
)

// tcpProtocols is the routing table of the TCP protocols, in the order
// their detectors are asked. SLP and Classic share port 25565: which one a
// connection speaks is decided by the client's first bytes, or, when the
// capture lost them, by the server's (detectServer) or by which framer
// proves a frame boundary (midStream). The heartbeat
// is Classic's HTTP side: its records say mc.protocol "classic".
var tcpProtocols = []tcpProto{
	{name: "slp", proto: "slp", port: PortMinecraft, detect: slp.Detect, detectServer: slp.DetectServer,
		detectPair: slp.DetectPingPong,
		newConn: func(t *tcpState) streamConn {
			c := slp.NewConn()
			c.Later = t.a.opts.Later
			return c
		}},
	// A Classic server identifies itself with the same packet as the
	// client (00, protocol version, two 64-byte texts, one byte).
	{name: "classic", proto: "classic", port: PortMinecraft, detect: classic.Detect, detectServer: classic.Detect,
		newConn: func(t *tcpState) streamConn { return classic.NewConn(t.classic) }},
	{name: "heartbeat", proto: "classic", port: PortHTTP, detect: classic.DetectHeartbeat,
		newConn: func(t *tcpState) streamConn { return classic.NewHeartbeat(t.classic) }},
}

// initProtoState sets up the state that spans connections: the Classic
// heartbeat salts, which a player's connection checks its key against.
func initProtoState(t *tcpState) {
	t.classic = classic.NewSession()
	if t.a.opts.ClassicSalt != "" {
		t.classic.SetSalt(t.a.opts.ClassicSalt)
	}
}

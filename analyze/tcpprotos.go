package analyze

import (
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/slp"
)

// tcpProtocols is the routing table of the TCP protocols, in the order
// their detectors are asked. SLP and Classic share port 25565: which one a
// connection speaks is decided by the client's first bytes.
var tcpProtocols = []tcpProto{
	{name: "slp", port: PortMinecraft, detect: detectSLP, newConn: func(*tcpState) streamConn { return slp.NewConn() }},
}

func detectSLP(b []byte) detection {
	switch slp.Detect(b) {
	case slp.DetectYes:
		return detectYes
	case slp.DetectNeedMore:
		return detectNeedMore
	}
	return detectNo
}

// initProtoState sets up capture-wide protocol state.
func initProtoState(t *tcpState) {}

var _ = dissect.DirC2S

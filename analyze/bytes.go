package analyze

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
)

// Teaching addresses for bytes typed on the command line: documentation
// addresses (RFC 5737), the default port, and the Unix epoch as the time.
var (
	teachClient = netip.MustParseAddrPort("192.0.2.1:50000")
	teachServer = netip.MustParseAddrPort("192.0.2.2:25565")
)

// DecodeBytes dissects bytes given by hand (mcdissect decode): one Query
// datagram, or for the TCP protocols the bytes one side sent, framed into
// as many PDUs as they hold, with what is left reported as undissected.
func DecodeBytes(proto string, dir dissect.Dir, data []byte, emit func(*Record) error) error {
	src, dst := teachClient, teachServer
	if dir == dissect.DirS2C {
		src, dst = dst, src
	}
	switch proto {
	case "query", "raknet":
		r := &Record{Kind: KindPDU, Frame: 1, Time: time.Unix(0, 0).UTC(), Src: src, Dst: dst, Stream: -1, Proto: proto}
		d := r.setData(data)
		p, _ := udpProtoByName(proto)
		udpProtocols[p].decode(&r.PDU, d, len(d), dir)
		return emit(r)
	case "slp", "classic", "heartbeat":
		return decodeStreamBytes(proto, dir, src, dst, data, emit)
	}
	return fmt.Errorf("--proto %q: choose query, raknet, slp, classic or heartbeat", proto)
}

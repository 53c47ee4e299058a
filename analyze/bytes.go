package analyze

import (
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"
)

// Teaching addresses for bytes typed on the command line: documentation
// addresses (RFC 5737), the default port, and the Unix epoch as the time.
var (
	teachClient = netip.MustParseAddrPort("192.0.2.1:50000")
	teachServer = netip.MustParseAddrPort("192.0.2.2:25565")
)

// DecodeBytes dissects bytes given by hand (mcdissect decode): one
// datagram of a UDP protocol, or for a TCP protocol the bytes one side
// sent, framed into as many PDUs as they hold, with what is left reported
// as undissected.
func DecodeBytes(proto string, dir dissect.Dir, data []byte, emit func(*record.Record) error) error {
	src, dst := teachClient, teachServer
	if dir == dissect.DirS2C {
		src, dst = dst, src
	}
	p := protocols.ByName(proto)
	next := emit
	emit = func(r *record.Record) error {
		// No layers were captured: the frame is only its number.
		if len(r.Layers().Nodes) == 0 {
			r.SetLayers(nil, &netlayers.Frame{Number: r.Frame, Time: r.Time,
				Link: netlayers.LinkNone, Protocols: r.Proto, Stream: -1})
		}
		return next(r)
	}
	switch {
	case p == nil:
		return fmt.Errorf("--proto %q: choose one of %s", proto, strings.Join(protocols.Names(), ", "))
	case p.Transport == protocols.UDP:
		r := &record.Record{Kind: record.KindPDU, Frame: 1, Time: time.Unix(0, 0).UTC(), Src: src, Dst: dst, Stream: -1, Proto: p.Registry.Proto}
		d := r.SetData(data)
		p.Decode(&r.PDU, d, len(d), dir)
		return emit(r)
	}
	return decodeStreamBytes(p, dir, src, dst, data, emit)
}

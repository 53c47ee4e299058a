package analyze

import (
	"net/netip"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/reassembly"
	"github.com/mcdissect/mcdissect/record"
)

// decodeStreamBytes frames and decodes one side's bytes typed by hand, with
// the same handler a captured connection gets; bytes that do not make a
// whole PDU are reported as undissected, as at the end of a capture.
func decodeStreamBytes(p *protocols.Protocol, dir dissect.Dir, src, dst netip.AddrPort, data []byte, emit func(*record.Record) error) error {
	client, server := src, dst
	rdir := reassembly.ClientToServer
	if dir == dissect.DirS2C {
		client, server = dst, src
		rdir = reassembly.ServerToClient
	}
	info := &reassembly.ConnInfo{Client: reassembly.Endpoint{IP: client.Addr(), Port: client.Port()},
		Server: reassembly.Endpoint{IP: server.Addr(), Port: server.Port()}, SawSYN: true}
	var out error
	a := New(Options{}, SinkFunc(func(r *record.Record) error {
		if out == nil {
			out = emit(r)
		}
		return out
	}))
	h := &tcpConn{t: a.tcpState, info: info}
	h.setProto(p)
	t0 := time.Unix(0, 0).UTC()
	a.first = t0
	u := reassembly.Unit{Conn: info, Dir: rdir, Frame: 1, Time: t0}
	for off := 0; off < len(data); {
		rest := data[off:]
		res := h.Frame(rdir, rest, false)
		n, kind := 0, reassembly.KindPDU
		switch res.Status {
		case reassembly.FrameOK:
			n = res.Len
		case reassembly.FrameSkip:
			n, kind = min(res.Len, len(rest)), reassembly.KindUndissected
			u.Reason = reassembly.ReasonFramingLost
		case reassembly.FrameNeedMore:
			n, kind = len(rest), reassembly.KindUndissected
			u.Reason = reassembly.ReasonIncomplete
		default:
			n, kind = len(rest), reassembly.KindUndissected
			u.Reason = reassembly.ReasonFramingLost
		}
		if n <= 0 || n > len(rest) {
			n, kind = len(rest), reassembly.KindUndissected
		}
		u.Kind, u.Data, u.Length, u.StreamOffset = kind, rest[:n], n, int64(off)
		u.Parts = []reassembly.Part{{Frame: 1, Bytes: n}}
		h.Deliver(&u)
		off += n
	}
	// The bytes end here: a request among them has no response to wait for.
	h.Closed(info)
	a.Finish()
	return out
}

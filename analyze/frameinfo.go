package analyze

import (
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/mcdissect/mcdissect/record"
)

// observe calls Options.OnFrame for the frame being read. transport is 0
// for a frame with no TCP or UDP header (a fragment, another protocol);
// ip says whether the IP layer was decoded.
func (a *Analyzer) observe(ci frameCI, transport uint8, ip bool, sport, dport uint16) {
	a.opts.OnFrame(a.frameInfo(ci, transport, ip, sport, dport))
}

func (a *Analyzer) frameInfo(ci frameCI, transport uint8, ip bool, sport, dport uint16) record.FrameInfo {
	fi := record.FrameInfo{Frame: a.frame, Time: ci.ts, Len: ci.length, CapLen: int(a.net.cur.capl), Transport: transport, IP: ip, Link: a.net.cur.link}
	if ip && len(a.decoded) > 0 {
		fi.Src, fi.Dst = a.endpoints(sport, dport)
	}
	return fi
}

// frameCI is the part of gopacket.CaptureInfo observe uses.
type frameCI struct {
	ts     time.Time
	length int
}

// observeDecoded reports a frame whose layers are decoded, unless its
// transport is TCP or UDP: those are reported once routed (observeUDP,
// observeTCP), so that FrameInfo says which stream and protocol they
// went to. An IPv4 or IPv6 fragment has no transport.
func (a *Analyzer) observeDecoded(ci gopacket.CaptureInfo) {
	fc := frameCI{ci.Timestamp, ci.Length}
	for _, lt := range a.decoded {
		switch lt {
		case layers.LayerTypeIPv4:
			if a.ip4.Flags&layers.IPv4MoreFragments != 0 || a.ip4.FragOffset != 0 {
				a.observe(fc, 0, true, 0, 0)
				return
			}
		case layers.LayerTypeIPv6Fragment:
			a.observe(fc, 0, true, 0, 0)
			return
		case layers.LayerTypeUDP, layers.LayerTypeTCP:
			return
		}
	}
	a.observe(fc, 0, a.ipDecoded(), 0, 0)
}

// observeUDP reports a UDP frame after routing: proto is the protocol its
// payload went to, "" for none.
func (a *Analyzer) observeUDP(ci gopacket.CaptureInfo, proto string) {
	fi := a.frameInfo(frameCI{ci.Timestamp, ci.Length}, 17, true, uint16(a.udp.SrcPort), uint16(a.udp.DstPort))
	fi.Payload, fi.Proto = a.udp.Payload, proto
	a.opts.OnFrame(fi)
}

// observeTCP reports a TCP frame after the reassembler took it: its
// stream, its relative numbers (the reassembler's, as tshark counts them)
// and the protocol of its connection.
func (a *Analyzer) observeTCP(ci gopacket.CaptureInfo) {
	t := &a.tcp
	fi := a.frameInfo(frameCI{ci.Timestamp, ci.Length}, 6, true, uint16(t.SrcPort), uint16(t.DstPort))
	fi.Payload = t.Payload
	fi.TCP = record.TCPInfo{Seq: t.Seq, Ack: t.Ack, Len: len(t.Payload), SYN: t.SYN, ACK: t.ACK, FIN: t.FIN, RST: t.RST, PSH: t.PSH}
	// The length on the wire (tcp.len), from the IP header's length.
	n := -1
	switch {
	case len(a.decoded) == 0:
	case a.decoded[0] == layers.LayerTypeIPv4:
		n = int(a.ip4.Length) - int(a.ip4.IHL)*4 - int(t.DataOffset)*4
	case a.decoded[0] == layers.LayerTypeIPv6 && a.ip6.Length > 0:
		n = 40 + int(a.ip6.Length) - a.l3len - int(t.DataOffset)*4
	}
	if n >= 0 {
		fi.TCP.Len = n
	}
	if info, h := a.tcpState.r.Fed(); info != nil {
		fi.TCP.Stream = info.Stream
		fi.TCP.Seq, fi.TCP.Ack = info.Relative(t.Seq, t.Ack)
		if !t.ACK {
			fi.TCP.Ack = 0
		}
		if tc, ok := h.(*tcpConn); ok && tc.proto != nil && !tc.ignore {
			fi.Proto = tc.proto.Name
		}
	}
	a.opts.OnFrame(fi)
}

// ipDecoded reports whether the frame's IP header was decoded.
func (a *Analyzer) ipDecoded() bool {
	return len(a.decoded) > 0 && (a.decoded[0] == layers.LayerTypeIPv4 || a.decoded[0] == layers.LayerTypeIPv6)
}

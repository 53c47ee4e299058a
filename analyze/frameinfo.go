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
	fi := record.FrameInfo{Frame: a.frame, Time: ci.ts, Len: ci.length, CapLen: int(a.net.cur.capl), Transport: transport, IP: ip}
	if ip && len(a.decoded) > 0 {
		fi.Src, fi.Dst = a.endpoints(sport, dport)
	}
	a.opts.OnFrame(fi)
}

// frameCI is the part of gopacket.CaptureInfo observe uses.
type frameCI struct {
	ts     time.Time
	length int
}

// observeDecoded reports a frame whose layers are decoded: its transport
// is the first TCP or UDP layer, unless the IPv4 packet is a fragment.
func (a *Analyzer) observeDecoded(ci gopacket.CaptureInfo) {
	fc := frameCI{ci.Timestamp, ci.Length}
	for _, lt := range a.decoded {
		switch lt {
		case layers.LayerTypeIPv4:
			if a.ip4.Flags&layers.IPv4MoreFragments != 0 || a.ip4.FragOffset != 0 {
				a.observe(fc, 0, true, 0, 0)
				return
			}
		case layers.LayerTypeUDP:
			a.observe(fc, 17, true, uint16(a.udp.SrcPort), uint16(a.udp.DstPort))
			return
		case layers.LayerTypeTCP:
			a.observe(fc, 6, true, uint16(a.tcp.SrcPort), uint16(a.tcp.DstPort))
			return
		}
	}
	a.observe(fc, 0, a.ipDecoded(), 0, 0)
}

// ipDecoded reports whether the frame's IP header was decoded.
func (a *Analyzer) ipDecoded() bool {
	return len(a.decoded) > 0 && (a.decoded[0] == layers.LayerTypeIPv4 || a.decoded[0] == layers.LayerTypeIPv6)
}

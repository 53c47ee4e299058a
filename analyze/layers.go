package analyze

import (
	"bytes"
	"net/netip"
	"slices"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/reassembly"
	"github.com/mcdissect/mcdissect/record"
)

// netLayers is the front end's view of the frame being fed and the TCP
// state relative numbers need.
type netLayers struct {
	cur   record.Layers // the frame being fed
	frame uint64        // its number
	prev  time.Time
	// The sequence bases, by connection: an index into bases. Neither
	// holds a pointer, so the collector does not scan the table, which
	// holds up to maxSeqBases of them (seqKey).
	conns map[seqKey]int32
	bases []seqBase
	free  []int32 // indexes of bases forgotten, to reuse
	// The layers of the frames before, for units a later frame, a flush
	// or the end releases: their frame is the newest of their parts.
	recent      [recentFrames]record.Layers
	recentFrame [recentFrames]uint64
}

// recentFrames is how many frames' layers are kept: a unit released
// further behind shows only its addresses, ports and times. 256 was too
// few for a busy capture whose lost segments a later ACK gives up
// (slp-status-concurrent with drops: units 300 to 1000 frames late);
// 8192 cost well under a megabyte, allocated once.
const recentFrames = 8192

// of returns the layers of frame, if it is the current frame or a recent one.
func (n *netLayers) of(frame uint64) record.Layers {
	if frame == n.frame {
		return n.cur
	}
	if i := frame % recentFrames; n.recentFrame[i] == frame {
		return n.recent[i]
	}
	return record.Layers{}
}

// seqKey is a TCP connection's two ends, the lower first, as bytes: a
// netip.AddrPort holds a pointer, and a table of 65,536 connections keyed
// by two of them (connPair, as it was) with their bases allocated apart
// was 11 MB of the 1 GB real-samples capture's live heap of 80 MB, marked
// at every cycle.
type seqKey struct {
	a, b seqEnd
	v4   bool // both ends are IPv4 (a v4-mapped IPv6 address is another end)
}

type seqEnd struct {
	ip   [16]byte
	port uint16
}

func endOf(ap netip.AddrPort) seqEnd {
	return seqEnd{ap.Addr().As16(), ap.Port()}
}

// less orders ends by address, then port.
func (e *seqEnd) less(o *seqEnd) bool {
	if c := bytes.Compare(e.ip[:], o.ip[:]); c != 0 {
		return c < 0
	}
	return e.port < o.port
}

// seqBase is what tshark's relative numbers count from, per direction
// (index 0 for segments from seqKey.a).
type seqBase struct {
	base   [2]uint32
	set    [2]bool
	wscale [2]int8 // from the SYN's option: -1 not seen yet, -2 none announced
	last   uint64  // the frame of its last segment, for forget
}

// maxSeqBases bounds the connections whose bases are kept: when full, the
// half least recently seen are forgotten (forget), and those of them seen
// again count from their next segment, as when a capture starts
// mid-stream. (Starting the table afresh, as it did, also restarted the
// numbers of every connection still talking: bench/realmix's capture has
// 67,000 streams.) As many as the reassembler tracks at once
// (reassembly.DefaultMaxConns): a connection forgotten here has been
// quiet while 16,384 others came. The 1 GB real-samples capture numbers
// every segment the same with 8,192.
var maxSeqBases = reassembly.DefaultMaxConns

// begin starts a frame's layers.
func (n *netLayers) begin(frame uint64, ci gopacket.CaptureInfo) {
	if n.frame != 0 {
		i := n.frame % recentFrames
		n.recent[i], n.recentFrame[i] = n.cur, n.frame
	}
	n.frame = frame
	n.cur = record.Layers{Has: record.HasFrame, WireLen: uint32(ci.Length), CapLen: uint32(ci.CaptureLength), WScale: -1}
	if !n.prev.IsZero() {
		n.cur.Delta = since(ci.Timestamp, n.prev)
	}
	n.prev = ci.Timestamp
}

// ip fills the network layer from the analyzer's decoded headers.
func (n *netLayers) ip(a *Analyzer) {
	if len(a.decoded) == 0 {
		return
	}
	switch a.decoded[0] {
	case layers.LayerTypeIPv4:
		n.cur.Has |= record.HasIPv4
		n.cur.TTL, n.cur.IPProto, n.cur.IPID = a.ip4.TTL, uint8(a.ip4.Protocol), a.ip4.Id
	case layers.LayerTypeIPv6:
		n.cur.Has |= record.HasIPv6
		n.cur.TTL, n.cur.IPProto = a.ip6.HopLimit, uint8(a.ip6.NextHeader)
	}
}

// udp fills the UDP layer; length is the header's length field.
func (n *netLayers) udp(a *Analyzer, length uint16) {
	n.ip(a)
	n.cur.Has |= record.HasUDP
	n.cur.UDPLen = length
}

// tcpSegment fills the TCP layer of the segment being fed, with sequence
// and acknowledgement numbers relative to each direction's first, as
// tshark counts them: from the ISN when the SYN was seen, else from one
// before the first sequence number seen; an acknowledgement seen before
// the other direction's first segment sets that direction's base.
func (n *netLayers) tcpSegment(a *Analyzer, tcp *layers.TCP) {
	n.ip(a)
	l := &n.cur
	l.Has |= record.HasTCP
	l.TCPFlags = tcpFlags(tcp)
	l.Window = tcp.Window
	hdr := int(tcp.DataOffset) * 4
	l.TCPLen = uint32(len(tcp.Payload))
	if l.Has&record.HasIPv4 != 0 {
		if m := int(a.ip4.Length) - int(a.ip4.IHL)*4 - hdr; m >= 0 {
			l.TCPLen = uint32(m)
		}
	}
	src, dst := a.endpoints(uint16(tcp.SrcPort), uint16(tcp.DstPort))
	k, d := seqKey{a: endOf(src), b: endOf(dst), v4: src.Addr().Is4() && dst.Addr().Is4()}, 0
	if k.b.less(&k.a) {
		k.a, k.b, d = k.b, k.a, 1
	}
	s := n.base(k)
	s.last = n.frame
	if tcp.SYN {
		s.base[d], s.set[d] = tcp.Seq, true
		s.wscale[d] = -2
		for _, o := range tcp.Options {
			if o.OptionType == layers.TCPOptionKindWindowScale && len(o.OptionData) == 1 {
				s.wscale[d] = int8(min(o.OptionData[0], 14))
			}
		}
		if tcp.ACK {
			s.base[1-d], s.set[1-d] = tcp.Ack-1, true
		}
	} else if !s.set[d] {
		s.base[d], s.set[d] = tcp.Seq-1, true
	}
	if tcp.ACK && !s.set[1-d] {
		s.base[1-d], s.set[1-d] = tcp.Ack-1, true
	}
	l.Seq = tcp.Seq - s.base[d]
	if tcp.ACK {
		l.Ack = tcp.Ack - s.base[1-d]
	}
	if s.wscale[0] >= 0 && s.wscale[1] >= 0 {
		l.WScale = s.wscale[d]
	}
}

// base is the sequence bases of connection k, new if it has none.
func (n *netLayers) base(k seqKey) *seqBase {
	if i, ok := n.conns[k]; ok {
		return &n.bases[i]
	}
	if n.conns == nil {
		n.conns = make(map[seqKey]int32, 64)
	}
	if len(n.conns) >= maxSeqBases {
		n.forget()
	}
	var i int32
	if f := len(n.free); f > 0 {
		i, n.free = n.free[f-1], n.free[:f-1]
	} else {
		i = int32(len(n.bases))
		n.bases = append(n.bases, seqBase{})
	}
	n.bases[i] = seqBase{wscale: [2]int8{-1, -1}}
	n.conns[k] = i
	return &n.bases[i]
}

// forget drops the half of the table least recently seen: the median of
// the frames last seen splits it. A connection that is still talking keeps
// its relative numbers; one idle long enough to be among the oldest half
// of the table has most likely ended.
func (n *netLayers) forget() {
	lasts := make([]uint64, 0, len(n.conns))
	for _, i := range n.conns {
		lasts = append(lasts, n.bases[i].last)
	}
	slices.Sort(lasts)
	median := lasts[len(lasts)/2]
	for k, i := range n.conns {
		if n.bases[i].last < median {
			delete(n.conns, k)
			n.free = append(n.free, i)
		}
	}
}

func tcpFlags(t *layers.TCP) uint16 {
	var f uint16
	for i, b := range [...]bool{t.FIN, t.SYN, t.RST, t.PSH, t.ACK, t.URG, t.ECE, t.CWR, t.NS} {
		if b {
			f |= 1 << i
		}
	}
	return f
}

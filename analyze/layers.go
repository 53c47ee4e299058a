package analyze

import (
	"bytes"
	"net/netip"
	"slices"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/reassembly"
)

// Layers holds the header values of the frame that completed a record, the
// layers below Minecraft as Wireshark shows them for a packet: a PDU made
// of several segments shows the last segment's headers. It is a small
// fixed-size value copied into the record; Has says which parts are known.
// Units released when a connection is flushed or closed were completed by
// no frame being read: their Has is 0 and only the record's addresses,
// ports and times are known.
type Layers struct {
	Has      LayerSet
	TTL      uint8  // IPv4 time to live, or IPv6 hop limit
	IPProto  uint8  // IPv4 protocol, or IPv6 next header
	IPID     uint16 // IPv4 identification
	TCPFlags uint16 // the nine flag bits, tcp.flags
	Window   uint16 // the raw window field
	UDPLen   uint16 // the UDP header's length field
	WScale   int8   // the window's scale shift, -1 when not known or not used
	WireLen  uint32 // frame.len
	CapLen   uint32 // frame.cap_len
	Seq, Ack uint32 // relative to each direction's initial sequence number
	TCPLen   uint32 // the segment's payload length, as the IP header gives it
	Delta    time.Duration
	EthSrc   [6]byte // Ethernet source and destination (HasEth)
	EthDst   [6]byte
}

// LayerSet says which layers of a Layers are known.
type LayerSet uint8

const (
	HasFrame LayerSet = 1 << iota
	HasIPv4
	HasIPv6
	HasTCP
	HasUDP
	HasEth
)

// TCP flag bits, as in tcp.flags.
const (
	TCPFlagFIN = 1 << iota
	TCPFlagSYN
	TCPFlagRST
	TCPFlagPSH
	TCPFlagACK
	TCPFlagURG
	TCPFlagECE
	TCPFlagCWR
	TCPFlagNS
)

// WindowSize is tcp.window_size: the raw window shifted by the scale both
// ends announced in their SYNs, or the raw window when that is unknown
// (no SYN captured) or unused, as Wireshark computes it. A SYN's own
// window is never scaled.
func (l *Layers) WindowSize() uint32 {
	if l.WScale > 0 && l.TCPFlags&TCPFlagSYN == 0 {
		return uint32(l.Window) << uint(l.WScale)
	}
	return uint32(l.Window)
}

// netLayers is the front end's view of the frame being fed and the TCP
// state relative numbers need.
type netLayers struct {
	cur   Layers // the frame being fed
	frame uint64 // its number
	prev  time.Time
	// The sequence bases, by connection: an index into bases. Neither
	// holds a pointer, so the collector does not scan the table, which
	// holds up to maxSeqBases of them (seqKey).
	conns map[seqKey]int32
	bases []seqBase
	free  []int32 // indexes of bases forgotten, to reuse
	// The layers of the frames before, for units a later frame, a flush
	// or the end releases: their frame is the newest of their parts.
	recent      [recentFrames]Layers
	recentFrame [recentFrames]uint64
}

// recentFrames is how many frames' layers are kept: a unit released
// further behind shows only its addresses, ports and times. 256 was too
// few for a busy capture whose lost segments a later ACK gives up
// (slp-status-concurrent with drops: units 300 to 1000 frames late);
// 8192 cost well under a megabyte, allocated once.
const recentFrames = 8192

// of returns the layers of frame, if it is the current frame or a recent one.
func (n *netLayers) of(frame uint64) Layers {
	if frame == n.frame {
		return n.cur
	}
	if i := frame % recentFrames; n.recentFrame[i] == frame {
		return n.recent[i]
	}
	return Layers{}
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
	n.cur = Layers{Has: HasFrame, WireLen: uint32(ci.Length), CapLen: uint32(ci.CaptureLength), WScale: -1}
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
		n.cur.Has |= HasIPv4
		n.cur.TTL, n.cur.IPProto, n.cur.IPID = a.ip4.TTL, uint8(a.ip4.Protocol), a.ip4.Id
	case layers.LayerTypeIPv6:
		n.cur.Has |= HasIPv6
		n.cur.TTL, n.cur.IPProto = a.ip6.HopLimit, uint8(a.ip6.NextHeader)
	}
}

// udp fills the UDP layer; length is the header's length field.
func (n *netLayers) udp(a *Analyzer, length uint16) {
	n.ip(a)
	n.cur.Has |= HasUDP
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
	l.Has |= HasTCP
	l.TCPFlags = tcpFlags(tcp)
	l.Window = tcp.Window
	hdr := int(tcp.DataOffset) * 4
	l.TCPLen = uint32(len(tcp.Payload))
	if l.Has&HasIPv4 != 0 {
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

// The layer pseudo-fields: their values come from the record's Layers.
var (
	PFFrameTime    = regFrame.Str("frame.time", "Arrival time")
	PFFrameDelta   = regFrame.Float("frame.time_delta", "Time delta from previous captured frame", "s")
	PFFrameLen     = regFrame.Uint("frame.len", "Frame length on the wire", dissect.BaseDec, nil)
	PFFrameCapLen  = regFrame.Uint("frame.cap_len", "Frame length stored into the capture file", dissect.BaseDec, nil)
	PFIPTTL        = regIP.Uint("ip.ttl", "Time to live", dissect.BaseDec, nil)
	PFIPID         = regIP.Uint("ip.id", "Identification", dissect.BaseHex, nil)
	PFIPProto      = regIP.Uint("ip.proto", "Protocol", dissect.BaseDec, nil)
	PFIPv6Hlim     = regIPv6.Uint("ipv6.hlim", "Hop limit", dissect.BaseDec, nil)
	PFIPv6Nxt      = regIPv6.Uint("ipv6.nxt", "Next header", dissect.BaseDec, nil)
	PFTCPSeq       = regTCP.Uint("tcp.seq", "Sequence number (relative)", dissect.BaseDec, nil)
	PFTCPAck       = regTCP.Uint("tcp.ack", "Acknowledgment number (relative)", dissect.BaseDec, nil)
	PFTCPLen       = regTCP.Uint("tcp.len", "TCP segment length", dissect.BaseDec, nil)
	PFTCPFlags     = regTCP.Uint("tcp.flags", "Flags", dissect.BaseHex, nil)
	PFTCPFlagFIN   = regTCP.Bool("tcp.flags.fin", "Fin")
	PFTCPFlagSYN   = regTCP.Bool("tcp.flags.syn", "Syn")
	PFTCPFlagRST   = regTCP.Bool("tcp.flags.reset", "Reset")
	PFTCPFlagPSH   = regTCP.Bool("tcp.flags.push", "Push")
	PFTCPFlagACK   = regTCP.Bool("tcp.flags.ack", "Acknowledgment")
	PFTCPWindow    = regTCP.Uint("tcp.window_size", "Calculated window size", dissect.BaseDec, nil)
	PFTCPWindowRaw = regTCP.Uint("tcp.window_size_value", "Window", dissect.BaseDec, nil)
	PFUDPLength    = regUDP.Uint("udp.length", "Length", dissect.BaseDec, nil)
)

var layerExplanations = map[string]string{
	"frame.time":            "The packet's capture time, written as tshark writes it: month, day, year and time of day to the nanosecond, in UTC.",
	"frame.time_delta":      "Seconds since the previous packet of the capture, whatever it carried: a long pause before a reply shows here.",
	"frame.len":             "The packet's length on the wire, in bytes, link-layer header included, as the capture file records it.",
	"frame.cap_len":         "How many of the packet's bytes the capture kept: less than frame.len when a snap length cut it.",
	"ip.ttl":                "The IPv4 time to live: each router on the way takes one off, so a value below the sender's start (64, 128 or 255) tells how many hops away it is.",
	"ip.id":                 "The IPv4 identification, the number the fragments of one datagram share.",
	"ip.proto":              "The protocol the IPv4 packet carries: 6 for TCP, 17 for UDP.",
	"ipv6.hlim":             "The IPv6 hop limit, IPv6's time to live: each router on the way takes one off.",
	"ipv6.nxt":              "The header that follows the IPv6 header: 6 for TCP, 17 for UDP.",
	"tcp.seq":               "The segment's sequence number relative to the direction's first, as tshark shows it by default: 0 for the SYN, 1 for the first data byte. Without the SYN, the first segment seen counts as 1.",
	"tcp.ack":               "The next byte the sender expects from the other side, relative to that side's first sequence number, as tshark shows it; 0 when the ACK flag is not set.",
	"tcp.len":               "How many bytes of data the segment carries, from the IP header's length, whether or not the capture kept them all.",
	"tcp.flags":             "The TCP flag bits as one number: 0x002 SYN, 0x010 ACK, 0x018 PSH and ACK, 0x011 FIN and ACK, 0x004 RST.",
	"tcp.flags.fin":         "FIN: the sender has no more data; the connection closes in that direction.",
	"tcp.flags.syn":         "SYN: the segment opens a connection (a SYN alone from the client, SYN and ACK from the server).",
	"tcp.flags.reset":       "RST: the connection is aborted, for example by a server refusing a port or a client giving up.",
	"tcp.flags.push":        "PSH: the sender asks for the data to be handed to the application now; usually set on the last segment of a write.",
	"tcp.flags.ack":         "ACK: the acknowledgment number is valid. Every segment after the first SYN has it.",
	"tcp.window_size":       "The receive window the sender advertises, in bytes, scaled by the window scale both ends announced in their SYNs; when the SYNs were not captured the scale is unknown and the raw window is shown, as tshark does.",
	"tcp.window_size_value": "The raw 16-bit window field, before any window scaling.",
	"udp.length":            "The UDP header's length field: the 8-byte header plus the payload.",
}

func init() {
	for _, r := range []*dissect.Registry{regFrame, regIP, regIPv6, regUDP, regTCP} {
		r.Explain(layerExplanations, nil)
	}
}

// isLayerPseudo reports whether f is one of this file's fields.
func isLayerPseudo(f *dissect.Field) bool {
	switch f {
	case PFFrameTime, PFFrameDelta, PFFrameLen, PFFrameCapLen, PFIPTTL, PFIPID, PFIPProto,
		PFIPv6Hlim, PFIPv6Nxt, PFTCPSeq, PFTCPAck, PFTCPLen, PFTCPFlags, PFTCPFlagFIN,
		PFTCPFlagSYN, PFTCPFlagRST, PFTCPFlagPSH, PFTCPFlagACK, PFTCPWindow, PFTCPWindowRaw, PFUDPLength:
		return true
	}
	return false
}

// eachLayer emits the values of the fields isLayerPseudo knows. A field
// whose layer the record does not know has no occurrence.
func eachLayer(r *Record, f *dissect.Field, emit func(dissect.Value)) {
	l := &r.Layers
	switch f {
	case PFFrameTime:
		emit(dissect.B(AppendFrameTime(r.pseudoText[:0], r.Time)))
		return
	case PFFrameDelta:
		if l.Has&HasFrame != 0 {
			emit(dissect.FExact(l.Delta.Seconds(), AppendSeconds9(r.pseudoText[:0], l.Delta)))
		}
		return
	}
	var v uint64
	var need LayerSet
	switch f {
	case PFFrameLen:
		need, v = HasFrame, uint64(l.WireLen)
	case PFFrameCapLen:
		need, v = HasFrame, uint64(l.CapLen)
	case PFIPTTL:
		need, v = HasIPv4, uint64(l.TTL)
	case PFIPID:
		need, v = HasIPv4, uint64(l.IPID)
	case PFIPProto:
		need, v = HasIPv4, uint64(l.IPProto)
	case PFIPv6Hlim:
		need, v = HasIPv6, uint64(l.TTL)
	case PFIPv6Nxt:
		need, v = HasIPv6, uint64(l.IPProto)
	case PFTCPSeq:
		need, v = HasTCP, uint64(l.Seq)
	case PFTCPAck:
		need, v = HasTCP, uint64(l.Ack)
	case PFTCPLen:
		need, v = HasTCP, uint64(l.TCPLen)
	case PFTCPFlags:
		need, v = HasTCP, uint64(l.TCPFlags)
	case PFTCPFlagFIN:
		need, v = HasTCP, uint64(l.TCPFlags&TCPFlagFIN)
	case PFTCPFlagSYN:
		need, v = HasTCP, uint64(l.TCPFlags&TCPFlagSYN)
	case PFTCPFlagRST:
		need, v = HasTCP, uint64(l.TCPFlags&TCPFlagRST)
	case PFTCPFlagPSH:
		need, v = HasTCP, uint64(l.TCPFlags&TCPFlagPSH)
	case PFTCPFlagACK:
		need, v = HasTCP, uint64(l.TCPFlags&TCPFlagACK)
	case PFTCPWindow:
		need, v = HasTCP, uint64(l.WindowSize())
	case PFTCPWindowRaw:
		need, v = HasTCP, uint64(l.Window)
	case PFUDPLength:
		need, v = HasUDP, uint64(l.UDPLen)
	default:
		return
	}
	if l.Has&need == 0 {
		return
	}
	if f.Type == dissect.FTBool {
		v = b2u(v != 0)
	}
	emit(dissect.U(v))
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// AppendSeconds9 appends d in seconds with nine decimals, as tshark prints
// frame.time_relative and frame.time_delta: exact, from the integer
// nanoseconds, never through a float.
func AppendSeconds9(dst []byte, d time.Duration) []byte {
	ns := int64(d)
	if ns < 0 {
		dst = append(dst, '-')
		ns = -ns // a Duration's minimum is not a capture's delta
	}
	dst = dissect.AppendInt(dst, ns/1e9)
	dst = append(dst, '.')
	return dissect.AppendUintPad(dst, uint64(ns%1e9), 9)
}

// AppendEpoch9 appends t as seconds since the epoch with nine decimals, as
// tshark prints frame.time_epoch.
func AppendEpoch9(dst []byte, t time.Time) []byte {
	s, ns := t.Unix(), t.Nanosecond()
	if s < 0 && ns > 0 { // -0.5 s is Unix -1 and 500000000 ns
		dst = append(dst, '-')
		return AppendSeconds9(dst, time.Duration(-s)*time.Second-time.Duration(ns))
	}
	dst = dissect.AppendInt(dst, s)
	dst = append(dst, '.')
	return dissect.AppendUintPad(dst, uint64(ns), 9)
}

// AppendFrameTime appends t as tshark writes frame.time in UTC:
// "Nov 22, 2026 14:33:00.357623000 UTC".
func AppendFrameTime(dst []byte, t time.Time) []byte {
	t = t.UTC()
	dst = t.AppendFormat(dst, "Jan _2, 2006 15:04:05")
	dst = append(dst, '.')
	dst = dissect.AppendUintPad(dst, uint64(t.Nanosecond()), 9)
	return append(dst, " UTC"...)
}

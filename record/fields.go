package record

import (
	"fmt"
	"net/netip"

	"github.com/mcdissect/mcdissect/dissect"
)

// The record-level pseudo-fields, registered so that -e, -Y and -G fields
// know them. Their values come from the record, not from a tree.
var (
	RegFrame = dissect.NewRegistry("frame", "Frame")
	RegIP    = dissect.NewRegistry("ip", "Internet Protocol")
	RegIPv6  = dissect.NewRegistry("ipv6", "Internet Protocol Version 6")
	RegUDP   = dissect.NewRegistry("udp", "User Datagram Protocol")
	RegTCP   = dissect.NewRegistry("tcp", "Transmission Control Protocol")

	PFFrameNumber  = RegFrame.Uint("frame.number", "Frame number", dissect.BaseDec, nil)
	PFTimeRelative = RegFrame.Float("frame.time_relative", "Time since the first frame", "s")
	PFTimeEpoch    = RegFrame.Float("frame.time_epoch", "Epoch time", "s")
	PFIPSrc        = RegIP.Str("ip.src", "Source address")
	PFIPDst        = RegIP.Str("ip.dst", "Destination address")
	PFIPv6Src      = RegIPv6.Str("ipv6.src", "Source address")
	PFIPv6Dst      = RegIPv6.Str("ipv6.dst", "Destination address")
	PFUDPSrc       = RegUDP.Uint("udp.srcport", "Source port", dissect.BaseDec, nil)
	PFUDPDst       = RegUDP.Uint("udp.dstport", "Destination port", dissect.BaseDec, nil)
	PFTCPSrc       = RegTCP.Uint("tcp.srcport", "Source port", dissect.BaseDec, nil)
	PFTCPDst       = RegTCP.Uint("tcp.dstport", "Destination port", dissect.BaseDec, nil)
	PFTCPStream    = RegTCP.Uint("tcp.stream", "Stream index", dissect.BaseDec, nil)

	PFProtocol  = dissect.Core.Str("mc.protocol", "Protocol")
	PFDirection = dissect.Core.Str("mc.direction", "Direction")
	PFMessage   = dissect.Core.Str("mc.message", "Message")
	PFExpert    = dissect.Core.Str("mc.expert", "Expert items")
	PFFrames    = dissect.Core.Uint("mc.reassembled.frames", "Reassembled from frames", dissect.BaseDec, nil)
	PFGapLength = dissect.Core.Uint("mc.gap.length", "Missing bytes", dissect.BaseDec, nil)

	// Tree fields the pipeline itself adds.
	FieldReassembled = dissect.Core.Label("mc.reassembled", "Reassembled TCP segments")
	FieldGap         = dissect.Core.Label("mc.gap", "Missing bytes (not captured)")
	FieldRetrans     = dissect.Core.Uint("mc.retransmission.differing", "Retransmitted bytes that differ from the first copy", dissect.BaseDec, nil)

	ExpertGap           = dissect.Core.Expert("mc.gap", dissect.SevWarn, "bytes of the stream were not captured; nothing is parsed across them")
	ExpertRetransDiffer = dissect.Core.Expert("mc.retransmission.differing", dissect.SevWarn, "a retransmitted segment carries bytes that differ from the first copy, which was used")
	ExpertPanic         = dissect.Core.Expert("mc.panic", dissect.SevError, "a decoder panicked on these bytes (a bug of mcdissect): the PDU is shown undissected and the run goes on")
	ExpertStreamLost    = dissect.Core.Expert("mc.stream.undissected", dissect.SevWarn, "stream bytes that no PDU explains")
)

// FieldRef is a field name resolved once (for -e, -Y and statistics): a
// record pseudo-field, a tree field, or one key of a keyed field.
type FieldRef struct {
	Name   string
	Field  *dissect.Field
	Key    string
	pseudo bool
}

// ResolveField looks a filter name up in the registries.
func ResolveField(name string) (FieldRef, error) {
	f, key, ok := dissect.LookupField(name)
	if !ok {
		return FieldRef{}, fmt.Errorf("%q is not a field name; `mcdissect -G fields` lists them all", name)
	}
	return FieldRef{Name: name, Field: f, Key: key, pseudo: isPseudo(f)}, nil
}

func isPseudo(f *dissect.Field) bool {
	switch f {
	case PFFrameNumber, PFTimeRelative, PFTimeEpoch, PFIPSrc, PFIPDst, PFIPv6Src, PFIPv6Dst,
		PFUDPSrc, PFUDPDst, PFTCPSrc, PFTCPDst, PFTCPStream,
		PFProtocol, PFDirection, PFMessage, PFExpert, PFFrames, PFGapLength:
		return true
	}
	return isNetPseudo(f) || isLayerPseudo(f) || isEthPseudo(f)
}

// NeedsTree reports whether the field's values come from the dissection
// tree (or its expert items), so that decoding must not be Lite.
func (f FieldRef) NeedsTree() bool { return !f.pseudo || f.Field == PFExpert }

// Each calls fn with every occurrence of the field in r, in tree order. For
// pseudo-fields the node is made up for the call and must not be kept.
// Protocol roots match their protocol's records, as in Wireshark, where a
// protocol name alone is a filter.
func (f FieldRef) Each(r *Record, fn func(n *dissect.Node)) {
	if f.pseudo {
		f.eachPseudo(r, fn)
		return
	}
	for i := range r.PDU.Nodes {
		n := &r.PDU.Nodes[i]
		if n.Field != f.Field {
			continue
		}
		if f.Key != "" && n.Key != f.Key {
			continue
		}
		fn(n)
	}
}

func (f FieldRef) eachPseudo(r *Record, fn func(n *dissect.Node)) {
	// The node lives in the record, not here: a local one passed to fn
	// would escape and cost an allocation per field per record.
	n := &r.pseudo
	*n = dissect.Node{Field: f.Field, Parent: -1, Flags: dissect.FlagGenerated}
	emit := func(v dissect.Value) { n.Value = v; fn(n) }
	v4 := r.Src.Addr().Is4() || r.Src.Addr().Is4In6()
	switch f.Field {
	case PFFrameNumber:
		emit(dissect.U(r.Frame))
	case PFTimeRelative:
		emit(dissect.FExact(r.Rel.Seconds(), AppendSeconds9(r.pseudoText[:0], r.Rel)))
	case PFTimeEpoch:
		emit(dissect.FExact(float64(r.Time.UnixNano())/1e9, AppendEpoch9(r.pseudoText[:0], r.Time)))
	case PFIPSrc:
		if v4 {
			emit(dissect.B(r.Src.Addr().Unmap().AppendTo(r.pseudoText[:0])))
		}
	case PFIPDst:
		if v4 {
			emit(dissect.B(r.Dst.Addr().Unmap().AppendTo(r.pseudoText[:0])))
		}
	case PFIPv6Src:
		if !v4 {
			emit(dissect.B(r.Src.Addr().AppendTo(r.pseudoText[:0])))
		}
	case PFIPv6Dst:
		if !v4 {
			emit(dissect.B(r.Dst.Addr().AppendTo(r.pseudoText[:0])))
		}
	case PFUDPSrc:
		if !r.TCP {
			emit(dissect.U(uint64(r.Src.Port())))
		}
	case PFUDPDst:
		if !r.TCP {
			emit(dissect.U(uint64(r.Dst.Port())))
		}
	case PFTCPSrc:
		if r.TCP {
			emit(dissect.U(uint64(r.Src.Port())))
		}
	case PFTCPDst:
		if r.TCP {
			emit(dissect.U(uint64(r.Dst.Port())))
		}
	case PFTCPStream:
		if r.TCP {
			emit(dissect.U(uint64(r.Stream)))
		}
	case PFProtocol:
		emit(dissect.S(r.Proto))
	case PFDirection:
		emit(dissect.S(r.PDU.Dir.String()))
	case PFMessage:
		if r.PDU.Message != "" {
			emit(dissect.S(r.PDU.Message))
		}
	case PFExpert:
		for _, e := range r.PDU.Experts {
			emit(dissect.S(e.Info.Name))
		}
	case PFFrames:
		for _, p := range r.Parts {
			emit(dissect.U(p.Frame))
		}
	case PFGapLength:
		if r.Kind == KindGap {
			emit(dissect.U(uint64(r.GapLength)))
		}
	default:
		if isLayerPseudo(f.Field) {
			eachLayer(r, f.Field, emit) // layers.go
			return
		}
		if isEthPseudo(f.Field) {
			eachEth(r, f.Field, emit) // pseudo_eth.go
			return
		}
		eachNet(r, f.Field, emit) // pseudo_net.go
	}
}

// The combined network pseudo-fields of Wireshark (either end of a
// conversation) and the protocol names of the layers below Minecraft, so
// that the filters tshark users type first work: tcp.port == 25565,
// ip.addr == 10.0.0.0/8, udp, ipv6. A combined field has two occurrences,
// source first, as in Wireshark's tree: tcp.port == 25565 is true when
// either end uses the port, tcp.port != 25565 when neither does.
// (eth.addr is in pseudo_eth.go.)
var (
	PFIPAddr   = RegIP.Str("ip.addr", "Source or destination address")
	PFIPv6Addr = RegIPv6.Str("ipv6.addr", "Source or destination address")
	PFUDPPort  = RegUDP.Uint("udp.port", "Source or destination port", dissect.BaseDec, nil)
	PFTCPPort  = RegTCP.Uint("tcp.port", "Source or destination port", dissect.BaseDec, nil)
)

// isNetPseudo reports whether f is one of this file's fields or a protocol
// name whose presence a record's addresses decide.
func isNetPseudo(f *dissect.Field) bool {
	switch f {
	case PFIPAddr, PFIPv6Addr, PFUDPPort, PFTCPPort,
		RegFrame.Root(), RegIP.Root(), RegIPv6.Root(), RegUDP.Root(), RegTCP.Root(), dissect.Core.Root():
		return true
	}
	return false
}

func (r *Record) isIPv4() bool { return r.Src.Addr().Is4() || r.Src.Addr().Is4In6() }
func (r *Record) isIPv6() bool { return r.Src.Addr().IsValid() && !r.isIPv4() }

// eachNet emits the values of the fields isNetPseudo knows. A protocol
// name's occurrence has no value: mcdissect keeps no bytes of those layers.
func eachNet(r *Record, f *dissect.Field, emit func(dissect.Value)) {
	switch f {
	case RegFrame.Root(), dissect.Core.Root():
		emit(dissect.Value{})
	case RegIP.Root():
		if r.isIPv4() {
			emit(dissect.Value{})
		}
	case RegIPv6.Root():
		if r.isIPv6() {
			emit(dissect.Value{})
		}
	case RegTCP.Root():
		if r.TCP {
			emit(dissect.Value{})
		}
	case RegUDP.Root():
		if !r.TCP && r.Src.IsValid() {
			emit(dissect.Value{})
		}
	case PFIPAddr:
		if r.isIPv4() {
			emit(dissect.B(r.Src.Addr().Unmap().AppendTo(r.pseudoText[:0])))
			emit(dissect.B(r.Dst.Addr().Unmap().AppendTo(r.pseudoText[:0])))
		}
	case PFIPv6Addr:
		if r.isIPv6() {
			emit(dissect.B(r.Src.Addr().AppendTo(r.pseudoText[:0])))
			emit(dissect.B(r.Dst.Addr().AppendTo(r.pseudoText[:0])))
		}
	case PFUDPPort:
		if !r.TCP && r.Src.IsValid() {
			emit(dissect.U(uint64(r.Src.Port())))
			emit(dissect.U(uint64(r.Dst.Port())))
		}
	case PFTCPPort:
		if r.TCP {
			emit(dissect.U(uint64(r.Src.Port())))
			emit(dissect.U(uint64(r.Dst.Port())))
		}
	}
}

// AddrFamily is 4 for the IPv4 address fields (ip.src, ip.dst, ip.addr), 6
// for the IPv6 ones, 0 for every other field. Their values show as text
// (-e, -T json); filters compare them as addresses, with CIDR prefixes,
// through EachAddr.
func (f FieldRef) AddrFamily() int {
	switch f.Field {
	case PFIPSrc, PFIPDst, PFIPAddr:
		return 4
	case PFIPv6Src, PFIPv6Dst, PFIPv6Addr:
		return 6
	}
	return 0
}

// EachAddr calls fn with every address an address field (AddrFamily != 0)
// has in r, in the order Each gives them, without formatting any text.
func (f FieldRef) EachAddr(r *Record, fn func(netip.Addr)) {
	switch f.Field {
	case PFIPSrc, PFIPDst, PFIPAddr:
		if !r.isIPv4() {
			return
		}
		if f.Field != PFIPDst {
			fn(r.Src.Addr().Unmap())
		}
		if f.Field != PFIPSrc {
			fn(r.Dst.Addr().Unmap())
		}
	case PFIPv6Src, PFIPv6Dst, PFIPv6Addr:
		if !r.isIPv6() {
			return
		}
		if f.Field != PFIPv6Dst {
			fn(r.Src.Addr())
		}
		if f.Field != PFIPv6Src {
			fn(r.Dst.Addr())
		}
	}
}

// The Ethernet pseudo-fields: a record's Ethernet addresses are those of
// the frame that completed it (Layers), where the capture's link layer is
// Ethernet. eth.addr has two occurrences, source first, as in Wireshark.
var (
	RegEth    = dissect.NewRegistry("eth", "Ethernet II")
	PFEthSrc  = RegEth.Bytes("eth.src", "Source")
	PFEthDst  = RegEth.Bytes("eth.dst", "Destination")
	PFEthAddr = RegEth.Bytes("eth.addr", "Source or destination address")
)

var ethExplanations = map[string]string{
	"eth":      "Ethernet II, the link layer of most captures: a frame carries a destination and a source MAC address and the type of what follows (0x0800 IPv4, 0x86dd IPv6). On loopback both addresses are zero.",
	"eth.src":  "The MAC address of the network card that sent the frame, six bytes written as aa:bb:cc:dd:ee:ff. Past a router it is the router's, not the player's.",
	"eth.dst":  "The MAC address the frame was sent to: the next hop's card, or ff:ff:ff:ff:ff:ff for a broadcast.",
	"eth.addr": "Either MAC address of the frame, source or destination, as in Wireshark: eth.addr == 00:11:22:33:44:55 matches a card's traffic both ways.",
}

func init() { RegEth.Explain(ethExplanations, nil) }

func isEthPseudo(f *dissect.Field) bool {
	switch f {
	case PFEthSrc, PFEthDst, PFEthAddr, RegEth.Root():
		return true
	}
	return false
}

// eachEth emits the values of the fields isEthPseudo knows: nothing when
// the record's frame had no Ethernet header.
func eachEth(r *Record, f *dissect.Field, emit func(dissect.Value)) {
	l := &r.Layers
	if l.Has&HasEth == 0 {
		return
	}
	switch f {
	case RegEth.Root():
		emit(dissect.Value{})
	case PFEthSrc:
		emit(dissect.B(l.EthSrc[:]))
	case PFEthDst:
		emit(dissect.B(l.EthDst[:]))
	case PFEthAddr:
		emit(dissect.B(l.EthSrc[:]))
		emit(dissect.B(l.EthDst[:]))
	}
}

// The layer pseudo-fields: their values come from the record's Layers.
var (
	PFFrameTime    = RegFrame.Str("frame.time", "Arrival time")
	PFFrameDelta   = RegFrame.Float("frame.time_delta", "Time delta from previous captured frame", "s")
	PFFrameLen     = RegFrame.Uint("frame.len", "Frame length on the wire", dissect.BaseDec, nil)
	PFFrameCapLen  = RegFrame.Uint("frame.cap_len", "Frame length stored into the capture file", dissect.BaseDec, nil)
	PFIPTTL        = RegIP.Uint("ip.ttl", "Time to live", dissect.BaseDec, nil)
	PFIPID         = RegIP.Uint("ip.id", "Identification", dissect.BaseHex, nil)
	PFIPProto      = RegIP.Uint("ip.proto", "Protocol", dissect.BaseDec, nil)
	PFIPv6Hlim     = RegIPv6.Uint("ipv6.hlim", "Hop limit", dissect.BaseDec, nil)
	PFIPv6Nxt      = RegIPv6.Uint("ipv6.nxt", "Next header", dissect.BaseDec, nil)
	PFTCPSeq       = RegTCP.Uint("tcp.seq", "Sequence number (relative)", dissect.BaseDec, nil)
	PFTCPAck       = RegTCP.Uint("tcp.ack", "Acknowledgment number (relative)", dissect.BaseDec, nil)
	PFTCPLen       = RegTCP.Uint("tcp.len", "TCP segment length", dissect.BaseDec, nil)
	PFTCPFlags     = RegTCP.Uint("tcp.flags", "Flags", dissect.BaseHex, nil)
	PFTCPFlagFIN   = RegTCP.Bool("tcp.flags.fin", "Fin")
	PFTCPFlagSYN   = RegTCP.Bool("tcp.flags.syn", "Syn")
	PFTCPFlagRST   = RegTCP.Bool("tcp.flags.reset", "Reset")
	PFTCPFlagPSH   = RegTCP.Bool("tcp.flags.push", "Push")
	PFTCPFlagACK   = RegTCP.Bool("tcp.flags.ack", "Acknowledgment")
	PFTCPWindow    = RegTCP.Uint("tcp.window_size", "Calculated window size", dissect.BaseDec, nil)
	PFTCPWindowRaw = RegTCP.Uint("tcp.window_size_value", "Window", dissect.BaseDec, nil)
	PFUDPLength    = RegUDP.Uint("udp.length", "Length", dissect.BaseDec, nil)
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
	for _, r := range []*dissect.Registry{RegFrame, RegIP, RegIPv6, RegUDP, RegTCP} {
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

package netlayers

import (
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
)

// The registries of the layers below Minecraft, with tshark's filter names.
var (
	RegFrame = dissect.NewRegistry("frame", "Frame")
	RegEth   = dissect.NewRegistry("eth", "Ethernet II")
	RegVLAN  = dissect.NewRegistry("vlan", "802.1Q Virtual LAN")
	RegSLL   = dissect.NewRegistry("sll", "Linux cooked capture")
	RegNull  = dissect.NewRegistry("null", "Null/Loopback")
	RegIP    = dissect.NewRegistry("ip", "Internet Protocol Version 4")
	RegIPv6  = dissect.NewRegistry("ipv6", "Internet Protocol Version 6")
	RegTCP   = dissect.NewRegistry("tcp", "Transmission Control Protocol")
	RegUDP   = dissect.NewRegistry("udp", "User Datagram Protocol")
	RegICMP  = dissect.NewRegistry("icmp", "Internet Control Message Protocol")
	RegICMP6 = dissect.NewRegistry("icmpv6", "Internet Control Message Protocol v6")
)

// Frame.
var (
	FieldFrameNumber    = uintField(RegFrame, "frame.number", "Frame number", dissect.BaseDec, 4, nil)
	FieldFrameTime      = RegFrame.AbsTime("frame.time", "Arrival time")
	FieldFrameEpoch     = RegFrame.Float("frame.time_epoch", "Epoch time", "s")
	FieldFrameDelta     = RegFrame.Float("frame.time_delta", "Time delta from previous captured frame", "s")
	FieldFrameRelative  = RegFrame.Float("frame.time_relative", "Time since the first frame", "s")
	FieldFrameLen       = RegFrame.Add(dissect.Field{Name: "frame.len", Label: "Frame length on the wire", Type: dissect.FTUint, Unit: "bytes", Width: 4})
	FieldFrameCapLen    = RegFrame.Add(dissect.Field{Name: "frame.cap_len", Label: "Frame length stored into the capture file", Type: dissect.FTUint, Unit: "bytes", Width: 4})
	FieldFrameProtocols = RegFrame.Str("frame.protocols", "Protocols in frame")
)

// Link layers.
var (
	FieldEthDst  = RegEth.Bytes("eth.dst", "Destination")
	FieldEthSrc  = RegEth.Bytes("eth.src", "Source")
	FieldEthType = uintField(RegEth, "eth.type", "Type", dissect.BaseHex, 2, etherTypes)
	FieldEthAddr = RegEth.Bytes("eth.addr", "Address")

	FieldVLANPriority = uintField(RegVLAN, "vlan.priority", "Priority", dissect.BaseDec, 2, nil)
	FieldVLANID       = uintField(RegVLAN, "vlan.id", "ID", dissect.BaseDec, 2, nil)
	FieldVLANType     = uintField(RegVLAN, "vlan.etype", "Type", dissect.BaseHex, 2, etherTypes)
	FieldVLANTPID     = uintField(RegVLAN, "vlan.tpid", "Tag protocol identifier", dissect.BaseHex, 2, nil)

	FieldSLLPktType = uintField(RegSLL, "sll.pkttype", "Packet type", dissect.BaseDec, 2, sllPacketTypes)
	FieldSLLType    = uintField(RegSLL, "sll.etype", "Protocol", dissect.BaseHex, 2, etherTypes)
	FieldSLLIfIndex = uintField(RegSLL, "sll.ifindex", "Interface index", dissect.BaseDec, 4, nil)
	FieldSLLOther   = RegSLL.Bytes("sll.other", "Other header fields")

	FieldNullFamily = uintField(RegNull, "null.family", "Family", dissect.BaseDec, 4, nil)
)

// Network layers. The address fields hold the address's text, compared as
// an address (Field.Addr); ip.addr and ipv6.addr are hidden, twice: source
// and destination, as in Wireshark.
var (
	FieldIPVersion  = uintField(RegIP, "ip.version", "Version", dissect.BaseDec, 1, nil)
	FieldIPHdrLen   = RegIP.Add(dissect.Field{Name: "ip.hdr_len", Label: "Header length", Type: dissect.FTUint, Unit: "bytes", Width: 1})
	FieldIPDSField  = uintField(RegIP, "ip.dsfield", "Differentiated Services Field", dissect.BaseHex, 1, nil)
	FieldIPLen      = uintField(RegIP, "ip.len", "Total length", dissect.BaseDec, 2, nil)
	FieldIPID       = RegIP.Add(dissect.Field{Name: "ip.id", Label: "Identification", Type: dissect.FTUint, Base: dissect.BaseHexDec, Width: 2})
	FieldIPFlags    = uintField(RegIP, "ip.flags", "Flags", dissect.BaseHex, 1, nil)
	FieldIPFlagDF   = RegIP.Bool("ip.flags.df", "Don't fragment")
	FieldIPFlagMF   = RegIP.Bool("ip.flags.mf", "More fragments")
	FieldIPFragOff  = uintField(RegIP, "ip.frag_offset", "Fragment offset", dissect.BaseDec, 2, nil)
	FieldIPTTL      = uintField(RegIP, "ip.ttl", "Time to live", dissect.BaseDec, 1, nil)
	FieldIPProto    = uintField(RegIP, "ip.proto", "Protocol", dissect.BaseDec, 1, ipProtocols)
	FieldIPChecksum = uintField(RegIP, "ip.checksum", "Header checksum", dissect.BaseHex, 2, nil)
	FieldIPOptions  = RegIP.Bytes("ip.options", "Options")
	FieldIPSrc      = RegIP.Add(dissect.Field{Name: "ip.src", Label: "Source address", Type: dissect.FTString, Addr: 4})
	FieldIPDst      = RegIP.Add(dissect.Field{Name: "ip.dst", Label: "Destination address", Type: dissect.FTString, Addr: 4})
	FieldIPAddr     = RegIP.Add(dissect.Field{Name: "ip.addr", Label: "Source or destination address", Type: dissect.FTString, Addr: 4})

	FieldIPv6Version = uintField(RegIPv6, "ipv6.version", "Version", dissect.BaseDec, 1, nil)
	FieldIPv6TClass  = uintField(RegIPv6, "ipv6.tclass", "Traffic class", dissect.BaseHex, 4, nil)
	FieldIPv6Flow    = uintField(RegIPv6, "ipv6.flow", "Flow label", dissect.BaseHex, 3, nil)
	FieldIPv6PLen    = uintField(RegIPv6, "ipv6.plen", "Payload length", dissect.BaseDec, 2, nil)
	FieldIPv6Nxt     = uintField(RegIPv6, "ipv6.nxt", "Next header", dissect.BaseDec, 1, ipProtocols)
	FieldIPv6HLim    = uintField(RegIPv6, "ipv6.hlim", "Hop limit", dissect.BaseDec, 1, nil)
	FieldIPv6Src     = RegIPv6.Add(dissect.Field{Name: "ipv6.src", Label: "Source address", Type: dissect.FTString, Addr: 6})
	FieldIPv6Dst     = RegIPv6.Add(dissect.Field{Name: "ipv6.dst", Label: "Destination address", Type: dissect.FTString, Addr: 6})
	FieldIPv6Addr    = RegIPv6.Add(dissect.Field{Name: "ipv6.addr", Label: "Source or destination address", Type: dissect.FTString, Addr: 6})
	FieldIPv6Ext     = uintField(RegIPv6, "ipv6.ext", "Extension header", dissect.BaseDec, 1, ipProtocols)
)

// Transport layers. tcp.port and udp.port are hidden, twice: source and
// destination.
var (
	FieldTCPSrcPort  = uintField(RegTCP, "tcp.srcport", "Source port", dissect.BaseDec, 2, nil)
	FieldTCPDstPort  = uintField(RegTCP, "tcp.dstport", "Destination port", dissect.BaseDec, 2, nil)
	FieldTCPPort     = uintField(RegTCP, "tcp.port", "Source or destination port", dissect.BaseDec, 2, nil)
	FieldTCPStream   = uintField(RegTCP, "tcp.stream", "Stream index", dissect.BaseDec, 4, nil)
	FieldTCPLen      = uintField(RegTCP, "tcp.len", "TCP segment length", dissect.BaseDec, 4, nil)
	FieldTCPSeq      = uintField(RegTCP, "tcp.seq", "Sequence number (relative)", dissect.BaseDec, 4, nil)
	FieldTCPSeqRaw   = uintField(RegTCP, "tcp.seq_raw", "Sequence number (raw)", dissect.BaseDec, 4, nil)
	FieldTCPAck      = uintField(RegTCP, "tcp.ack", "Acknowledgment number (relative)", dissect.BaseDec, 4, nil)
	FieldTCPAckRaw   = uintField(RegTCP, "tcp.ack_raw", "Acknowledgment number (raw)", dissect.BaseDec, 4, nil)
	FieldTCPHdrLen   = RegTCP.Add(dissect.Field{Name: "tcp.hdr_len", Label: "Header length", Type: dissect.FTUint, Unit: "bytes", Width: 1})
	FieldTCPFlags    = RegTCP.Add(dissect.Field{Name: "tcp.flags", Label: "Flags", Type: dissect.FTUint, Base: dissect.BaseHex, Width: 2})
	FieldTCPFlagCWR  = RegTCP.Bool("tcp.flags.cwr", "Congestion Window Reduced")
	FieldTCPFlagECE  = RegTCP.Bool("tcp.flags.ece", "ECN-Echo")
	FieldTCPFlagURG  = RegTCP.Bool("tcp.flags.urg", "Urgent")
	FieldTCPFlagACK  = RegTCP.Bool("tcp.flags.ack", "Acknowledgment")
	FieldTCPFlagPSH  = RegTCP.Bool("tcp.flags.push", "Push")
	FieldTCPFlagRST  = RegTCP.Bool("tcp.flags.reset", "Reset")
	FieldTCPFlagSYN  = RegTCP.Bool("tcp.flags.syn", "Syn")
	FieldTCPFlagFIN  = RegTCP.Bool("tcp.flags.fin", "Fin")
	FieldTCPWinRaw   = uintField(RegTCP, "tcp.window_size_value", "Window", dissect.BaseDec, 2, nil)
	FieldTCPWin      = uintField(RegTCP, "tcp.window_size", "Calculated window size", dissect.BaseDec, 4, nil)
	FieldTCPWinScale = RegTCP.Add(dissect.Field{Name: "tcp.window_size_scalefactor", Label: "Window size scaling factor", Type: dissect.FTInt, Width: 4})
	FieldTCPChecksum = uintField(RegTCP, "tcp.checksum", "Checksum", dissect.BaseHex, 2, nil)
	FieldTCPUrgent   = uintField(RegTCP, "tcp.urgent_pointer", "Urgent pointer", dissect.BaseDec, 2, nil)
	FieldTCPOptions  = RegTCP.Bytes("tcp.options", "Options")

	FieldUDPSrcPort  = uintField(RegUDP, "udp.srcport", "Source port", dissect.BaseDec, 2, nil)
	FieldUDPDstPort  = uintField(RegUDP, "udp.dstport", "Destination port", dissect.BaseDec, 2, nil)
	FieldUDPPort     = uintField(RegUDP, "udp.port", "Source or destination port", dissect.BaseDec, 2, nil)
	FieldUDPLength   = uintField(RegUDP, "udp.length", "Length", dissect.BaseDec, 2, nil)
	FieldUDPChecksum = uintField(RegUDP, "udp.checksum", "Checksum", dissect.BaseHex, 2, nil)
)

// ICMP and ICMPv6: the header of an error message, then the quoted IP
// header and the first bytes of its transport header, as tshark shows
// them (ip.*, udp.*, tcp.* again, inside).
var (
	FieldICMPType     = uintField(RegICMP, "icmp.type", "Type", dissect.BaseDec, 1, icmpTypes)
	FieldICMPCode     = uintField(RegICMP, "icmp.code", "Code", dissect.BaseDec, 1, nil)
	FieldICMPChecksum = uintField(RegICMP, "icmp.checksum", "Checksum", dissect.BaseHex, 2, nil)
	FieldICMPUnused   = RegICMP.Bytes("icmp.unused", "Unused")
	FieldICMPRest     = RegICMP.Bytes("icmp.data", "Data")

	FieldICMP6Type     = uintField(RegICMP6, "icmpv6.type", "Type", dissect.BaseDec, 1, icmp6Types)
	FieldICMP6Code     = uintField(RegICMP6, "icmpv6.code", "Code", dissect.BaseDec, 1, nil)
	FieldICMP6Checksum = uintField(RegICMP6, "icmpv6.checksum", "Checksum", dissect.BaseHex, 2, nil)
	FieldICMP6Reserved = RegICMP6.Bytes("icmpv6.reserved", "Reserved")
	FieldICMP6Rest     = RegICMP6.Bytes("icmpv6.data", "Data")
)

// uintField registers an unsigned field of width bytes: tshark's
// FT_UINT8 to FT_UINT32 (-G fields), and the digits of a hex value.
func uintField(r *dissect.Registry, name, label string, base dissect.Base, width int, names dissect.Names) *dissect.Field {
	return r.Add(dissect.Field{Name: name, Label: label, Type: dissect.FTUint, Base: base, Width: width, Names: names})
}

// ExpertTruncated: the capture cut a header short.
var ExpertTruncated = RegFrame.Expert("frame.truncated", dissect.SevWarn, "the capture cut the frame's headers short")

var etherTypes = dissect.Names{0x0800: "IPv4", 0x86dd: "IPv6", 0x0806: "ARP", 0x8100: "802.1Q Virtual LAN", 0x88a8: "802.1ad Provider Bridge", 0x9100: "802.1Q Virtual LAN (QinQ)"}

var ipProtocols = dissect.Names{0: "IPv6 Hop-by-Hop Option", 1: "ICMP", 6: "TCP", 17: "UDP", 43: "IPv6 Routing", 44: "IPv6 Fragment", 58: "ICMPv6", 59: "IPv6 No Next Header", 60: "IPv6 Destination Options"}

var icmpTypes = dissect.Names{0: "Echo (ping) reply", 3: "Destination unreachable", 5: "Redirect", 8: "Echo (ping) request", 11: "Time-to-live exceeded", 12: "Parameter problem"}

var icmp6Types = dissect.Names{1: "Destination Unreachable", 2: "Packet Too Big", 3: "Time Exceeded", 4: "Parameter Problem", 128: "Echo (ping) request", 129: "Echo (ping) reply"}

// ICMPUnreachable names the code of a destination unreachable, as tshark
// does (icmp.code under type 3; icmpv6.code under type 1).
func ICMPUnreachable(v6 bool, code uint8) string {
	names := icmpUnreach
	if v6 {
		names = icmp6Unreach
	}
	if s, ok := names[uint64(code)]; ok {
		return s
	}
	return "Unknown (" + strconv.Itoa(int(code)) + ")"
}

var icmpUnreach = dissect.Names{0: "Network unreachable", 1: "Host unreachable", 2: "Protocol unreachable", 3: "Port unreachable", 4: "Fragmentation needed", 5: "Source route failed", 6: "Destination network unknown", 7: "Destination host unknown", 9: "Destination network administratively prohibited", 10: "Destination host administratively prohibited", 13: "Communication administratively filtered"}

var icmp6Unreach = dissect.Names{0: "No route to destination", 1: "Communication with destination administratively prohibited", 2: "Beyond scope of source address", 3: "Address unreachable", 4: "Port unreachable", 5: "Source address failed ingress/egress policy", 6: "Reject route to destination"}

var sllPacketTypes = dissect.Names{0: "Unicast to us", 1: "Broadcast", 2: "Multicast", 3: "Unicast to another host", 4: "Sent by us"}

// registries are the layers', in the order they are made.
var registries = []*dissect.Registry{RegFrame, RegEth, RegVLAN, RegSLL, RegNull, RegIP, RegIPv6, RegTCP, RegUDP, RegICMP, RegICMP6}

// own are the fields Dissect makes: the registries' fields as this package
// registers them, before others add theirs (the pipeline's
// tcp.analysis.*, which are in a record's PDU tree).
var own = map[*dissect.Field]bool{}

func init() {
	for _, r := range registries {
		for _, f := range r.Fields() {
			own[f] = true
		}
	}
}

// Owns reports whether f is one of the fields Dissect makes: a record's
// layers' tree holds it, whatever the PDU's.
func Owns(f *dissect.Field) bool { return own[f] }

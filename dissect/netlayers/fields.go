package netlayers

import "github.com/mcdissect/mcdissect/dissect"

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
)

// Frame.
var (
	FieldFrameNumber    = RegFrame.Uint("frame.number", "Frame number", dissect.BaseDec, nil)
	FieldFrameTime      = RegFrame.AbsTime("frame.time", "Arrival time")
	FieldFrameEpoch     = RegFrame.Float("frame.time_epoch", "Epoch time", "s")
	FieldFrameDelta     = RegFrame.Float("frame.time_delta", "Time delta from previous captured frame", "s")
	FieldFrameRelative  = RegFrame.Float("frame.time_relative", "Time since the first frame", "s")
	FieldFrameLen       = RegFrame.Add(dissect.Field{Name: "frame.len", Label: "Frame length on the wire", Type: dissect.FTUint, Unit: "bytes"})
	FieldFrameCapLen    = RegFrame.Add(dissect.Field{Name: "frame.cap_len", Label: "Frame length stored into the capture file", Type: dissect.FTUint, Unit: "bytes"})
	FieldFrameProtocols = RegFrame.Str("frame.protocols", "Protocols in frame")
)

// Link layers.
var (
	FieldEthDst  = RegEth.Bytes("eth.dst", "Destination")
	FieldEthSrc  = RegEth.Bytes("eth.src", "Source")
	FieldEthType = RegEth.Uint("eth.type", "Type", dissect.BaseHex, etherTypes)
	FieldEthAddr = RegEth.Bytes("eth.addr", "Address")

	FieldVLANPriority = RegVLAN.Uint("vlan.priority", "Priority", dissect.BaseDec, nil)
	FieldVLANID       = RegVLAN.Uint("vlan.id", "ID", dissect.BaseDec, nil)
	FieldVLANType     = RegVLAN.Uint("vlan.etype", "Type", dissect.BaseHex, etherTypes)
	FieldVLANTPID     = RegVLAN.Uint("vlan.tpid", "Tag protocol identifier", dissect.BaseHex, nil)

	FieldSLLPktType = RegSLL.Uint("sll.pkttype", "Packet type", dissect.BaseDec, sllPacketTypes)
	FieldSLLType    = RegSLL.Uint("sll.etype", "Protocol", dissect.BaseHex, etherTypes)
	FieldSLLIfIndex = RegSLL.Uint("sll.ifindex", "Interface index", dissect.BaseDec, nil)
	FieldSLLOther   = RegSLL.Bytes("sll.other", "Other header fields")

	FieldNullFamily = RegNull.Uint("null.family", "Family", dissect.BaseDec, nil)
)

// Network layers. The address fields hold the address's text, compared as
// an address (Field.Addr); ip.addr and ipv6.addr are hidden, twice: source
// and destination, as in Wireshark.
var (
	FieldIPVersion  = RegIP.Uint("ip.version", "Version", dissect.BaseDec, nil)
	FieldIPHdrLen   = RegIP.Add(dissect.Field{Name: "ip.hdr_len", Label: "Header length", Type: dissect.FTUint, Unit: "bytes"})
	FieldIPDSField  = RegIP.Uint("ip.dsfield", "Differentiated Services Field", dissect.BaseHex, nil)
	FieldIPLen      = RegIP.Uint("ip.len", "Total length", dissect.BaseDec, nil)
	FieldIPID       = RegIP.Add(dissect.Field{Name: "ip.id", Label: "Identification", Type: dissect.FTUint, Base: dissect.BaseDecHex, Width: 2})
	FieldIPFlags    = RegIP.Uint("ip.flags", "Flags", dissect.BaseHex, nil)
	FieldIPFlagDF   = RegIP.Bool("ip.flags.df", "Don't fragment")
	FieldIPFlagMF   = RegIP.Bool("ip.flags.mf", "More fragments")
	FieldIPFragOff  = RegIP.Uint("ip.frag_offset", "Fragment offset", dissect.BaseDec, nil)
	FieldIPTTL      = RegIP.Uint("ip.ttl", "Time to live", dissect.BaseDec, nil)
	FieldIPProto    = RegIP.Uint("ip.proto", "Protocol", dissect.BaseDec, ipProtocols)
	FieldIPChecksum = RegIP.Uint("ip.checksum", "Header checksum", dissect.BaseHex, nil)
	FieldIPOptions  = RegIP.Bytes("ip.options", "Options")
	FieldIPSrc      = RegIP.Add(dissect.Field{Name: "ip.src", Label: "Source address", Type: dissect.FTString, Addr: 4})
	FieldIPDst      = RegIP.Add(dissect.Field{Name: "ip.dst", Label: "Destination address", Type: dissect.FTString, Addr: 4})
	FieldIPAddr     = RegIP.Add(dissect.Field{Name: "ip.addr", Label: "Source or destination address", Type: dissect.FTString, Addr: 4})

	FieldIPv6Version = RegIPv6.Uint("ipv6.version", "Version", dissect.BaseDec, nil)
	FieldIPv6TClass  = RegIPv6.Uint("ipv6.tclass", "Traffic class", dissect.BaseHex, nil)
	FieldIPv6Flow    = RegIPv6.Uint("ipv6.flow", "Flow label", dissect.BaseHex, nil)
	FieldIPv6PLen    = RegIPv6.Uint("ipv6.plen", "Payload length", dissect.BaseDec, nil)
	FieldIPv6Nxt     = RegIPv6.Uint("ipv6.nxt", "Next header", dissect.BaseDec, ipProtocols)
	FieldIPv6HLim    = RegIPv6.Uint("ipv6.hlim", "Hop limit", dissect.BaseDec, nil)
	FieldIPv6Src     = RegIPv6.Add(dissect.Field{Name: "ipv6.src", Label: "Source address", Type: dissect.FTString, Addr: 6})
	FieldIPv6Dst     = RegIPv6.Add(dissect.Field{Name: "ipv6.dst", Label: "Destination address", Type: dissect.FTString, Addr: 6})
	FieldIPv6Addr    = RegIPv6.Add(dissect.Field{Name: "ipv6.addr", Label: "Source or destination address", Type: dissect.FTString, Addr: 6})
	FieldIPv6Ext     = RegIPv6.Uint("ipv6.ext", "Extension header", dissect.BaseDec, ipProtocols)
)

// Transport layers. tcp.port and udp.port are hidden, twice: source and
// destination.
var (
	FieldTCPSrcPort  = RegTCP.Uint("tcp.srcport", "Source port", dissect.BaseDec, nil)
	FieldTCPDstPort  = RegTCP.Uint("tcp.dstport", "Destination port", dissect.BaseDec, nil)
	FieldTCPPort     = RegTCP.Uint("tcp.port", "Source or destination port", dissect.BaseDec, nil)
	FieldTCPStream   = RegTCP.Uint("tcp.stream", "Stream index", dissect.BaseDec, nil)
	FieldTCPLen      = RegTCP.Uint("tcp.len", "TCP segment length", dissect.BaseDec, nil)
	FieldTCPSeq      = RegTCP.Uint("tcp.seq", "Sequence number (relative)", dissect.BaseDec, nil)
	FieldTCPSeqRaw   = RegTCP.Uint("tcp.seq_raw", "Sequence number (raw)", dissect.BaseDec, nil)
	FieldTCPAck      = RegTCP.Uint("tcp.ack", "Acknowledgment number (relative)", dissect.BaseDec, nil)
	FieldTCPAckRaw   = RegTCP.Uint("tcp.ack_raw", "Acknowledgment number (raw)", dissect.BaseDec, nil)
	FieldTCPHdrLen   = RegTCP.Add(dissect.Field{Name: "tcp.hdr_len", Label: "Header length", Type: dissect.FTUint, Unit: "bytes"})
	FieldTCPFlags    = RegTCP.Add(dissect.Field{Name: "tcp.flags", Label: "Flags", Type: dissect.FTUint, Base: dissect.BaseHex, Width: 2})
	FieldTCPFlagCWR  = RegTCP.Bool("tcp.flags.cwr", "Congestion Window Reduced")
	FieldTCPFlagECE  = RegTCP.Bool("tcp.flags.ece", "ECN-Echo")
	FieldTCPFlagURG  = RegTCP.Bool("tcp.flags.urg", "Urgent")
	FieldTCPFlagACK  = RegTCP.Bool("tcp.flags.ack", "Acknowledgment")
	FieldTCPFlagPSH  = RegTCP.Bool("tcp.flags.push", "Push")
	FieldTCPFlagRST  = RegTCP.Bool("tcp.flags.reset", "Reset")
	FieldTCPFlagSYN  = RegTCP.Bool("tcp.flags.syn", "Syn")
	FieldTCPFlagFIN  = RegTCP.Bool("tcp.flags.fin", "Fin")
	FieldTCPWinRaw   = RegTCP.Uint("tcp.window_size_value", "Window", dissect.BaseDec, nil)
	FieldTCPWin      = RegTCP.Uint("tcp.window_size", "Calculated window size", dissect.BaseDec, nil)
	FieldTCPWinScale = RegTCP.Int("tcp.window_size_scalefactor", "Window size scaling factor")
	FieldTCPChecksum = RegTCP.Uint("tcp.checksum", "Checksum", dissect.BaseHex, nil)
	FieldTCPUrgent   = RegTCP.Uint("tcp.urgent_pointer", "Urgent pointer", dissect.BaseDec, nil)
	FieldTCPOptions  = RegTCP.Bytes("tcp.options", "Options")

	FieldUDPSrcPort  = RegUDP.Uint("udp.srcport", "Source port", dissect.BaseDec, nil)
	FieldUDPDstPort  = RegUDP.Uint("udp.dstport", "Destination port", dissect.BaseDec, nil)
	FieldUDPPort     = RegUDP.Uint("udp.port", "Source or destination port", dissect.BaseDec, nil)
	FieldUDPLength   = RegUDP.Uint("udp.length", "Length", dissect.BaseDec, nil)
	FieldUDPChecksum = RegUDP.Uint("udp.checksum", "Checksum", dissect.BaseHex, nil)
)

// ExpertTruncated: the capture cut a header short.
var ExpertTruncated = RegFrame.Expert("frame.truncated", dissect.SevWarn, "the capture cut the frame's headers short")

var etherTypes = dissect.Names{0x0800: "IPv4", 0x86dd: "IPv6", 0x0806: "ARP", 0x8100: "802.1Q Virtual LAN", 0x88a8: "802.1ad Provider Bridge", 0x9100: "802.1Q Virtual LAN (QinQ)"}

var ipProtocols = dissect.Names{0: "IPv6 Hop-by-Hop Option", 1: "ICMP", 6: "TCP", 17: "UDP", 43: "IPv6 Routing", 44: "IPv6 Fragment", 58: "ICMPv6", 59: "IPv6 No Next Header", 60: "IPv6 Destination Options"}

var sllPacketTypes = dissect.Names{0: "Unicast to us", 1: "Broadcast", 2: "Multicast", 3: "Unicast to another host", 4: "Sent by us"}

// own are the fields Dissect makes: the registries' fields as this package
// registers them, before others add theirs (the pipeline's
// tcp.analysis.*, which are in a record's PDU tree).
var own = map[*dissect.Field]bool{}

func init() {
	for _, r := range []*dissect.Registry{RegFrame, RegEth, RegVLAN, RegSLL, RegNull, RegIP, RegIPv6, RegTCP, RegUDP} {
		for _, f := range r.Fields() {
			own[f] = true
		}
	}
}

// Owns reports whether f is one of the fields Dissect makes: a record's
// layers' tree holds it, whatever the PDU's.
func Owns(f *dissect.Field) bool { return own[f] }

package record

import "time"

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

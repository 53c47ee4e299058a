package record

import (
	"net/netip"
	"time"
)

// FrameInfo is what frame-level statistics (-z conv,tcp, endpoints,ip,
// io,stat, io,phs, follow,tcp) need of every frame read, Minecraft or
// not: tshark counts frames and their bytes on the wire, which records
// (PDUs) do not show.
type FrameInfo struct {
	Frame     uint64
	Time      time.Time
	Len       int            // the frame's length on the wire
	CapLen    int            // how much of it the capture holds
	Src, Dst  netip.AddrPort // ports 0 when the frame has no TCP or UDP header
	Transport uint8          // 6 TCP, 17 UDP, 0 other or none
	IP        bool           // Src and Dst hold the frame's IP addresses
	Link      uint32         // the capture's link type (pcap LINKTYPE_*: 1 Ethernet, 113 Linux cooked...)
	// Payload is the TCP or UDP payload the capture holds: a view of the
	// reader's buffer, valid during the call only.
	Payload []byte
	// Proto is the protocol whose decoder the payload went to ("query",
	// "slp"...), "" when none claims it (yet).
	Proto string
	// TCP is the segment's header, when Transport is 6.
	TCP TCPInfo
}

// TCPInfo is what FrameInfo tells of a TCP segment.
type TCPInfo struct {
	Stream int // tcp.stream
	// Seq and Ack are relative to each direction's first, as tshark shows
	// them (Ack 0 without the ACK flag).
	Seq, Ack                uint32
	Len                     int // the payload's length on the wire (tcp.len), which the capture may have cut
	SYN, ACK, FIN, RST, PSH bool
}

package record

import (
	"net/netip"
	"time"
)

// FrameInfo is what frame-level statistics (-z conv,tcp, endpoints,ip,
// io,stat) need of every frame read, Minecraft or not: tshark counts
// frames and their bytes on the wire, which records (PDUs) do not show.
type FrameInfo struct {
	Frame     uint64
	Time      time.Time
	Len       int            // the frame's length on the wire
	CapLen    int            // how much of it the capture holds
	Src, Dst  netip.AddrPort // ports 0 when the frame has no TCP or UDP header
	Transport uint8          // 6 TCP, 17 UDP, 0 other or none
	IP        bool           // Src and Dst hold the frame's IP addresses
}

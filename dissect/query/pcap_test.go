package query

import (
	"encoding/binary"
	"fmt"
	"os"
	"time"
)

// datagram is one UDP datagram read from a classic pcap file.
type datagram struct {
	frame            uint64
	time             time.Time
	src, dst         string // "ip:port"
	srcPort, dstPort uint16
	payload          []byte
	wireLen          int // the payload's length on the wire (more when the capture cut it)
}

// readPcap reads the UDP/IPv4 datagrams of a classic pcap file with
// Ethernet link type: enough for testdata/query-full.pcap (tcpdump on
// loopback), stdlib only so the protocol package stays free of gopacket.
func readPcap(path string) ([]datagram, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) < 24 {
		return nil, fmt.Errorf("%s: short file", path)
	}
	var bo binary.ByteOrder
	nano := false
	switch binary.LittleEndian.Uint32(b) {
	case 0xa1b2c3d4:
		bo = binary.LittleEndian
	case 0xa1b23c4d:
		bo, nano = binary.LittleEndian, true
	default:
		switch binary.BigEndian.Uint32(b) {
		case 0xa1b2c3d4:
			bo = binary.BigEndian
		case 0xa1b23c4d:
			bo, nano = binary.BigEndian, true
		default:
			return nil, fmt.Errorf("%s: not a classic pcap file", path)
		}
	}
	if lt := bo.Uint32(b[20:]); lt != 1 {
		return nil, fmt.Errorf("%s: link type %d, want Ethernet", path, lt)
	}
	var out []datagram
	frame := uint64(0)
	for off := 24; off+16 <= len(b); {
		sec, frac, incl := bo.Uint32(b[off:]), bo.Uint32(b[off+4:]), int(bo.Uint32(b[off+8:]))
		off += 16
		if off+incl > len(b) {
			return nil, fmt.Errorf("%s: record cut", path)
		}
		pkt := b[off : off+incl]
		off += incl
		frame++
		ns := int64(frac) * 1000
		if nano {
			ns = int64(frac)
		}
		if len(pkt) < 14+20+8 || binary.BigEndian.Uint16(pkt[12:]) != 0x0800 {
			continue
		}
		ip := pkt[14:]
		ihl := int(ip[0]&15) * 4
		if ip[9] != 17 || len(ip) < ihl+8 {
			continue
		}
		udp := ip[ihl:]
		sp, dp := binary.BigEndian.Uint16(udp), binary.BigEndian.Uint16(udp[2:])
		ulen := int(binary.BigEndian.Uint16(udp[4:]))
		if ulen < 8 {
			continue
		}
		wire := ulen - 8
		if ulen > len(udp) {
			ulen = len(udp) // the snap length cut the datagram
		}
		out = append(out, datagram{
			frame: frame, time: time.Unix(int64(sec), ns).UTC(),
			src:     fmt.Sprintf("%d.%d.%d.%d:%d", ip[12], ip[13], ip[14], ip[15], sp),
			dst:     fmt.Sprintf("%d.%d.%d.%d:%d", ip[16], ip[17], ip[18], ip[19], dp),
			srcPort: sp, dstPort: dp,
			payload: udp[8:ulen], wireLen: wire,
		})
	}
	return out, nil
}

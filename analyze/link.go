package analyze

import (
	"encoding/binary"

	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/capture"
)

// LinkTypeLinuxSLL2 is what `tcpdump -i any` writes since libpcap 1.10
// (LINKTYPE 276); its 20-byte header is read here.
const LinkTypeLinuxSLL2 = capture.LinkTypeLinuxSLL2

// netStart finds where the IP header starts in a frame of the given link
// type and which IP version the link says it is (0: look at the nibble).
// ok is false for frames that carry no IP (ARP, unknown link types).
func netStart(link layers.LinkType, d []byte) (off int, version int, ok bool) {
	var etype uint16
	switch link {
	case layers.LinkTypeEthernet:
		if len(d) < 14 {
			return 0, 0, false
		}
		etype, off = binary.BigEndian.Uint16(d[12:14]), 14
	case layers.LinkTypeLinuxSLL:
		if len(d) < 16 {
			return 0, 0, false
		}
		etype, off = binary.BigEndian.Uint16(d[14:16]), 16
	case LinkTypeLinuxSLL2:
		if len(d) < 20 {
			return 0, 0, false
		}
		etype, off = binary.BigEndian.Uint16(d[0:2]), 20
	case layers.LinkTypeNull, layers.LinkTypeLoop:
		// BSD loopback: a 4-byte address family in the writer's byte order
		// (NULL) or network order (LOOP); 2 is IPv4, IPv6 has several values.
		if len(d) < 4 {
			return 0, 0, false
		}
		af := binary.LittleEndian.Uint32(d)
		if af > 0xffff {
			af = binary.BigEndian.Uint32(d)
		}
		switch af {
		case 2:
			return 4, 4, true
		case 10, 24, 28, 30:
			return 4, 6, true
		}
		return 0, 0, false
	case layers.LinkTypeRaw, 12, layers.LinkTypeIPv4, layers.LinkTypeIPv6:
		return 0, 0, len(d) > 0
	default:
		return 0, 0, false
	}
	// 802.1Q, 802.1ad and QinQ (0x9100) tags, possibly stacked.
	for (etype == 0x8100 || etype == 0x88a8 || etype == 0x9100) && len(d) >= off+4 {
		etype = binary.BigEndian.Uint16(d[off+2 : off+4])
		off += 4
	}
	switch etype {
	case 0x0800:
		return off, 4, true
	case 0x86dd:
		return off, 6, true
	}
	return 0, 0, false
}

package capgen

import (
	"encoding/binary"

	"github.com/gopacket/gopacket/layers"
)

// Frame edits, for Writer.Edit: each takes a built Ethernet frame (which it
// must not keep: the Writer reuses its buffer) and returns the frames to
// write in its place. Checksums stay right: VLAN tags are below IP, and
// TCP's and UDP's checksums over IPv6 cover the upper-layer length and the
// final destination only, not the extension headers in between.

// IPv6 extension header numbers (RFC 8200).
const (
	IPv6HopByHop = 0
	IPv6Fragment = 44
	IPv6DestOpts = 60
)

// VLANTags inserts 802.1Q-style tags after the MAC addresses, outermost
// first: tag k has the TPID tpids[k] and VLAN ID 10×(k+1). The frame's own
// EtherType follows the last tag.
func VLANTags(tpids ...uint16) func([]byte) [][]byte {
	return func(frame []byte) [][]byte {
		out := make([]byte, 0, len(frame)+4*len(tpids))
		out = append(out, frame[:12]...)
		for k, tp := range tpids {
			out = binary.BigEndian.AppendUint16(out, tp)
			out = binary.BigEndian.AppendUint16(out, uint16(10*(k+1)))
		}
		return [][]byte{append(out, frame[12:]...)}
	}
}

// ipv6Start returns where an untagged Ethernet frame's IPv6 header
// starts, or -1 when the frame is not IPv6.
func ipv6Start(frame []byte) int {
	if len(frame) < 14+40 || binary.BigEndian.Uint16(frame[12:]) != uint16(layers.EthernetTypeIPv6) {
		return -1
	}
	return 14
}

// optionsHeader is an 8-byte Hop-by-Hop or Destination Options header
// holding one PadN option: next is the header that follows it.
func optionsHeader(next byte) []byte {
	return []byte{next, 0, 1, 4, 0, 0, 0, 0}
}

// IPv6Options inserts, after an IPv6 header, an 8-byte options header of
// each kind given (IPv6HopByHop, IPv6DestOpts), in that order, before the
// upper-layer header. Frames that are not IPv6 pass unchanged.
func IPv6Options(kinds ...byte) func([]byte) [][]byte {
	return func(frame []byte) [][]byte {
		ip := ipv6Start(frame)
		if ip < 0 {
			return [][]byte{append([]byte(nil), frame...)}
		}
		out := make([]byte, 0, len(frame)+8*len(kinds))
		out = append(out, frame[:ip+40]...)
		next := out[ip+6]
		out[ip+6] = kinds[0]
		for k := range kinds {
			nx := next
			if k+1 < len(kinds) {
				nx = kinds[k+1]
			}
			out = append(out, optionsHeader(nx)...)
		}
		out = append(out, frame[ip+40:]...)
		binary.BigEndian.PutUint16(out[ip+4:], uint16(len(out)-ip-40))
		return [][]byte{out}
	}
}

// IPv6Fragments splits an IPv6 packet whose payload is longer than size
// bytes into fragments of at most size bytes of payload (a multiple of 8,
// as RFC 8200 asks of all but the last), each behind a Fragment header
// with an identification taken from *id, which it advances; with hopByHop
// the fragments carry a Hop-by-Hop header first (part of the
// unfragmentable part). Shorter packets pass unchanged.
func IPv6Fragments(size int, hopByHop bool, id *uint32) func([]byte) [][]byte {
	size &^= 7
	return func(frame []byte) [][]byte {
		ip := ipv6Start(frame)
		if ip < 0 || len(frame)-ip-40 <= size {
			return [][]byte{append([]byte(nil), frame...)}
		}
		*id++
		upper := frame[ip+6]
		payload := frame[ip+40:]
		var out [][]byte
		for off := 0; off < len(payload); off += size {
			part := payload[off:min(off+size, len(payload))]
			f := make([]byte, 0, ip+40+16+len(part))
			f = append(f, frame[:ip+40]...)
			if hopByHop {
				f[ip+6] = IPv6HopByHop
				f = append(f, optionsHeader(IPv6Fragment)...)
			} else {
				f[ip+6] = IPv6Fragment
			}
			mf := uint16(0)
			if off+len(part) < len(payload) {
				mf = 1
			}
			f = append(f, upper, 0)
			f = binary.BigEndian.AppendUint16(f, uint16(off)|mf)
			f = binary.BigEndian.AppendUint32(f, *id)
			f = append(f, part...)
			binary.BigEndian.PutUint16(f[ip+4:], uint16(len(f)-ip-40))
			out = append(out, f)
		}
		return out
	}
}

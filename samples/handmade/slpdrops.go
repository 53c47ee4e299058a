package main

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// writeSLPDrops derives handmade-slp-concurrent-drops.pcap from the real
// slp-status-concurrent.pcap (100 concurrent status pings, nothing lost):
// one TCP segment carrying payload in twenty, drawn with a fixed seed, is
// left out, as a kernel that drops packets under load leaves them out of
// a capture. The other records are copied byte for byte: real traffic,
// with hand-made losses.
func writeSLPDrops(dir string) error {
	in, err := os.ReadFile(filepath.Join(dir, "slp-status-concurrent.pcap"))
	if err != nil {
		return err
	}
	if len(in) < 24 || binary.LittleEndian.Uint32(in) != 0xa1b2c3d4 || binary.LittleEndian.Uint32(in[20:]) != 1 {
		return errors.New("slp-status-concurrent.pcap: not a little-endian Ethernet pcap")
	}
	rng := rand.New(rand.NewPCG(7, 20))
	out := append([]byte(nil), in[:24]...)
	for off := 24; off+16 <= len(in); {
		n := int(binary.LittleEndian.Uint32(in[off+8:]))
		rec := in[off : off+16+n]
		off += 16 + n
		if tcpPayload(rec[16:]) > 0 && rng.IntN(20) == 0 {
			continue
		}
		out = append(out, rec...)
	}
	return os.WriteFile(filepath.Join(dir, "handmade-slp-concurrent-drops.pcap"), out, 0o644)
}

// tcpPayload is the TCP payload length of an Ethernet IPv4 frame, or 0.
func tcpPayload(f []byte) int {
	if len(f) < 14+20 || f[12] != 0x08 || f[13] != 0x00 {
		return 0
	}
	ip := f[14:]
	ihl := int(ip[0]&15) * 4
	if ip[9] != 6 || len(ip) < ihl+13 {
		return 0
	}
	total := int(binary.BigEndian.Uint16(ip[2:]))
	return total - ihl - int(ip[ihl+12]>>4)*4
}

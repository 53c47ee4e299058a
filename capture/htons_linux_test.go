//go:build linux && !pcap

package capture

import (
	bo "encoding/binary"
	"testing"
)

// htons must give the protocol number in network byte order as the host
// stores it: swapped on a little-endian host, unchanged on a big-endian
// one (the kernel reads the field's memory as big-endian).
func TestHtons(t *testing.T) {
	for _, c := range []struct {
		host bo.ByteOrder
		v    uint16
		want uint16
	}{
		{bo.LittleEndian, 0x0003, 0x0300},
		{bo.LittleEndian, 0x1234, 0x3412},
		{bo.BigEndian, 0x0003, 0x0003},
		{bo.BigEndian, 0x1234, 0x1234},
	} {
		if got := hton16(c.host, c.v); got != c.want {
			t.Errorf("%v host: hton16(%#04x) = %#04x, want %#04x", c.host, c.v, got, c.want)
		}
	}
	// On this host: the bytes in memory are big-endian.
	var b [2]byte
	bo.NativeEndian.PutUint16(b[:], htons(0x0003))
	if b != [2]byte{0x00, 0x03} {
		t.Errorf("htons(3) is stored as % x, want 00 03", b)
	}
}

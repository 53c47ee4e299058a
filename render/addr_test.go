package render

import (
	"math/rand/v2"
	"net/netip"
	"testing"
)

// TestAppendAddr: the table-driven IPv4 formatting writes what netip
// writes, for every octet value and for the addresses it leaves to netip.
func TestAppendAddr(t *testing.T) {
	addrs := []netip.Addr{
		{}, // invalid
		netip.MustParseAddr("0.0.0.0"),
		netip.MustParseAddr("255.255.255.255"),
		netip.MustParseAddr("10.0.100.9"),
		netip.MustParseAddr("::ffff:10.1.2.3"),
		netip.MustParseAddr("2001:db8::11"),
		netip.MustParseAddr("fe80::1%eth0"),
	}
	for i := range 256 {
		b := byte(i)
		addrs = append(addrs, netip.AddrFrom4([4]byte{b, 255 - b, b / 10, b % 7}))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		u := rng.Uint32()
		addrs = append(addrs, netip.AddrFrom4([4]byte{byte(u >> 24), byte(u >> 16), byte(u >> 8), byte(u)}))
	}
	for _, a := range addrs {
		if got, want := string(appendAddr([]byte("x"), a)), string(a.AppendTo([]byte("x"))); got != want {
			t.Errorf("appendAddr(%v) = %q, want %q", a, got, want)
		}
		for _, port := range []uint16{0, 9, 25565, 65535} {
			p := netip.AddrPortFrom(a, port)
			if got, want := string(appendAddrPort([]byte("x"), p)), string(p.AppendTo([]byte("x"))); got != want {
				t.Errorf("appendAddrPort(%v) = %q, want %q", p, got, want)
			}
		}
	}
}

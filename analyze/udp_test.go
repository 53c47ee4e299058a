package analyze

import (
	"encoding/binary"
	"net/netip"
	"testing"
	"unsafe"

	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"

	"github.com/mcdissect/mcdissect/dissect/raknet"
	"github.com/mcdissect/mcdissect/internal/capgen"
)

func raknetPing() []byte {
	b := []byte{raknet.IDUnconnectedPing}
	b = binary.BigEndian.AppendUint64(b, 1)
	b = append(b, raknet.Magic[:]...)
	return binary.BigEndian.AppendUint64(b, 2)
}

func raknetPong(s string) []byte {
	b := []byte{raknet.IDUnconnectedPong}
	b = binary.BigEndian.AppendUint64(b, 1)
	b = binary.BigEndian.AppendUint64(b, 3)
	b = append(b, raknet.Magic[:]...)
	b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
	return append(b, s...)
}

// TestUDPRouting: each datagram goes to the protocol the table says, with
// the direction its shape or port says, and RakNet's magic wins over
// Query's port and over a server Query learned.
func TestUDPRouting(t *testing.T) {
	cl := netip.MustParseAddrPort("10.0.0.9:50000")
	gamedig := []byte{0xfe, 0xfd, 9, 0, 0, 0, 1, 0, 0, 0, 0}
	for _, tc := range []struct {
		name      string
		port      uint16
		toServer  bool
		data      []byte
		opts      Options
		proto     string
		wantCount int
	}{
		{"gamedig handshake, other port", 25566, true, gamedig, Options{}, "query", 1},
		{"gamedig handshake, no heuristics", 25566, true, gamedig, Options{NoHeuristics: true}, "", 0},
		{"raknet ping, query port", 25565, true, raknetPing(), Options{}, "raknet", 1},
		{"raknet ping, bedrock port", 19132, true, raknetPing(), Options{NoHeuristics: true}, "raknet", 1},
		{"raknet ping, any port", 40000, true, raknetPing(), Options{}, "raknet", 1},
		{"raknet ping, any port, no heuristics", 40000, true, raknetPing(), Options{NoHeuristics: true}, "", 0},
		{"raknet pong, any port", 40000, false, raknetPong("MCPE;m;1;1;0;10;"), Options{}, "raknet", 1},
		{"garbage on bedrock port, learned Query server", 19132, true, []byte{1, 2, 3}, Options{}, "query", 1},
		{"query on bedrock port (Geyser)", 19132, true, []byte{0xfe, 0xfd, 9, 0, 0, 0, 2}, Options{}, "query", 1},
		{"garbage to a learned Query server", 40000, true, []byte{1, 2, 3}, Options{}, "query", 1},
		{"-d raknet", 40001, true, []byte{1, 2, 3}, Options{DecodeAs: []DecodeAs{{Transport: protocols.UDP, Port: 40001, Proto: "raknet"}}}, "raknet", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sv := netip.AddrPortFrom(netip.MustParseAddr("10.0.0.1"), tc.port)
			capt := buildCapture(t, func(w *capgen.Writer) {
				// A Query exchange first teaches the server's address.
				w.UDP(t0, cl, sv, gamedig)
				src, dst := cl, sv
				if !tc.toServer {
					src, dst = sv, cl
				}
				w.UDP(t0, src, dst, tc.data)
			})
			recs, _, err := analyzeBytes(t, capt, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []*record.Record
			for _, r := range recs {
				if r.Frame == 2 {
					got = append(got, r)
				}
			}
			if len(got) != tc.wantCount {
				t.Fatalf("%d records for frame 2, want %d", len(got), tc.wantCount)
			}
			if tc.wantCount == 0 {
				return
			}
			r := got[0]
			wantDir := "c2s"
			if !tc.toServer {
				wantDir = "s2c"
			}
			if r.Proto != tc.proto || r.PDU.Dir.String() != wantDir {
				t.Errorf("proto %q dir %v, want %q %s", r.Proto, r.PDU.Dir, tc.proto, wantDir)
			}
		})
	}
}

// TestAddrKeys: the key of an address is its text, whatever the cache
// holds (clashing addresses, IPv6, the zero port), and a hit is the same
// string.
func TestAddrKeys(t *testing.T) {
	var k addrKeys
	var all []netip.AddrPort
	for i := range 20000 {
		ip := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
		if i%3 == 0 {
			ip = netip.MustParseAddr("2001:db8::1").Next()
			for range i % 50 {
				ip = ip.Next()
			}
		}
		all = append(all, netip.AddrPortFrom(ip, uint16(i*7)))
	}
	for round := range 2 {
		for i, a := range all {
			if got := k.of(a); got != a.String() {
				t.Fatalf("round %d, %d: key %q, want %q", round, i, got, a.String())
			}
		}
	}
	a := all[5]
	if s1, s2 := k.of(a), k.of(a); unsafe.StringData(s1) != unsafe.StringData(s2) {
		t.Error("a hit formats again")
	}
}

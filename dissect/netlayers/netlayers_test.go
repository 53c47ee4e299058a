package netlayers

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
)

func TestExactTimes(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0.000000000"}, {1, "0.000000001"}, {1500 * time.Millisecond, "1.500000000"},
		{642434100 * time.Nanosecond, "0.642434100"}, {-1, "-0.000000001"},
	} {
		if got := string(AppendSeconds9(nil, c.d)); got != c.want {
			t.Errorf("AppendSeconds9(%d) = %q, want %q", c.d, got, c.want)
		}
	}
	for _, c := range []struct {
		t          time.Time
		epoch, abs string
	}{
		{time.Unix(1795342882, 642434100), "1795342882.642434100", "Nov 22, 2026 10:21:22.642434100 UTC"},
		{time.Unix(1714564800, 0), "1714564800.000000000", "May  1, 2024 12:00:00.000000000 UTC"},
		{time.Unix(-1, 500000000), "-0.500000000", "Dec 31, 1969 23:59:59.500000000 UTC"},
	} {
		if got := string(AppendEpoch9(nil, c.t)); got != c.epoch {
			t.Errorf("AppendEpoch9(%v) = %q, want %q", c.t, got, c.epoch)
		}
		if got := string(AppendFrameTime(nil, c.t)); got != c.abs {
			t.Errorf("AppendFrameTime(%v) = %q, want %q", c.t, got, c.abs)
		}
	}
}

// TestWindowSize: tcp.window_size is the raw window shifted by the scale
// both ends announced, the raw window when the scale is unknown, and a
// SYN's own window is never scaled.
func TestWindowSize(t *testing.T) {
	for _, c := range []struct {
		win   uint16
		scale int8
		flags uint16
		want  uint64
	}{
		{64, 10, 0x10, 65536},
		{64, -1, 0x10, 64},
		{65495, 7, 0x02, 65495},
		{512, 0, 0x10, 512},
	} {
		var p dissect.PDU
		Dissect(&p, ipv4TCP(c.win, c.flags), &Frame{Number: 1, Link: LinkRaw, Stream: 0, WScale: c.scale})
		i := p.Find("tcp.window_size")
		if i < 0 || p.Nodes[i].Value.N != c.want {
			t.Errorf("%+v: node %d", c, i)
		}
	}
}

// ipv4TCP is a bare IPv4 header and TCP header of the window and flags.
func ipv4TCP(win, flags uint16) []byte {
	b := make([]byte, 40)
	b[0], b[2], b[3], b[9] = 0x45, 0, 40, 6
	copy(b[12:16], []byte{10, 0, 0, 1})
	copy(b[16:20], []byte{10, 0, 0, 2})
	b[20+12] = 5 << 4
	b[20+13] = byte(flags)
	b[20+14], b[20+15] = byte(win>>8), byte(win)
	return b
}

// TestTCPLen: tcp.len is the IPv4 total length less the headers, read
// from the IPv4 header the walk went through, whatever bytes before it
// look like one (a source MAC address starting 0x47, an IPv6 address
// with 0x46 in it), and the frame's length less the headers over IPv6.
func TestTCPLen(t *testing.T) {
	ip4 := ipv4TCP(512, 0x18)
	ip4[3] = 45 // 5 bytes of payload
	eth := append([]byte{2, 0, 0, 0, 0, 2, 0x47, 0, 0, 0, 0, 1, 8, 0}, ip4...)
	ip6 := make([]byte, 60)
	ip6[0], ip6[6] = 0x60, 6
	ip6[40+12] = 5 << 4
	// 2001:db8:100:0:46ed:...: the 0x46 read as an IPv4 header once
	eth6 := append([]byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x86, 0xdd}, ip6...)
	eth6[14+8+8], eth6[14+8+9] = 0x46, 0xed
	for _, c := range []struct {
		name string
		head []byte
		link uint32
		wire int
		want uint64
	}{
		{"eth-ip4", eth, LinkEthernet, 64, 5},
		{"raw-ip4", ip4, LinkRaw, 45, 5},
		{"raw-ip6", ip6, LinkRaw, 67, 7},
		{"eth-ip6", eth6, LinkEthernet, 105, 31},
	} {
		var p dissect.PDU
		Dissect(&p, c.head, &Frame{Number: 1, Link: c.link, WireLen: c.wire, CapLen: len(c.head), Stream: 0, WScale: -1})
		i := p.Find("tcp.len")
		if i < 0 || p.Nodes[i].Value.N != c.want {
			t.Errorf("%s: tcp.len node %d, want %d", c.name, i, c.want)
		} else if n := p.Find("tcp"); !strings.HasSuffix(p.Nodes[n].Text, "Len: "+strconv.Itoa(int(c.want))) {
			t.Errorf("%s: line %q", c.name, p.Nodes[n].Text)
		}
	}
}

package netlayers

import (
	"encoding/hex"
	"net/netip"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
)

// heads are frames' header bytes of every link and layer Dissect knows,
// by hand (the real ones are in the goldens), each with its frame.
func heads() map[string]struct {
	head []byte
	f    Frame
} {
	client := netip.MustParseAddrPort("10.0.0.1:40000")
	at := time.Date(2024, 8, 9, 12, 0, 0, 111000, time.UTC)
	frame := func(link uint32, n int, stream int) Frame {
		return Frame{Number: 42, Time: at, Rel: time.Second, Delta: time.Millisecond, WireLen: n + 10, CapLen: n + 10,
			Link: link, Protocols: "query", Stream: stream, Client: client, Relative: true, RelSeq: 1, RelAck: 7, WScale: 7}
	}
	eth := func(etype uint16) []byte {
		b := []byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0, 0}
		b[12], b[13] = byte(etype>>8), byte(etype)
		return b
	}
	tcp := ipv4TCP(512, 0x18)
	tcp[20], tcp[21], tcp[22], tcp[23] = 0x9c, 0x40, 0x63, 0xdd
	tcpOpts := ipv4TCP(512, 0x12)
	tcpOpts[0] = 0x46 // an IPv4 option: four bytes before TCP
	tcpOpts = append(tcpOpts[:20:20], append([]byte{1, 1, 1, 0}, tcpOpts[20:]...)...)
	udp := append(ipv4TCP(0, 0)[:20:20], 0x9c, 0x40, 0x63, 0xdd, 0, 15, 0, 0)
	udp[9] = 17
	ip6 := make([]byte, 48)
	ip6[0], ip6[6], ip6[7] = 0x60, 17, 64
	ip6[23], ip6[39] = 1, 2
	ip6[40], ip6[41], ip6[42], ip6[43], ip6[45] = 0x9c, 0x40, 0x63, 0xdd, 8
	icmp, _ := hex.DecodeString(portUnreachable)
	vlan := append(eth(0x8100), 0x20, 0x05, 0x86, 0xdd)
	sll2 := make([]byte, 20)
	sll2[0], sll2[1] = 0x08, 0x00
	out := map[string]struct {
		head []byte
		f    Frame
	}{}
	add := func(name string, head []byte, link uint32, stream int) {
		out[name] = struct {
			head []byte
			f    Frame
		}{head, frame(link, len(head), stream)}
	}
	add("eth-ip4-tcp", append(eth(0x0800), tcp...), LinkEthernet, 3)
	add("eth-ip4opts-tcpsyn", append(eth(0x0800), tcpOpts...), LinkEthernet, 0)
	add("eth-ip4-udp", append(eth(0x0800), udp...), LinkEthernet, -1)
	add("vlan-ip6-udp", append(vlan, ip6...), LinkEthernet, -1)
	add("sll1-ip4-udp", append(append(make([]byte, 14), 0x08, 0x00), udp...), LinkSLL, -1)
	add("sll2-ip4-tcp", append(sll2, tcp...), LinkSLL2, 1)
	add("null-ip6-udp", append([]byte{30, 0, 0, 0}, ip6...), LinkNull, -1)
	add("raw-ip4-tcp", tcp, LinkRaw, 9)
	add("eth-icmp-quoting-udp", icmp[:70], LinkEthernet, -1)
	add("none", nil, LinkNone, -1)
	return out
}

// TestLinesOutline: Lines makes the outline of Dissect's tree, cut or
// whole: the same layer nodes (the protocols, and what no field explains),
// with the same ranges, flags and lines, in the same order, under the
// same parents, and the same expert items.
func TestLinesOutline(t *testing.T) {
	for name, c := range heads() {
		t.Run(name, func(t *testing.T) {
			for n := 0; n <= len(c.head); n++ {
				f := c.f
				f.CapLen = n
				var tree, lines dissect.PDU
				Dissect(&tree, c.head[:n], &f)
				Lines(&lines, c.head[:n], &f)
				if err := dissect.Check(&tree); err != nil {
					t.Fatalf("cut at %d: %v", n, err)
				}
				var kept []int32 // the tree's nodes the outline keeps, by the outline's index
				index := map[int32]int32{-1: -1}
				for i := range tree.Nodes {
					nd := &tree.Nodes[i]
					if nd.Field.Type == dissect.FTProtocol || nd.Field == dissect.FieldUndissected {
						index[int32(i)] = int32(len(kept))
						kept = append(kept, int32(i))
					}
				}
				if len(kept) != len(lines.Nodes) {
					t.Fatalf("cut at %d: %d nodes in the outline, want %d", n, len(lines.Nodes), len(kept))
				}
				for j, i := range kept {
					a, b := &tree.Nodes[i], &lines.Nodes[j]
					if a.Field != b.Field || a.Offset != b.Offset || a.Length != b.Length || a.Flags != b.Flags || a.Text != b.Text || index[a.Parent] != b.Parent {
						t.Errorf("cut at %d: outline node %d is %s %d+%d %q under %d, want %s %d+%d %q under %d", n, j,
							b.Field.Name, b.Offset, b.Length, b.Text, b.Parent, a.Field.Name, a.Offset, a.Length, a.Text, index[a.Parent])
					}
				}
				if len(tree.Experts) != len(lines.Experts) {
					t.Fatalf("cut at %d: %d expert items in the outline, want %d", n, len(lines.Experts), len(tree.Experts))
				}
				for i := range tree.Experts {
					if a, b := tree.Experts[i], lines.Experts[i]; a.Info != b.Info || a.Msg != b.Msg || index[a.Node] != b.Node {
						t.Errorf("cut at %d: expert %+v, want %+v", n, b, a)
					}
				}
			}
		})
	}
}

// TestTexts: the texts Dissect writes into one buffer are each node's
// own: lines, addresses, exact times and frame.protocols, as they were
// when each was a string of its own.
func TestTexts(t *testing.T) {
	c := heads()["eth-ip4-tcp"]
	var p dissect.PDU
	Dissect(&p, c.head, &c.f)
	want := map[string]string{
		"frame":               "Frame 42: 64 bytes on wire (512 bits), 64 bytes captured (512 bits), 2024-08-09 12:00:00.000111000 UTC, TCP stream 3, client → server",
		"eth":                 "Ethernet II, Src: 02:00:00:00:00:01, Dst: 02:00:00:00:00:02",
		"ip":                  "Internet Protocol Version 4, Src: 10.0.0.1, Dst: 10.0.0.2",
		"tcp":                 "Transmission Control Protocol, Src Port: 40000, Dst Port: 25565, Seq: 1, Ack: 7, Len: 0",
		"ip.src":              "10.0.0.1",
		"ip.dst":              "10.0.0.2",
		"frame.time_epoch":    "1723204800.000111000",
		"frame.time_delta":    "0.001000000",
		"frame.time_relative": "1.000000000",
		"frame.protocols":     "eth:ethertype:ip:tcp:query",
	}
	seen := map[string]bool{}
	for i := range p.Nodes {
		n := &p.Nodes[i]
		w, ok := want[n.Field.Name]
		if !ok {
			continue
		}
		got := n.Text
		if n.Field.Type != dissect.FTProtocol {
			got = string(n.Value.B)
		}
		if got != w {
			t.Errorf("%s: %q, want %q", n.Field.Name, got, w)
		}
		seen[n.Field.Name] = true
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("no %s", name)
		}
	}
}

// TestAppendUTC: the frame line's time is time's own layout, written
// without it, years of four digits or not.
func TestAppendUTC(t *testing.T) {
	for _, at := range []time.Time{
		time.Date(2024, 8, 9, 12, 0, 0, 111000, time.UTC),
		time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(-5, 3, 1, 1, 2, 3, 4, time.UTC),
		time.Date(2026, 11, 22, 10, 21, 22, 642434100, time.FixedZone("X", 3600)),
	} {
		want := at.UTC().Format("2006-01-02 15:04:05.000000000") + " UTC"
		if got := string(appendUTC(nil, at)); got != want {
			t.Errorf("appendUTC(%v) = %q, want %q", at, got, want)
		}
	}
}

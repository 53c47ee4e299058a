package netlayers

import (
	"encoding/hex"
	"fmt"
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
	add("eth-icmp-quoting-tcp8", append(eth(0x0800), icmpQuotingTCP(8)...), LinkEthernet, -1)
	add("eth-icmp-quoting-tcp20", append(eth(0x0800), icmpQuotingTCP(20)...), LinkEthernet, -1)
	qinq := eth(0x88a8) // ten stacked tags: more texts than Make keeps on its stack
	for i := range 10 {
		qinq = append(qinq, 0x20, byte(i), 0x81, 0x00)
	}
	qinq[len(qinq)-2], qinq[len(qinq)-1] = 0x08, 0x00
	add("eth-10vlan-ip4-tcp", append(qinq, tcp...), LinkEthernet, 2)
	add("none", nil, LinkNone, -1)
	return out
}

// icmpQuotingTCP is an IPv4 ICMP port unreachable (by hand: real peers
// quote UDP) quoting an IPv4 header and n bytes of a TCP header.
func icmpQuotingTCP(n int) []byte {
	quoted := ipv4TCP(512, 0x02)
	quoted[20+4], quoted[20+7] = 0x12, 0x34 // the sequence number
	quoted = quoted[:20+n]
	return append([]byte{0x45, 0, 0, byte(28 + len(quoted)), 0, 0, 0x40, 0, 64, 1, 0, 0, 10, 0, 0, 2, 10, 0, 0, 1,
		3, 3, 0, 0, 0, 0, 0, 0}, quoted...)
}

// TestWant: a tree made for a set of fields is the whole tree less what
// the set does not ask for, cut or whole: the frame's node, the nodes of
// the fields asked for and of the layers asked for (their nodes, their
// lines, a field of theirs), with the same ranges, flags, values and
// texts, in the same order, under the same parents; what no field
// explains; the same expert items; a layer's line only when asked for.
// The sets: nothing, the outline (Lines), every field alone, and every
// field with the lines and the fields before it.
func TestWant(t *testing.T) {
	sets := map[string]Want{"none": {}, "lines": Lines}
	var before Want
	for _, f := range fieldOf {
		sets[f.Name] = WantField(f)
		before = before.Or(WantField(f))
		sets["lines+"+f.Name+"+before"] = before.Or(Lines)
	}
	for name, c := range heads() {
		t.Run(name, func(t *testing.T) {
			var text Texts // one buffer, reused as a record's is
			for n := 0; n <= len(c.head); n++ {
				f := c.f
				f.CapLen = n
				var tree dissect.PDU
				Dissect(&tree, c.head[:n], &f)
				if err := dissect.Check(&tree); err != nil {
					t.Fatalf("cut at %d: %v", n, err)
				}
				for set, w := range sets {
					var p dissect.PDU
					Make(&p, &text, c.head[:n], &f, w)
					if msg := subtree(&tree, &p, w); msg != "" {
						t.Fatalf("cut at %d, %s: %s", n, set, msg)
					}
				}
			}
		})
	}
}

// subtree says how p differs from the whole tree less what w does not ask
// for, or "".
func subtree(tree, p *dissect.PDU, w Want) string {
	var kept []int32 // the tree's nodes p keeps, by p's index
	index := map[int32]int32{-1: -1}
	for i := range tree.Nodes {
		nd := &tree.Nodes[i]
		ours := Owns(nd.Field)
		keep := !ours || i == 0 || w.wants(nd.Field)
		if ours && nd.Field.Type == dissect.FTProtocol {
			keep = keep || w.anyIn(&layerOf[fieldBit(nd.Field)])
		}
		if keep {
			index[int32(i)] = int32(len(kept))
			kept = append(kept, int32(i))
		}
	}
	if len(kept) != len(p.Nodes) {
		return fmt.Sprintf("%d nodes, want %d", len(p.Nodes), len(kept))
	}
	for j, i := range kept {
		a, b := tree.Nodes[i], p.Nodes[j]
		if Owns(a.Field) && a.Field.Type == dissect.FTProtocol && !w.wants(a.Field) {
			a.Text = "" // the line not asked for
		}
		parent, ok := index[a.Parent]
		if !ok {
			return fmt.Sprintf("node %d (%s) kept, its parent %d not", i, a.Field.Name, a.Parent)
		}
		if a.Field != b.Field || a.Offset != b.Offset || a.Length != b.Length || a.Flags != b.Flags || a.Text != b.Text ||
			parent != b.Parent || a.Value.N != b.Value.N || string(a.Value.B) != string(b.Value.B) {
			return fmt.Sprintf("node %d is %s %d+%d %q %q under %d, want %s %d+%d %q %q under %d", j,
				b.Field.Name, b.Offset, b.Length, b.Text, dissect.AppendValue(nil, &b), b.Parent,
				a.Field.Name, a.Offset, a.Length, a.Text, dissect.AppendValue(nil, &a), parent)
		}
	}
	if len(tree.Experts) != len(p.Experts) {
		return fmt.Sprintf("%d expert items, want %d", len(p.Experts), len(tree.Experts))
	}
	for i := range tree.Experts {
		node, ok := index[tree.Experts[i].Node]
		if a, b := tree.Experts[i], p.Experts[i]; a.Info != b.Info || a.Msg != b.Msg || !ok || node != b.Node {
			return fmt.Sprintf("expert %+v, want %+v", b, a)
		}
	}
	return ""
}

// TestWantFields: every field of the layers has its bit and every bit its
// field; a set asks for the fields it was made of, their layers' nodes,
// and no other.
func TestWantFields(t *testing.T) {
	seen := map[*dissect.Field]bool{}
	for b, f := range fieldOf {
		if f == nil || !Owns(f) || seen[f] {
			t.Fatalf("bit %d: field %v", b, f)
		}
		seen[f] = true
	}
	for f := range own {
		if !seen[f] {
			t.Errorf("%s has no bit", f.Name)
		}
	}
	w := WantField(FieldIPSrc).Or(WantField(FieldTCPFlagSYN)).Or(WantField(RegUDP.Root()))
	for b := range nFields + bit(len(roots)) {
		want := b == fieldBit(FieldIPSrc) || b == fieldBit(FieldTCPFlagSYN) || b == fieldBit(FieldTCPFlags) ||
			b == nodeOf(fieldBit(RegIP.Root())) || b == nodeOf(fieldBit(RegTCP.Root())) || b == nodeOf(fieldBit(RegUDP.Root()))
		if w.has(b) != want {
			t.Errorf("bit %d: asked for %v, want %v", b, !want, want)
		}
	}
	if !All.Covers(w) || w.Covers(All) || !w.Covers(WantField(FieldIPSrc)) || WantField(dissect.FieldUndissected) != (Want{}) || !Lines.Covers(WantField(RegTCP.Root())) {
		t.Error("Covers or WantField wrong")
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
// without it, years of four digits or not; and every day of four
// centuries, leap years and all, is time's date.
func TestAppendUTC(t *testing.T) {
	for _, at := range []time.Time{
		time.Date(2024, 8, 9, 12, 0, 0, 111000, time.UTC),
		time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(-5, 3, 1, 1, 2, 3, 4, time.UTC),
		time.Date(2026, 11, 22, 10, 21, 22, 642434100, time.FixedZone("X", 3600)),
		time.Date(2000, 2, 29, 23, 59, 59, 0, time.UTC),
		time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
	} {
		want := at.UTC().Format("2006-01-02 15:04:05.000000000") + " UTC"
		if got := string(appendUTC(nil, at)); got != want {
			t.Errorf("appendUTC(%v) = %q, want %q", at, got, want)
		}
	}
	for days := int64(-146097); days < 146097; days++ {
		at := time.Unix(days*86400, 0).UTC()
		y, m, d := civil(days)
		if wy, wm, wd := at.Date(); y != int64(wy) || m != int64(wm) || d != int64(wd) {
			t.Fatalf("civil(%d) = %d-%d-%d, want %v", days, y, m, d, at)
		}
	}
}

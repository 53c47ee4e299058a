package render

import (
	"encoding/hex"
	"net/netip"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
)

// checkLayerTexts fails if a layer's line in p would read differently
// escaped: appendLayerLines copies those lines as they are.
func checkLayerTexts(t *testing.T, p *dissect.PDU) {
	t.Helper()
	for i := range p.Nodes {
		if !layerNode(p, i) {
			continue
		}
		s := p.Nodes[i].Text
		if got := string(dissect.AppendSafe(nil, s)); got != s {
			t.Fatalf("layer %s: line %q escapes to %q", p.Nodes[i].Field.Name, s, got)
		}
	}
}

// TestLayerTextsSafe: the layers' lines of every sample record need no
// escaping.
func TestLayerTextsSafe(t *testing.T) {
	for _, r := range corpus(t) {
		checkLayerTexts(t, r.Layers())
	}
}

// FuzzLayerTexts: whatever the header bytes, the layers' lines netlayers
// makes, in the tree and in the outline, need no escaping.
func FuzzLayerTexts(f *testing.F) {
	eth := "020000000002020000000001"
	ip4tcp := "0800" + "4500002800000000400600000a0000010a000002" + "9c4063dd00000001000000075018020000000000"
	ip6udp := "86dd" + "6000000000081140" + "00000000000000000000000000000001" + "00000000000000000000000000000002" + "9c4063dd00080000"
	icmp := "0800" + "45c0003ffc3b000040017fc07f0000017f000001" + "0303c5f50000000045000023" +
		"88f840004011b3cf7f0000017f000001cbf963dd000ffe22" + "fefd0900000001"
	for _, h := range []string{eth + ip4tcp, eth + ip6udp, eth + icmp, eth + "8100200586dd" + ip6udp[4:]} {
		b, err := hex.DecodeString(h)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(0), int16(3))
		f.Add(b[14:], uint8(1), int16(-1))
	}
	links := []uint32{netlayers.LinkEthernet, netlayers.LinkRaw, netlayers.LinkSLL, netlayers.LinkSLL2,
		netlayers.LinkNull, netlayers.LinkLoop, netlayers.LinkIPv4, netlayers.LinkIPv6, netlayers.LinkNone}
	f.Fuzz(func(t *testing.T, head []byte, link uint8, stream int16) {
		fr := netlayers.Frame{
			Number: 7, Time: time.Date(2024, 8, 9, 12, 0, 0, 111000, time.UTC), Rel: time.Second,
			WireLen: len(head) + 20, CapLen: len(head) + 10, Link: links[int(link)%len(links)],
			Protocols: "slp", Stream: int(stream), Client: netip.MustParseAddrPort("10.0.0.1:40000"),
			Relative: stream&1 == 0, RelSeq: 1, RelAck: 7, WScale: int8(stream % 15),
		}
		var p dissect.PDU
		netlayers.Dissect(&p, head, &fr)
		checkLayerTexts(t, &p)
		netlayers.Make(&p, new(netlayers.Texts), head, &fr, netlayers.Lines)
		checkLayerTexts(t, &p)
	})
}

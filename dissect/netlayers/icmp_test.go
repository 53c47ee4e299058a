package netlayers

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// portUnreachable is frame 8 of samples/outcomes-unreachable.pcap: the
// kernel's ICMP port unreachable for msu's Query handshake to
// 127.0.0.1:25565 (Ethernet, IPv4, ICMP, the quoted IPv4 and UDP headers
// and the 7-byte handshake).
const portUnreachable = "000000000000000000000000080045c0003ffc3b000040017fc07f0000017f000001" +
	"0303c5f50000000045000023" + "88f840004011b3cf7f0000017f000001cbf963dd000ffe22" + "fefd0900000001"

// TestICMP: the layers of an ICMP port unreachable are tshark's: type,
// code, checksum, unused, then the quoted headers with the frame's own
// field names; the frame's line says ICMP, and the quoted datagram's
// addresses do not pass for the frame's.
func TestICMP(t *testing.T) {
	head, _ := hex.DecodeString(portUnreachable)
	var p dissect.PDU
	Dissect(&p, head[:70], &Frame{Number: 8, WireLen: len(head), CapLen: len(head), Link: LinkEthernet, Protocols: "icmp", Stream: -1})
	if err := dissect.Check(&p); err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range p.Nodes {
		n := &p.Nodes[i]
		switch n.Field.Name {
		case "icmp.type", "icmp.code", "icmp.checksum", "ip.src", "udp.srcport", "udp.dstport", "udp.length", "frame.protocols":
			got = append(got, n.Field.Name+"="+string(dissect.AppendValue(nil, n)))
		}
	}
	want := `ip.src="127.0.0.1" icmp.type=Destination unreachable (3) icmp.code=3 (Port unreachable) icmp.checksum=0xc5f5 ip.src="127.0.0.1" udp.srcport=52217 udp.dstport=25565 udp.length=15 frame.protocols="eth:ethertype:ip:icmp:ip:udp"`
	if s := strings.Join(got, " "); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
	if line := p.Nodes[0].Text; !strings.HasSuffix(line, ", ICMP") {
		t.Errorf("frame line %q", line)
	}
}

// TestICMPTruncated: the ICMP header and its quote cut at every length:
// no panic, a valid tree, the cut said.
func TestICMPTruncated(t *testing.T) {
	head, _ := hex.DecodeString(portUnreachable)
	for n := 0; n <= len(head); n++ {
		var p dissect.PDU
		Dissect(&p, head[:n], &Frame{Number: 8, WireLen: len(head), CapLen: n, Link: LinkEthernet, Protocols: "icmp", Stream: -1})
		if err := dissect.Check(&p); err != nil {
			t.Fatalf("cut at %d: %v", n, err)
		}
		if n >= 34 && n < 42 && len(p.Experts) == 0 {
			t.Errorf("cut at %d inside the ICMP header: no expert item", n)
		}
	}
}

package analyze

import (
	"fmt"
	"net"
	"slices"
	"testing"

	"github.com/mcdissect/mcdissect/record"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// ipTCP serialises an IPv4 packet carrying one TCP segment; opts are IPv4
// options.
func ipTCP(t testing.TB, sport, dport uint16, payload []byte, opts []layers.IPv4Option) []byte {
	t.Helper()
	tcp := &layers.TCP{SrcPort: layers.TCPPort(sport), DstPort: layers.TCPPort(dport), Seq: 7, ACK: true, PSH: true, Window: 512}
	ip := &layers.IPv4{Version: 4, TTL: 64, Protocol: layers.IPProtocolTCP, SrcIP: net.IP{10, 0, 0, 1}, DstIP: net.IP{10, 0, 0, 2}, Options: opts}
	tcp.SetNetworkLayerForChecksum(ip)
	buf := gopacket.NewSerializeBuffer()
	if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}, ip, tcp, gopacket.Payload(payload)); err != nil {
		t.Fatal(err)
	}
	return append([]byte(nil), buf.Bytes()...)
}

// TestFastIPv4: the IPv4 fast path decodes what the parser decodes, or
// leaves the packet to it: same layers, same truncation, same ports and
// payload.
func TestFastIPv4(t *testing.T) {
	tcp := ipTCP(t, 50000, 25565, []byte("hello"), nil)
	udp := ipUDP(t, false, 40000, 25565, handshakeReq)
	frag := append([]byte(nil), udp...)
	frag[6] |= 0x20 // more fragments
	other := append([]byte(nil), udp...)
	other[9] = 1 // ICMP
	badIHL := append([]byte(nil), tcp...)
	badIHL[0] = 0x44
	for _, tc := range []struct {
		name string
		pkt  []byte
		fast bool
	}{
		{"tcp", tcp, true},
		{"udp", udp, true},
		{"tcp on port 80", ipTCP(t, 80, 40000, []byte("GET"), nil), true},
		{"udp on port 53", ipUDP(t, false, 53, 40000, []byte{1, 2}), true},
		{"ip options", ipTCP(t, 50000, 25565, []byte("x"), []layers.IPv4Option{{OptionType: 1}, {OptionType: 1}, {OptionType: 1}, {OptionType: 0}}), true},
		{"ethernet padding", append(slices.Clone(tcp), 0, 0, 0, 0, 0, 0), true},
		{"cut in the payload", tcp[:len(tcp)-2], true},
		{"cut in the tcp header", tcp[:30], false},
		{"fragment", frag, false},
		{"icmp", other, false},
		{"bad header length", badIHL, false},
		{"ipv6", ipUDP(t, true, 40000, 25565, handshakeReq), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := New(Options{}, SinkFunc(func(*record.Record) error { return nil }))
			var trunc bool
			ver := int(tc.pkt[0] >> 4)
			fast := a.fastIPv4(ver, tc.pkt, &trunc)
			if fast != tc.fast {
				t.Fatalf("fast path taken: %v, want %v", fast, tc.fast)
			}
			if !fast {
				return
			}
			got := summarize(a, trunc)
			b := New(Options{}, SinkFunc(func(*record.Record) error { return nil }))
			if err := b.parser4.DecodeLayers(tc.pkt, &b.decoded); err != nil {
				t.Fatalf("the parser fails where the fast path did not: %v", err)
			}
			if want := summarize(b, b.parser4.Truncated); got != want {
				t.Errorf("fast path:\n%s\nparser:\n%s", got, want)
			}
		})
	}
}

// summarize is what Packet reads of the decoded layers.
func summarize(a *Analyzer, trunc bool) string {
	var s string
	for _, lt := range a.decoded {
		switch lt {
		case layers.LayerTypeTCP:
			s = fmt.Sprintf("tcp %d>%d seq %d flags %v%v payload %q", a.tcp.SrcPort, a.tcp.DstPort, a.tcp.Seq, a.tcp.ACK, a.tcp.PSH, a.tcp.Payload)
		case layers.LayerTypeUDP:
			s = fmt.Sprintf("udp %d>%d len %d payload %q", a.udp.SrcPort, a.udp.DstPort, a.udp.Length, a.udp.Payload)
		}
	}
	return fmt.Sprintf("%s flow %v truncated %v", s, a.netFlow(), trunc)
}

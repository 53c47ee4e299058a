package analyze

import (
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/budget"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/internal/capgen"
	"github.com/mcdissect/mcdissect/record"
)

// summary is a record as the tests of outcomes read it: its frame,
// message, outcome (and who decided it, in which frame) and link.
func summary(r *record.Record) string {
	s := strconv.FormatUint(r.Frame, 10) + " " + r.PDU.Message
	for _, p := range []string{"mc.outcome", "mc.outcome.by", "mc.outcome.frame", "mc.request_in"} {
		if i := r.PDU.Find(p); i >= 0 {
			n := &r.PDU.Nodes[i]
			v := string(dissect.AppendValue(nil, n))
			if n.Field.Type == dissect.FTString {
				v = strconv.Quote(n.Value.Text())
			}
			s += " " + p[3:] + "=" + v
		}
	}
	if len(r.Parts) > 1 {
		s += " parts=" + strconv.Itoa(len(r.Parts))
	}
	return s
}

// TestConnectionRecords: what ends a TCP connection on a Minecraft port
// decides the requests still waiting on it, and what no Minecraft byte
// carries is a record of its own: a SYN refused or never answered, a RST
// before any FIN. A healthy connection's SYN, a RST after a FIN, and
// attempts on other ports are not.
func TestConnectionRecords(t *testing.T) {
	status := []byte{0x01, 0x00}
	other := netip.MustParseAddrPort("10.0.0.9:40001")
	web := netip.MustParseAddrPort("10.0.0.2:443")
	for _, tc := range []struct {
		name  string
		build func(w *capgen.Writer)
		want  []string
	}{
		{"the server resets after the status request", func(w *capgen.Writer) {
			c := w.TCP(tcpClient, tcpServer, t0)
			c.Handshake()              // 1-3
			c.Send(true, slpHandshake) // 4
			c.Send(true, status)       // 5
			c.Reset(false)             // 6
		}, []string{"4 Handshake", `5 Status Request outcome="reset" outcome.by="server" outcome.frame=6`, "6 Connection reset"}},
		{"the client gives up with a RST", func(w *capgen.Writer) {
			c := w.TCP(tcpClient, tcpServer, t0)
			c.Handshake()
			c.Send(true, slpHandshake)
			c.Send(true, status)
			c.Advance(5 * time.Second)
			c.Reset(true) // 6
		}, []string{"4 Handshake", `5 Status Request outcome="unanswered" outcome.by="client" outcome.frame=6`, "6 Connection reset"}},
		{"the server closes after the status request, then a RST", func(w *capgen.Writer) {
			c := w.TCP(tcpClient, tcpServer, t0)
			c.Handshake()
			c.Send(true, slpHandshake)
			c.Send(true, status)
			c.Advance(time.Millisecond)
			c.Close()      // 6, 7, 8: the client's FIN first
			c.Reset(false) // a RST after the FINs: no record
		}, []string{"4 Handshake", `5 Status Request outcome="unanswered" outcome.by="client" outcome.frame=6`}},
		{"refused", func(w *capgen.Writer) {
			c := w.TCP(tcpClient, tcpServer, t0)
			c.SYNOnly()    // 1
			c.Reset(false) // 2
		}, []string{`1 Connection attempt outcome="refused" outcome.by="server" outcome.frame=2`, "2 Connection refused request_in=1"}},
		{"refused on a port of no protocol: not ours", func(w *capgen.Writer) {
			c := w.TCP(tcpClient, web, t0)
			c.SYNOnly()
			c.Reset(false)
		}, nil},
		{"a healthy connection's SYN is no record", func(w *capgen.Writer) {
			c := w.TCP(tcpClient, tcpServer, t0)
			c.Handshake()
			c.Close()
		}, nil},
		{"a SYN sent three times, unanswered past the window", func(w *capgen.Writer) {
			c := w.TCP(tcpClient, tcpServer, t0)
			for i := 0; i < 3; i++ {
				c.SYNOnly() // 1, 2, 3
				c.Advance(time.Second)
			}
			o := w.TCP(other, tcpServer, c.Now.Add(10*time.Second))
			o.Handshake() // 4-6: packet time moves on
		}, []string{`3 Connection attempt outcome="unanswered" parts=3`}},
		{"a SYN the capture ends on", func(w *capgen.Writer) {
			c := w.TCP(tcpClient, tcpServer, t0)
			c.SYNOnly()
		}, []string{`1 Connection attempt outcome="ended"`}},
		{"the client gives up on its SYN", func(w *capgen.Writer) {
			c := w.TCP(tcpClient, tcpServer, t0)
			c.SYNOnly()
			c.Reset(true)
		}, []string{`1 Connection attempt outcome="unanswered" outcome.by="client" outcome.frame=2`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs, _, err := analyzeBytes(t, buildCapture(t, tc.build), Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range recs {
				got = append(got, summary(r))
				if err := dissect.Check(&r.PDU); err != nil {
					t.Error(err)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("records:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestSYNRecordsAreFiltered: the SYN record's layers are the SYN's, so
// tcp.flags.syn finds it; the RST's are the RST's.
func TestSYNRecordsAreFiltered(t *testing.T) {
	recs, _, err := analyzeBytes(t, buildCapture(t, func(w *capgen.Writer) {
		c := w.TCP(tcpClient, tcpServer, t0)
		c.SYNOnly()
		c.Reset(false)
	}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records", len(recs))
	}
	for i, want := range []string{"tcp.flags.syn True", "tcp.flags.reset True"} {
		if !strings.Contains(dumpNet(recs[i]), want) {
			t.Errorf("record %d's layers lack %s:\n%s", i, want, dumpNet(recs[i]))
		}
	}
}

// TestWatchForgets: when the memory budget holds only a few connections,
// the reassembler evicts the least recently seen; attempts evicted while
// they waited are counted in one note, never dropped silently.
func TestWatchForgets(t *testing.T) {
	recs, _, err := analyzeBytes(t, buildCapture(t, func(w *capgen.Writer) { w.SYNFlood(10, false) }), Options{Budget: budget.New(8 << 10)})
	if err != nil {
		t.Fatal(err)
	}
	attempts, notes := 0, ""
	for _, r := range recs {
		switch r.PDU.Message {
		case "Connection attempt":
			attempts++
		case "Connection attempts not followed":
			notes = r.PDU.Info
		}
	}
	lost := 10 - attempts
	if lost == 0 || !strings.Contains(notes, strconv.Itoa(lost)+" connection attempts") {
		t.Errorf("%d attempts shown of 10, note %q", attempts, notes)
	}
}

// icmpFrame is an Ethernet frame carrying an ICMP (ICMPv6) destination
// unreachable with code, from src to dst, quoting quote (an IP packet).
func icmpFrame(t *testing.T, src, dst netip.Addr, code uint8, quote []byte) []byte {
	t.Helper()
	buf := gopacket.NewSerializeBuffer()
	opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
	eth := &layers.Ethernet{SrcMAC: []byte{2, 0, 0, 0, 0, 1}, DstMAC: []byte{2, 0, 0, 0, 0, 2}, EthernetType: layers.EthernetTypeIPv4}
	var err error
	if src.Is6() {
		eth.EthernetType = layers.EthernetTypeIPv6
		ip := &layers.IPv6{Version: 6, NextHeader: layers.IPProtocolICMPv6, HopLimit: 64, SrcIP: src.AsSlice(), DstIP: dst.AsSlice()}
		icmp := &layers.ICMPv6{TypeCode: layers.CreateICMPv6TypeCode(layers.ICMPv6TypeDestinationUnreachable, code)}
		icmp.SetNetworkLayerForChecksum(ip)
		err = gopacket.SerializeLayers(buf, opts, eth, ip, icmp, gopacket.Payload(append([]byte{0, 0, 0, 0}, quote...)))
	} else {
		ip := &layers.IPv4{Version: 4, IHL: 5, TTL: 64, Protocol: layers.IPProtocolICMPv4, SrcIP: src.AsSlice(), DstIP: dst.AsSlice()}
		icmp := &layers.ICMPv4{TypeCode: layers.CreateICMPv4TypeCode(layers.ICMPv4TypeDestinationUnreachable, code)}
		err = gopacket.SerializeLayers(buf, opts, eth, ip, icmp, gopacket.Payload(quote))
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// ipPacket is the IP packet (from its IP header) of the last frame w
// wrote... built again here: an IP header and a transport header of proto
// with payload.
func ipPacket(t *testing.T, src, dst netip.AddrPort, udp bool, payload []byte) []byte {
	t.Helper()
	buf := gopacket.NewSerializeBuffer()
	opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
	var nl gopacket.SerializableLayer
	var l4 interface {
		gopacket.SerializableLayer
		SetNetworkLayerForChecksum(gopacket.NetworkLayer) error
	}
	proto := layers.IPProtocolTCP
	if udp {
		proto = layers.IPProtocolUDP
		l4 = &layers.UDP{SrcPort: layers.UDPPort(src.Port()), DstPort: layers.UDPPort(dst.Port())}
	} else {
		l4 = &layers.TCP{SrcPort: layers.TCPPort(src.Port()), DstPort: layers.TCPPort(dst.Port()), SYN: true, Seq: 1000, Window: 65535, DataOffset: 5}
	}
	if src.Addr().Is6() {
		ip := &layers.IPv6{Version: 6, NextHeader: proto, HopLimit: 64, SrcIP: src.Addr().AsSlice(), DstIP: dst.Addr().AsSlice()}
		l4.SetNetworkLayerForChecksum(ip)
		nl = ip
	} else {
		ip := &layers.IPv4{Version: 4, IHL: 5, TTL: 64, Protocol: proto, SrcIP: src.Addr().AsSlice(), DstIP: dst.Addr().AsSlice()}
		l4.SetNetworkLayerForChecksum(ip)
		nl = ip
	}
	if err := gopacket.SerializeLayers(buf, opts, nl, l4, gopacket.Payload(payload)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestICMPRecords: an ICMP or ICMPv6 destination unreachable quoting a
// Minecraft request is a record that names it, and the request is
// refused in the ICMP's frame; a SYN's host unreachable refuses the
// attempt (RFC 792's 8 quoted bytes are enough); ICMP about other traffic,
// and ICMP that is no error, are not records. Hand-made: the ICMPv6 and
// the host unreachable a loopback capture does not give (the real port
// unreachable is in samples/outcomes-unreachable.pcap).
func TestICMPRecords(t *testing.T) {
	c6 := netip.MustParseAddrPort("[2001:db8::1]:40000")
	s6 := netip.MustParseAddrPort("[2001:db8::2]:25575")
	c4 := netip.MustParseAddrPort("192.0.2.1:40000")
	s4 := netip.MustParseAddrPort("192.0.2.2:25565")
	dns := netip.MustParseAddrPort("192.0.2.2:53")
	handshake := []byte{0xfe, 0xfd, 0x09, 0, 0, 0, 1}
	capt := buildCapture(t, func(w *capgen.Writer) {
		w.UDP(t0, c6, s6, handshake) // 1
		w.Raw(t0.Add(time.Millisecond), icmpFrame(t, s6.Addr(), c6.Addr(), 4, ipPacket(t, c6, s6, true, handshake)))
		c := w.TCP(c4, s4, t0.Add(time.Second))
		c.SYNOnly() // 3
		syn := ipPacket(t, c4, s4, false, nil)
		w.Raw(t0.Add(2*time.Second), icmpFrame(t, netip.MustParseAddr("198.51.100.1"), c4.Addr(), 1, syn[:28])) // 4: a router's host unreachable, 8 bytes of TCP
		w.UDP(t0.Add(3*time.Second), c4, dns, []byte("not minecraft"))                                          // 5
		w.Raw(t0.Add(3*time.Second), icmpFrame(t, dns.Addr(), c4.Addr(), 3, ipPacket(t, c4, dns, true, []byte("not minecraft"))))
	})
	recs, _, err := analyzeBytes(t, capt, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, r.Proto+" "+summary(r))
		if err := dissect.Check(&r.PDU); err != nil {
			t.Error(err)
		}
		if err := dissect.Check(r.Layers()); err != nil {
			t.Error(err)
		}
	}
	want := []string{
		`query 1 Handshake Request outcome="refused" outcome.frame=2`,
		"icmpv6 2 Destination Unreachable request_in=1",
		`tcp 3 Connection attempt outcome="refused" outcome.frame=4`,
		"icmp 4 Destination unreachable request_in=3",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("records:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(recs) == 4 {
		net := dumpNet(recs[3])
		for _, f := range []string{"icmp.type Destination unreachable (3)", "icmp.code 1 (Host unreachable)", "tcp.srcport 40000", "tcp.dstport 25565", `ip.src "192.0.2.1"`} {
			if !strings.Contains(net, f) {
				t.Errorf("the ICMP record's layers lack %s:\n%s", f, net)
			}
		}
	}
}

// TestParseUnreachableTruncated: an ICMP error cut at every length is
// read or refused, never misread: its ports only when their bytes are
// there.
func TestParseUnreachableTruncated(t *testing.T) {
	c, s := netip.MustParseAddrPort("192.0.2.1:40000"), netip.MustParseAddrPort("192.0.2.2:25565")
	quote := ipPacket(t, c, s, true, []byte{0xfe, 0xfd, 0x09, 0, 0, 0, 1})
	msg := append([]byte{3, 3, 0, 0, 0, 0, 0, 0}, quote...)
	for n := 0; n <= len(msg); n++ {
		q, ok := parseUnreachable(msg[:n], false)
		if want := n >= 8+20+8; ok != want {
			t.Fatalf("cut at %d: ok %v", n, ok)
		}
		if ok && (q.src != c || q.dst != s || q.code != 3 || q.proto != 17) {
			t.Fatalf("cut at %d: %+v", n, q)
		}
	}
}

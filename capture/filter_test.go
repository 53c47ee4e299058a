package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
	"golang.org/x/net/bpf"
)

// testPackets are IP packets (or ARP, for the link types that carry it)
// that exercise every test the compiler makes: both IP versions, IPv4
// options, fragments of both versions, ARP and RARP, ICMP, SCTP, a VLAN
// tag, a packet cut by the snap length.
func testPackets(t testing.TB) (ip [][]byte, arp [][]byte) {
	t.Helper()
	ser := func(ls ...gopacket.SerializableLayer) []byte {
		buf := gopacket.NewSerializeBuffer()
		if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true}, ls...); err != nil {
			t.Fatal(err)
		}
		return append([]byte(nil), buf.Bytes()...)
	}
	v4 := func(src, dst string, proto layers.IPProtocol) *layers.IPv4 {
		return &layers.IPv4{Version: 4, TTL: 64, Protocol: proto, SrcIP: net.ParseIP(src).To4(), DstIP: net.ParseIP(dst).To4()}
	}
	v6 := func(src, dst string, next layers.IPProtocol) *layers.IPv6 {
		return &layers.IPv6{Version: 6, HopLimit: 64, NextHeader: next, SrcIP: net.ParseIP(src), DstIP: net.ParseIP(dst)}
	}
	udp := func(s, d uint16) *layers.UDP {
		return &layers.UDP{SrcPort: layers.UDPPort(s), DstPort: layers.UDPPort(d)}
	}
	tcp := func(s, d uint16) *layers.TCP {
		return &layers.TCP{SrcPort: layers.TCPPort(s), DstPort: layers.TCPPort(d), SYN: true, Window: 1000}
	}
	pl := gopacket.Payload([]byte("payload!"))
	withOpts := v4("10.0.0.3", "8.8.8.8", layers.IPProtocolUDP)
	withOpts.Options = []layers.IPv4Option{{OptionType: 1}, {OptionType: 1}, {OptionType: 1}, {OptionType: 0}}
	first := v4("10.0.0.1", "10.0.0.2", layers.IPProtocolUDP)
	first.Flags = layers.IPv4MoreFragments
	later := v4("10.0.0.1", "10.0.0.2", layers.IPProtocolUDP)
	later.FragOffset = 185
	sctp := v4("10.0.0.1", "10.0.0.2", layers.IPProtocolSCTP)
	ip = [][]byte{
		ser(v4("10.0.0.1", "10.0.0.2", layers.IPProtocolUDP), udp(40000, 25565), pl),
		ser(v4("192.168.1.5", "10.1.2.3", layers.IPProtocolTCP), tcp(25565, 51000), pl),
		ser(withOpts, udp(53, 53), pl),
		ser(first, udp(40001, 25565), pl),
		ser(later, gopacket.Payload([]byte{0x63, 0xdd, 0x63, 0xdd, 0, 8, 0, 0})), // bytes that look like port 25565
		ser(v6("2001:db8::1", "2001:db8::2", layers.IPProtocolUDP), udp(40000, 25565), pl),
		ser(v6("fe80::1", "ff02::1", layers.IPProtocolTCP), tcp(80, 40000), pl),
		ser(v6("2001:db8:1::5", "2001:db8::2", layers.IPProtocolIPv6Fragment), gopacket.Payload(append([]byte{17, 0, 0, 1, 0, 0, 0, 7}, ser(udp(40000, 25565), pl)...))),
		ser(v6("2001:db8:1::5", "2001:db8::2", layers.IPProtocolIPv6Fragment), gopacket.Payload([]byte{17, 0, 0x03, 0x20, 0, 0, 0, 7, 0x63, 0xdd, 0x63, 0xdd})),
		ser(v4("10.0.0.1", "10.0.0.9", layers.IPProtocolICMPv4), &layers.ICMPv4{TypeCode: layers.CreateICMPv4TypeCode(8, 0)}, pl),
		ser(v6("2001:db8::1", "2001:db8::9", layers.IPProtocolICMPv6), gopacket.Payload([]byte{128, 0, 0, 0, 0, 1, 0, 1})),
		ser(sctp, gopacket.Payload([]byte{0x63, 0xdd, 0x00, 0x50, 0, 0, 0, 0, 0, 0, 0, 0})),
		ser(v4("172.16.0.1", "10.0.0.2", layers.IPProtocolUDP), udp(19132, 25575), pl),
		ser(v4("10.255.0.1", "10.0.0.1", layers.IPProtocolTCP), tcp(443, 25560), pl),
		ser(v4("10.0.0.1", "10.0.0.2", layers.IPProtocolUDP), udp(40000, 25565), pl)[:22], // cut inside the IP header
	}
	arpPkt := func(op uint16) []byte {
		return ser(&layers.ARP{AddrType: layers.LinkTypeEthernet, Protocol: layers.EthernetTypeIPv4, HwAddressSize: 6, ProtAddressSize: 4, Operation: op,
			SourceHwAddress: []byte{2, 0, 0, 0, 0, 1}, SourceProtAddress: []byte{10, 0, 0, 1}, DstHwAddress: make([]byte, 6), DstProtAddress: []byte{10, 0, 0, 2}})
	}
	arp = [][]byte{arpPkt(1), arpPkt(2)}
	return ip, arp
}

// frames wraps the test packets in a link type's headers.
func frames(t testing.TB, link layers.LinkType) [][]byte {
	ip, arp := testPackets(t)
	var out [][]byte
	etype := func(p []byte) uint16 {
		if len(p) > 0 && p[0]>>4 == 6 {
			return 0x86dd
		}
		return 0x0800
	}
	add := func(p []byte, et uint16) {
		switch link {
		case layers.LinkTypeEthernet:
			h := []byte{0, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, byte(et >> 8), byte(et)}
			out = append(out, append(h, p...))
			if et == 0x0800 {
				// the same behind an 802.1Q tag
				h := []byte{0, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x81, 0, 0, 5, byte(et >> 8), byte(et)}
				out = append(out, append(h, p...))
			}
		case layers.LinkTypeLinuxSLL:
			h := []byte{0, 0, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0, byte(et >> 8), byte(et)}
			out = append(out, append(h, p...))
		case layers.LinkTypeRaw:
			if et == 0x0800 || et == 0x86dd {
				out = append(out, p)
			}
		}
	}
	for _, p := range ip {
		add(p, etype(p))
	}
	for _, p := range arp {
		add(p, 0x0806)
		add(p, 0x8035)
	}
	return out
}

func writePcap(t testing.TB, path string, link layers.LinkType, fr [][]byte) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := pcapgo.NewWriter(f)
	if err := w.WriteFileHeader(65535, link); err != nil {
		t.Fatal(err)
	}
	for i, d := range fr {
		w.WritePacket(gopacket.CaptureInfo{Timestamp: time.Unix(1700000000, int64(i)*1000), CaptureLength: len(d), Length: len(d)}, d)
	}
}

var filterExprs = []string{
	"", "ip", "ip6", "arp", "rarp", "tcp", "udp", "icmp", "icmp6",
	"host 10.0.0.1", "src host 10.0.0.1", "dst host 10.0.0.2", "host 2001:db8::1", "dst host ff02::1",
	"net 10.0.0.0/8", "net 10", "net 10.0", "src net 192.168.0.0/16", "net 2001:db8::/32", "dst net 2001:db8::/48",
	"port 25565", "tcp port 25565", "udp port 53", "src port 40000", "dst port 25565", "udp dst port 25565",
	"portrange 25560-25570", "udp portrange 19000-20000", "tcp src portrange 1-1024", "not port 25565",
	"tcp or udp", "host 10.0.0.1 and (port 25565 or port 53)", "!tcp && udp", "host 10.0.0.1 or 10.0.0.2",
	"port 25565 or 80", "src or dst port 53", "src and dst net 10.0.0.0/8", "ip host 10.0.0.1", "arp host 10.0.0.2",
	"ip6 host fe80::1", "not (ip or ip6)", "tcp port 80 or 443", "udp and not port 25565", "not not tcp",
	"src 10.0.0.1", "port 25565 and not 40000", "(udp || tcp) && !(host 10.0.0.1 || net 172.16.0.0/12)",
	"ip and port 25565", "ip6 and udp port 25565",
}

// tcpdumpAccepts runs tcpdump on the capture and returns the packets it kept.
func tcpdumpAccepts(t *testing.T, in, expr string) []string {
	out := filepath.Join(t.TempDir(), "out.pcap")
	cmd := exec.Command("tcpdump", "-r", in, "-w", out, expr)
	if b, err := cmd.CombinedOutput(); err != nil {
		if bytes.Contains(b, []byte("expression rejects all packets")) {
			return nil
		}
		t.Fatalf("tcpdump %q: %v: %s", expr, err, b)
	}
	return readAll(t, out)
}

func readAll(t testing.TB, path string) []string {
	src, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var got []string
	for {
		p, err := src.Next()
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(p.Data))
	}
}

func vmAccepts(t *testing.T, prog []bpf.Instruction, pkts []string) []string {
	vm, err := bpf.NewVM(prog)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pkts {
		n, err := vm.Run([]byte(p))
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			got = append(got, p)
		}
	}
	return got
}

func sameSeq(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestFilterAgainstTcpdump: for each expression, on every packet of the
// synthetic captures (three link types) and of the samples, the compiled
// program run in x/net/bpf's VM keeps exactly what tcpdump keeps.
func TestFilterAgainstTcpdump(t *testing.T) {
	if _, err := exec.LookPath("tcpdump"); err != nil {
		t.Skip("tcpdump is not installed: the differential test needs it")
	}
	dir := t.TempDir()
	type file struct {
		path string
		link layers.LinkType
	}
	var files []file
	for _, link := range []layers.LinkType{layers.LinkTypeEthernet, layers.LinkTypeLinuxSLL, layers.LinkTypeRaw} {
		p := filepath.Join(dir, link.String()+".pcap")
		writePcap(t, p, link, frames(t, link))
		files = append(files, file{p, link})
	}
	// A few real captures: every protocol, both IP versions where there.
	for _, s := range []string{"../samples/classic-session.pcap", "../samples/query-clients.pcap", "../samples/slp-status-concurrent.pcap", "../samples/handmade-slp-le-port.pcap"} {
		files = append(files, file{s, layers.LinkTypeEthernet})
	}
	for _, f := range files {
		pkts := readAll(t, f.path)
		for _, expr := range filterExprs {
			t.Run(filepath.Base(f.path)+"/"+expr, func(t *testing.T) {
				prog, err := CompileFilter(expr, f.link, MaxSnaplen)
				if err != nil {
					t.Fatal(err)
				}
				want := tcpdumpAccepts(t, f.path, expr)
				got := vmAccepts(t, prog, pkts)
				if !sameSeq(got, want) {
					t.Errorf("%q on %s: we keep %d packets, tcpdump %d", expr, f.path, len(got), len(want))
				}
			})
		}
	}
	// The default kernel filter against the same expression in tcpdump.
	ports := []uint16{80, 19132, 25565, 25575}
	for _, f := range files[:3] {
		pkts := readAll(t, f.path)
		l, _ := layoutOf(f.link)
		prog, err := assemble(portsFilter(ports, l), MaxSnaplen)
		if err != nil {
			t.Fatal(err)
		}
		want := tcpdumpAccepts(t, f.path, PortsExpr(ports))
		if got := vmAccepts(t, prog, pkts); !sameSeq(got, want) || len(want) == 0 {
			t.Errorf("the ports filter on %s keeps %d packets, tcpdump %d", f.path, len(got), len(want))
		}
	}
}

// TestFilterFragments: the default kernel filter keeps both fragments of a
// fragmented datagram to a dissected port, and the later ones of IPv6;
// and ICMP of both versions (the unreachables that answer requests).
func TestFilterFragments(t *testing.T) {
	ip, _ := testPackets(t)
	prog, err := assemble(portsFilter([]uint16{25565}, layoutRaw), 100)
	if err != nil {
		t.Fatal(err)
	}
	vm, err := bpf.NewVM(prog)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range map[int]bool{0: true, 1: true, 2: false, 3: true, 4: true, 7: true, 8: true, 9: true, 10: true, 13: false} {
		n, _ := vm.Run(ip[i])
		if (n > 0) != want {
			t.Errorf("packet %d: kept %v, want %v", i, n > 0, want)
		}
		if n > 100 {
			t.Errorf("packet %d: %d bytes kept, more than the snap length", i, n)
		}
	}
}

// TestFilterErrors: what the compiler does not handle says so and names
// the libpcap build; malformed expressions name the problem.
func TestFilterErrors(t *testing.T) {
	for _, tc := range []struct {
		expr        string
		unsupported bool
		msg         string
	}{
		{"host example.com", true, "looked up"},
		{"ether host 00:11:22:33:44:55", true, "ether"},
		{"vlan and udp", true, "vlan"},
		{"ip[6:2] & 0x1fff != 0", true, "ip[6:2]"},
		{"port http", true, "only numbers"},
		{"tcp host 10.0.0.1", true, "tcp"},
		{"greater 100", true, "greater"},
		{"port", false, "needs a value"},
		{"(tcp", false, "missing )"},
		{"tcp and", false, "missing"},
		{"tcp udp", false, "unexpected"},
		{"portrange 5", false, "N-M"},
		{"net 10.0.0.1/8", false, "outside its mask"},
		{"port 70000", true, "only numbers"},
		{"10.0.0.9", false, "a qualifier"},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			_, err := CompileFilter(tc.expr, layers.LinkTypeEthernet, 100)
			if err == nil {
				t.Fatal("no error")
			}
			if errors.Is(err, ErrFilterUnsupported) != tc.unsupported || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q: want %q, unsupported %v", err, tc.msg, tc.unsupported)
			}
			if tc.unsupported && !strings.Contains(err.Error(), "-tags pcap") {
				t.Errorf("error %q does not name the libpcap build", err)
			}
		})
	}
}

// TestFilterLongJumps: a filter whose program is longer than a conditional
// jump reaches still compiles, and still means the same thing.
func TestFilterLongJumps(t *testing.T) {
	var terms []string
	for i := 0; i < 60; i++ {
		terms = append(terms, fmt.Sprintf("port %d", 1000+i))
	}
	terms = append(terms, "port 25565")
	prog, err := CompileFilter(strings.Join(terms, " or "), layers.LinkTypeEthernet, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(prog) < 300 {
		t.Fatalf("only %d instructions: the test needs more than 255", len(prog))
	}
	if _, err := bpf.Assemble(prog); err != nil {
		t.Fatal(err)
	}
	fr := frames(t, layers.LinkTypeEthernet)
	vm, err := bpf.NewVM(prog)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range map[int]bool{0: true, 2: true, 4: false} { // UDP to 25565, TCP from it, DNS
		if n, _ := vm.Run(fr[i]); (n > 0) != want {
			t.Errorf("frame %d: kept %v, want %v", i, n > 0, want)
		}
	}
	if !bytes.Equal(fr[0][12:14], []byte{8, 0}) {
		t.Fatal("frame 0 is not IPv4")
	}
}

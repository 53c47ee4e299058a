package mcgen

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"net/netip"
	"slices"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

func generate(t testing.TB, cfg Config) ([]byte, Stats) {
	t.Helper()
	var out bytes.Buffer
	st, err := Generate(&out, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st.Bytes != int64(out.Len()) {
		t.Fatalf("Stats.Bytes = %d, wrote %d", st.Bytes, out.Len())
	}
	return out.Bytes(), st
}

// TestDeterministic: the same Config writes the same bytes; another seed
// writes others.
func TestDeterministic(t *testing.T) {
	a, _ := generate(t, SmallConfig(7))
	b, _ := generate(t, SmallConfig(7))
	if !bytes.Equal(a, b) {
		t.Fatal("two runs with seed 7 differ")
	}
	c, _ := generate(t, SmallConfig(8))
	if bytes.Equal(a, c) {
		t.Fatal("seeds 7 and 8 wrote the same capture")
	}
}

// TestSameAsCapgen: the fast writer and internal/capgen (gopacket's
// serialisation) write byte-identical files, so the fast path frames
// packets exactly as the repository's reference writer does.
func TestSameAsCapgen(t *testing.T) {
	cfg := Config{Size: 300 << 10, Seed: 3, Conns: 40}
	fast, _ := generate(t, cfg)
	cfg.Capgen = true
	ref, _ := generate(t, cfg)
	if !bytes.Equal(fast, ref) {
		n := 0
		for n < min(len(fast), len(ref)) && fast[n] == ref[n] {
			n++
		}
		t.Fatalf("fast writer and capgen differ at byte %d (sizes %d, %d)", n, len(fast), len(ref))
	}
}

// TestSizeAndMix: the file reaches the size asked for, and each protocol
// has a fair part of the bytes.
func TestSizeAndMix(t *testing.T) {
	cfg := Config{Size: 8 << 20, Seed: 1}
	data, st := generate(t, cfg)
	if int64(len(data)) < cfg.Size || int64(len(data)) > cfg.Size+cfg.Size/4 {
		t.Errorf("size %d for a target of %d", len(data), cfg.Size)
	}
	tot := st.ProtoBytes[0] + st.ProtoBytes[1] + st.ProtoBytes[2]
	if tot+24 != st.Bytes {
		t.Errorf("protocol bytes %d + 24-byte header != file size %d", tot, st.Bytes)
	}
	for p, name := range []string{"Query", "SLP", "Classic"} {
		if share := float64(st.ProtoBytes[p]) / float64(tot); share < 0.08 {
			t.Errorf("%s has %.1f%% of the bytes", name, 100*share)
		}
	}
	if st.Reordered == 0 || st.Retransmitted == 0 || st.Resets == 0 || st.SLPLogin == 0 {
		t.Errorf("no disorder of some kind: %+v", st)
	}
}

// TestParses reads a small capture back with pcapgo and gopacket's
// decoders, counts packets and connections, reassembles every TCP stream
// by sequence number and checks that it is a whole number of well-formed
// PDUs of its protocol, and that every datagram is a Query message.
func TestParses(t *testing.T) {
	data, st := generate(t, SmallConfig(1))
	r, err := pcapgo.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if r.LinkType() != layers.LinkTypeEthernet {
		t.Fatalf("link type %v", r.LinkType())
	}
	var (
		eth     layers.Ethernet
		ip4     layers.IPv4
		ip6     layers.IPv6
		tcp     layers.TCP
		udp     layers.UDP
		payload gopacket.Payload
		decoded []gopacket.LayerType
	)
	parser := gopacket.NewDecodingLayerParser(layers.LayerTypeEthernet, &eth, &ip4, &ip6, &tcp, &udp, &payload)
	conns := map[connKey]*tcpConnRec{}
	var order []connKey
	var nUDP, nTCP, syns, fins, rsts int64
	var last int64
	for {
		pkt, ci, err := r.ZeroCopyReadPacketData()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if us := ci.Timestamp.UnixMicro(); us < last {
			t.Fatalf("timestamps go back: %d after %d", us, last)
		} else {
			last = us
		}
		if err := parser.DecodeLayers(pkt, &decoded); err != nil {
			t.Fatalf("packet %d: %v", nUDP+nTCP+1, err)
		}
		var src, dst netip.Addr
		for _, l := range decoded {
			switch l {
			case layers.LayerTypeIPv4:
				src, dst = netip.AddrFrom4([4]byte(ip4.SrcIP)), netip.AddrFrom4([4]byte(ip4.DstIP))
			case layers.LayerTypeIPv6:
				src, dst = netip.AddrFrom16([16]byte(ip6.SrcIP)), netip.AddrFrom16([16]byte(ip6.DstIP))
			case layers.LayerTypeUDP:
				nUDP++
				checkQuery(t, udp.DstPort == 25565, udp.Payload)
			case layers.LayerTypeTCP:
				nTCP++
				a := netip.AddrPortFrom(src, uint16(tcp.SrcPort))
				b := netip.AddrPortFrom(dst, uint16(tcp.DstPort))
				fromClient := tcp.DstPort == 25565
				k := connKey{a, b}
				if !fromClient {
					k = connKey{b, a}
				}
				c := conns[k]
				if c == nil {
					if !tcp.SYN || tcp.ACK {
						t.Fatalf("connection %v starts without a SYN", k)
					}
					c = &tcpConnRec{}
					conns[k] = c
					order = append(order, k)
				}
				s := sideOf(fromClient)
				switch {
				case tcp.SYN:
					syns++
					c.isn[s] = tcp.Seq
				case tcp.RST:
					rsts++
					c.closed = true
				case tcp.FIN:
					fins++
					c.closed = true
				case len(tcp.Payload) > 0:
					off := int(tcp.Seq - c.isn[s] - 1)
					c.segs[s] = append(c.segs[s], seg{off, bytes.Clone(tcp.Payload)})
				}
			}
		}
	}
	if nUDP != st.UDPPackets || nTCP != st.TCPPackets {
		t.Errorf("read %d UDP and %d TCP packets; Stats say %d and %d", nUDP, nTCP, st.UDPPackets, st.TCPPackets)
	}
	want := st.SLPStatus + st.SLPLogin + st.ClassicConns
	if len(conns) != want || syns != int64(2*want) {
		t.Errorf("%d connections, %d SYNs; Stats say %d connections", len(conns), syns, want)
	}
	if fins != int64(2*(want-st.Resets)) || rsts != int64(st.Resets) {
		t.Errorf("%d FINs and %d RSTs for %d connections, %d reset", fins, rsts, want, st.Resets)
	}
	var pdus [3]int
	for _, k := range order {
		c := conns[k]
		if !c.closed {
			t.Errorf("%v never closed", k)
		}
		for s := range 2 {
			stream, err := c.reassemble(s)
			if err != nil {
				t.Fatalf("%v side %d: %v", k, s, err)
			}
			classic := k.server.Addr().Is4() && k.server.Addr().As4()[0] == 198
			n, err := checkStream(stream, classic, s == 0)
			if err != nil {
				t.Fatalf("%v side %d: %v", k, s, err)
			}
			if classic {
				pdus[Classic] += n
			} else {
				pdus[SLP] += n
			}
		}
	}
	t.Logf("%d UDP, %d TCP packets; %d connections; %d SLP frames, %d Classic packets; %+v", nUDP, nTCP, len(conns), pdus[SLP], pdus[Classic], st)
}

type connKey struct{ client, server netip.AddrPort }

type seg struct {
	off  int
	data []byte
}

type tcpConnRec struct {
	isn    [2]uint32
	segs   [2][]seg
	closed bool
}

// reassemble orders one side's segments by offset and checks that they
// cover the stream without gaps and that overlapping bytes agree.
func (c *tcpConnRec) reassemble(s int) ([]byte, error) {
	segs := c.segs[s]
	slices.SortStableFunc(segs, func(a, b seg) int { return a.off - b.off })
	var out []byte
	for _, g := range segs {
		if g.off > len(out) {
			return nil, fmt.Errorf("gap at offset %d", len(out))
		}
		over := min(len(out)-g.off, len(g.data))
		if !bytes.Equal(out[g.off:g.off+over], g.data[:over]) {
			return nil, fmt.Errorf("retransmission at %d differs", g.off)
		}
		out = append(out, g.data[over:]...)
	}
	return out, nil
}

func checkQuery(t *testing.T, fromClient bool, p []byte) {
	t.Helper()
	switch {
	case fromClient && len(p) >= 7 && p[0] == 0xfe && p[1] == 0xfd && (p[2] == 9 && len(p) == 7 || p[2] == 0 && (len(p) == 11 || len(p) == 15)):
	case !fromClient && len(p) > 5 && p[0] == 9 && p[len(p)-1] == 0:
	case !fromClient && len(p) > 16 && p[0] == 0 && p[len(p)-1] == 0:
	default:
		t.Fatalf("not a Query message (from client %v): % x", fromClient, p)
	}
	off := 1 // responses: type, session ID
	if fromClient {
		off = 3 // requests: magic, type, session ID
	}
	if sid := binary.BigEndian.Uint32(p[off:]); sid&^0x0F0F0F0F != 0 {
		t.Fatalf("session ID %#08x uses more than the low nibbles", sid)
	}
}

// classicLen is the length of each Classic packet by ID, per direction
// (protocol 7).
var classicLen = [2]map[byte]int{
	{0x00: 131, 0x05: 9, 0x08: 10, 0x0d: 66},
	{0x00: 131, 0x01: 1, 0x02: 1, 0x03: 1028, 0x04: 7, 0x06: 8, 0x07: 74, 0x08: 10, 0x09: 7, 0x0a: 5, 0x0b: 4, 0x0c: 2, 0x0d: 66, 0x0e: 65},
}

// checkStream walks a whole stream as Classic packets or SLP frames and
// returns how many it found.
func checkStream(b []byte, classic, fromClient bool) (int, error) {
	n := 0
	for len(b) > 0 {
		var l int
		if classic {
			var ok bool
			if l, ok = classicLen[sideOf(fromClient)][b[0]]; !ok {
				return n, fmt.Errorf("unknown Classic packet %#x", b[0])
			}
		} else {
			v, vl, err := readVarInt(b)
			if err != nil {
				return n, err
			}
			if v <= 0 || v > 1<<21 {
				return n, fmt.Errorf("frame length %d", v)
			}
			l = vl + v
		}
		if l > len(b) {
			return n, fmt.Errorf("PDU %d of %d bytes cut at %d", n, l, len(b))
		}
		b = b[l:]
		n++
	}
	return n, nil
}

func readVarInt(b []byte) (v, n int, err error) {
	for i := 0; i < 5 && i < len(b); i++ {
		v |= int(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			return v, i + 1, nil
		}
	}
	return 0, 0, fmt.Errorf("bad VarInt % x", b[:min(5, len(b))])
}

// BenchmarkGenerate measures the generator without the disk: the fast
// writer, and capgen (gopacket's serialisation) for comparison.
func BenchmarkGenerate(b *testing.B) {
	getAssets()
	for _, capgen := range []bool{false, true} {
		name := "fast"
		if capgen {
			name = "capgen"
		}
		b.Run(name, func(b *testing.B) {
			cfg := Config{Size: 32 << 20, Seed: 1, Capgen: capgen}
			b.SetBytes(cfg.Size)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Generate(io.Discard, cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestMixes: each named mix writes what its name says, and the same bytes
// twice.
func TestMixes(t *testing.T) {
	for _, tc := range []struct {
		mix   string
		proto int // the protocol that must hold most of the bytes, -1 for none
	}{{"project", -1}, {"slp", SLP}, {"query", Query}, {"classic-big", Classic}, {"onebyte", -1}} {
		t.Run(tc.mix, func(t *testing.T) {
			cfg := Config{Size: 2 << 20, Seed: 3}
			if err := ApplyMix(&cfg, tc.mix); err != nil {
				t.Fatal(err)
			}
			var a, b bytes.Buffer
			st, err := Generate(&a, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Generate(&b, cfg); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatalf("not deterministic (%v)", err)
			}
			tot := st.ProtoBytes[0] + st.ProtoBytes[1] + st.ProtoBytes[2]
			if tc.proto >= 0 && st.ProtoBytes[tc.proto]*10 < tot*6 {
				t.Errorf("protocol %d has %d of %d bytes", tc.proto, st.ProtoBytes[tc.proto], tot)
			}
			if tc.mix == "onebyte" && st.TCPPackets*20 < st.Bytes/100 {
				t.Errorf("%d TCP packets for %d bytes: segments are not one byte", st.TCPPackets, st.Bytes)
			}
		})
	}
	if err := ApplyMix(&Config{}, "nope"); err == nil {
		t.Error("an unknown mix is accepted")
	}
}

package reassembly

import (
	"bufio"
	"errors"
	"io"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
	gpr "github.com/gopacket/gopacket/reassembly"
)

// captureSeg is one TCP segment of a capture, held in memory without
// pointers (its payload is a range of one arena), so that the garbage
// collector does not scan hundreds of megabytes during the benchmark.
type captureSeg struct {
	flow         gopacket.Flow
	ns           int64 // timestamp
	seq          uint32
	sport, dport uint16
	syn, ack     bool
	fin, rst     bool
	from, to     int // payload: arena[from:to]
}

// capture is the TCP segments of a capture.
type capture struct {
	segs  []captureSeg
	arena []byte
}

// tcp fills t (reused) with segment i and returns its capture info.
func (c *capture) tcp(i int, t *layers.TCP) gopacket.CaptureInfo {
	s := &c.segs[i]
	t.SrcPort, t.DstPort, t.Seq = layers.TCPPort(s.sport), layers.TCPPort(s.dport), s.seq
	t.SYN, t.ACK, t.FIN, t.RST = s.syn, s.ack, s.fin, s.rst
	t.Payload = c.arena[s.from:s.to]
	t.SetInternalPortsForTesting() // bare gopacket keys on TransportFlow
	n := s.to - s.from
	return gopacket.CaptureInfo{Timestamp: time.Unix(0, s.ns), CaptureLength: n, Length: n}
}

// loadCapture reads the TCP segments of the capture the issue 5 numbers are
// measured on (go run ./cmd/mcgen), or of $MCD_BENCH_PCAP.
func loadCapture(b *testing.B) *capture {
	name := os.Getenv("MCD_BENCH_PCAP")
	if name == "" {
		name = "../bench/out/mc-100MB-seed1.pcap"
	}
	f, err := os.Open(name)
	if err != nil {
		b.Skip("no capture:", err)
	}
	defer f.Close()
	r, err := pcapgo.NewReader(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		b.Fatal(err)
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
	parser.IgnoreUnsupported = true
	c := &capture{}
	for {
		data, ci, err := r.ZeroCopyReadPacketData()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		_ = parser.DecodeLayers(data, &decoded)
		var flow gopacket.Flow
		for _, l := range decoded {
			switch l {
			case layers.LayerTypeIPv4:
				flow = ip4.NetworkFlow()
			case layers.LayerTypeIPv6:
				flow = ip6.NetworkFlow()
			case layers.LayerTypeTCP:
				from := len(c.arena)
				c.arena = append(c.arena, tcp.Payload...)
				c.segs = append(c.segs, captureSeg{
					flow: flow, ns: ci.Timestamp.UnixNano(), seq: tcp.Seq,
					sport: uint16(tcp.SrcPort), dport: uint16(tcp.DstPort),
					syn: tcp.SYN, ack: tcp.ACK, fin: tcp.FIN, rst: tcp.RST,
					from: from, to: len(c.arena),
				})
			}
		}
	}
	runtime.GC()
	return c
}

// BenchmarkCapture plays every TCP segment of a real capture through a new
// Reassembler per op, each segment's bytes framed as one PDU: the
// per-segment cost (ns/seg) on a real mix of thousands of connections,
// table and cache misses included. Skipped without the capture.
func BenchmarkCapture(b *testing.B) {
	c := loadCapture(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := New(func(*ConnInfo) ConnHandler { return &wholeHandler{} }, Limits{})
		var tcp layers.TCP
		for j := range c.segs {
			ci := c.tcp(j, &tcp)
			r.Feed(uint64(j+1), ci, c.segs[j].flow, &tcp)
		}
		r.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(c.segs)), "ns/seg")
}

// BenchmarkCaptureBareGopacket is BenchmarkCapture's baseline: the same
// segments through gopacket's Assembler alone.
func BenchmarkCaptureBareGopacket(b *testing.B) {
	c := loadCapture(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a := gpr.NewAssembler(gpr.NewStreamPool(&bareStream{}))
		var ctx benchCtx
		var tcp layers.TCP
		for j := range c.segs {
			ctx.ci = c.tcp(j, &tcp)
			a.AssembleWithContext(c.segs[j].flow, &tcp, &ctx)
		}
		a.FlushAll()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(c.segs)), "ns/seg")
}

package reassembly

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	gpr "github.com/gopacket/gopacket/reassembly"
)

// benchTraffic is many connections sending in order, round robin, 100-byte
// segments that carry 7-byte PDUs (so some PDUs span two segments).
type benchTraffic struct {
	flows []gopacket.Flow
	tcps  []*layers.TCP
	isn   []uint32
	sent  []uint32
	pay   []byte
}

const benchConns, benchSeg = 1000, 100

func newBenchTraffic() *benchTraffic {
	bt := &benchTraffic{pay: make([]byte, benchSeg)}
	for i := range bt.pay {
		bt.pay[i] = byte(i)
	}
	for i := 0; i < benchConns; i++ {
		var a, b [4]byte
		binary.BigEndian.PutUint32(a[:], 0x0a000000+uint32(i))
		binary.BigEndian.PutUint32(b[:], 0x0a100000)
		bt.flows = append(bt.flows, gopacket.NewFlow(layers.EndpointIPv4, a[:], b[:]))
		tcp := &layers.TCP{SrcPort: layers.TCPPort(40000 + i%20000), DstPort: 25565, ACK: true}
		tcp.SetInternalPortsForTesting() // bare gopacket keys on TransportFlow
		bt.tcps = append(bt.tcps, tcp)
		bt.isn = append(bt.isn, uint32(i)*7919)
		bt.sent = append(bt.sent, 0)
	}
	return bt
}

// next returns packet i: connection i%benchConns, next segment of it.
func (bt *benchTraffic) next(i int) (gopacket.Flow, *layers.TCP, gopacket.CaptureInfo) {
	c := i % benchConns
	tcp := bt.tcps[c]
	tcp.Seq = bt.isn[c] + bt.sent[c]
	tcp.Payload = bt.pay
	bt.sent[c] += benchSeg
	ci := gopacket.CaptureInfo{Timestamp: t0.Add(time.Duration(i) * time.Microsecond), CaptureLength: benchSeg, Length: benchSeg}
	return bt.flows[c], tcp, ci
}

type benchHandler struct{ n int }

func (h *benchHandler) Frame(_ Dir, b []byte, _ bool) FrameResult {
	if len(b) < 7 {
		return NeedMore(7)
	}
	return OK(7)
}

func (h *benchHandler) Deliver(u *Unit) { h.n += u.Length }

// BenchmarkReassembler costs one op per segment, framing included.
func BenchmarkReassembler(b *testing.B) {
	bt := newBenchTraffic()
	r := New(func(*ConnInfo) ConnHandler { return &benchHandler{} }, Limits{})
	for i := 0; i < benchConns*4; i++ { // warm up: connections exist
		f, tcp, ci := bt.next(i)
		r.Feed(uint64(i), ci, f, tcp)
	}
	b.SetBytes(benchSeg)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, tcp, ci := bt.next(i)
		r.Feed(uint64(i), ci, f, tcp)
	}
}

// bareStream is the least a gopacket user does: accept mid-stream starts
// and look at the bytes.
type bareStream struct{ n int }

func (s *bareStream) New(_, _ gopacket.Flow, _ *layers.TCP, _ gpr.AssemblerContext) gpr.Stream {
	return s
}

func (s *bareStream) Accept(_ *layers.TCP, _ gopacket.CaptureInfo, _ gpr.TCPFlowDirection, _ gpr.Sequence, start *bool, _ gpr.AssemblerContext) bool {
	*start = true
	return true
}

func (s *bareStream) ReassembledSG(sg gpr.ScatterGather, _ gpr.AssemblerContext) {
	n, _ := sg.Lengths()
	s.n += len(sg.Fetch(n))
}

func (s *bareStream) ReassemblyComplete(gpr.AssemblerContext) bool { return true }

type benchCtx struct{ ci gopacket.CaptureInfo }

func (c *benchCtx) GetCaptureInfo() gopacket.CaptureInfo { return c.ci }

// BenchmarkBareGopacket is the baseline: the same segments through
// gopacket's Assembler alone, no framing, one reused context.
func BenchmarkBareGopacket(b *testing.B) {
	bt := newBenchTraffic()
	s := &bareStream{}
	a := gpr.NewAssembler(gpr.NewStreamPool(s))
	var ctx benchCtx
	for i := 0; i < benchConns*4; i++ {
		f, tcp, ci := bt.next(i)
		ctx.ci = ci
		a.AssembleWithContext(f, tcp, &ctx)
	}
	b.SetBytes(benchSeg)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, tcp, ci := bt.next(i)
		ctx.ci = ci
		a.AssembleWithContext(f, tcp, &ctx)
	}
}

type wholeHandler struct{ n int }

func (h *wholeHandler) Frame(_ Dir, b []byte, _ bool) FrameResult { return OK(len(b)) }
func (h *wholeHandler) Deliver(u *Unit)                           { h.n += u.Length }

// BenchmarkReassemblerSegmentPDUs frames each segment as one PDU: the
// reassembler's own cost per segment, comparable with the bare baseline.
func BenchmarkReassemblerSegmentPDUs(b *testing.B) {
	bt := newBenchTraffic()
	r := New(func(*ConnInfo) ConnHandler { return &wholeHandler{} }, Limits{})
	for i := 0; i < benchConns*4; i++ {
		f, tcp, ci := bt.next(i)
		r.Feed(uint64(i), ci, f, tcp)
	}
	b.SetBytes(benchSeg)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, tcp, ci := bt.next(i)
		r.Feed(uint64(i), ci, f, tcp)
	}
}

// BenchmarkReassemblerOutOfOrder is BenchmarkReassembler with each
// connection's segments in swapped pairs: half of them are held by the
// store, and released by the next.
func BenchmarkReassemblerOutOfOrder(b *testing.B) {
	bt := newBenchTraffic()
	r := New(func(*ConnInfo) ConnHandler { return &benchHandler{} }, Limits{})
	feedSwapped := func(i int) {
		c := i % benchConns
		k := (i / benchConns) ^ 1 // the connection's segments 1, 0, 3, 2, ...
		tcp := bt.tcps[c]
		tcp.Seq = bt.isn[c] + uint32(k*benchSeg)
		tcp.Payload = bt.pay
		ci := gopacket.CaptureInfo{Timestamp: t0.Add(time.Duration(i) * time.Microsecond), CaptureLength: benchSeg, Length: benchSeg}
		r.Feed(uint64(i), ci, bt.flows[c], tcp)
	}
	for i := 0; i < benchConns*4; i++ {
		feedSwapped(i)
	}
	b.SetBytes(benchSeg)
	b.ReportAllocs()
	b.ResetTimer()
	for i := benchConns * 4; i < benchConns*4+b.N; i++ {
		feedSwapped(i)
	}
}

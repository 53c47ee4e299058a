package stats

import (
	"bytes"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/record"
)

// TestFrameStatsBounded: a capture that meets more client ports than a
// table holds sums the rest in one "others" line instead of growing.
func TestFrameStatsBounded(t *testing.T) {
	conv := newNetConvStat(kindTCP)
	ep := newEndpointsStat(kindIPv4)
	srv := netip.MustParseAddrPort("10.0.0.1:25565")
	t0 := time.Unix(1700000000, 0)
	n := maxStatRows + 100
	for i := range n {
		cl := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}), uint16(40000+i%1000))
		f := record.FrameInfo{Frame: uint64(i + 1), Time: t0.Add(time.Duration(i) * time.Millisecond), Len: 60, Src: cl, Dst: srv, Transport: 6, IP: true, TCP: record.TCPInfo{Stream: i}}
		conv.Frame(f)
		ep.Frame(f)
	}
	if len(conv.rows) != maxStatRows || !conv.others.used || conv.others.aFrames != 100 {
		t.Errorf("conv: %d rows, others %+v", len(conv.rows), conv.others)
	}
	if len(ep.rows) != maxStatRows || !ep.others.used {
		t.Errorf("endpoints: %d rows, others used %v", len(ep.rows), ep.others.used)
	}
	var b bytes.Buffer
	conv.Print(&b)
	if !strings.Contains(b.String(), "[others]") {
		t.Error("no others line")
	}
}

// TestSamplesBounded: past maxSamples the kept values are halved, min and
// max stay exact and the median stays that of the whole.
func TestSamplesBounded(t *testing.T) {
	var s samples
	const n = 5 * maxSamples
	for i := range n {
		s.add(int64(i))
	}
	if len(s.vals) > maxSamples || s.n != n || s.lo != 0 || s.hi != n-1 {
		t.Fatalf("%d kept, n %d, lo %d hi %d", len(s.vals), s.n, s.lo, s.hi)
	}
	if m := s.quantile(0.5); m < n/2-n/50 || m > n/2+n/50 {
		t.Errorf("median %d of 0..%d", m, n-1)
	}
}

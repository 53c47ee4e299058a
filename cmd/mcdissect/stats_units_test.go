package main

import (
	"bytes"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/analyze"
)

// TestFrameStatsBounded: a capture that meets more client ports than a
// table holds sums the rest in one "others" line instead of growing.
func TestFrameStatsBounded(t *testing.T) {
	conv := newNetConvStat(6, "TCP")
	ep := newEndpointsStat(false)
	srv := netip.MustParseAddrPort("10.0.0.1:25565")
	t0 := time.Unix(1700000000, 0)
	n := maxStatRows + 100
	for i := range n {
		cl := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}), uint16(40000+i%1000))
		f := analyze.FrameInfo{Frame: uint64(i + 1), Time: t0.Add(time.Duration(i) * time.Millisecond), Len: 60, Src: cl, Dst: srv, Transport: 6, IP: true}
		conv.frame(f)
		ep.frame(f)
	}
	if len(conv.rows) != maxStatRows || !conv.others.used || conv.others.aFrames != 100 {
		t.Errorf("conv: %d rows, others %+v", len(conv.rows), conv.others)
	}
	if len(ep.rows) != maxStatRows || !ep.others.used {
		t.Errorf("endpoints: %d rows, others used %v", len(ep.rows), ep.others.used)
	}
	var b bytes.Buffer
	conv.print(&b)
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

// TestIOStatFilters: io,stat's filter columns count the PDUs that match,
// in the interval of their time, and a bad filter or interval is an error.
func TestIOStatFilters(t *testing.T) {
	out, stderr, code := mcd(t, nil, "-r", querySample, "-q", "-z", "io,stat,1,query.type == 9,mc.direction == \"s2c\"")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// query-full.pcap: five clients, each one handshake request and one
	// response (type 9) and a full stat exchange; 1.57 s of capture.
	var pdus9, s2c int
	for _, l := range lines(out) {
		f := strings.Split(l, "|")
		if len(f) == 9 && strings.Contains(f[1], "<>") {
			var a, b int
			a = atoiTrim(f[4])
			b = atoiTrim(f[6])
			pdus9 += a
			s2c += b
		}
	}
	if pdus9 != 10 || s2c != 10 {
		t.Errorf("type 9 PDUs %d, server PDUs %d, want 10 and 10:\n%s", pdus9, s2c, out)
	}
	for _, bad := range []string{"io,stat", "io,stat,x", "io,stat,-1", "io,stat,1,query.nope == 1"} {
		if _, _, code := mcd(t, nil, "-r", querySample, "-q", "-z", bad); code != 1 {
			t.Errorf("-z %s: exit %d", bad, code)
		}
	}
}

func atoiTrim(s string) int {
	n := 0
	for _, c := range strings.TrimSpace(s) {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

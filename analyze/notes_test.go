package analyze

import (
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/internal/capgen"
)

// TestNothingSilent: the hostile captures, small, each give the records
// that say what happened.
func TestNothingSilent(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(w *capgen.Writer)
		want  []string // substrings of the Info column, in record order
	}{
		{"garbage stream on 25565", func(w *capgen.Writer) { w.GarbageStream(300000) }, []string{
			"no protocol claims: 300000 bytes in 206 frames (4 to", "no protocol claims: 16384 bytes in 12 frames (184 to 195)"}},
		{"fragments never completed", func(w *capgen.Writer) { w.IncompleteFragments(3, time.Time{}) }, []string{
			"[Unreassembled IPv4 fragments] IPv4 datagram 0 from 10.1.0.0 to 10.0.0.1: 1 fragment(s) of 72 bytes",
			"datagram 1 from 10.1.0.1", "datagram 2 from 10.1.0.2"}},
		// every bare SYN is an attempt still waiting when the capture ended
		{"SYN flood", func(w *capgen.Writer) { w.SYNFlood(100, false) }, slices.Repeat([]string{"[Connection attempt not answered before the capture ended] SYN to 10.0.0.1:25565"}, 100)},
		// a SYN-ACK alone is no attempt of ours
		{"SYN-ACK flood", func(w *capgen.Writer) { w.SYNFlood(100, true) }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs, _, err := analyzeBytes(t, buildCapture(t, tc.build), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != len(tc.want) {
				t.Fatalf("%d records, want %d", len(recs), len(tc.want))
			}
			for i, r := range recs {
				if !strings.Contains(r.PDU.Info, tc.want[i]) {
					t.Errorf("record %d: %q, want %q in it", i, r.PDU.Info, tc.want[i])
				}
				if err := dissect.Check(&r.PDU); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// TestUnclaimedOffPortIsQuiet: a stream no protocol claims on another port
// is not ours to report.
func TestUnclaimedOffPortIsQuiet(t *testing.T) {
	recs, _, err := analyzeBytes(t, buildCapture(t, func(w *capgen.Writer) {
		c := w.TCP(tcpClient, netipPort(tcpServer, 443), t0)
		c.Handshake()
		c.Send(true, []byte("\x16\x03\x01 a TLS client hello, say"))
		c.Close()
	}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 0 {
		t.Errorf("%d records: %q", len(recs), recs[0].PDU.Info)
	}
}

func netipPort(a netip.AddrPort, port uint16) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr(), port)
}

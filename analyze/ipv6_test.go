package analyze

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/internal/capgen"
	"github.com/mcdissect/mcdissect/record"
)

// messages is each record's protocol and message, one line each.
func messages(recs []*record.Record) string {
	var b strings.Builder
	for _, r := range recs {
		fmt.Fprintf(&b, "%s %s\n", r.Proto, r.PDU.Message)
	}
	return b.String()
}

// TestNothingBelowIsDropped: traffic behind IPv6 extension headers, in
// IPv6 fragments and under stacked VLAN tags (0x9100 included) is
// dissected as the same traffic without them is.
func TestNothingBelowIsDropped(t *testing.T) {
	const n = 3
	for _, tc := range []struct {
		name  string
		build func(w *capgen.Writer)
		want  map[string]int // "proto message": count
	}{
		{"ipv6 extension headers", func(w *capgen.Writer) { w.IPv6ExtensionHeaders(n) }, map[string]int{
			"query Full Stat Response": n, "query Full Stat Request": n, "slp Status Response": n, "slp Pong Response": n}},
		{"ipv6 fragments", func(w *capgen.Writer) { w.IPv6Fragmented(n) }, map[string]int{
			"query Full Stat Response": n, "slp Handshake": n, "slp Status Request": n, "slp Status Response": n}},
		{"vlan tags", func(w *capgen.Writer) { w.StackedVLANs(4) }, map[string]int{
			"query Basic Stat Response": 4, "slp Status Response": 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs, _, err := analyzeBytes(t, buildCapture(t, tc.build), Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for _, r := range recs {
				got[r.Proto+" "+r.PDU.Message]++
				if r.Kind != record.KindPDU {
					t.Errorf("frame %d: %s", r.Frame, r.PDU.Info)
				}
				for _, e := range r.PDU.Experts {
					if strings.Contains(e.Info.Name, "missing") {
						t.Errorf("frame %d: %s: %s", r.Frame, e.Info.Name, e.Msg)
					}
				}
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%d %q, want %d; records:\n%s", got[k], k, v, messages(recs))
				}
			}
		})
	}
}

// TestFragmentFloodIsCounted: datagrams whose fragments never complete are
// each counted, the first maxFragNotes reported one by one and the rest
// in one note, however many there are.
func TestFragmentFloodIsCounted(t *testing.T) {
	const n = maxFragNotes + 200
	data := buildCapture(t, func(w *capgen.Writer) { w.IncompleteFragments(n, time.Time{}) })
	var recs []*record.Record
	src, err := OpenFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{}, SinkFunc(func(r *record.Record) error {
		recs = append(recs, r.Clone())
		return nil
	}))
	if _, err := Run(src, a); err != nil {
		t.Fatal(err)
	}
	if got := a.Stats().FragsGivenUp; got != n {
		t.Errorf("FragsGivenUp %d, want %d", got, n)
	}
	if len(recs) != maxFragNotes+1 {
		t.Fatalf("%d records, want %d", len(recs), maxFragNotes+1)
	}
	last := recs[len(recs)-1].PDU.Info
	if !strings.Contains(last, "200 more IP datagrams") || !strings.Contains(last, "200 the capture ended first") {
		t.Errorf("last note: %q", last)
	}
}

package analyze

import (
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// TestBigRecords: records whose tree outgrew the pool, within bounds, are
// kept apart and come back empty; others are left to the collector.
func TestBigRecords(t *testing.T) {
	a := New(Options{}, SinkFunc(func(*record.Record) error { return nil }))
	withNodes := func(n int) *entry {
		r := &entry{}
		r.SetData([]byte("data"))
		r.PDU.Nodes = make([]dissect.Node, n)
		r.PDU.Info = "info"
		return r
	}
	for _, tc := range []struct {
		nodes int
		kept  bool
	}{{maxPooledNodes, false}, {maxPooledNodes + 1, true}, {maxBigNodes, true}, {maxBigNodes + 1, false}} {
		if got := a.keepBig(withNodes(tc.nodes)); got != tc.kept {
			t.Errorf("%d nodes: kept %v, want %v", tc.nodes, got, tc.kept)
		}
	}
	for i := range 2 {
		r := a.bigRecord()
		if r == nil {
			t.Fatalf("big record %d: none", i)
		}
		if len(r.PDU.Nodes) != 0 || cap(r.PDU.Nodes) <= maxPooledNodes || len(r.Data()) != 0 || r.PDU.Info != "" {
			t.Errorf("big record %d not reset: %d nodes (cap %d), %d bytes, info %q", i, len(r.PDU.Nodes), cap(r.PDU.Nodes), len(r.Data()), r.PDU.Info)
		}
	}
	if r := a.bigRecord(); r != nil {
		t.Errorf("a third big record: %d nodes", cap(r.PDU.Nodes))
	}
	for range maxBigRecords + 1 {
		a.keepBig(withNodes(200))
	}
	if n := len(a.big); n != maxBigRecords {
		t.Errorf("%d big records kept, want at most %d", n, maxBigRecords)
	}
}

// TestSince: since is time.Sub, fast path and fallback alike.
func TestSince(t *testing.T) {
	base := time.Date(2026, 11, 22, 10, 0, 0, 999_999_999, time.UTC)
	for _, d := range []time.Duration{0, 1, -1, time.Second - 1, 90 * time.Minute, -3 * time.Hour, 100 * 365 * 24 * time.Hour} {
		if got, want := since(base.Add(d), base), base.Add(d).Sub(base); got != want {
			t.Errorf("%v: since %v, Sub %v", d, got, want)
		}
	}
	far := time.Unix(1<<40, 5).UTC() // past what a Duration holds: Sub saturates
	for _, pair := range [][2]time.Time{{far, base}, {base, far}, {time.Time{}, base}} {
		if got, want := since(pair[0], pair[1]), pair[0].Sub(pair[1]); got != want {
			t.Errorf("%v - %v: since %v, Sub %v", pair[0], pair[1], got, want)
		}
	}
}

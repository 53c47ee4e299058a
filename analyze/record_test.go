package analyze

import (
	"testing"
	"time"
	"unsafe"

	"github.com/mcdissect/mcdissect/dissect"
)

// TestRecordOwn: a record viewing a batch's arena that must outlive it
// copies its bytes, and its PDU and tree values follow; the arena may then
// be overwritten.
func TestRecordOwn(t *testing.T) {
	arena := []byte("xxhello, world")
	r := &Record{}
	r.borrow(arena[2:])
	c := dissect.Begin(&r.PDU, dissect.Core.Root(), r.data, len(r.data))
	c.Field(dissect.FieldUndissected, 5, dissect.B(r.data[:5]))
	c.Finish()
	r.own()
	copy(arena, "................")
	if string(r.data) != "hello, world" || string(r.PDU.Data) != "hello, world" {
		t.Errorf("data %q, PDU data %q after the arena changed", r.data, r.PDU.Data)
	}
	if got := string(r.PDU.Nodes[1].Value.B); got != "hello" {
		t.Errorf("node value %q after the arena changed, want %q", got, "hello")
	}
	if r.borrowed {
		t.Error("still borrowed")
	}
	r.own() // owning twice changes nothing
	if string(r.data) != "hello, world" {
		t.Errorf("data %q after a second own", r.data)
	}
}

// TestBigRecords: records whose tree outgrew the pool, within bounds, are
// kept apart and come back empty; others are left to the collector.
func TestBigRecords(t *testing.T) {
	a := New(Options{}, SinkFunc(func(*Record) error { return nil }))
	withNodes := func(n int) *Record {
		r := &Record{}
		r.setData([]byte("data"))
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
		if len(r.PDU.Nodes) != 0 || cap(r.PDU.Nodes) <= maxPooledNodes || len(r.data) != 0 || r.PDU.Info != "" {
			t.Errorf("big record %d not reset: %d nodes (cap %d), %d bytes, info %q", i, len(r.PDU.Nodes), cap(r.PDU.Nodes), len(r.data), r.PDU.Info)
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

// TestRecordOwnEveryView: whatever of a borrowed record views the batch's
// arena (node values, keys, texts, expert messages, Message, Info) is
// intact after own, and after clone, once the arena is written over, as
// it is when the back end reuses it for the next batch.
func TestRecordOwnEveryView(t *testing.T) {
	view := func(b []byte) string { return unsafe.String(&b[0], len(b)) }
	for _, tc := range []struct {
		name string
		keep func(r *Record) *Record
	}{
		{"own", func(r *Record) *Record { r.own(); return r }},
		{"clone", func(r *Record) *Record { return r.Clone() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			arena := []byte("..key=text|info|message|expert")
			r := &Record{}
			r.borrow(arena[2:])
			d := r.data
			c := dissect.Begin(&r.PDU, dissect.Core.Root(), d, len(d))
			c.Field(dissect.FieldUndissected, 3, dissect.B(d[:3]))
			c.Finish()
			n := &r.PDU.Nodes[1]
			n.Key, n.Text = view(d[0:3]), view(d[4:8])
			r.PDU.Info, r.PDU.Message = view(d[9:13]), view(d[14:21])
			r.PDU.Experts = append(r.PDU.Experts, dissect.ExpertItem{Node: 1, Msg: view(d[22:28])})
			k := tc.keep(r)
			for i := range arena {
				arena[i] = '#'
			}
			kn := &k.PDU.Nodes[1]
			got := []string{string(k.data), string(kn.Value.B), kn.Key, kn.Text, k.PDU.Info, k.PDU.Message, k.PDU.Experts[len(k.PDU.Experts)-1].Msg}
			want := []string{"key=text|info|message|expert", "key", "key", "text", "info", "message", "expert"}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("view %d: %q after the arena was reused, want %q", i, got[i], want[i])
				}
			}
		})
	}
}

// TestRedactOwnCopy: redaction writes the record's own copy of the bytes,
// never bytes it views (the batch's arena, a decoder's buffer), whether
// the record borrowed them or its PDU's data points elsewhere.
func TestRedactOwnCopy(t *testing.T) {
	for _, borrowed := range []bool{false, true} {
		arena := []byte("abcdefgh")
		r := &Record{Proto: "tcp", Kind: KindUndissected}
		if borrowed {
			r.borrow(arena)
		} else {
			r.setData([]byte("other"))
		}
		c := dissect.Begin(&r.PDU, dissect.Core.Root(), arena, len(arena))
		c.Field(dissect.FieldUndissected, len(arena), dissect.B(arena))
		c.Finish()
		r.redact()
		if string(arena) != "abcdefgh" {
			t.Errorf("borrowed %v: the viewed bytes became %q", borrowed, arena)
		}
		if string(r.PDU.Data) == "abcdefgh" {
			t.Errorf("borrowed %v: the record's bytes were not redacted", borrowed)
		}
	}
}

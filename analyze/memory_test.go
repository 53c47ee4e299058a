package analyze

import (
	"bytes"
	"runtime"
	"testing"
	"weak"

	"github.com/mcdissect/mcdissect/budget"
	"github.com/mcdissect/mcdissect/record"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

// TestFreeListLetsGo: a record taken from the free list is referenced
// by nothing of the analyzer's once it is used for a PDU too large to be
// pooled and dropped. A slot of the list's array left pointing to it kept
// such records, each with megabytes of bytes, alive for the whole run.
func TestFreeListLetsGo(t *testing.T) {
	a := New(Options{}, SinkFunc(func(*record.Record) error { return nil }))
	for range 4 {
		a.free = append(a.free, &entry{})
	}
	var gone []weak.Pointer[entry]
	for range 3 {
		r := a.newRecord()
		r.SetData(make([]byte, 1<<20))
		if pooled(r) {
			t.Fatal("a 1 MiB record is pooled")
		}
		gone = append(gone, weak.Make(r))
	}
	runtime.GC()
	for i, w := range gone {
		if w.Value() != nil {
			t.Errorf("record %d, of 1 MiB, dropped but still reachable", i)
		}
	}
	if len(a.free) != 1 {
		t.Errorf("%d records left in the free list, want 1", len(a.free))
	}
	runtime.KeepAlive(a)
}

// discardSink throws records away, and remembers the large ones it saw.
type discardSink struct {
	large []weak.Pointer[byte] // the first byte of each large record's bytes
	n     int
}

func (s *discardSink) Record(r *record.Record) error {
	if len(r.Data()) >= 64<<10 && !r.Borrowed() { // a view of a batch's arena is the batch's, kept within maxBatchBytes
		s.large = append(s.large, weak.Make(&r.Data()[0]))
	}
	s.n++
	return nil
}

func (s *discardSink) Flush() error { return nil }

// TestLargeRecordsNotKept: connections that leave large PDUs unfinished
// (flushed one after another at the end, each a record of its own) and
// large ranges no PDU explains leave none of their bytes reachable from
// the analyzer once emitted: only small records are pooled, and nothing
// else keeps one. (Lite records view their batch's arena, which the batch
// keeps within maxBatchBytes.)
func TestLargeRecordsNotKept(t *testing.T) {
	capture := buildCapture(t, func(w *capgen.Writer) {
		w.PartialPDUsOf(12, 200<<10) // 12 status responses of 200 KiB, each a byte short
	})
	for _, lite := range []bool{false, true} {
		s := &discardSink{}
		src, err := OpenFile(bytes.NewReader(capture))
		if err != nil {
			t.Fatal(err)
		}
		a := New(Options{Lite: lite}, s)
		if _, err := Run(src, a); err != nil {
			t.Fatal(err)
		}
		if len(s.large) < 12 && !lite {
			t.Fatalf("%d large records, want at least 12 (%d records in all)", len(s.large), s.n)
		}
		runtime.GC()
		kept := 0
		for _, w := range s.large {
			if w.Value() != nil {
				kept++
			}
		}
		if kept > 0 {
			t.Errorf("lite %v: %d of %d large records' bytes still reachable after the run", lite, kept, len(s.large))
		}
		runtime.KeepAlive(a)
	}
}

// TestHeldBytesBounded: records waiting behind a request that is never
// answered are given up on past the memory budget, not only past MaxHeld
// records: 150 status responses of 2 MB behind one took 690 MB. What a
// record costs counts the texts its tree made, not only its bytes.
func TestHeldBytesBounded(t *testing.T) {
	const size = 100 << 10
	capture := buildCapture(t, func(w *capgen.Writer) { w.HeldBehindRequest(30, size) })
	for _, limit := range []int{1 << 20, 2 << 20} {
		src, err := OpenFile(bytes.NewReader(capture))
		if err != nil {
			t.Fatal(err)
		}
		most, records, one := 0, 0, 0 // one: the largest record's cost
		b := budget.New(int64(limit))
		testEmit = func(a *backEnd) {
			records++
			n := 0
			for _, h := range a.held {
				c := int(heldCost(h))
				n += c
				one = max(one, c)
			}
			most = max(most, n)
		}
		a := New(Options{Budget: b}, SinkFunc(func(r *record.Record) error { return nil }))
		_, err = Run(src, a)
		testEmit = nil
		if err != nil {
			t.Fatal(err)
		}
		if records < 90 {
			t.Fatalf("%d records, want at least 90", records)
		}
		// The front end's reassembly shares the budget, so what the held
		// records may take is the back end's part of the limit, which
		// grows toward the limit less what reassembly holds (pipe.divide).
		others := int64(0)
		for _, u := range b.Accounts() {
			if u.Name != "held records" {
				others += u.Peak
			}
		}
		if most > limit+one || int64(most) < int64(limit)-others-2*int64(one) {
			t.Errorf("budget %d: up to %d bytes held (other accounts' peaks %d), want about the limit", limit, most, others)
		}
	}
}

// TestLevelsWithinBudget: Classic connections that each send a level and
// never finish it hold no more than the budget: the oldest levels are
// given up, and say so.
func TestLevelsWithinBudget(t *testing.T) {
	capture := buildCapture(t, func(w *capgen.Writer) { w.LevelsHeld(12) })
	b := budget.New(4 << 20)
	src, err := OpenFile(bytes.NewReader(capture))
	if err != nil {
		t.Fatal(err)
	}
	dropped := 0
	a := New(Options{Budget: b}, SinkFunc(func(r *record.Record) error {
		for _, e := range r.PDU.Experts {
			if e.Info.Name == "classic.level.dropped" {
				dropped++
			}
		}
		return nil
	}))
	if _, err := Run(src, a); err != nil {
		t.Fatal(err)
	}
	var levels budget.Usage
	for _, u := range b.Accounts() {
		if u.Name == "Classic levels" {
			levels = u
		}
	}
	if b.Peak() > b.Limit() || levels.Peak == 0 || levels.Used != 0 {
		t.Errorf("budget peak %d of %d; levels %+v", b.Peak(), b.Limit(), levels)
	}
	// 12 MiB of levels in 4 MiB: more than half must have been given up.
	if dropped < 7 {
		t.Errorf("%d levels said they were given up, want at least 7 of 12; budget %+v", dropped, b.Accounts())
	}
}

// TestConnectionsWithinBudget: connections each holding a little state
// are charged what they cost; past the budget the longest idle are
// evicted, and say so.
func TestConnectionsWithinBudget(t *testing.T) {
	const n = 3000
	capture := buildCapture(t, func(w *capgen.Writer) { w.PartialIdentifications(n) })
	b := budget.New(2 << 20)
	src, err := OpenFile(bytes.NewReader(capture))
	if err != nil {
		t.Fatal(err)
	}
	evicted := 0
	a := New(Options{Budget: b}, SinkFunc(func(r *record.Record) error {
		for _, e := range r.PDU.Experts {
			if e.Info == ExpertEvicted {
				evicted++
			}
		}
		return nil
	}))
	if _, err := Run(src, a); err != nil {
		t.Fatal(err)
	}
	if b.Peak() > b.Limit() || b.Used() != 0 {
		t.Errorf("budget peak %d of %d, %d still charged: %v", b.Peak(), b.Limit(), b.Used(), b.Accounts())
	}
	// 3000 connections of 2 KB in 2 MiB: about two thirds must go.
	if evicted < n/2 {
		t.Errorf("%d connections evicted, want at least %d", evicted, n/2)
	}
}

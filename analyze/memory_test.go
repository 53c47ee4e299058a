package analyze

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
	"weak"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

// TestFreeListLetsGo: a record taken from the free list is referenced
// by nothing of the analyzer's once it is used for a PDU too large to be
// pooled and dropped. A slot of the list's array left pointing to it kept
// such records, each with megabytes of bytes, alive for the whole run.
func TestFreeListLetsGo(t *testing.T) {
	a := New(Options{}, func(*Record) error { return nil })
	for range 4 {
		a.free = append(a.free, &Record{})
	}
	var gone []weak.Pointer[Record]
	for range 3 {
		r := a.newRecord()
		r.setData(make([]byte, 1<<20))
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

// discardSink formats nothing but a byte per record, like a Sink whose
// output is thrown away, and remembers the large records it saw.
type discardSink struct {
	large [2][]weak.Pointer[byte] // per shard: the first byte of each large record's bytes
	n     [2]int
}

func (s *discardSink) Format(w int, dst []byte, r *Record) []byte {
	if len(r.data) >= 64<<10 && !r.borrowed { // a view of a batch's arena is the batch's, kept within maxBatchBytes
		s.large[w] = append(s.large[w], weak.Make(&r.data[0]))
	}
	s.n[w]++
	return append(dst, '.')
}

func (s *discardSink) Write([][]byte, int) error { return nil }

func (s *discardSink) Accept(int, *Record) (bool, error) { return true, nil }

// TestLargeRecordsNotKept: connections that leave large PDUs unfinished
// (flushed one after another at the end, each a record of its own) and
// large ranges no PDU explains leave none of their bytes reachable from
// the analyzer once emitted, on every path (one goroutine, the back end's
// goroutine, the shards): only small records are pooled, and nothing else
// keeps one. (Lite records view their batch's arena, which the batch keeps
// within maxBatchBytes.)
func TestLargeRecordsNotKept(t *testing.T) {
	capture := buildCapture(t, func(w *capgen.Writer) {
		w.PartialPDUsOf(12, 200<<10) // 12 status responses of 200 KiB, each a byte short
	})
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"one goroutine", Options{}},
		{"parallel", Options{Parallel: true, Batch: 256}},
		{"shards", Options{Parallel: true, Batch: 256}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &discardSink{}
			var emit func(*Record) error
			if strings.HasPrefix(tc.name, "shards") {
				tc.opts.Sink = s
			} else {
				emit = func(r *Record) error { s.Format(0, nil, r); return nil }
			}
			src, err := OpenFile(bytes.NewReader(capture))
			if err != nil {
				t.Fatal(err)
			}
			a := New(tc.opts, emit)
			if _, err := Run(src, a); err != nil {
				t.Fatal(err)
			}
			large := append(s.large[0], s.large[1]...)
			if len(large) < 12 {
				t.Fatalf("%d large records, want at least 12 (%d records in all)", len(large), s.n[0]+s.n[1])
			}
			runtime.GC()
			kept := 0
			for _, w := range large {
				if w.Value() != nil {
					kept++
				}
			}
			if kept > 0 {
				t.Errorf("%d of %d large records' bytes still reachable after the run", kept, len(large))
			}
			runtime.KeepAlive(a)
		})
	}
}

// bulkySink writes each record as 100 KB, and checks that no run of
// output the merger writes is longer than a chunk's bound and one record.
type bulkySink struct {
	records int
	longest int
}

const bulk = 100 << 10

func (s *bulkySink) Format(w int, dst []byte, r *Record) []byte {
	return append(dst, make([]byte, bulk)...)
}

func (s *bulkySink) Accept(int, *Record) (bool, error) { return true, nil }

func (s *bulkySink) Write(bufs [][]byte, n int) error {
	for _, b := range bufs {
		s.longest = max(s.longest, len(b))
	}
	s.records += n
	return nil
}

// TestShardChunksBounded: a shard sends its output on as soon as it
// passes maxChunkBytes, not at the end of its batch: a batch of many
// records with large output (every connection's unfinished PDU flushed
// at the end) is never all in memory at once.
func TestShardChunksBounded(t *testing.T) {
	capture := buildCapture(t, func(w *capgen.Writer) { w.PartialPDUsOf(40, 1000) })
	src, err := OpenFile(bytes.NewReader(capture))
	if err != nil {
		t.Fatal(err)
	}
	s := &bulkySink{}
	a := New(Options{Parallel: true, Batch: 1024, Sink: s}, nil)
	if _, err := Run(src, a); err != nil {
		t.Fatal(err)
	}
	if s.records*bulk < 4*maxChunkBytes {
		t.Fatalf("%d records: too few to test", s.records)
	}
	if s.longest > maxChunkBytes+bulk {
		t.Errorf("a run of %d bytes of output, want at most %d", s.longest, maxChunkBytes+bulk)
	}
}

// TestHeldBytesBounded: records waiting behind a request that is never
// answered are given up on past MaxHeldBytes of bytes, not only past
// MaxHeld records: 150 status responses of 2 MB behind one took 690 MB.
func TestHeldBytesBounded(t *testing.T) {
	const size = 100 << 10
	capture := buildCapture(t, func(w *capgen.Writer) { w.HeldBehindRequest(30, size) })
	for _, limit := range []int{1 << 20, 2 << 20} {
		src, err := OpenFile(bytes.NewReader(capture))
		if err != nil {
			t.Fatal(err)
		}
		var a *Analyzer
		most, records := 0, 0
		a = New(Options{MaxHeldBytes: limit}, func(r *Record) error {
			records++
			n := 0
			for _, h := range a.held {
				n += len(h.data)
			}
			most = max(most, n)
			return nil
		})
		if _, err := Run(src, a); err != nil {
			t.Fatal(err)
		}
		if records < 90 {
			t.Fatalf("%d records, want at least 90", records)
		}
		if most > limit+size+100 || most < limit-2*size {
			t.Errorf("MaxHeldBytes %d: up to %d bytes held, want about the limit", limit, most)
		}
	}
}

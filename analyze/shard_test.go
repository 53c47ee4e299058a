package analyze

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/internal/mcgen"
)

// lineSink is a Sink that formats a record as recordLine does.
type lineSink struct {
	tree bool
	keep func(*Record) bool // nil: every record is shown
	// ordered (Options.Ordered): Accept's calls are one at a time, and
	// it notes each record in accepted
	ordered  bool
	accepted []string
	out      []string
	sizes    []int // n of each Write
}

func (s *lineSink) Accept(w int, r *Record) (bool, error) {
	if w != 0 && w != 1 {
		panic("shard index out of range")
	}
	if s.ordered {
		s.accepted = append(s.accepted, recordLine(r, s.tree))
	}
	return s.keep == nil || s.keep(r), nil
}

func (s *lineSink) Format(w int, dst []byte, r *Record) []byte {
	if w != 0 && w != 1 {
		panic("shard index out of range")
	}
	return append(append(dst, recordLine(r, s.tree)...), 0)
}

func (s *lineSink) Write(bufs [][]byte, n int) error {
	var all []byte
	for _, b := range bufs {
		all = append(all, b...)
	}
	lines := strings.Split(strings.TrimSuffix(string(all), "\x00"), "\x00")
	if len(all) == 0 || len(lines) != n {
		return fmt.Errorf("Write: %d records in the bytes, n = %d", len(lines), n)
	}
	s.out = append(s.out, lines...)
	s.sizes = append(s.sizes, n)
	return nil
}

func runSink(t *testing.T, src Source, opts Options) ([]string, *Analyzer) {
	t.Helper()
	s, a := runLineSink(t, src, opts, nil)
	return s.out, a
}

func runLineSink(t *testing.T, src Source, opts Options, keep func(*Record) bool) (*lineSink, *Analyzer) {
	t.Helper()
	s := &lineSink{tree: !opts.Lite, keep: keep, ordered: opts.Ordered}
	opts.Sink, opts.Parallel = s, true
	a := New(opts, nil)
	if _, err := Run(src, a); err != nil {
		t.Fatal(err)
	}
	return s, a
}

func fileSource(t *testing.T, path string) Source {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	src, err := OpenFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// mixedCapture writes mcgen's small capture of all three protocols for
// seed to a temporary file and returns its path.
func mixedCapture(t *testing.T, seed uint64) string {
	t.Helper()
	var gen bytes.Buffer
	if _, err := mcgen.Generate(&gen, mcgen.SmallConfig(seed)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mixed.pcap")
	if err := os.WriteFile(path, gen.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The back end split in two shards, each formatting its records, must
// write exactly what one back end emits, in the same order: on every sample
// capture, and on a generated one that mixes all three protocols, with
// batches of every size (1 makes the merger wait on the other shard after
// almost every record).
func TestShardsMatchSerial(t *testing.T) {
	paths, _ := filepath.Glob("../samples/*.pcap")
	paths = append(paths, mixedCapture(t, 3))
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			want := runLines(t, path, Options{}, true)
			wantCols := runLines(t, path, Options{Lite: true}, false)
			for _, o := range []Options{{}, {Batch: 1}, {Batch: 7}, {Lite: true}, {Lite: true, Batch: 3},
				{Ordered: true}, {Ordered: true, Lite: true, Batch: 5}} {
				s, a := runLineSink(t, fileSource(t, path), o, nil)
				got := s.out
				w := want
				if o.Lite {
					w = wantCols
				}
				what := fmt.Sprintf("shards ordered=%v lite=%v batch %d", o.Ordered, o.Lite, o.Batch)
				diffLines(t, what, got, w)
				if o.Ordered {
					diffLines(t, what+": records accepted", s.accepted, w)
				}
				if n := a.Stats().Records; n != uint64(len(w)) {
					t.Errorf("Stats().Records = %d, want %d", n, len(w))
				}
			}
		})
	}
}

// Requests held back past MaxHeld records, MaxHeldBytes or HoldWindow are given up on
// at the same record whichever shard made the records behind them: the
// count and the clock are the whole back end's, not a shard's.
func TestShardsGiveUpLikeSerial(t *testing.T) {
	path := mixedCapture(t, 5)
	links := func(lines []string) int {
		n := 0
		for _, l := range lines {
			n += strings.Count(l, "response_in ")
		}
		return n
	}
	all := links(runLines(t, path, Options{}, true))
	for _, o := range []Options{{MaxHeld: 2}, {MaxHeld: 5, Batch: 3}, {HoldWindow: 300 * time.Microsecond, Batch: 5}, {MaxHeldBytes: 300, Batch: 3}} {
		want := runLines(t, path, o, true)
		got, _ := runSink(t, fileSource(t, path), o)
		what := fmt.Sprintf("MaxHeld %d MaxHeldBytes %d HoldWindow %v batch %d", o.MaxHeld, o.MaxHeldBytes, o.HoldWindow, o.Batch)
		diffLines(t, what, got, want)
		// Requests given up on lose their link to the response.
		if n := links(want); n >= all {
			t.Errorf("%s: %d responses linked, as many as with the defaults (%d): nothing was given up on, the test tests nothing", what, n, all)
		}
	}
}

// Count stops the output after exactly that many records shown, and the
// run ends without an error: on two shards or one back end (Ordered),
// with every record shown or only those Accept keeps (a display filter),
// on a capture whose records both shards make.
func TestShardsCount(t *testing.T) {
	classic := "../samples/classic-session.pcap"
	mixed := mixedCapture(t, 7)
	notClassic := func(r *Record) bool { return r.Proto != "classic" }
	everyOther := func(r *Record) bool { return r.Frame%2 == 0 }
	for _, tc := range []struct {
		path string
		keep func(*Record) bool
	}{{classic, nil}, {mixed, notClassic}, {mixed, everyOther}} {
		var want []string
		a := New(Options{}, func(r *Record) error {
			if tc.keep == nil || tc.keep(r) {
				want = append(want, recordLine(r, true))
			}
			return nil
		})
		if _, err := Run(fileSource(t, tc.path), a); err != nil {
			t.Fatal(err)
		}
		if len(want) < 10 {
			t.Fatalf("%s: %d records shown: too few to test", tc.path, len(want))
		}
		for _, n := range []int{1, 5, len(want) - 1} {
			for _, ordered := range []bool{false, true} {
				s, _ := runLineSink(t, fileSource(t, tc.path), Options{Count: n, Batch: 4, Ordered: ordered}, tc.keep)
				diffLines(t, fmt.Sprintf("%s filtered=%v ordered=%v count %d", filepath.Base(tc.path), tc.keep != nil, ordered, n), s.out, want[:n])
			}
		}
	}
}

// A write error stops the run and is Run's error.
func TestShardsWriteError(t *testing.T) {
	for _, ordered := range []bool{false, true} {
		s := &failSink{}
		a := New(Options{Sink: s, Parallel: true, Ordered: ordered, Batch: 2}, nil)
		_, err := Run(fileSource(t, "../samples/classic-session.pcap"), a)
		if err != os.ErrClosed {
			t.Fatalf("ordered=%v: Run = %v, want %v", ordered, err, os.ErrClosed)
		}
		if s.writes != 1 {
			t.Errorf("ordered=%v: %d writes, want 1 (none after the error)", ordered, s.writes)
		}
	}
}

type failSink struct{ writes int }

func (s *failSink) Accept(int, *Record) (bool, error)          { return true, nil }
func (s *failSink) Format(_ int, dst []byte, r *Record) []byte { return append(dst, 'x') }
func (s *failSink) Write([][]byte, int) error {
	s.writes++
	return os.ErrClosed
}

// A Sink without Parallel: one back end accepts and formats each record
// as it is emitted and writes them, Count included.
func TestSinkWithoutParallel(t *testing.T) {
	path := "../samples/classic-session.pcap"
	want := runLines(t, path, Options{}, true)
	for _, count := range []int{0, 9} {
		s := &lineSink{tree: true}
		a := New(Options{Sink: s, Count: count}, nil)
		if _, err := Run(fileSource(t, path), a); err != nil {
			t.Fatal(err)
		}
		w := want
		if count > 0 {
			w = want[:count]
		}
		diffLines(t, fmt.Sprintf("sink without Parallel, count %d", count), s.out, w)
	}
}

// TestJobShardsAsSides: the shard a TCP job is given with its side
// (tcpConn.setSide) is its side's, on every sample capture: commit checks
// each one (checkShards) and panics otherwise.
func TestJobShardsAsSides(t *testing.T) {
	paths, _ := filepath.Glob("../samples/*.pcap")
	if len(paths) == 0 {
		t.Fatal("no sample captures")
	}
	checkShards = true
	defer func() { checkShards = false }()
	for _, path := range paths {
		capt, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := analyzeBytes(t, capt, Options{}); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
}

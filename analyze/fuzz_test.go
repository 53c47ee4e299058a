package analyze

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// FuzzCapture feeds arbitrary bytes as a capture file through the whole
// pipeline: reading, link and IP decoding, routing, reassembly and every
// dissector. Invariants: no panic, and every record's tree is valid.
// The seed corpus is every sample capture, so mutations start from real
// traffic of all three protocols.
func FuzzCapture(f *testing.F) {
	files, _ := filepath.Glob("../samples/*.pcap")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err == nil && len(b) < 16<<10 { // large seeds stall the mutator
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		src, err := OpenFile(bytes.NewReader(data))
		if err != nil {
			return
		}
		var full, trees []string
		a := New(Options{}, func(r *Record) error {
			if err := dissect.Check(&r.PDU); err != nil {
				t.Fatalf("frame %d (%s %s): %v", r.Frame, r.Proto, r.PDU.Message, err)
			}
			full = append(full, recordLine(r, false))
			trees = append(trees, recordLine(r, true))
			return nil
		})
		Run(src, a)
		// The same capture with the back end on its own goroutine and
		// Lite decoding must give the same records and summary columns:
		// the split of framing and decoding state holds on hostile input.
		lite, forced := runData(data, Options{Parallel: true, Lite: true, Batch: 5}, false)
		sameRecords(t, "parallel Lite", lite, full, forced+a.stage.forced > 0)
		// And with trees: what the trackers add (links, expert items)
		// must not depend on how the back end's clock is fed, which it
		// did when a record made late moved it (TestLateRecordKeepsTheClock).
		ptrees, forced := runData(data, Options{Parallel: true, Batch: 5}, true)
		sameRecords(t, "parallel trees", ptrees, trees, forced+a.stage.forced > 0)
	})
}

// runData runs capture data with opts and returns its records' lines
// (recordLine) and how many jobs the reorder stage forced.
func runData(data []byte, opts Options, tree bool) ([]string, uint64) {
	src, err := OpenFile(bytes.NewReader(data))
	if err != nil {
		return nil, 0
	}
	var lines []string
	a := New(opts, func(r *Record) error {
		lines = append(lines, recordLine(r, tree))
		return nil
	})
	Run(src, a)
	return lines, a.stage.forced
}

// sameRecords compares two runs' lines: in order, or as sets when a bound
// of the reorder stage was reached (forced). The bound is checked job by
// job without Parallel and batch by batch with it, so the two may differ
// in which records went early (reorder.go), not in the records
// (FuzzCapture found a 60-second jump of packet time that forced a gap
// out by the window, before a record of an earlier frame that only the
// end gave up).
func sameRecords(t *testing.T, what string, got, want []string, forced bool) {
	t.Helper()
	if forced {
		got, want = slices.Clone(got), slices.Clone(want)
		slices.Sort(got)
		slices.Sort(want)
	}
	diffLines(t, what, got, want)
}

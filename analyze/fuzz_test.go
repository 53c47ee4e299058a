package analyze

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// FuzzCapture feeds arbitrary bytes as a capture file through the whole
// pipeline: reading, link and IP decoding, routing, reassembly and every
// dissector. Invariants: no panic, every record's tree is valid, records
// in frame order unless the reorder stage forced some early, and the same
// records with the back end on its own goroutine.
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
		var last uint64 // the latest place of a record so far
		var late []string
		type side struct {
			stream int
			dir    dissect.Dir
		}
		lastKey := map[side]uint64{} // tcpConn.key: a direction's records keep stream order
		a := New(Options{}, func(r *Record) error {
			if err := dissect.Check(&r.PDU); err != nil {
				t.Fatalf("frame %d (%s %s): %v", r.Frame, r.Proto, r.PDU.Message, err)
			}
			// Records come out in frame order unless a bound of the
			// reorder stage forced some early (checked below): by their
			// frame, or for TCP the last place of their direction, whose
			// records keep stream order (tcpConn.key). The fragments of a
			// datagram never completed are reported at the end, at their
			// own frame (reorder.go).
			if r.PDU.Message != noteKinds[noteFragments].message {
				k := r.Frame
				if r.TCP {
					s := side{r.Stream, r.PDU.Dir}
					k = max(k, lastKey[s])
					lastKey[s] = k
				}
				if k < last {
					late = append(late, fmt.Sprintf("frame %d (%s) after frame %d", r.Frame, r.PDU.Message, last))
				}
				last = max(last, k)
			}
			full = append(full, recordLine(r, false))
			trees = append(trees, recordLine(r, true))
			return nil
		})
		Run(src, a)
		if len(late) > 0 && a.stage.forced == 0 {
			t.Errorf("out of frame order with nothing forced: %s", strings.Join(late, "; "))
		}
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

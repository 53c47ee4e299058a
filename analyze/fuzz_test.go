package analyze

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// FuzzCapture feeds arbitrary bytes as a capture file through the whole
// pipeline: reading, link and IP decoding, routing, reassembly and every
// dissector. Invariants: no panic, every record's tree is valid, every
// record at a frame the run read and never before a frame its bytes came
// from, and Lite decoding gives the same records and summary columns.
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
		var full []string
		a := New(Options{}, SinkFunc(func(r *record.Record) error {
			if err := dissect.Check(&r.PDU); err != nil {
				t.Fatalf("frame %d (%s %s): %v", r.Frame, r.Proto, r.PDU.Message, err)
			}
			for _, p := range r.Parts {
				if p.Frame > r.Frame {
					t.Fatalf("frame %d (%s %s) lists frame %d", r.Frame, r.Proto, r.PDU.Message, p.Frame)
				}
			}
			full = append(full, recordLine(r, false))
			return nil
		}))
		Run(src, a)
		frames := a.Stats().Frames
		for _, l := range full {
			var f uint64
			fmt.Sscan(l, &f)
			if f == 0 || f > frames {
				t.Fatalf("a record at frame %d of %d: %s", f, frames, l)
			}
		}
		// Lite decoding must give the same records and summary columns:
		// the split of framing and decoding state holds on hostile input.
		diffLines(t, "lite", runData(data, Options{Lite: true}, false), full)
	})
}

// runData runs capture data with opts and returns its records' lines
// (recordLine).
func runData(data []byte, opts Options, tree bool) []string {
	src, err := OpenFile(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	var lines []string
	a := New(opts, SinkFunc(func(r *record.Record) error {
		lines = append(lines, recordLine(r, tree))
		return nil
	}))
	Run(src, a)
	return lines
}

package render

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/record"
)

// corpus decodes the test and bench corpus: every sample capture, or the
// capture MCD_BENCH_PCAP names (a few MB of a generated capture has the
// protocol mix of the big benchmark runs). Keep keeps the analyzer from
// reusing a record after emitting it, so all of them can be kept.
func corpus(tb testing.TB) []*record.Record {
	tb.Helper()
	files, _ := filepath.Glob("../samples/*.pcap")
	if f := os.Getenv("MCD_BENCH_PCAP"); f != "" {
		files = []string{f}
	}
	if len(files) == 0 {
		tb.Skip("no captures")
	}
	var recs []*record.Record
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			tb.Fatal(err)
		}
		src, err := analyze.OpenFile(fh)
		if err != nil {
			tb.Fatal(err)
		}
		emit := func(r *record.Record) error { recs = append(recs, r.Clone()); return nil }
		// A warning (a capture cut short) still leaves the records read.
		if _, err := analyze.Run(src, analyze.New(analyze.Options{}, analyze.SinkFunc(emit))); err != nil {
			tb.Fatal(err)
		}
		fh.Close()
	}
	// MCD_BENCH_RECORDS keeps only the first records: few enough stay in
	// the cache, as in the CLI, where each is formatted just after it was
	// decoded, instead of being read from memory.
	if n, err := strconv.Atoi(os.Getenv("MCD_BENCH_RECORDS")); err == nil && n < len(recs) {
		recs = recs[:n]
	}
	return recs
}

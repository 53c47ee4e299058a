//go:build unix

// Unix only for the process CPU time (getrusage), which the benchmark
// reports besides wall time: on a machine shared with other work, wall
// time per record varies by 2x from run to run, CPU time far less.

package render

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/analyze"
)

// benchRecords decodes the bench corpus once: every sample capture, or the
// capture MCD_BENCH_PCAP names (a few MB of a generated capture has the
// protocol mix of the big benchmark runs). Handoff keeps the analyzer from
// reusing a record after emitting it, so all of them can be kept.
func benchRecords(b *testing.B) []*analyze.Record {
	b.Helper()
	files, _ := filepath.Glob("../samples/*.pcap")
	if f := os.Getenv("MCD_BENCH_PCAP"); f != "" {
		files = []string{f}
	}
	if len(files) == 0 {
		b.Skip("no captures")
	}
	var recs []*analyze.Record
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			b.Fatal(err)
		}
		src, err := analyze.OpenFile(fh)
		if err != nil {
			b.Fatal(err)
		}
		emit := func(r *analyze.Record) error { recs = append(recs, r); return nil }
		// A warning (a capture cut short) still leaves the records read.
		if _, err := analyze.Run(src, analyze.New(analyze.Options{Handoff: true}, emit)); err != nil {
			b.Fatal(err)
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

// BenchmarkAppend formats every record of the corpus into one reused
// buffer, as a render pool worker does: bytes/s is output bytes.
func BenchmarkAppend(b *testing.B) {
	recs := benchRecords(b)
	for _, c := range []struct {
		name, format string
		o            Options
	}{
		{"summary", "text", Options{}},
		{"verbose", "text", Options{Verbose: true}},
		{"json", "json", Options{}},
		{"hex", "text", Options{Hex: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			a := NewAppender(c.format, c.o)
			var buf []byte
			size := 0
			for i, r := range recs {
				buf = a.Append(buf[:0], r, i == 0)
				size += len(buf)
			}
			b.SetBytes(int64(size))
			b.ReportAllocs()
			b.ResetTimer()
			cpu := cpuTime()
			for range b.N {
				for i, r := range recs {
					buf = a.Append(buf[:0], r, i == 0)
				}
			}
			cpu = cpuTime() - cpu
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(recs)), "ns/record")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*len(recs)), "cpu-ns/record")
		})
	}
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

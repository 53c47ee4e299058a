//go:build unix

// Unix only for the process CPU time (getrusage), which the benchmark
// reports besides wall time: on a machine shared with other work, wall
// time per record varies by 2x from run to run, CPU time far less.

package render

import (
	"syscall"
	"testing"
	"time"
)

// BenchmarkAppend formats every record of the corpus into one reused
// buffer, as a render pool worker does: bytes/s is output bytes.
func BenchmarkAppend(b *testing.B) {
	recs := corpus(b)
	for _, c := range []struct {
		name, format string
		o            Options
	}{
		{"summary", "text", Options{}},
		{"verbose", "text", Options{Verbose: true}},
		{"json", "json", Options{}},
		{"ek", "ek", Options{}},
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

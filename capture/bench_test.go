package capture

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// BenchmarkRead reads a capture held in memory, packet by packet: the
// front end's cost in a summary of a file. MCDISSECT_BENCH_PCAP names a
// capture (go run ./cmd/mcgen -size 50MB -o /tmp/cap50.pcap makes one);
// without it the project's largest sample is read.
func BenchmarkRead(b *testing.B) {
	path := os.Getenv("MCDISSECT_BENCH_PCAP")
	if path == "" {
		path = "../samples/classic-session.pcap"
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		src, err := OpenReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			p, err := src.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n += len(p.Data)
		}
		if n == 0 {
			b.Fatal("no packets")
		}
	}
}

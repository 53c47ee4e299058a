package analyze_test

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"testing"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/record"
	"github.com/mcdissect/mcdissect/render"
)

// benchCaptures: one real capture per protocol, read end to end.
var benchCaptures = []struct{ name, file string }{
	{"query", "../samples/query-full-300players.pcap"},
	{"slp", "../samples/slp-status-concurrent.pcap"},
	{"classic", "../samples/classic-session.pcap"},
}

// BenchmarkPipeline reads a whole capture from memory through the
// analyzer, with records discarded (the cost of dissection alone), and
// with each renderer writing to io.Discard.
func BenchmarkPipeline(b *testing.B) {
	for _, c := range benchCaptures {
		data, err := os.ReadFile(c.file)
		if err != nil {
			b.Fatal(err)
		}
		for _, out := range []struct {
			name   string
			format string
			o      render.Options
		}{{"dissect", "", render.Options{}}, {"summary", "text", render.Options{}}, {"verbose", "text", render.Options{Verbose: true}},
			{"json", "json", render.Options{}}} {
			b.Run(c.name+"/"+out.name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				records := 0
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for i := 0; i < b.N; i++ {
					src, err := analyze.OpenFile(bytes.NewReader(data))
					if err != nil {
						b.Fatal(err)
					}
					emit := func(*record.Record) error { records++; return nil }
					var r render.Renderer
					if out.format != "" {
						r = render.New(out.format, io.Discard, out.o)
						r.Begin()
						emit = func(rec *record.Record) error { records++; return r.Record(rec) }
					}
					if _, err := analyze.Run(src, analyze.New(analyze.Options{}, analyze.SinkFunc(emit))); err != nil {
						b.Fatal(err)
					}
					if r != nil {
						r.End()
					}
				}
				b.StopTimer()
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(records)/float64(b.N), "PDUs/op")
				// The analyzer's fixed cost (the reassembler's pools) is
				// paid once per run; per PDU is what grows with a capture.
				b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(records), "allocs/PDU")
			})
		}
	}
}

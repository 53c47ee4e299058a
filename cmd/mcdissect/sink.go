package main

import (
	"io"
	"os"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/filter"
	"github.com/mcdissect/mcdissect/render"
)

// Jobs per batch from the front end to the back end (analyze.Options.Batch).
// The back end formats each record as it emits it, so no record outlives
// its batch and batches can be large: fewer wake-ups of the back end.
// Measured on the 100 MB capture: the summary 0.47-0.49 s in batches of
// 512 or 1024 against 0.51-0.52 in 256; -V 1.03-1.06 in 256 against
// 1.15-1.20 in 128, and JSON worse in 512 (each batch's output outgrows
// the buffers kept for reuse).
const (
	liteBatch = 1024 // records without trees (the summary, fields)
	treeBatch = 256
)

// outSink is the analyzer's Sink: the one way records reach the output
// (analyze.Sink). The back end accepts each record (-Y), formats it with
// an Appender of its shard, and hands the bytes, in record order, to
// Write. What must see the records shown in order (--export-objects, -t dd,
// the page, and with -c a -z that reads records or -w -Y) makes the run
// Ordered: one back end, whose Accept runs it record by record. -z
// statistics and -w -Y otherwise count on each shard (stats_merge.go).
type outSink struct {
	apps []render.Appender // one per shard; none for the page
	w    render.Writer
	vec  *vecWriter        // writes past w's buffer, when the output is a file
	flts [2]*filter.Filter // -Y, one per shard (Match takes a lock), or nil
	// ordered is the work on each record shown, in record order
	// (Options.Ordered), or nil
	ordered func(*analyze.Record) error
	page    bool // -T html: Accept writes each record, in order (render.Writer.Record)
	prog    *progress
	started bool // a record has been written
	json    bool
	line    bool // -l: write out after every write
}

func newOutSink(w render.Writer, out io.Writer, format string, o render.Options, line bool) *outSink {
	s := &outSink{w: w, json: format == "json", line: line, page: format == "html"}
	if s.page {
		return s
	}
	if f, ok := out.(*os.File); ok {
		s.vec = newVecWriter(f)
	}
	for range 2 {
		s.apps = append(s.apps, render.NewAppender(format, o))
	}
	return s
}

// Accept filters r (-Y) and, for a record shown, does the ordered work;
// the page's renderer takes the record here, in order.
func (s *outSink) Accept(w int, r *analyze.Record) (bool, error) {
	if f := s.flts[w]; f != nil && !f.Match(r) {
		return false, nil
	}
	s.prog.record()
	if s.ordered != nil {
		if err := s.ordered(r); err != nil {
			return false, err
		}
	}
	if s.page {
		return true, s.w.Record(r)
	}
	return true, nil
}

// Format formats r as if it came after another record: which record is the
// output's first is known only when the shards' records are merged.
func (s *outSink) Format(w int, dst []byte, r *analyze.Record) []byte {
	if s.page {
		return dst // written by Accept
	}
	return s.apps[w].Append(dst, r, false)
}

func (s *outSink) Write(bufs [][]byte, n int) error {
	if s.page {
		return nil
	}
	if !s.started && len(bufs) > 0 {
		s.started = true
		if s.json && len(bufs[0]) > 0 && bufs[0][0] == ',' {
			bufs[0] = bufs[0][1:] // the array's first object
		}
	}
	if s.vec != nil {
		if err := s.w.Raw(nil, n); err != nil {
			return err
		}
		if err := s.w.Flush(); err != nil {
			return err
		}
		return s.vec.write(bufs)
	}
	last := len(bufs) - 1
	for i, b := range bufs {
		k := 0
		if i == last {
			k = n // Raw counts records (JSON's End needs to know there were some)
		}
		if err := s.w.Raw(b, k); err != nil {
			return err
		}
	}
	if s.line {
		return s.w.Flush()
	}
	return nil
}

// Flush writes out what the renderer buffers (analyze.Flusher).
func (s *outSink) Flush() error { return s.w.Flush() }

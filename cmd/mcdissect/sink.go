package main

import (
	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/filter"
	"github.com/mcdissect/mcdissect/internal/progress"
	"github.com/mcdissect/mcdissect/record"
	"github.com/mcdissect/mcdissect/render"
)

// outSink is the analyzer's Sink: every record, in order, is filtered
// (-Y), counted, given to what reads records (statistics, -w -Y, exports,
// -t dd) and written by the renderer, which buffers: Flush writes out.
type outSink struct {
	w       render.Writer
	flt     *filter.Filter // -Y, or nil
	count   int            // -c: stop after this many records shown (0: no limit)
	shown   int
	ordered func(*record.Record) error // the work on each record shown, or nil
	prog    *progress.Line
	line    bool // -l: write out after every record
}

func (s *outSink) Record(r *record.Record) error {
	if s.flt != nil && !s.flt.Match(r) {
		return nil
	}
	s.prog.Record()
	if s.ordered != nil {
		if err := s.ordered(r); err != nil {
			return err
		}
	}
	if err := s.w.Record(r); err != nil {
		return err
	}
	if s.line {
		if err := s.w.Flush(); err != nil {
			return err
		}
	}
	s.shown++
	if s.count > 0 && s.shown >= s.count {
		return analyze.ErrStop
	}
	return nil
}

// Flush writes out what the renderer buffers.
func (s *outSink) Flush() error { return s.w.Flush() }

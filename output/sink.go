// Package output is where a run's records go: the analyzer's Sink (it
// implements analyze.Sink). Each record, in order and one at a time, is
// filtered (-Y), counted (-c), given the time since the previous record
// shown (-t dd), handed to what reads the records shown (statistics,
// exports, -w's kept frames, --ship) and written by the renderer, which
// buffers: Flush writes out.
package output

import (
	"time"

	"github.com/mcdissect/mcdissect/filter"
	"github.com/mcdissect/mcdissect/record"
	"github.com/mcdissect/mcdissect/render"
)

// Sink shows records: set its fields, add readers, and give it to the
// analyzer.
type Sink struct {
	W          render.Writer
	Filter     *filter.Filter // -Y, or nil
	Count      int            // -c: stop after this many records shown (0: no limit)
	Line       bool           // -l: write out after every record
	DeltaShown bool           // -t dd: set Record.DeltaShown
	Shown      func()         // called for each record shown (a progress count), or nil

	readers   []func(*record.Record) error
	shown     int
	lastShown time.Time
}

// Read adds fn to what reads the records shown, after those added before
// it and before the renderer. An error stops the run.
func (s *Sink) Read(fn func(*record.Record) error) { s.readers = append(s.readers, fn) }

// Record shows r if it passes the filter; record.ErrStop ends the run
// once Count records were shown.
func (s *Sink) Record(r *record.Record) error {
	if s.Filter != nil && !s.Filter.Match(r) {
		return nil
	}
	if s.Shown != nil {
		s.Shown()
	}
	if s.DeltaShown {
		if !s.lastShown.IsZero() {
			r.DeltaShown = r.Time.Sub(s.lastShown)
		}
		s.lastShown = r.Time
	}
	for _, fn := range s.readers {
		if err := fn(r); err != nil {
			return err
		}
	}
	if err := s.W.Record(r); err != nil {
		return err
	}
	if s.Line {
		if err := s.W.Flush(); err != nil {
			return err
		}
	}
	s.shown++
	if s.Count > 0 && s.shown >= s.Count {
		return record.ErrStop
	}
	return nil
}

// Flush writes out what the renderer buffers.
func (s *Sink) Flush() error { return s.W.Flush() }

// Package output is where a run's records go: the analyzer's Sink (it
// implements analyze.Sink). Each record, in order and one at a time, is
// filtered (-Y), counted (-c), given the time since the previous record
// shown (-t dd), handed to what reads the records shown (statistics,
// exports, -w's kept frames, --ship, --serve) and written by the renderer,
// which buffers: Flush writes out. Each of them says what it reads of a
// record (record.Needs), and the sink what they read together (Needs):
// the pipeline decodes that, and no more.
//
// Flags are the flags that choose what a run writes (-T, -e, -V, -O, -t,
// --color...), checked together and made into the renderer's options.
package output

import (
	"time"

	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/filter"
	"github.com/mcdissect/mcdissect/record"
	"github.com/mcdissect/mcdissect/render"
)

// Sink shows records: set its fields, add readers, and give it to the
// analyzer.
type Sink struct {
	W          render.Writer
	WNeeds     record.Needs   // what W reads (render.NeedsOf)
	Filter     *filter.Filter // -Y, or nil
	Count      int            // -c: stop after this many records shown (0: no limit)
	Line       bool           // -l: write out after every record
	DeltaShown bool           // -t dd: set Record.DeltaShown
	Shown      func()         // called for each record shown (a progress count), or nil

	readers   []Reader
	shown     int
	lastShown time.Time
	layers    netlayers.Want // what they all read of the layers, once known (Needs)
	layersSet bool
}

// Reader reads the records shown, and says what it reads of them.
type Reader interface {
	// Record reads r; an error stops the run.
	Record(r *record.Record) error
	// Needs is what Record reads besides what every record carries.
	Needs() record.Needs
}

// Read adds rd to what reads the records shown, after those added before
// it and before the renderer.
func (s *Sink) Read(rd Reader) { s.readers, s.layersSet = append(s.readers, rd), false }

// Needs is what the filter, the readers and the renderer read of a
// record, together.
func (s *Sink) Needs() record.Needs {
	n := s.WNeeds
	if s.Filter != nil {
		n = n.Or(s.Filter.Needs())
	}
	for _, rd := range s.readers {
		n = n.Or(rd.Needs())
	}
	return n
}

// Record shows r if it passes the filter; record.ErrStop ends the run
// once Count records were shown.
func (s *Sink) Record(r *record.Record) error {
	if !s.layersSet {
		s.layers, s.layersSet = s.Needs().Layers, true
	}
	// The layers' tree is made with what they all read, in one walk.
	r.WantLayers(s.layers)
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
	for _, rd := range s.readers {
		if err := rd.Record(r); err != nil {
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

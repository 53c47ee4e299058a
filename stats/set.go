package stats

import (
	"io"

	"github.com/mcdissect/mcdissect/record"
)

// Set is the statistics of a run (-z, repeatable): each is given what its
// Reads says it reads, and the tables are printed in the order given.
type Set struct {
	all, frames, records []Stat
}

// NewSet makes the statistics specs name. The zero Set has none.
func NewSet(specs []string) (Set, error) {
	var ss Set
	for _, spec := range specs {
		s, err := New(spec)
		if err != nil {
			return Set{}, err
		}
		ss.all = append(ss.all, s)
		if s.Reads().Frames {
			ss.frames = append(ss.frames, s)
		}
		if s.Reads().Records {
			ss.records = append(ss.records, s)
		}
	}
	return ss, nil
}

// OnFrame gives each frame read to the statistics that read frames; it is
// nil when none does.
func (ss Set) OnFrame() func(record.FrameInfo) {
	if len(ss.frames) == 0 {
		return nil
	}
	return func(f record.FrameInfo) {
		for _, s := range ss.frames {
			s.Frame(f)
		}
	}
}

// Record gives a record shown to the statistics that read records.
func (ss Set) Record(r *record.Record) error {
	for _, s := range ss.records {
		s.Record(r)
	}
	return nil
}

// Needs is what the statistics read of a record, together.
func (ss Set) Needs() record.Needs {
	var n record.Needs
	for _, s := range ss.all {
		n = n.Or(Needs(s))
	}
	return n
}

// Payloads names the first statistic that shows the frames' payload
// bytes as read (Reads.Payloads), or is "".
func (ss Set) Payloads(specs []string) string {
	for i, s := range ss.all {
		if s.Reads().Payloads {
			return specs[i]
		}
	}
	return ""
}

// Print writes every table, in order.
func (ss Set) Print(w io.Writer) {
	for _, s := range ss.all {
		s.Print(w)
	}
}

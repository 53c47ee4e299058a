package analyze

import "github.com/mcdissect/mcdissect/record"

// A Sink is where a run's records go: the one way records leave the
// pipeline. The output stage gives it every record, in output order, one
// at a time (out.go): on a goroutine of its own for records with trees,
// while the back end decodes the records after them; on the back end's
// for Lite ones. Either way on one goroutine for the whole run.
type Sink interface {
	// Record is given each record. r belongs to the analyzer and is valid
	// only during the call: a sink that keeps records keeps r.Clone(). An
	// error stops the run after r (ErrStop: without an error).
	Record(r *record.Record) error
	// Flush writes out what the sink buffers: the back end calls it, in
	// order with the records, when time went by (Analyzer.Flush: a live
	// capture or a pipe, whose records must not wait for a buffer to
	// fill) and at the end of the run.
	Flush() error
}

// SinkFunc is a Sink that calls f for each record and buffers nothing.
type SinkFunc func(r *record.Record) error

func (f SinkFunc) Record(r *record.Record) error { return f(r) }
func (f SinkFunc) Flush() error                  { return nil }

// Collect is a Sink that keeps a clone of every record (tests and tools
// that look at the records once the run is over).
type Collect struct{ Records []*record.Record }

func (c *Collect) Record(r *record.Record) error {
	c.Records = append(c.Records, r.Clone())
	return nil
}

func (c *Collect) Flush() error { return nil }

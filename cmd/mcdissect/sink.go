package main

import (
	"errors"
	"sync/atomic"

	"github.com/mcdissect/mcdissect/analyze"
)

// sinkBatch is how many records cross between the goroutines at once: a
// channel operation per record would cost more than rendering a summary.
const sinkBatch = 64

// sink runs consume on its own goroutine for every record the analyzer
// emits, in order. Its first error (a write error, or ErrStop from -c)
// stops it: later records are only given back, and the analyzer is told
// to stop at its next emit.
type sink struct {
	consume func(*analyze.Record) error
	recycle func([]*analyze.Record)
	batches chan []*analyze.Record
	free    chan []*analyze.Record
	cur     []*analyze.Record
	size    int // records per batch
	stopped atomic.Bool
	done    chan error
}

// newSink starts the sink; size is the batch size (1 for live captures,
// whose output must not wait for 255 more PDUs).
func newSink(size int, consume func(*analyze.Record) error, recycle func([]*analyze.Record)) *sink {
	s := &sink{consume: consume, recycle: recycle, size: size,
		batches: make(chan []*analyze.Record, 4), free: make(chan []*analyze.Record, 6), done: make(chan error, 1)}
	s.cur = make([]*analyze.Record, 0, size)
	go s.run()
	return s
}

func (s *sink) run() {
	var err error
	for b := range s.batches {
		for _, r := range b {
			if err == nil {
				if err = s.consume(r); err != nil {
					s.stopped.Store(true)
				}
			}
		}
		s.recycle(b)
		clear(b)
		select {
		case s.free <- b[:0]:
		default:
		}
	}
	if errors.Is(err, analyze.ErrStop) {
		err = nil
	}
	s.done <- err
}

// emit is the analyzer's callback: it queues r for the sink's goroutine.
func (s *sink) emit(r *analyze.Record) error {
	if s.stopped.Load() {
		return analyze.ErrStop
	}
	s.cur = append(s.cur, r)
	if len(s.cur) >= s.size {
		s.flush()
	}
	return nil
}

func (s *sink) flush() {
	if len(s.cur) == 0 {
		return
	}
	s.batches <- s.cur
	select {
	case b := <-s.free:
		s.cur = b
	default:
		s.cur = make([]*analyze.Record, 0, s.size)
	}
}

// close hands over what is left, waits for the sink to finish, and
// returns its error.
func (s *sink) close() error {
	s.flush()
	close(s.batches)
	return <-s.done
}

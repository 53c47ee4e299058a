package main

import (
	"io"
	"os"
	"sync/atomic"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/render"
)

// sinkBatch is how many records cross between the goroutines at once when
// they carry trees: a channel operation per record would cost more than
// rendering a summary. 128 against 64: -V 1.57 s against 1.72, JSON 1.67
// against 1.78 on the 100 MB capture; 256 crowds the soft memory limit.
const sinkBatch = 128

// liteBatch is the batch size when records carry no trees (-r F, fields).
const liteBatch = 256

// Batch sizes under the shards (analyze.Sink), where no record outlives
// its batch.
const (
	shardLiteBatch = 1024
	shardTreeBatch = 256
)

// sink is the analyzer's emit when a render pool formats the output (-V,
// -x, JSON on more than one core) of a run that filters, counts, saves or
// exports records, all of which must see them in order; other runs have
// the back end's shards format (shardSink). It runs accept on the back end's
// goroutine, in order, as records are emitted, and hands them to the pool
// in batches; the pool's writer gives them back once their bytes are out.
// Its first error (a write error, or ErrStop from -c) stops it: the
// analyzer is told to stop at its next emit.
type sink struct {
	accept  func(*analyze.Record) (bool, error) // in order: is it shown (and stop after it)?
	recycle func([]*analyze.Record)
	free    chan []*analyze.Record
	cur     []*analyze.Record // the batch being filled
	shown   []*analyze.Record // those of cur to show
	size    int               // records per batch
	stopped atomic.Bool       // set by the writer on a write error
	err     error             // accept's first error (the analyzer has it too, from emit)
	rp      *renderPool
	// unflushed: batches went to the pool since the last flushOut
	unflushed bool
}

func newSink(size int, accept func(*analyze.Record) (bool, error), recycle func([]*analyze.Record)) *sink {
	return &sink{accept: accept, recycle: recycle, size: size, free: make(chan []*analyze.Record, 6),
		cur: make([]*analyze.Record, 0, size)}
}

// giveBack returns a batch's records to the analyzer and the batch to
// the free list.
func (s *sink) giveBack(b []*analyze.Record) {
	s.recycle(b)
	clear(b)
	select {
	case s.free <- b[:0]:
	default:
	}
}

// emit is the analyzer's callback: it accepts r and queues it for the pool.
func (s *sink) emit(r *analyze.Record) error {
	if s.err != nil || s.stopped.Load() {
		return analyze.ErrStop
	}
	s.cur = append(s.cur, r)
	show, err := s.accept(r)
	if show {
		s.shown = append(s.shown, r)
	}
	if err != nil {
		s.err = err
	}
	if len(s.cur) >= s.size || err != nil {
		s.flush()
	}
	return err
}

// flushOut is the analyzer's Options.Flush: the records so far go to the
// pool now, and are written out once formatted.
func (s *sink) flushOut() error {
	if s.err != nil || s.stopped.Load() {
		return nil
	}
	if len(s.cur) > 0 || s.unflushed {
		s.rp.submit(s.shown, s.cur, true)
		s.unflushed = false
		s.next()
	}
	return nil
}

func (s *sink) flush() {
	if len(s.cur) == 0 {
		return
	}
	s.rp.submit(s.shown, s.cur, false)
	s.unflushed = true
	s.next()
}

// next gives the sink an empty batch to fill.
func (s *sink) next() {
	s.shown = nil // the pool has it now
	select {
	case b := <-s.free:
		s.cur = b
	default:
		s.cur = make([]*analyze.Record, 0, s.size)
	}
}

// close hands over what is left, waits for the pool to write everything,
// and returns the first write error (accept's errors went back to the
// analyzer through emit).
func (s *sink) close() error {
	s.flush()
	return s.rp.close()
}

// renderPool formats records on several goroutines and writes the bytes in
// order on one more: -V and JSON output cost as much as dissecting, so on
// two cores the formatting must be shared. The sink still does, in order,
// all that must be in order (filters, statistics, -c, -w, exports), on the
// back end's goroutine; only the formatting of each batch is spread.
type renderPool struct {
	w       render.Writer
	shown   int // records submitted so far
	work    chan *renderJob
	ordered chan *renderJob
	bufs    chan []byte // output buffers, reused
	done    chan error
	sink    *sink
	line    bool // -l: write out after every batch
}

// maxRenderBuf bounds the output buffers the pool keeps for reuse.
const maxRenderBuf = 1 << 20

type renderJob struct {
	recs  []*analyze.Record // the records to show, in order
	first bool              // recs[0] is the output's first record
	batch []*analyze.Record // the whole batch, given back after writing
	flush bool              // write the output out after this batch
	out   []byte
	ready chan struct{}
}

func newRenderPool(s *sink, w render.Writer, format string, o render.Options, workers int, line bool) *renderPool {
	p := &renderPool{w: w, sink: s, line: line, work: make(chan *renderJob, 2*workers), ordered: make(chan *renderJob, 2*workers+2),
		bufs: make(chan []byte, 3*workers+4), done: make(chan error, 1)}
	for range workers {
		go p.format(render.NewAppender(format, o))
	}
	go p.write()
	return p
}

func (p *renderPool) submit(recs, batch []*analyze.Record, flush bool) {
	j := &renderJob{recs: recs, first: p.shown == 0, batch: batch, flush: flush || p.line, ready: make(chan struct{})}
	select {
	case j.out = <-p.bufs:
	default:
	}
	p.shown += len(recs)
	p.ordered <- j
	p.work <- j
}

func (p *renderPool) format(a render.Appender) {
	for j := range p.work {
		for i, r := range j.recs {
			j.out = a.Append(j.out, r, j.first && i == 0)
		}
		close(j.ready)
	}
}

func (p *renderPool) write() {
	var err error
	for j := range p.ordered {
		<-j.ready
		if err == nil {
			if err = p.w.Raw(j.out, len(j.recs)); err == nil && j.flush {
				err = p.w.Flush()
			}
			if err != nil {
				p.sink.stopped.Store(true)
			}
		}
		p.sink.giveBack(j.batch)
		if cap(j.out) > maxRenderBuf {
			continue // a batch of huge trees: do not keep its buffer
		}
		select {
		case p.bufs <- j.out[:0]:
		default:
		}
	}
	p.done <- err
}

// close waits for every batch to be written and returns the first write error.
func (p *renderPool) close() error {
	close(p.work)
	close(p.ordered)
	return <-p.done
}

// shardSink is the analyzer's Sink when nothing but -c stands between
// dissecting and output: each of the back end's shards formats with an
// Appender of its own, and the merger writes.
type shardSink struct {
	apps    []render.Appender // one per shard
	w       render.Writer
	vec     *vecWriter // writes past w's buffer, when the output is a file
	started bool       // a record has been written
	json    bool
	line    bool // -l: write out after every write
}

func newShardSink(w render.Writer, out io.Writer, format string, o render.Options, line bool) *shardSink {
	s := &shardSink{w: w, json: format == "json", line: line}
	if f, ok := out.(*os.File); ok {
		s.vec = newVecWriter(f)
	}
	for range 2 {
		s.apps = append(s.apps, render.NewAppender(format, o))
	}
	return s
}

// Format formats r as if it came after another record: which record is the
// output's first is known only when the shards' records are merged.
func (s *shardSink) Format(w int, dst []byte, r *analyze.Record) []byte {
	return s.apps[w].Append(dst, r, false)
}

func (s *shardSink) Write(bufs [][]byte, n int) error {
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
func (s *shardSink) Flush() error { return s.w.Flush() }

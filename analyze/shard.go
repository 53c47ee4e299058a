package analyze

import (
	"context"
	"runtime/pprof"
	"strconv"
	"sync"
)

// A Sink is how records reach the output: the back end accepts each
// record (a display filter, and whatever else must see it), formats it
// and hands the bytes, in record order, to Write (Options.Sink).
//
// With Parallel and without Ordered, the back end is split in two shards,
// each on a goroutine of its own: one decodes Classic (its connections
// share the heartbeat salts, and nothing else), the other everything else
// (the Query tracker, SLP). Each shard accepts and formats the records it
// emits right away, so a record is decoded, formatted and reused on one
// core; a merger interleaves the two shards' bytes in record order.
//
// Handing records to formatting goroutines instead cost -V half again as
// much CPU time as doing everything on one goroutine: the formatting core
// missed its cache on every node the decoding core wrote, and the decoding
// core again when it reused the record.
//
// The output is the same as with one back end: both shards see every job,
// in order, and so keep the same count of records made and the same packet
// clock; a shard only skips decoding the other's jobs. Records that wait
// behind a request awaiting its response (Record.seq, release) are counted
// across both shards.
//
// With Ordered (work that needs every record in order: exports, the page,
// -t dd; statistics and saved frames count on each shard and merge at the
// end, cmd/mcdissect/stats_merge.go) or without Parallel, the back end is one: it accepts
// and formats each record as it is emitted, in order, and writes the
// bytes when they pass oneWriteBytes, at every flush and at the end.
type Sink interface {
	// Accept reports whether r is shown, on shard w (0 or 1): a record
	// not shown is neither formatted, nor written, nor counted (Count).
	// Both shards' calls run at the same time; with Ordered there is one
	// back end and the calls come in record order. An error stops the
	// run after r (ErrStop: without an error).
	Accept(w int, r *Record) (bool, error)
	// Format appends r's output to dst on shard w; the two shards'
	// calls run at the same time.
	Format(w int, dst []byte, r *Record) []byte
	// Write writes the output of n records, in order: the concatenation
	// of bufs. Calls come one at a time.
	Write(bufs [][]byte, n int) error
}

// Flusher is implemented by a Sink (or an emit's owner, Options.Flush)
// that buffers its output: Flush writes out what it holds. The back end
// calls it, in order with the records, when time went by (Analyzer.Flush),
// so that live output does not wait for a buffer to fill.
type Flusher interface{ Flush() error }

// oneWriteBytes: one back end under a Sink writes its output when this
// much is formatted (the shards write a chunk per batch).
const oneWriteBytes = 256 << 10

// oneSink is the emit of a Sink on one back end (Ordered, or no
// Parallel): records are accepted and formatted as they are emitted, in
// order, and written in chunks.
type oneSink struct {
	s     Sink
	count int // stop after this many records shown (0: no limit)
	shown int
	buf   []byte
	n     int // records in buf
	bufs  [1][]byte
}

func (o *oneSink) emit(r *Record) error {
	show, err := o.s.Accept(0, r)
	if show {
		o.buf = o.s.Format(0, o.buf, r)
		o.n++
		o.shown++
		if o.count > 0 && o.shown >= o.count && err == nil {
			err = ErrStop
		}
	}
	if err != nil || len(o.buf) >= oneWriteBytes {
		if werr := o.write(); werr != nil {
			return werr
		}
	}
	return err
}

// write writes what is formatted.
func (o *oneSink) write() error {
	if o.n == 0 {
		return nil
	}
	o.bufs[0] = o.buf
	err := o.s.Write(o.bufs[:], o.n)
	o.bufs[0] = nil
	if cap(o.buf) > maxChunkKeep {
		o.buf = nil
	}
	o.buf, o.n = o.buf[:0], 0
	return err
}

// flush writes what is formatted and has the sink write it out.
func (o *oneSink) flush() error {
	if err := o.write(); err != nil {
		return err
	}
	if f, ok := o.s.(Flusher); ok {
		return f.Flush()
	}
	return nil
}

// classicShard is the shard that decodes Classic connections.
const classicShard = 1

// jobShard is the shard that runs j, a job without a side, or -1 for
// both (a TCP job gets its side's shard with the side: tcpConn.setSide).
func jobShard(j *job) int8 {
	switch j.op {
	case opTick, opFinish, opFlush:
		return -1
	case opUDP:
		return udpProtocols[j.udp].shard
	}
	return 0
}

// protoShard is the shard that decodes a TCP protocol's connections (the
// heartbeat's records say "classic" too: its salts are Classic's).
func protoShard(proto string) int8 {
	if proto == "classic" {
		return classicShard
	}
	return 0
}

// makesRecord reports whether j makes a record.
func makesRecord(o op) bool {
	switch o {
	case opEmit, opTCP, opUDP, opGap:
		return true
	}
	return false
}

// chunk is the output of one shard for one batch: bytes, and where each
// record's ends.
type chunk struct {
	shard int
	buf   []byte
	ends  []recEnd
	// wm: every record of this shard with seq < wm is in this chunk or an
	// earlier one.
	wm    uint64
	done  bool // the shard has finished: no more chunks
	flush bool // the batch asked for the output to be written out (opFlush)
}

type recEnd struct {
	seq uint64
	end int
}

// shard is one half of a split back end.
type shard struct {
	id  int
	be  *backEnd
	in  chan *batch
	cur *chunk
	out chan<- *chunk
	// free chunks, given back by the merger once written
	free chan *chunk
}

// maxChunkKeep bounds the buffer a chunk keeps for reuse: the output of
// maxChunkBytes of ordinary records fits, with the last record's
// overshoot, while a chunk that held a multi-MB record's output gives its
// buffer to the collector.
const maxChunkKeep = 512 << 10

// maxChunkBytes: a shard sends its chunk as soon as the output in it
// passes this, rather than at the end of the batch, so that a chunk holds
// little more than one large record's output (a batch may bring many
// multi-MB records: those of every connection left unfinished at the end).
// The chunks in flight and pooled (some 20) are most of what -V and JSON
// hold beyond the pipeline's own state: at 1 MiB (2 MiB kept) they took
// the real-samples mix's JSON to 110 MB RSS, its heap to the soft memory
// limit and its collector into overtime. At 256 KiB, least CPU of 5
// interleaved runs: real JSON 6.49 -> 5.01 s (RSS 100 MB), -V 5.22 ->
// 4.53 s; slp JSON 1.60 -> 1.49 s; the Query mix's JSON costs some 4 %
// more (more chunks to merge, 2.77 -> 2.94 s).
const maxChunkBytes = 256 << 10

func (s *shard) newChunk() *chunk {
	select {
	case c := <-s.free:
		return c
	default:
		return &chunk{shard: s.id}
	}
}

// emit accepts r and formats it into the current chunk.
func (s *shard) emit(r *Record) error {
	sk := s.be.opts.Sink
	show, err := sk.Accept(s.id, r)
	if !show {
		return err
	}
	c := s.cur
	c.buf = sk.Format(s.id, c.buf, r)
	c.ends = append(c.ends, recEnd{r.seq, len(c.buf)})
	if len(c.buf) >= maxChunkBytes {
		// Records are emitted in order: every record of this shard
		// before r's successor is in this chunk or an earlier one.
		c.wm = r.seq + 1
		s.out <- c
		s.cur = s.newChunk()
	}
	return err
}

// step runs job j of the global job stream: decoded if it is the shard's,
// counted and timed otherwise.
func (s *shard) step(j *job, b *batch) {
	a := s.be
	if w := j.shard; w < 0 || int(w) == s.id {
		a.process(j, b)
		return
	}
	if a.berr != nil {
		return
	}
	if makesRecord(j.op) {
		a.made++
		a.madeBytes += uint64(j.data.n)
	}
	a.clock(j)
	if len(a.held) > 0 {
		a.release(false)
	}
}

// run labels the shard's samples in --cpuprofile (go tool pprof -tags
// shows each shard's share).
func (s *shard) run(p *pipe) {
	pprof.Do(context.Background(), pprof.Labels("shard", strconv.Itoa(s.id)), func(context.Context) { s.run1(p) })
}

func (s *shard) run1(p *pipe) {
	defer p.shards.Done()
	a := s.be
	for b := range s.in {
		s.cur = s.newChunk()
		for i := range b.jobs {
			s.step(&b.jobs[i], b)
		}
		if a.berr != nil {
			p.stop()
		}
		c := s.cur
		c.wm = a.made
		if len(a.held) > 0 {
			c.wm = a.held[0].seq
		}
		s.out <- c
		if b.refs.Add(-1) == 0 {
			b.reset()
			p.recycle(b)
		}
	}
	s.out <- &chunk{shard: s.id, wm: ^uint64(0), done: true}
}

// merger writes the shards' chunks in record order.
type merger struct {
	sink  Sink
	count int // stop after this many records (0: no limit)
	in    chan *chunk
	free  [2]chan *chunk
	q     [2][]*chunk // chunks not yet written through
	pos   [2]int      // the next record of q[i][0]
	wm    [2]uint64
	bufs  [][]byte
	done  []*chunk // written into bufs, to give back after the write
	n     int      // records in bufs
	total int      // records written
	// flushes: each shard's chunks of flushed batches (opFlush) not yet
	// matched by the other's; when both have one, the sink is flushed.
	flushes [2]int
	err     error
	finish  chan struct{}
	stop    func()
}

// maxWriteBufs: bufs are written when there are this many.
const maxWriteBufs = 1024

func (m *merger) run() {
	defer close(m.finish)
	live := 2
	for c := range m.in {
		// c goes back to its shard once written (flush): read it first.
		if c.flush {
			m.flushes[c.shard]++
		}
		if c.done {
			m.wm[c.shard] = c.wm
			live--
		} else {
			m.q[c.shard] = append(m.q[c.shard], c)
			m.wm[c.shard] = c.wm
		}
		m.drain()
		m.flush()
		// Both shards' chunks of a flushed batch are in: everything up
		// to the flush is written.
		if m.flushes[0] > 0 && m.flushes[1] > 0 && m.err == nil {
			m.flushes[0]--
			m.flushes[1]--
			if f, ok := m.sink.(Flusher); ok {
				if err := f.Flush(); err != nil {
					m.err = err
					m.stop()
				}
			}
		}
		if live == 0 {
			return
		}
	}
}

// head is the seq of the next record of shard i, if one is queued.
func (m *merger) head(i int) (uint64, bool) {
	for len(m.q[i]) > 0 {
		c := m.q[i][0]
		if m.pos[i] < len(c.ends) {
			return c.ends[m.pos[i]].seq, true
		}
		m.q[i] = m.q[i][1:]
		m.pos[i] = 0
		m.done = append(m.done, c)
	}
	return 0, false
}

// drain moves every record that is next in order into bufs.
func (m *merger) drain() {
	for m.err == nil {
		h0, ok0 := m.head(0)
		h1, ok1 := m.head(1)
		var i int
		switch {
		case ok0 && ok1:
			if h1 < h0 {
				i = 1
			}
		case ok0 && h0 < m.wm[1]:
			i = 0
		case ok1 && h1 < m.wm[0]:
			i = 1
		default:
			return
		}
		// Take the run of shard i's records that come before the other
		// shard's next one, within this chunk: one buf.
		o := 1 - i
		limit := m.wm[o]
		if h, ok := m.head(o); ok {
			limit = h
		}
		c := m.q[i][0]
		start := 0
		if m.pos[i] > 0 {
			start = c.ends[m.pos[i]-1].end
		}
		k := m.pos[i] + 1 // the head, chosen above as next
		for k < len(c.ends) && c.ends[k].seq < limit {
			if m.count > 0 && m.total+m.n+(k-m.pos[i]) >= m.count {
				break
			}
			k++
		}
		m.bufs = append(m.bufs, c.buf[start:c.ends[k-1].end])
		m.n += k - m.pos[i]
		m.pos[i] = k
		if m.count > 0 && m.total+m.n >= m.count {
			m.flush()
			if m.err == nil {
				m.err = ErrStop
				m.stop()
			}
			return
		}
		if len(m.bufs) >= maxWriteBufs {
			m.flush()
		}
	}
}

// flush writes bufs and gives back the chunks written through.
func (m *merger) flush() {
	if len(m.bufs) > 0 && m.err == nil {
		if err := m.sink.Write(m.bufs, m.n); err != nil {
			m.err = err
			m.stop()
		}
		m.total += m.n
	}
	clear(m.bufs)
	m.bufs, m.n = m.bufs[:0], 0
	for _, c := range m.done {
		m.giveBack(c)
	}
	clear(m.done)
	m.done = m.done[:0]
}

func (m *merger) giveBack(c *chunk) {
	if cap(c.buf) > maxChunkKeep {
		c.buf = nil
	}
	c.buf, c.ends, c.flush = c.buf[:0], c.ends[:0], false
	select {
	case m.free[c.shard] <- c:
	default:
	}
}

// startShards splits the back end in two (see Sink).
func startShards(a *Analyzer, p *pipe) {
	// Classic has no tracker: the second shard's are never fed.
	other := &backEnd{opts: &a.opts, trackers: newTrackers(a.opts.Later), borrow: a.borrow}
	a.other = other
	other.big = make(chan *Record, maxBigRecords)
	m := &merger{sink: a.opts.Sink, count: a.opts.Count, in: make(chan *chunk, 8), finish: make(chan struct{}),
		stop: p.stop}
	p.merger = m
	for i, be := range []*backEnd{a.backEnd, other} {
		s := &shard{id: i, be: be, in: make(chan *batch, 4), out: m.in, free: make(chan *chunk, 16)}
		m.free[i] = s.free
		be.emit = s.emit
		be.flush = func() error { s.cur.flush = true; return nil }
		p.shardIn = append(p.shardIn, s.in)
		p.shards.Add(1)
		go s.run(p)
	}
	go m.run()
}

// shardsWait is what pipe.wait adds under a Sink.
type shardsWait struct {
	shards  sync.WaitGroup
	shardIn []chan *batch
	merger  *merger
}

package analyze

import (
	"fmt"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
)

// The analyzer has two halves. The front end reads packets, decodes the
// link and IP layers, reassembles and frames TCP streams and routes
// datagrams: it turns packets into jobs. The back end decodes PDUs, runs
// the conversation trackers, holds records back while a request awaits its
// response, and emits them. With Options.Parallel each half has its own
// goroutine and jobs cross in batches, in order; otherwise the back end
// runs each job as soon as it is made. Either way the back end sees the
// same jobs in the same order, so the output is the same.
//
// The halves share no mutable state. A TCP connection has two instances
// of its protocol's state: the front frames with one, the back decodes
// with the other, and what framing learns that decoding needs (a gap) is
// passed on as a job.

// op is what the back end is to do with a job.
type op uint8

const (
	opEmit   op = iota // make the record (undissected bytes, a gap...), hold and emit it
	opTCP              // make the record, decode its PDU with dec, hold and emit it
	opUDP              // make the record, decode a datagram of udpProtocols[udp] and track it, hold and emit it
	opGap              // tell dec of a gap in dir, then make, hold and emit the gap record
	opClose            // dec's connection ended: let go of its waiting requests
	opTick             // a second of packet time went by: expire the trackers
	opFinish           // the input ended: close the trackers, emit everything
	opFlush            // time went by (Analyzer.Flush): expire the trackers, release what may go, write the output out
)

// job is what the back end is to do; for the ops that make a record, it
// carries the record's fields, its bytes and frame list being in the
// batch's arenas. The front end never touches a record: records live on
// the back end, so no goroutine takes a cache miss on a record another
// core just wrote. Jobs cross between cores by the million: what every
// record of a connection's direction shares is in its side, made once,
// and a job stays about two cache lines.
type job struct {
	op     op
	kind   Kind
	dir    dissect.Dir
	udp    uint8 // a datagram's protocol: its index in udpProtocols, or udpNone
	shard  int8  // under a Sink, the shard that decodes it, -1 for both (jobShard)
	wire   int32 // a datagram's length on the wire
	frame  uint64
	time   time.Time
	rel    time.Duration
	now    time.Time // the front end's packet time when the job was made
	key    uint64    // its place in the output: its frame, non-decreasing per TCP direction (reorder.go)
	gapLen int       // KindGap: the missing bytes; KindNote: the note's kind (noteKinds)
	off    int64     // the bytes' stream offset (TCP)
	data   span      // in the batch's arenas
	parts  span
	side   *side // TCP: the connection's direction; nil for a datagram (so it says which transport)
	addrs  int32 // a datagram's source and destination in the batch's addrs
	reason string
	lay    Layers // the headers of the frame that completed it, if known (layers.go)
}

// side is what all the records of one direction of a TCP connection
// share. Once a job points to it, it never changes: when the connection's
// protocol is decided, new sides are made.
type side struct {
	src, dst       netip.AddrPort
	stream         int
	proto          string
	shard          int8       // under a Sink, the shard that decodes its jobs (protoShard)
	dec            streamConn // the back end's decoder, nil when no protocol claimed the stream
	client, server string     // the conversation's keys, for the trackers
}

// span is a range of one of a batch's arenas.
type span struct{ off, n int32 }

// batch is jobs and the bytes, frame lists and datagram addresses of
// their records.
type batch struct {
	refs  atomic.Int32 // under a Sink, the shards yet to finish it
	jobs  []job
	data  []byte
	parts []Part
	addrs []netip.AddrPort
}

// maxBatchBytes: a batch is sent early when its records' bytes pass this,
// and a batch whose arena grew past it does not keep it (a few large PDUs
// must not keep megabytes per batch alive).
const maxBatchBytes = 1 << 20

func (b *batch) reset() {
	clear(b.jobs) // let go of decoders and strings
	b.jobs = b.jobs[:0]
	b.data = b.data[:0]
	if cap(b.data) > maxBatchBytes {
		b.data = nil
	}
	b.parts = b.parts[:0]
	b.addrs = b.addrs[:0]
}

// gapper is implemented by decoders that must know where a direction lost
// bytes (a Classic level interrupted by a gap is not inflated).
type gapper interface{ Gap(dissect.Dir) }

// closer is implemented by decoders that hold requests awaiting responses.
type closer interface{ Close() }

// submit hands a job without a record to the back end.
func (a *Analyzer) submit(j job) {
	*a.newJob() = j
	a.commit(nil)
}

// newJob is the front end's next job, zeroed, in the current batch: it is
// filled in place, then committed.
func (a *Analyzer) newJob() *job {
	b := a.curBatch()
	b.jobs = append(b.jobs, job{})
	return &b.jobs[len(b.jobs)-1]
}

// curBatch is the batch newJob fills.
func (a *Analyzer) curBatch() *batch {
	if a.pp != nil {
		return a.pp.cur
	}
	return a.one
}

// addParts appends a record's frame list to the current batch for j.
func (a *Analyzer) addParts(j *job, parts []Part) {
	b := a.curBatch()
	j.parts = span{int32(len(b.parts)), int32(len(parts))}
	b.parts = append(b.parts, parts...)
}

// since is t.Sub(first) without Sub's overflow check (an Add and an Equal,
// once per record) when the two are less than 280 years apart, as
// capture times are; otherwise it is Sub, which saturates.
func since(t, first time.Time) time.Duration {
	if d := t.Unix() - first.Unix(); d > -280*365*86400 && d < 280*365*86400 {
		return time.Duration(d)*time.Second + time.Duration(t.Nanosecond()-first.Nanosecond())
	}
	return t.Sub(first)
}

// commit hands the job newJob gave to the back end, with the bytes of the
// record it makes, copied: the reader and the reassembler reuse theirs.
func (a *Analyzer) commit(data []byte) {
	b := a.curBatch()
	j := &b.jobs[len(b.jobs)-1]
	j.now = a.now
	j.rel = since(j.time, a.first)
	if j.side == nil { // a TCP job's shard is set with its side (setSide)
		j.shard = jobShard(j)
	} else if checkShards && j.shard != j.side.shard {
		panic("analyze: a job's shard is not its side's")
	}
	a.keyOf(j)
	if a.pp != nil {
		a.pp.commit(j, b, data) // reorder.go
		return
	}
	if s := &a.stage; (j.key > s.watermark() || s.waiting() > 0 && s.jobs[s.head].key <= j.key) && j.op != opFlush && j.op != opFinish {
		s.hold(j, b, data) // it waits for earlier frames' records (reorder.go)
		if s.waiting() > a.opts.MaxHeld*stageJobs || s.bytes > maxStageBytes {
			a.release(false) // the oldest go on
		}
		return
	}
	a.pass(j, b, data)
}

// checkShards, set by tests only, has commit check every TCP job's shard
// against its side's.
var checkShards bool

// record makes the record a job describes, on the back end.
func (a *backEnd) record(j *job, b *batch) *Record {
	var r *Record
	if j.op == opUDP && j.dir == dissect.DirS2C && !a.opts.Lite {
		if big := udpProtocols[j.udp].bigResponse; big > 0 && int(j.data.n) > big {
			r = a.bigRecord() // most likely a Query full stat
		}
	}
	if r == nil {
		r = a.newRecord()
	}
	r.seq, r.bytesBefore = a.made, a.madeBytes
	a.made++
	a.madeBytes += uint64(j.data.n)
	r.Kind, r.Frame, r.Time, r.Rel = j.kind, j.frame, j.time, j.rel
	r.TCP, r.GapLength, r.Reason = j.side != nil, j.gapLen, j.reason
	r.Layers = j.lay
	if s := j.side; s != nil {
		r.Src, r.Dst, r.Stream, r.Proto, r.udp, r.dec = s.src, s.dst, s.stream, s.proto, -1, s.dec
	} else {
		r.Src, r.Dst, r.Stream, r.Proto, r.udp, r.dec = b.addrs[j.addrs], b.addrs[j.addrs+1], -1, datagramProto(j.udp), -1, nil
		if j.udp != udpNone {
			r.udp = int8(j.udp)
		}
	}
	r.Parts = append(r.Parts, b.parts[j.parts.off:j.parts.off+j.parts.n]...)
	data := b.data[j.data.off : j.data.off+j.data.n]
	if a.borrow {
		r.borrow(data)
	} else {
		r.setData(data)
	}
	r.PDU.Lite, r.PDU.Export = a.opts.Lite, a.opts.Export
	return r
}

// clock moves the back end's packet time to j's: a record's frame time,
// as the back end sees records in frame order; the front end's time for
// the jobs made at the frame being read (a tick, a close, a flush, whose
// time an idle live input moves on). A record made late for an earlier
// frame (a gap given up, bytes left at a close) keeps its frame's time:
// the front end's time when it was made, seconds on, moved the clock past
// the frames still to come behind it, and a Query request whose response
// was among them was given up, the response called unsolicited.
func (a *backEnd) clock(j *job) {
	t := j.now
	if makesRecord(j.op) {
		t = j.time
	}
	if t.After(a.bnow) {
		a.bnow = t
	}
}

// process runs one job on the back end; b holds its record's bytes.
func (a *backEnd) process(j *job, b *batch) {
	if a.berr != nil {
		return
	}
	a.clock(j)
	var r *Record
	if makesRecord(j.op) {
		r = a.record(j, b)
	}
	switch j.op {
	case opGap, opEmit, opTCP, opUDP:
		a.decode(j, r)
	case opClose:
		if c, ok := j.side.dec.(closer); ok {
			a.safely(c.Close)
		}
	case opTick:
		a.safely(a.expire)
	case opFlush:
		a.safely(a.expire)
		a.release(false)
		a.flushOut()
		return
	case opFinish:
		for _, t := range a.trackers {
			if t != nil {
				a.safely(t.Close)
			}
		}
		a.release(true)
		if a.single != nil && a.berr == nil {
			if err := a.single.write(); err != nil {
				a.berr = err
			}
		}
		return
	}
	if r != nil {
		a.held = append(a.held, r)
	}
	a.release(false)
}

// decode runs the decoding of j's record r: the protocol's decoder, its
// tracker, the records of undissected bytes and gaps. It is the back
// end's one panic boundary, on every path (one goroutine, Parallel, the
// shards all call process): a panic in a decoder becomes a malformed
// record naming the frame, the protocol and the panic, and the run goes on
// with the next job.
func (a *backEnd) decode(j *job, r *Record) {
	defer func() {
		if v := recover(); v != nil {
			a.panics++
			panicPDU(&r.PDU, r.Proto, j.dir, r.data, r.Frame, v)
		}
	}()
	if testPanic != nil {
		testPanic(r)
	}
	switch j.op {
	case opGap:
		if g, ok := j.side.dec.(gapper); ok {
			g.Gap(j.dir)
		}
		fallthrough
	case opEmit:
		switch r.Kind {
		case KindConflict:
			conflictPDU(&r.PDU, r.Proto, j.dir, r.data, j.off)
		case KindGap:
			gapPDU(&r.PDU, r.Proto, j.dir, j.gapLen, j.off, j.reason)
		case KindNote:
			notePDU(&r.PDU, r.Proto, j.dir, j.gapLen, j.reason)
		default:
			undissectedPDU(&r.PDU, r.Proto, j.dir, r.data, j.off, r.Reason)
		}
	case opTCP:
		r.PDU.Dir = j.dir
		s := j.side
		m := dissect.Meta{Frame: r.Frame, Time: r.Time, Client: s.client, Server: s.server, Dir: j.dir}
		if cd, ok := s.dec.(cutDecoder); ok && int(j.wire) > len(r.data) {
			cd.DecodeCut(&r.PDU, r.data, int(j.wire), m) // a PDU cut by the end or a gap (tcp.go)
		} else {
			s.dec.Decode(&r.PDU, r.data, m)
		}
		r.PDU.Dir = j.dir
	case opUDP:
		udpProtocols[j.udp].decode(&r.PDU, r.data, int(j.wire), j.dir)
		t := a.trackers[j.udp]
		if r.PDU.Lite || t == nil {
			break // the tracker adds to trees only; not even its keys are needed
		}
		client, server := r.Src, r.Dst
		if r.PDU.Dir == dissect.DirS2C {
			client, server = r.Dst, r.Src
		}
		t.Observe(dissect.Meta{Frame: r.Frame, Time: r.Time, Client: a.keys.of(client), Server: a.keys.of(server), Dir: r.PDU.Dir}, &r.PDU)
	}
	r.PDU.SettleLite()
}

// safely runs housekeeping of decoders and trackers that makes no record
// (a connection's close, the expiry of requests) behind the same boundary:
// a panic there is counted in Stats.Panics, which the CLI reports.
func (a *backEnd) safely(f func()) {
	defer func() {
		if v := recover(); v != nil {
			a.panics++
		}
	}()
	f()
}

// testPanic, set by tests only, runs before each record's decoding, on the
// back end, inside the panic boundary.
var testPanic func(*Record)

// panicPDU makes p, whose decoding panicked with v, a malformed PDU: its
// bytes undissected, an error expert item naming the frame, the protocol
// and the panic.
func panicPDU(p *dissect.PDU, proto string, dir dissect.Dir, data []byte, frame uint64, v any) {
	msg := fmt.Sprint(v)
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	if proto == "" {
		proto = "tcp"
	}
	c := dissect.Begin(p, rootField(proto), data, len(data))
	i := c.Field(dissect.FieldUndissected, len(data), dissect.B(data))
	if i < 0 {
		i = 0
	}
	p.AddExpert(i, ExpertPanic, "frame "+strconv.FormatUint(frame, 10)+": the "+proto+" decoder panicked ("+msg+"); its "+itoa(len(data))+" bytes are shown undissected")
	c.Finish()
	if i > 0 {
		p.Nodes[i].Flags |= dissect.FlagMalformed
	}
	p.Dir, p.Pending = dir, false
	p.Message = "Malformed"
	p.Info = "[Malformed PDU: the " + proto + " decoder panicked: " + msg + "]"
}

// pipe carries jobs from the front end's goroutine to the back end's.
type pipe struct {
	a       *Analyzer
	cur     *batch
	batches chan *batch
	free    chan *batch
	done    chan struct{}
	stopped atomic.Bool   // the back end's emit failed: the front end stops reading
	stopc   chan struct{} // closed when stopped is set (Analyzer.Done)
	once    sync.Once
	shardsWait
	// The batches made but not sent, cur the last of them, wait for the
	// watermark (reorder.go): pending are full, in order.
	pending     []*batch
	unsent      int    // jobs in pending and cur
	unsentBytes int    // their bytes
	lastKey     uint64 // the last job's key, the highest
}

// stop tells the front end that the back end has stopped (an emit error,
// or -c reached).
func (p *pipe) stop() {
	p.stopped.Store(true)
	p.once.Do(func() { close(p.stopc) })
}

func startPipe(a *Analyzer) *pipe {
	// Batches waiting for the watermark (reorder.go) are reused too: some
	// 2000 jobs wait on a busy capture, and up to the stage's bound
	// (MaxHeld*stageJobs) behind a connection that holds it back. A batch
	// the free list had no room for was dropped, and made anew later with
	// arenas grown again from nothing: on the query mix (the bound reached
	// behind TCP connections while datagrams flow) 15 batches a run, in
	// fresh memory, which the kernel hands over page by page; keeping them
	// all cut that run's page faults from 11,900 to 10,900 (project and
	// classic-big 7-10 % too) and its peak RSS from 55 to 47 MB.
	spare := 6 + min(64, a.opts.MaxHeld*stageJobs/a.opts.Batch)
	p := &pipe{a: a, batches: make(chan *batch, 4), free: make(chan *batch, spare), done: make(chan struct{}), stopc: make(chan struct{})}
	p.cur = &batch{jobs: make([]job, 0, a.opts.Batch)}
	if a.opts.Sink != nil && !a.opts.Ordered {
		startShards(a, p)
		return p
	}
	go p.run()
	return p
}

func (p *pipe) run() {
	defer close(p.done)
	for b := range p.batches {
		for i := range b.jobs {
			p.a.process(&b.jobs[i], b)
		}
		if p.a.berr != nil {
			p.stop()
		}
		b.reset()
		p.recycle(b)
	}
}

// recycle offers a finished batch back to the front end.
func (p *pipe) recycle(b *batch) {
	select {
	case p.free <- b:
	default:
	}
}

// send sends cur, and all that waits before it, and starts another.
func (p *pipe) send() {
	p.releasePending(true)
	if len(p.cur.jobs) == 0 {
		return
	}
	p.sendBatch(p.cur)
	p.cur = p.newBatch()
}

// sendBatch hands b to the back end.
func (p *pipe) sendBatch(b *batch) {
	p.unsent -= len(b.jobs)
	p.unsentBytes -= len(b.data)
	if p.merger != nil {
		b.refs.Store(int32(len(p.shardIn)))
		for _, in := range p.shardIn {
			in <- b
		}
	} else {
		p.batches <- b
	}
}

// newBatch is an empty batch, one the back end is done with if it can.
func (p *pipe) newBatch() *batch {
	select {
	case b := <-p.free:
		return b
	default:
		return &batch{jobs: make([]job, 0, p.a.opts.Batch)}
	}
}

// wait sends what is left and waits for the back end to finish it.
func (p *pipe) wait() {
	p.send()
	if p.merger != nil {
		for _, in := range p.shardIn {
			close(in)
		}
		p.shards.Wait()
		<-p.merger.finish
		return
	}
	close(p.batches)
	<-p.done
}

// failed is the back end's error as the front end may see it: with a
// goroutine per half, only that there was one (Finish returns it).
func (a *Analyzer) failed() error {
	if a.pp == nil {
		return a.berr
	}
	if a.pp.stopped.Load() {
		return ErrStop
	}
	return nil
}

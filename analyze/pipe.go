package analyze

import (
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcdissect/mcdissect/budget"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"
)

// op is what the back end is to do with a job.
type op uint8

const (
	opEmit   op = iota // make the record (undissected bytes, a gap...), hold and emit it
	opTCP              // make the record, decode its PDU with dec, hold and emit it
	opUDP              // make the record, decode a datagram of udpProtos[udp] and track it, hold and emit it
	opGap              // tell dec of a gap in dir, then make, hold and emit the gap record
	opClose            // dec's connection ended (how: closeEnd): let go of its waiting requests
	opTick             // a second of packet time went by: expire the trackers
	opFinish           // the input ended: close the trackers, emit everything
	opFlush            // time went by (Analyzer.Flush): expire the trackers, release what may go, flush the sink
	opICMP             // make the record of an ICMP error, end the request it answers (icmp.go), hold and emit it
)

// makesRecord reports whether a job of op o makes a record.
func makesRecord(o op) bool {
	switch o {
	case opEmit, opTCP, opUDP, opGap, opICMP:
		return true
	}
	return false
}

// job is what the back end is to do; for the ops that make a record, it
// carries the record's fields, its bytes and frame list being in the
// batch's arenas. The front end never touches a record: records live on
// the back end. What every record of a connection's direction shares is in
// its side, made once, so that a job stays about two cache lines.
type job struct {
	op     op
	kind   record.Kind
	dir    dissect.Dir
	udp    uint8 // a datagram's protocol: its index in udpProtos, or udpNone
	wire   int32 // a datagram's length on the wire, or a cut PDU's (opTCP)
	frame  uint64
	time   time.Time
	rel    time.Duration
	now    time.Time // the front end's packet time when the job was made
	gapLen int       // KindGap: the missing bytes; KindNote: the note's kind (noteKinds)
	off    int64     // the bytes' stream offset (TCP)
	data   span      // in the batch's arenas
	parts  span
	side   *side // TCP: the connection's direction; nil for a datagram
	addrs  int32 // a datagram's source and destination in the batch's addrs
	reason string
	head   int32 // the head of the frame that decided it, in the batch's heads, or -1
	// proto is the mc.protocol of a record without a side that is no
	// datagram's (the watch's TCP records, ICMP); out is the outcome or
	// the link such a record carries (watch.go, icmp.go).
	proto string
	out   decided
}

// decided is what a record about a request's end carries: the frame it
// links to (the outcome's frame, or the request's), the time between, the
// outcome and who decided it.
type decided struct {
	frame   uint64
	dt      time.Duration
	outcome dissect.Outcome
	by      dissect.Dir
}

// side is what all the records of one direction of a TCP connection
// share. Once a job points to it, it never changes: when the connection's
// protocol is decided, new sides are made.
type side struct {
	src, dst       netip.AddrPort
	stream         int
	proto          string
	dec            protocols.Conn // the back end's decoder, nil when no protocol claimed the stream
	client, server string         // the conversation's keys, for the trackers
}

// span is a range of one of a batch's arenas.
type span struct{ off, n int32 }

// batch is jobs and the bytes, frame lists and datagram addresses of
// their records, as they cross from the front end to the back end.
type batch struct {
	// The back end's cap in the budget while it runs the batch, and
	// whether the front end was refused a charge since the last batch
	// (pipe.divide).
	backCap      int64
	frontRefused bool

	jobs  []job
	data  []byte
	parts []record.Part
	addrs []netip.AddrPort
	heads []head // the frames' headers the jobs' records show (addHead)
}

// maxBatchBytes: a batch is sent early when its records' bytes pass this,
// so its arena ends a little past it (the last PDU may be large). A batch
// keeps an arena of up to twice this for the next one; a larger one, grown
// by a few large PDUs, is let go (it must not keep megabytes per batch
// alive). Some fourteen batches are in flight or spare (the queue, the
// free list, the two ends): small arenas stay within the caches, and
// every byte of arena is memory the kernel clears on first touch.
const maxBatchBytes = 256 << 10

// arenaBytes is the arena a batch is made with: maxBatchBytes and the
// part of a PDU that usually ends past it.
const arenaBytes = maxBatchBytes + maxBatchBytes/4

// Jobs per batch: large, for fewer wake-ups of the back end; records with
// trees make more output per job. The records a batch's jobs release are
// handed to the output stage at its end (out.go).
const (
	liteBatch = 1024
	treeBatch = 256
)

// newBatch makes a batch of size jobs, with its arena at arenaBytes:
// grown by append from nothing, it would be copied and cleared at every
// step, each time in memory new to the process.
func newBatch(size int) *batch {
	return &batch{jobs: make([]job, 0, size), data: make([]byte, 0, arenaBytes)}
}

func (b *batch) reset() {
	clear(b.jobs) // let go of decoders and strings
	b.jobs = b.jobs[:0]
	b.data = b.data[:0]
	if cap(b.data) > 2*maxBatchBytes {
		b.data = make([]byte, 0, arenaBytes)
	}
	b.parts = b.parts[:0]
	b.addrs = b.addrs[:0]
	b.heads = b.heads[:0]
}

// pipe carries batches of jobs from the front end's goroutine to the back
// end's, in order.
type pipe struct {
	cur     *batch
	size    int // jobs per batch
	batches chan *batch
	free    chan *batch
	done    chan struct{} // closed when the back end has returned
	stopped atomic.Bool   // the back end failed or was told to stop: the front end stops reading
	stopc   chan struct{} // closed when stopped is set (Analyzer.Done)
	once    sync.Once

	// The budget's stages: each end charges its own, within a cap set at
	// points of its own work that are the same on every run (divide,
	// took), so that what a full budget makes either end give up depends
	// on the input alone, not on how far the other has got.
	front, back *budget.Budget
	limit       int64
	sent        uint64              // batches the front end has sent
	stamps      [stampRing]endStamp // the back end's, by batch number
	backCaps    [stampRing]int64    // the back end's cap in each batch, by number
}

// endStamp is what the back end's stage held when it finished a batch,
// and whether it was refused a charge in it.
type endStamp struct {
	held    atomic.Int64
	refused atomic.Bool
}

// stampRing holds the back end's stamps and caps of the batches the
// front end may still read; stampLag is how many batches behind the one
// it sends the front end reads: the batch queue holds 4, so when the
// front end has sent batch k-1, the back end has taken batch k-5 and
// finished k-6, and works on one of k-5 to k until k is sent.
const (
	batchQueue = 4
	stampLag   = batchQueue + 2
	stampRing  = 8
)

// spareBatches is how many batches the back end hands back for reuse.
const spareBatches = 8

func newPipe(size int, b *budget.Budget) *pipe {
	return &pipe{
		front:   b.Stage(),
		back:    b.Stage(),
		limit:   b.Limit(),
		cur:     newBatch(size),
		size:    size,
		batches: make(chan *batch, batchQueue),
		free:    make(chan *batch, spareBatches),
		done:    make(chan struct{}),
		stopc:   make(chan struct{}),
	}
}

// stop tells the front end that the back end has stopped.
func (p *pipe) stop() {
	p.stopped.Store(true)
	p.once.Do(func() { close(p.stopc) })
}

// send hands the current batch, if it holds a job, to the back end and
// starts another.
func (p *pipe) send() {
	if len(p.cur.jobs) == 0 {
		return
	}
	p.divide()
	p.batches <- p.cur
	select {
	case b := <-p.free:
		p.cur = b
	default:
		p.cur = newBatch(p.size)
	}
	p.sent++
}

// divide shares the budget's limit between the two ends for the batch
// about to be sent, k: the back end may hold what it held at the end of
// batch k-6 (the last the front end knows of) and half of what neither
// end held then; the front end the rest of the limit less the largest
// cap of the batches the back end may still be working on (k-5 to k), so
// that the two never hold more than the limit. A refusal of either end is
// passed on to the other, whose accounts past their share then shed.
func (p *pipe) divide() {
	k := p.sent
	var backHeld int64
	if k >= stampLag {
		s := &p.stamps[(k-stampLag)%stampRing]
		backHeld = s.held.Load()
		if s.refused.Load() {
			p.front.Press()
		}
	}
	frontHeld := p.front.Held()
	back := min(backHeld+max(p.limit-frontHeld-backHeld, 0)/2, p.limit-frontHeld)
	p.backCaps[k%stampRing] = back
	most := back
	for j := max(k, stampLag-1) - (stampLag - 1); j < k; j++ {
		most = max(most, p.backCaps[j%stampRing])
	}
	p.front.Cap(p.limit - most)
	p.cur.backCap, p.cur.frontRefused = back, p.front.Refused()
}

// took is the back end's side of divide: at the start of batch b, it
// takes the cap the front end gave it; at its end (finished), it leaves a
// stamp for the front end.
func (p *pipe) took(b *batch) {
	p.back.Cap(b.backCap)
	if b.frontRefused {
		p.back.Press()
	}
}

// finished stamps the back end's n-th batch.
func (p *pipe) finished(n uint64) {
	s := &p.stamps[n%stampRing]
	s.held.Store(p.back.Held())
	s.refused.Store(p.back.Refused())
}

// recycle offers a finished batch back to the front end.
func (p *pipe) recycle(b *batch) {
	b.reset()
	select {
	case p.free <- b:
	default:
	}
}

// close sends what is left and waits for the back end to finish it.
func (p *pipe) close() {
	p.send()
	close(p.batches)
	<-p.done
}

// submit hands a job without a record to the back end.
func (a *Analyzer) submit(j job) {
	j.head = -1
	*a.newJob() = j
	a.commit(nil)
}

// newJob is the front end's next job, zeroed, in the current batch: it is
// filled in place, then committed.
func (a *Analyzer) newJob() *job {
	b := a.pp.cur
	b.jobs = append(b.jobs, job{head: -1})
	return &b.jobs[len(b.jobs)-1]
}

// addParts appends a record's frame list to the current batch for j.
func (a *Analyzer) addParts(j *job, parts []record.Part) {
	b := a.pp.cur
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

// commit completes the job newJob gave, with the bytes of the record it
// makes, copied: the reader and the reassembler reuse theirs. A batch goes
// to the back end when it is full.
func (a *Analyzer) commit(data []byte) {
	b := a.pp.cur
	j := &b.jobs[len(b.jobs)-1]
	j.now = a.now
	j.rel = since(j.time, a.first)
	j.data = span{int32(len(b.data)), int32(len(data))}
	b.data = append(b.data, data...)
	if len(b.jobs) >= a.pp.size || len(b.data) >= maxBatchBytes {
		a.pp.send()
	}
}

package analyze

import (
	"container/heap"
	"net/netip"
	"time"
)

// Records come out in frame order. Most jobs are made at the frame being
// read, but some bytes' fate is decided later: a partial PDU that a gap,
// the connection's close or a resynchronisation turns into undissected
// bytes is reported at the newest frame that carried it, a hole given up
// at the frame after it, a connection's first units once its protocol is
// known. Their records would come out after those of later frames.
//
// So the front end's last stage, before the back end, holds jobs back: a
// TCP connection that holds bytes (in the reassembler, or records waiting
// for its protocol to be named: tcpConn.deferred) says from which frame
// (reassembly.Holder); the oldest such frame over all connections is the
// watermark. A job whose key (its frame) is past the watermark waits in
// the stage, sorted stably by key; it goes on when the watermark passes
// it. The back end, the shards and the merger see jobs in frame order and
// are unchanged.
//
// The wait is bounded: past stageJobs*Options.MaxHeld jobs, maxStageBytes
// of their bytes, or stageWindow of packet time since the oldest
// waiting job was made (pipe.old), the oldest go on anyway. Only then can a record
// come out after one of a later frame (stage.forced counts the jobs that
// went early; the tests hold it to 0 on every sample). A bound is reached
// where a frame is held for seconds of a busy capture: on bench/realmix's
// 100 MB capture, 145,000 of about a million jobs go early, behind tail
// holes without a FIN, which wait for GapTimeout or the close (reassembly's
// bareTail), and a mid-stream connection whose protocol stays undecided
// for 4 s. The bounds are
// checked job by job without Parallel and batch by batch with it, so
// where one is reached the two can differ in which records go early. Flush (live input)
// sends what the watermark passed and what waited past the window, then
// flushes at once: output never waits longer than the window.
//
// Without Parallel, waiting jobs are copied into the stage's own slices
// (stage.hold) and back into the batch when they go. With Parallel, jobs
// wait in the batches they were made in (pipe.commit): a batch is sent
// once the watermark passed its last job, and only a job that comes after
// one of a later frame is moved (placeLate), so that the common case costs
// no copy.
//
// A job's key is its frame, made non-decreasing per direction of a TCP
// connection (tcpConn.key): a decoder sees each direction's units in
// stream order, as before. Jobs without a frame (a tick of the clock, a
// connection's close) take the frame being read.

// maxStageBytes bounds the bytes of the jobs waiting in the stage.
const maxStageBytes = 8 << 20

// stageJobs is how many more jobs the stage may hold than the back end
// records (Options.MaxHeld): a job is small, and on a busy capture (the
// project mix, 6500 frames a second over thousands of connections) the
// watermark lags some 1500 frames, 2000 jobs, behind the frame being
// read, up to 7000 now and then: partial PDUs waiting for their next
// segment.
const stageJobs = 16

// stage is the reorder stage: the jobs waiting, sorted by key from head
// on, with their bytes, frame lists and addresses in arenas of its own.
type stage struct {
	jobs  []job
	head  int
	data  []byte
	parts []Part
	addrs []netip.AddrPort
	bytes int // bytes of the waiting jobs

	spare struct {
		data  []byte
		parts []Part
		addrs []netip.AddrPort
	} // compact's other arenas

	held   heldConns // the TCP connections that hold the watermark back
	forced uint64    // jobs passed on ahead of the watermark (a bound)
	last   uint64    // the highest key passed on
}

// waiting is the number of jobs in the stage.
func (s *stage) waiting() int { return len(s.jobs) - s.head }

// watermark is the oldest frame a record still to come may be at, or
// ^0 when nothing holds it back.
func (s *stage) watermark() uint64 {
	if len(s.held.h) == 0 {
		return ^uint64(0)
	}
	return s.held.h[0].holdFrom
}

// keyOf fills in j.key for jobs made without one.
func (a *Analyzer) keyOf(j *job) {
	if j.key == 0 {
		j.key = j.frame
		if j.key == 0 {
			j.key = a.frame
		}
	}
}

// usesAddrs tells whether j's record takes its addresses from the batch.
func usesAddrs(j *job) bool { return j.side == nil && makesRecord(j.op) }

// hold moves j, the last job of b, with its bytes data, into the stage.
// Its frame list and addresses, the last ones of b, leave b.
func (s *stage) hold(j *job, b *batch, data []byte) {
	h := *j
	h.data = span{int32(len(s.data)), int32(len(data))}
	s.data = append(s.data, data...)
	h.parts = span{int32(len(s.parts)), j.parts.n}
	if j.parts.n > 0 {
		s.parts = append(s.parts, b.parts[j.parts.off:j.parts.off+j.parts.n]...)
		b.parts = b.parts[:j.parts.off]
	}
	if usesAddrs(j) {
		h.addrs = int32(len(s.addrs))
		s.addrs = append(s.addrs, b.addrs[j.addrs], b.addrs[j.addrs+1])
		b.addrs = b.addrs[:j.addrs]
	}
	*j = job{}
	b.jobs = b.jobs[:len(b.jobs)-1]
	s.bytes += len(data)
	// Insert in key order, after the jobs of the same key: nearly always
	// at the end, or a few places from it.
	s.jobs = append(s.jobs, h)
	for i := len(s.jobs) - 1; i > s.head && s.jobs[i-1].key > h.key; i-- {
		s.jobs[i-1], s.jobs[i] = s.jobs[i], s.jobs[i-1]
	}
}

// pass hands j, the last job of b made with the bytes data, to the back
// end, as commit always did.
func (a *Analyzer) pass(j *job, b *batch, data []byte) {
	if j.key > a.stage.last {
		a.stage.last = j.key
	}
	j.data = span{int32(len(b.data)), int32(len(data))}
	b.data = append(b.data, data...)
	if a.pp == nil {
		a.process(j, b)
		b.reset()
		return
	}
	if len(b.jobs) >= a.opts.Batch || len(b.data) >= maxBatchBytes {
		a.pp.send()
	}
}

// release passes on the waiting jobs the watermark has passed, and those a
// bound lets wait no longer; all of them when all is set (the input ended).
func (a *Analyzer) release(all bool) {
	if a.pp != nil {
		a.pp.releasePending(all)
		return
	}
	s := &a.stage
	if s.waiting() == 0 {
		return
	}
	w := s.watermark()
	var old time.Time
	if !all && !a.now.IsZero() {
		old = a.now.Add(-a.stageWindow)
	}
	for s.head < len(s.jobs) {
		h := &s.jobs[s.head]
		if !all && h.key > w {
			if s.waiting() <= a.opts.MaxHeld*stageJobs && s.bytes <= maxStageBytes && !h.now.Before(old) {
				break
			}
			s.forced++
		}
		a.unstage(h)
	}
	switch {
	case s.head == len(s.jobs):
		clear(s.jobs)
		s.jobs, s.head = s.jobs[:0], 0
		s.data, s.parts, s.addrs, s.bytes = s.data[:0], s.parts[:0], s.addrs[:0], 0
		if cap(s.data) > maxStageBytes {
			s.data = nil
		}
	case s.head >= 64 && s.head*2 >= len(s.jobs):
		s.compact()
	}
}

// compact moves the waiting jobs to the front of the stage, and their
// bytes, frame lists and addresses into the spare arenas, which are
// swapped in: the stage is seldom empty on a busy capture, and would
// otherwise grow without end. (Jobs are in key order, their bytes in the
// order they came: the bytes cannot be moved within one arena.) Each
// compaction moves at most as many jobs as went on since the last.
func (s *stage) compact() {
	n := copy(s.jobs, s.jobs[s.head:])
	clear(s.jobs[n:]) // let go of the sides and strings of those gone
	s.jobs, s.head = s.jobs[:n], 0
	d, p, ad := s.spare.data[:0], s.spare.parts[:0], s.spare.addrs[:0]
	for i := range s.jobs {
		j := &s.jobs[i]
		off := int32(len(d))
		d = append(d, s.data[j.data.off:j.data.off+j.data.n]...)
		j.data.off = off
		off = int32(len(p))
		p = append(p, s.parts[j.parts.off:j.parts.off+j.parts.n]...)
		j.parts.off = off
		if usesAddrs(j) {
			off = int32(len(ad))
			ad = append(ad, s.addrs[j.addrs], s.addrs[j.addrs+1])
			j.addrs = off
		}
	}
	s.spare.data, s.spare.parts, s.spare.addrs = s.data[:0], s.parts[:0], s.addrs[:0]
	s.data, s.parts, s.addrs = d, p, ad
}

// unstage moves h, the stage's head, into the current batch and passes it.
func (a *Analyzer) unstage(h *job) {
	s := &a.stage
	s.head++
	b := a.curBatch()
	b.jobs = append(b.jobs, *h)
	j := &b.jobs[len(b.jobs)-1]
	j.parts = span{int32(len(b.parts)), h.parts.n}
	b.parts = append(b.parts, s.parts[h.parts.off:h.parts.off+h.parts.n]...)
	if usesAddrs(h) {
		j.addrs = int32(len(b.addrs))
		b.addrs = append(b.addrs, s.addrs[h.addrs], s.addrs[h.addrs+1])
	}
	data := s.data[h.data.off : h.data.off+h.data.n]
	s.bytes -= len(data)
	a.pass(j, b, data) // h is cleared when the stage is compacted or emptied
}

// heldConns is a min-heap of the TCP connections that hold the watermark
// back, by the oldest frame each holds (tcpConn.holdFrom); container/heap
// keeps it, each connection knowing its place (heapIdx).
type heldConns struct{ h []*tcpConn }

// set moves c to its place for from, the oldest frame it holds (0: none).
func (q *heldConns) set(c *tcpConn, from uint64) {
	if from == c.holdFrom {
		return
	}
	c.holdFrom = from
	i := c.heapIdx - 1 // heapIdx is 1 + c's index, 0 when not in the heap
	switch {
	case from == 0 && i < 0:
	case from == 0:
		heap.Remove(q, i)
	case i < 0:
		heap.Push(q, c)
	default:
		heap.Fix(q, i)
	}
}

func (q *heldConns) Len() int           { return len(q.h) }
func (q *heldConns) Less(i, j int) bool { return q.h[i].holdFrom < q.h[j].holdFrom }

func (q *heldConns) Swap(i, j int) {
	q.h[i], q.h[j] = q.h[j], q.h[i]
	q.h[i].heapIdx, q.h[j].heapIdx = i+1, j+1
}

func (q *heldConns) Push(x any) {
	c := x.(*tcpConn)
	q.h = append(q.h, c)
	c.heapIdx = len(q.h)
}

func (q *heldConns) Pop() any {
	n := len(q.h) - 1
	c := q.h[n]
	q.h[n] = nil
	q.h = q.h[:n]
	c.heapIdx = 0
	return c
}

// With Parallel, jobs wait in the batches they were made in, which are
// not sent until the watermark passes their last job (or a bound says so):
// a job is written once, as without the stage, and only a job that comes
// after one of a later frame (rare) is moved into place.

// commit places j, the last job of cur (its bytes data not yet added),
// and sends what may go.
func (p *pipe) commit(j *job, b *batch, data []byte) {
	a := p.a
	j.data = span{int32(len(b.data)), int32(len(data))}
	b.data = append(b.data, data...)
	p.unsent++
	p.unsentBytes += len(data)
	if j.op == opFlush || j.op == opFinish {
		return // in a batch of their own (flush), or the last (Finish)
	}
	if j.key < p.lastKey && p.unsent > 1 {
		p.placeLate(b)
	} else {
		p.lastKey = j.key
	}
	if len(b.jobs) >= a.opts.Batch || len(b.data) >= maxBatchBytes {
		p.pending = append(p.pending, b)
		p.cur = p.newBatch()
	}
	if len(p.pending) > 0 && (p.unsent > a.opts.MaxHeld*stageJobs || p.unsentBytes > maxStageBytes || p.pending[0].jobs[len(p.pending[0].jobs)-1].key <= a.stage.watermark()) {
		// The watermark of the last packet passed a batch, or a bound: the
		// time one is checked after each packet (tcpState.packet), when
		// the watermark is not stale.
		p.releasePending(false)
	}
}

// placeLate moves the last job of cur to its place among the unsent
// jobs: after the last one of its key or an earlier one, and after every
// one the watermark has passed. Those wait only for their batch to fill,
// where without Parallel they would have gone on already (stage.hold
// keeps only jobs past the watermark): a late job placed before them came
// out at a place that depended on the batch size (FuzzCapture found a
// datagram's unfinished fragments, reported at the end at their own
// frame, three places apart with batches of 5 and 64 and without
// Parallel).
func (p *pipe) placeLate(cur *batch) {
	j := cur.jobs[len(cur.jobs)-1]
	at := max(j.key, p.a.stage.watermark()) // it goes after the jobs of keys up to at
	t := cur                                // the batch it goes in: the last whose first job is not after it
	if len(cur.jobs) == 1 || cur.jobs[0].key > at {
		t = nil
		for i := len(p.pending) - 1; i >= 0; i-- {
			if t = p.pending[i]; t.jobs[0].key <= at {
				break
			}
		}
		if t == nil { // nothing is pending: the front of cur
			t = cur
		} // else the last pending batch that may take it, or the front of the first
	}
	if t != cur {
		// Its bytes, frame list and addresses go with it; they are the
		// last ones of cur.
		data := cur.data[j.data.off : j.data.off+j.data.n]
		n := j
		n.data = span{int32(len(t.data)), j.data.n}
		t.data = append(t.data, data...)
		n.parts = span{int32(len(t.parts)), j.parts.n}
		t.parts = append(t.parts, cur.parts[j.parts.off:j.parts.off+j.parts.n]...)
		cur.parts = cur.parts[:j.parts.off]
		if usesAddrs(&j) {
			n.addrs = int32(len(t.addrs))
			t.addrs = append(t.addrs, cur.addrs[j.addrs], cur.addrs[j.addrs+1])
			cur.addrs = cur.addrs[:j.addrs]
		}
		cur.data = cur.data[:j.data.off]
		cur.jobs[len(cur.jobs)-1] = job{}
		cur.jobs = cur.jobs[:len(cur.jobs)-1]
		t.jobs = append(t.jobs, n)
	}
	for i := len(t.jobs) - 1; i > 0 && t.jobs[i-1].key > at; i-- {
		t.jobs[i-1], t.jobs[i] = t.jobs[i], t.jobs[i-1]
	}
}

// releasePending sends the full batches the watermark has passed, and
// those a bound lets wait no longer; all of them when all is set.
func (p *pipe) releasePending(all bool) {
	a := p.a
	w := a.stage.watermark()
	for len(p.pending) > 0 {
		b := p.pending[0]
		if !all && b.jobs[len(b.jobs)-1].key > w {
			if !p.bound(b, w) {
				return
			}
			for i := range b.jobs {
				if b.jobs[i].key > w {
					a.stage.forced++
				}
			}
		}
		copy(p.pending, p.pending[1:])
		p.pending[len(p.pending)-1] = nil
		p.pending = p.pending[:len(p.pending)-1]
		p.sendBatch(b)
	}
}

// bound tells whether the unsent jobs passed a bound, b the first batch
// of them: then it must go.
func (p *pipe) bound(b *batch, w uint64) bool {
	a := p.a
	if p.unsent > a.opts.MaxHeld*stageJobs || p.unsentBytes > maxStageBytes {
		return true
	}
	if !p.old(&b.jobs[0]) {
		return false
	}
	for i := range b.jobs { // the oldest job that waits: after those the watermark passed
		if b.jobs[i].key > w {
			return p.old(&b.jobs[i])
		}
	}
	return false
}

// old tells whether h waited longer than the window: since it was made,
// in packet time (job.now), not since its frame's timestamp, which a
// capture may set back (FuzzCapture: a frame stamped weeks back was
// forced out at once without Parallel and not with it, so the two decoded
// a stream's bytes on either side of its Encryption Response).
func (p *pipe) old(h *job) bool {
	a := p.a
	return !a.now.IsZero() && h.now.Before(a.now.Add(-a.stageWindow))
}

// flush sends every job the watermark has passed, even from a batch not
// full, then a flush of the back end in a batch of its own: on live
// input, jobs wait for no more than the window (Analyzer.Flush).
func (p *pipe) flush() {
	a := p.a
	p.releasePending(false)
	w := a.stage.watermark()
	for {
		fb := p.cur
		if len(p.pending) > 0 {
			fb = p.pending[0]
		}
		n := 0
		for n < len(fb.jobs) && (fb.jobs[n].key <= w || p.old(&fb.jobs[n])) {
			if fb.jobs[n].key > w {
				a.stage.forced++
			}
			n++
		}
		if n == 0 {
			break
		}
		rest := p.newBatch()
		for _, j := range fb.jobs[n:] {
			rest.jobs = append(rest.jobs, j)
			r := &rest.jobs[len(rest.jobs)-1]
			r.data = span{int32(len(rest.data)), j.data.n}
			rest.data = append(rest.data, fb.data[j.data.off:j.data.off+j.data.n]...)
			r.parts = span{int32(len(rest.parts)), j.parts.n}
			rest.parts = append(rest.parts, fb.parts[j.parts.off:j.parts.off+j.parts.n]...)
			if usesAddrs(&j) {
				r.addrs = int32(len(rest.addrs))
				rest.addrs = append(rest.addrs, fb.addrs[j.addrs], fb.addrs[j.addrs+1])
			}
		}
		clear(fb.jobs[n:])
		fb.jobs = fb.jobs[:n]
		moved := len(rest.data)
		p.unsentBytes -= moved // counted again below, with rest's
		p.sendBatch(fb)
		p.unsentBytes += moved
		if fb == p.cur {
			p.cur = rest
			break
		}
		if len(rest.jobs) > 0 {
			p.pending[0] = rest
			break
		}
		copy(p.pending, p.pending[1:])
		p.pending[len(p.pending)-1] = nil
		p.pending = p.pending[:len(p.pending)-1]
	}
	held := p.cur
	p.cur = p.newBatch()
	a.submit(job{op: opFlush})
	p.sendBatch(p.cur)
	p.cur = held
}

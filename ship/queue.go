package ship

import (
	"sync"
)

// queue holds the sealed batches, oldest first, in memory or in the
// spool, until the sender has shipped them. Memory is bounded by
// memMax: past it the oldest batches in memory are spilled to the spool,
// or dropped without one. The spool is bounded by its max: past it the
// oldest batches on disk are dropped. The batch being sent is neither
// spilled nor dropped (it is the oldest; the next oldest go first).
type queue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []*batch // by sequence number
	mem    int64    // bytes of the bodies held in memory
	memMax int64
	sp     *spool // nil without a spool
	st     *counters
	logf   func(string, ...any)
	// closing: take returns nil once the queue is empty
	closing bool
	// wait (Config.Wait): push waits for room in memory while the engine
	// answers (or, without a spool, always), until stopped
	wait, down, stopped bool
	// spillErr is the first error writing the spool, told once
	spillErr error
}

func newQueue(memMax int64, sp *spool, st *counters, logf func(string, ...any)) *queue {
	q := &queue{memMax: memMax, sp: sp, st: st, logf: logf}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// push adds a batch newer than every batch held, and keeps the bounds.
// Unless the queue waits (Config.Wait), it never waits for the sender: at
// worst it writes to the local disk.
func (q *queue) push(b *batch) {
	q.mu.Lock()
	for q.wait && !q.stopped && len(q.items) > 0 && q.mem+b.size > q.memMax && !(q.down && q.sp != nil) {
		q.cond.Wait()
	}
	q.items = append(q.items, b)
	q.mem += b.size
	q.fit()
	q.mu.Unlock()
	q.cond.Broadcast()
}

// setDown records whether the engine's last answer failed as a whole.
func (q *queue) setDown(down bool) {
	q.mu.Lock()
	q.down = down
	q.mu.Unlock()
	q.cond.Broadcast()
}

// stop ends every wait: push no longer waits for room, take returns nil.
func (q *queue) stop() {
	q.mu.Lock()
	q.stopped = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

// fit spills (or drops) the oldest batches in memory until memory is
// within its bound.
func (q *queue) fit() {
	for q.mem > q.memMax {
		i := q.oldestInMemory()
		if i < 0 {
			return
		}
		if q.sp == nil {
			q.drop(i)
		} else {
			q.spill(q.items[i])
		}
	}
}

// oldestInMemory is the index of the oldest batch held in memory only and
// not being sent, or -1.
func (q *queue) oldestInMemory() int {
	for i, b := range q.items {
		if !b.sending && b.body != nil && b.path == "" {
			return i
		}
	}
	return -1
}

// spill moves b from memory to the spool. To make room it drops the
// oldest batches of the spool and b, whichever are older (b may be the
// oldest of all: the batch the sender gave back at Close). It reports
// false when b itself was dropped: it was the oldest, or cannot fit, or
// the disk failed.
func (q *queue) spill(b *batch) bool {
	if b.path == "" {
		for q.sp.used+b.size > q.sp.max {
			i := q.oldestToDrop(b)
			if i < 0 || q.items[i] == b {
				break
			}
			q.drop(i)
		}
		err := error(nil)
		if q.sp.used+b.size > q.sp.max {
			err = errTooBig
		} else {
			err = q.sp.write(b)
		}
		if err != nil {
			if q.spillErr == nil && err != errTooBig {
				q.spillErr = err
				q.logf("ship: cannot write the spool, dropping batches instead: %v", err)
			}
			q.drop(q.index(b))
			return false
		}
		q.st.spooled.Add(int64(b.docs))
	}
	q.mem -= b.size
	b.body = nil
	return true
}

// oldestToDrop is the index of the oldest batch that is b or on disk and
// not being sent, or -1.
func (q *queue) oldestToDrop(b *batch) int {
	for i, o := range q.items {
		if o == b || o.path != "" && !o.sending {
			return i
		}
	}
	return -1
}

// errTooBig: a batch larger than the whole spool.
var errTooBig = errSpool("a batch larger than the spool")

type errSpool string

func (e errSpool) Error() string { return string(e) }

// drop removes item i, counting its documents as dropped.
func (q *queue) drop(i int) {
	b := q.items[i]
	q.st.dropped.Add(int64(b.docs))
	q.remove(i)
}

// remove takes item i out of the queue, memory and spool.
func (q *queue) remove(i int) {
	b := q.items[i]
	if b.body != nil {
		q.mem -= b.size
		b.body = nil
	}
	if q.sp != nil {
		q.sp.remove(b)
	}
	q.items = append(q.items[:i], q.items[i+1:]...)
}

func (q *queue) index(b *batch) int {
	for i, o := range q.items {
		if o == b {
			return i
		}
	}
	return -1
}

// take waits for the oldest batch and marks it as being sent; nil when the
// queue is closing and empty, or stopped.
func (q *queue) take() *batch {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		if q.stopped {
			return nil
		}
		if len(q.items) > 0 {
			break
		}
		if q.closing {
			return nil
		}
		q.cond.Wait()
	}
	b := q.items[0]
	b.sending = true
	return b
}

// load reads the body of a batch taken from the spool; it counts in
// memory while it is sent.
func (q *queue) load(b *batch) error {
	body, err := q.sp.read(b)
	if err != nil {
		return err
	}
	q.mu.Lock()
	b.body = body
	b.size = int64(len(body))
	q.mem += b.size
	q.mu.Unlock()
	return nil
}

// done removes a batch the sender is finished with.
func (q *queue) done(b *batch) {
	q.mu.Lock()
	if i := q.index(b); i >= 0 {
		q.remove(i)
	}
	q.mu.Unlock()
	q.cond.Broadcast()
}

// dropTaken removes a batch the sender cannot send (an unreadable spool
// file), counting it as dropped.
func (q *queue) dropTaken(b *batch) {
	q.mu.Lock()
	if i := q.index(b); i >= 0 {
		q.drop(i)
	}
	q.mu.Unlock()
	q.cond.Broadcast()
}

// replace swaps a batch's body for the part of it still to send (after a
// partial failure), on disk too when it is there.
func (q *queue) replace(b *batch, body []byte, docs, raw int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.mem += int64(len(body)) - b.size
	old := *b
	b.body, b.size, b.docs, b.raw = body, int64(len(body)), docs, raw
	if old.path != "" {
		q.sp.remove(&old)
		b.path = ""
		if err := q.sp.write(b); err != nil {
			q.logf("ship: cannot rewrite a spool file: %v", err)
		}
	}
}

// release hands a batch back unsent: the sender stops.
func (q *queue) release(b *batch) {
	q.mu.Lock()
	b.sending = false
	q.mu.Unlock()
}

// close makes take return nil once the queue is empty.
func (q *queue) close() {
	q.mu.Lock()
	q.closing = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

// settle ends the queue once the sender has stopped: with a spool, what
// is left goes to disk for the next run (the spool's bound still drops
// the oldest); without one it is counted as unsent. It returns the
// documents left in the spool.
func (q *queue) settle() (pending int64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i := 0; i < len(q.items); i++ {
		b := q.items[i]
		b.sending = false
		if q.sp == nil {
			q.st.unsent.Add(int64(b.docs))
			continue
		}
		if b.body != nil && !q.spill(b) {
			i--
		}
	}
	if q.sp == nil {
		q.items = nil
		return 0
	}
	for _, b := range q.items {
		pending += int64(b.docs)
	}
	return pending
}

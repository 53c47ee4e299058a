package analyze

import (
	"sync/atomic"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/query"
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
	opEmit         op = iota // the record is complete: hold and emit it
	opTCP                    // decode the record's PDU with dec, then hold and emit it
	opQuery                  // decode a Query datagram and track it, then hold and emit it
	opQueryDecoded           // track a Query datagram the front end decoded, then hold and emit it
	opGap                    // tell dec of a gap in dir, then hold and emit the gap record
	opClose                  // dec's connection ended: let go of its waiting requests
	opTick                   // a second of packet time went by: expire the trackers
	opFinish                 // the input ended: close the trackers, emit everything
)

type job struct {
	op             op
	dir            dissect.Dir
	wire           int // a datagram's length on the wire
	r              *Record
	dec            streamConn
	client, server string    // the conversation's keys, for TCP PDUs
	now            time.Time // the front end's packet time when the job was made
}

// gapper is implemented by decoders that must know where a direction lost
// bytes (a Classic level interrupted by a gap is not inflated).
type gapper interface{ Gap(dissect.Dir) }

// closer is implemented by decoders that hold requests awaiting responses.
type closer interface{ Close() }

// submit hands a job to the back end.
func (a *Analyzer) submit(j job) {
	j.now = a.now
	if a.pp == nil {
		a.process(&j)
		return
	}
	a.pp.cur = append(a.pp.cur, j)
	if len(a.pp.cur) >= a.opts.Batch {
		a.pp.send()
	}
}

// process runs one job on the back end.
func (a *Analyzer) process(j *job) {
	if a.berr != nil {
		return
	}
	if j.now.After(a.bnow) {
		a.bnow = j.now
	}
	r := j.r
	switch j.op {
	case opTCP:
		r.PDU.Dir = j.dir
		j.dec.Decode(&r.PDU, r.buf, dissect.Meta{Frame: r.Frame, Time: r.Time, Client: j.client, Server: j.server, Dir: j.dir})
		r.PDU.Dir = j.dir
	case opQuery, opQueryDecoded:
		if j.op == opQuery {
			query.Decode(&r.PDU, r.buf, j.wire, j.dir)
		}
		client, server := r.Src, r.Dst
		if r.PDU.Dir == dissect.DirS2C {
			client, server = r.Dst, r.Src
		}
		a.queryTracker.Observe(dissect.Meta{Frame: r.Frame, Time: r.Time, Client: a.keys.of(client), Server: a.keys.of(server), Dir: r.PDU.Dir}, &r.PDU)
	case opGap:
		if g, ok := j.dec.(gapper); ok {
			g.Gap(j.dir)
		}
	case opClose:
		if c, ok := j.dec.(closer); ok {
			c.Close()
		}
	case opTick:
		a.queryTracker.Expire(a.bnow)
	case opFinish:
		a.queryTracker.Close()
		a.release(true)
		return
	}
	if r != nil {
		a.held = append(a.held, r)
	}
	a.release(false)
}

// pipe carries jobs from the front end's goroutine to the back end's.
type pipe struct {
	a       *Analyzer
	cur     []job
	batches chan []job
	free    chan []job
	done    chan struct{}
	stopped atomic.Bool // the back end's emit failed: the front end stops reading
}

func startPipe(a *Analyzer) *pipe {
	p := &pipe{a: a, batches: make(chan []job, 4), free: make(chan []job, 6), done: make(chan struct{})}
	p.cur = make([]job, 0, a.opts.Batch)
	go p.run()
	return p
}

func (p *pipe) run() {
	defer close(p.done)
	for b := range p.batches {
		for i := range b {
			p.a.process(&b[i])
		}
		if p.a.berr != nil {
			p.stopped.Store(true)
		}
		clear(b)
		select {
		case p.free <- b[:0]:
		default:
		}
	}
}

func (p *pipe) send() {
	if len(p.cur) == 0 {
		return
	}
	p.batches <- p.cur
	select {
	case b := <-p.free:
		p.cur = b
	default:
		p.cur = make([]job, 0, p.a.opts.Batch)
	}
}

// wait sends what is left and waits for the back end to finish it.
func (p *pipe) wait() {
	p.send()
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

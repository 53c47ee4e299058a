package analyze

import (
	"sync/atomic"
	"unsafe"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// The output stage runs the Sink (filtering, statistics, exports,
// formatting, writing) on the records the back end releases, in their
// order. Records with trees (-V, JSON, ek, fields of the tree, --redact)
// cross to a goroutine of its own in batches (outBatch), and come back the
// same way to the back end's pool, so that formatting runs beside the
// decoding of the next records. A Lite record (the summary columns only)
// is given to the Sink on the back end, the same batch of one, at once:
// handing it to another core costs more than formatting it (the summary
// then cost 9–16 % more CPU and 4–11 % more wall time on the project, slp
// and real mixes, medians of 7 interleaved runs: some 300 ns a record,
// more than the 180 ns its summary line costs), while a tree's output
// costs 1.6 (-V) to 5 µs (JSON) a record.
//
// A record handed over owns everything it views, or views what stays
// unchanged until it comes back:
//   - its bytes: its own buffer, or (Lite) a view of the input batch's
//     arena, which goes back to the front end only with the last batch of
//     records released while it ran (outBatch.in);
//   - its tree, its Info (a Lite PDU's views the PDU's own buffer), its
//     texts: the record's, or strings the decoders never write over;
//   - its layers' tree: made on the output goroutine, in the stage's
//     scratch (record.LayerScratch), or its own when redacted on the back
//     end;
//   - a request a tracker still holds after giving it up (it may write to
//     it when a late response comes) crosses as a Clone.
//
// What is in flight is bounded: outBatches batches exist (the back end
// waits for one to come back before it fills another), each sent when it
// holds outBatchRecords records or outBatchBytes of them (outCost), so
// that the records in flight are a few megabytes whatever their sizes.

// outBatch is records, in output order, on their way to the Sink and back.
type outBatch struct {
	recs  []*entry
	in    *batch // the input batch the borrowed records view, recycled once they are back; or nil
	flush bool   // the sink writes out after these records (Sink.Flush)
	cost  int    // what the records take (outCost)
}

// outBatches is how many batches of records exist: one the back end fills,
// one the output stage runs, one waiting between them. The back end holds
// those it fills or has taken back (backEnd.ob, spare); sent are the others.
const outBatches = 3

// outBatchBytes: a batch of records is sent when what they take passes
// this (it also goes at the end of every input batch).
const outBatchBytes = 1 << 20

// outBatchRecords: a batch of records is sent when it holds this many, so
// that the records in flight, and the pool they come back to, stay few
// enough to be warm in the cache when the back end reuses them (batches
// of 1,024 records cycled some 3,000 and cost a third more CPU than
// batches of 64 to 256, project mix, summary).
const outBatchRecords = 128

// outStage is the output goroutine's state. The back end owns its
// channels' sending ends; err and records are read once done is closed.
type outStage struct {
	_       [64]byte
	sink    Sink
	apart   bool           // the sink runs on a goroutine of its own (records with trees)
	recs    chan *outBatch // to the output goroutine
	ret     chan *outBatch // back to the back end, done with
	done    chan struct{}  // closed when the output goroutine has returned
	stopped atomic.Bool    // the sink failed or said stop: the rest is dropped
	err     error          // the sink's error (ErrStop included)
	records uint64         // records given to the sink
	layers  record.LayerScratch
	_       [64]byte
}

func newOutStage(sink Sink, apart bool) *outStage {
	o := &outStage{sink: sink, apart: apart,
		recs: make(chan *outBatch, outBatches),
		ret:  make(chan *outBatch, outBatches),
		done: make(chan struct{}),
	}
	return o
}

// run is the output goroutine: it gives each batch's records to the sink,
// flushes it when asked, and hands the batch back. Once the sink has
// failed (or said stop) it hands batches back untouched; p is told, so
// that the front end stops reading.
func (o *outStage) run(p *pipe) {
	defer close(o.done)
	for ob := range o.recs {
		o.give(ob, p)
		o.ret <- ob
	}
}

// give gives ob's records to the sink, in order, and flushes it when ob
// asks; after the sink's error (or stop) it gives nothing more.
func (o *outStage) give(ob *outBatch, p *pipe) {
	if o.err != nil {
		return
	}
	for _, r := range ob.recs {
		r.UseScratch(&o.layers)
		o.records++
		if err := o.sink.Record(&r.Record); err != nil {
			o.fail(err, p)
			return
		}
	}
	if ob.flush {
		if err := o.sink.Flush(); err != nil {
			o.fail(err, p)
		}
	}
}

func (o *outStage) fail(err error, p *pipe) {
	o.err = err
	o.stopped.Store(true)
	p.stop()
}

const nodeSize = int(unsafe.Sizeof(dissect.Node{}))

// outCost is about what a record takes, cheaply: its bytes, its tree's
// nodes, bytes its decoder derived into a buffer of their own.
func outCost(r *entry) int {
	c := r.BufCap() + cap(r.PDU.Nodes)*nodeSize + len(r.PDU.Objects)*64
	if d := r.PDU.Derived; d > 0 {
		c += len(r.PDU.Data)
	}
	for i := range r.PDU.Objects {
		c += len(r.PDU.Objects[i].Data)
	}
	return c
}

// emit hands r to the output stage, in order: to the batch being filled,
// which goes when it is full. A record that may not be reused (keep: a
// tracker still holds it) crosses as a copy, which the pool takes back.
func (a *backEnd) emit(r *entry, keep bool) {
	if testEmit != nil {
		testEmit(a)
	}
	if keep {
		r = &entry{Record: *r.Clone()}
	}
	ob := a.ob
	ob.recs = append(ob.recs, r)
	ob.cost += outCost(r)
	if !a.out.apart || ob.cost >= outBatchBytes || len(ob.recs) >= outBatchRecords {
		a.sendOut()
	}
}

// testEmit, set by tests only, is called on the back end as each record
// is released, before it is handed over.
var testEmit func(*backEnd)

// sendOut hands the batch of records being filled to the output stage,
// and takes back one it is done with (waiting for it: this bounds what is
// in flight): its records go back to the pool, its input batch to the
// front end.
func (a *backEnd) sendOut() {
	if !a.out.apart {
		a.out.give(a.ob, a.pp)
		a.stopped = a.out.err != nil
		a.reclaim(a.ob)
		return
	}
	large := a.ob.cost >= outBatchBytes
	a.out.recs <- a.ob
	a.sent++
	if large {
		// A batch of large records (a full stat of 16,000 nodes, a
		// status response of megabytes) is the only one in flight: the
		// back end waits until the sink is done with it, so that no more
		// such records are alive at once than when the back end ran the
		// sink itself.
		for a.sent > 0 {
			a.takeBack()
		}
	}
	if len(a.spare) == 0 {
		a.takeBack()
	}
	n := len(a.spare) - 1
	a.ob, a.spare[n] = a.spare[n], nil
	a.spare = a.spare[:n]
}

// takeBack waits for a batch the output stage is done with and takes it
// back.
func (a *backEnd) takeBack() {
	ob := <-a.out.ret
	a.sent--
	a.reclaim(ob)
	a.spare = append(a.spare, ob)
}

// reclaim takes back the records of a batch the output stage is done
// with, into the pool (or lets them go: pooled), and its input batch.
func (a *backEnd) reclaim(ob *outBatch) {
	for i, r := range ob.recs {
		if pooled(r) {
			a.free = append(a.free, r)
		} else {
			a.keepBig(r)
		}
		ob.recs[i] = nil
	}
	if ob.in != nil {
		a.pp.recycle(ob.in)
	}
	ob.recs, ob.in, ob.flush, ob.cost = ob.recs[:0], nil, false, 0
}

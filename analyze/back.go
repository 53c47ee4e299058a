package analyze

import (
	"fmt"
	"strconv"
	"unsafe"

	"time"

	"github.com/mcdissect/mcdissect/budget"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"
)

// backEnd is the state only the back end's goroutine touches: the records,
// the decoders' and trackers' work, the hold queue, the batch of records
// for the output stage (out.go). It is
// allocated apart from the front end's fields and padded, so that the two
// goroutines never write to the same cache line.
type backEnd struct {
	_         [64]byte
	opts      *Options
	out       *outStage
	ob        *outBatch             // the records released, on their way to the output stage
	spare     []*outBatch           // batches of records taken back, empty (out.go)
	sent      int                   // batches of records the output stage has not given back
	pp        *pipe                 // where the input batches go back to the front end
	udpProtos []*protocols.Protocol // the UDP protocols: a datagram job's udp indexes them
	trackers  []protocols.Tracker   // theirs, by the same index (nil for a protocol without one)
	keys      addrKeys
	held      []*entry // records waiting to be emitted, in order
	free      []*entry
	big       chan *entry // records with a large tree, for PDUs likely to need one (bigRecord)
	bnow      time.Time   // packet time as the back end has seen it
	stopped   bool        // the output stage stopped (the sink's error, ErrStop included)
	panics    uint64      // decoder panics caught (decode, safely)
	made      uint64      // records made so far
	// heldAcct is charged the records held behind a pending request;
	// heldOver: it refused one since the oldest pending request was last
	// given up on, or the budget asked it for room (release gives up the
	// oldest then).
	heldAcct *budget.Account
	heldOver bool
	// secretsRefused: records whose secrets the run's set refused (redact.go)
	secretsRefused uint64
	// borrow: records view their bytes in the batch's arena instead of
	// copying them. The batch goes back to the front end once the output
	// stage is done with the records released while it ran (outBatch.in);
	// Lite PDUs are never Pending, so nothing holds them back (were one
	// held, it would own its bytes first: release calls own, and repoint
	// copies every string that views them, TestRecordOwnEveryView).
	borrow bool
	_      [64]byte
}

// run is the back end's goroutine: it runs the jobs of every batch, in
// order, hands the records released to the output stage at the end of
// each (a live input's batches are small: a record never waits for a
// busy input), and the batch back to the front end, once the output stage
// is done with the records that view it. At the end it waits for the
// output stage.
func (a *backEnd) run(p *pipe) {
	defer close(p.done)
	if a.out.apart {
		go a.out.run(p)
	}
	var n uint64
	for b := range p.batches {
		a.stopped = a.stopped || a.out.stopped.Load()
		p.took(b)
		a.fit()
		for i := range b.jobs {
			a.process(&b.jobs[i], b)
		}
		p.finished(n)
		n++
		if a.borrow {
			a.ob.in = b
		} else {
			p.recycle(b)
		}
		a.sendOut()
	}
	if a.out.apart {
		close(a.out.recs)
		<-a.out.done
		for a.sent > 0 {
			a.takeBack() // nothing of the analyzer's keeps a record the run is done with
		}
	}
}

// Pooled records keep their slices for the next PDU, but not the slices of
// an exceptionally large one (a status response with a long sample list, a
// 300-player full stat): the pool's memory stays that of ordinary PDUs.
const (
	maxPooledNodes = 128
	maxPooledData  = 4 << 10
)

// entry is a record with what the back end keeps of it while it holds it.
type entry struct {
	record.Record
	seq     uint64         // its index among all the records the back end made
	charged int64          // bytes charged to the budget while it is held
	udp     int8           // a datagram's protocol, its index in udpProtos; -1 for TCP
	dec     protocols.Conn // TCP: the connection's decoder, which may hold the PDU (GiveUp)
}

// newRecord takes a record from the free list.
func (a *backEnd) newRecord() *entry {
	if n := len(a.free); n > 0 {
		r := a.free[n-1]
		a.free[n-1] = nil // the slot must not keep it alive once it is used for a large PDU
		a.free = a.free[:n-1]
		r.Reset()
		return r
	}
	return &entry{}
}

func pooled(r *entry) bool {
	return cap(r.PDU.Nodes) <= maxPooledNodes && r.BufCap() <= maxPooledData
}

// Records whose tree outgrew the pool (a full stat has a node per string,
// some 250 for a server of 20 players) are kept apart, a few of them, for
// the PDUs that will need as many: otherwise each full stat allocated its
// tree anew, a third of all the bytes -T json allocates.
const (
	maxBigRecords = 64
	maxBigNodes   = 1024
)

// keepBig offers r to the big records' pool; it reports whether r went there.
func (a *backEnd) keepBig(r *entry) bool {
	if n := cap(r.PDU.Nodes); n <= maxPooledNodes || n > maxBigNodes || r.BufCap() > maxPooledData {
		return false
	}
	select {
	case a.big <- r:
		return true
	default:
		return false
	}
}

// bigRecord is a record from the big pool, reset, or nil.
func (a *backEnd) bigRecord() *entry {
	select {
	case r := <-a.big:
		r.Reset()
		return r
	default:
		return nil
	}
}

// record makes the record a job describes.
func (a *backEnd) record(j *job, b *batch) *entry {
	var r *entry
	if j.op == opUDP && j.dir == dissect.DirS2C && !a.opts.Lite {
		if big := a.udpProtos[j.udp].BigResponse; big > 0 && int(j.data.n) > big {
			r = a.bigRecord() // most likely a Query full stat
		}
	}
	if r == nil {
		r = a.newRecord()
	}
	r.seq = a.made
	a.made++
	r.Kind, r.Frame, r.Time, r.Rel = j.kind, j.frame, j.time, j.rel
	r.TCP, r.GapLength, r.Reason = j.side != nil, j.gapLen, j.reason
	if s := j.side; s != nil {
		r.Src, r.Dst, r.Stream, r.Proto, r.udp, r.dec = s.src, s.dst, s.stream, s.proto, -1, s.dec
	} else {
		r.Src, r.Dst, r.Stream, r.Proto, r.udp, r.dec = b.addrs[j.addrs], b.addrs[j.addrs+1], -1, a.datagramProto(j.udp), -1, nil
		if j.proto != "" {
			r.Proto = j.proto
		} else if j.udp != udpNone {
			r.udp = int8(j.udp)
		}
	}
	r.Parts = append(r.Parts, b.parts[j.parts.off:j.parts.off+j.parts.n]...)
	data := b.data[j.data.off : j.data.off+j.data.n]
	if a.borrow {
		r.Borrow(data)
	} else {
		r.SetData(data)
	}
	r.PDU.Lite, r.PDU.Export = a.opts.Lite, a.opts.Export
	if j.head >= 0 {
		client := r.Src
		if j.dir == dissect.DirS2C {
			client = r.Dst
		}
		setLayers(&r.Record, &b.heads[j.head], client)
	}
	return r
}

// clock moves the back end's packet time to j's: a record's frame time;
// the front end's time for the jobs without a record (a tick, a close, a
// flush, whose time an idle live input moves on). A record made for a
// connection's own last frame (a sweep, the end) keeps that frame's time,
// so it never moves the clock past the frames still to come.
func (a *backEnd) clock(j *job) {
	t := j.now
	if makesRecord(j.op) {
		t = j.time
	}
	if t.After(a.bnow) {
		a.bnow = t
	}
}

// process runs one job; b holds its record's bytes.
func (a *backEnd) process(j *job, b *batch) {
	if a.stopped {
		return
	}
	a.clock(j)
	var r *entry
	if makesRecord(j.op) {
		r = a.record(j, b)
	}
	switch j.op {
	case opGap, opEmit, opTCP, opUDP, opICMP:
		a.decode(j, r, b)
		if a.opts.Redact {
			a.learn(&r.Record)
		}
	case opClose:
		a.safely(func() { j.side.dec.Close(closeEnd(j)) })
	case opTick:
		a.safely(a.expire)
		a.heldAcct.Relieve()
	case opFlush:
		a.safely(a.expire)
		a.release(false)
		a.ob.flush = true
		return
	case opFinish:
		for _, t := range a.trackers {
			if t != nil {
				a.safely(t.Close)
			}
		}
		a.release(true)
		a.ob.flush = true
		return
	}
	if r != nil {
		a.held = append(a.held, r)
		if a.held[0].PDU.Pending {
			a.charge(r)
		}
	}
	a.release(false)
}

// fit gives up held requests, oldest first, while the back end holds
// more than its cap in the budget: the front end was given the rest of
// the limit for this batch (pipe.divide), and the held records' account
// cannot give up bytes on the spot, as the other accounts do in Cap.
func (a *backEnd) fit() {
	for a.pp.back.Over() && len(a.held) > 0 && a.held[0].PDU.Pending {
		a.heldOver = true
		a.release(false)
	}
}

// heldCost is what a held record is charged: its bytes, its tree and
// the texts its decoder made.
func heldCost(r *entry) int64 {
	return int64(r.BufCap()) + int64(cap(r.PDU.Nodes))*int64(unsafe.Sizeof(dissect.Node{})) + int64(r.PDU.MadeBytes())
}

// charge charges a record held behind a pending request to the budget;
// when it refuses, the oldest pending request is given up on next.
func (a *backEnd) charge(r *entry) {
	if c := heldCost(r); a.heldAcct.Charge(c) {
		r.charged = c
	} else {
		a.heldOver = true
	}
}

// decode runs the decoding of j's record r: the protocol's decoder, its
// tracker, the records of undissected bytes and gaps. It is the back
// end's one panic boundary: a panic in a decoder becomes a malformed
// record naming the frame, the protocol and the panic, and the run goes on
// with the next job.
func (a *backEnd) decode(j *job, e *entry, b *batch) {
	r := &e.Record
	defer func() {
		if v := recover(); v != nil {
			a.panics++
			panicPDU(&r.PDU, r.Proto, j.dir, r.Data(), r.Frame, v)
		}
	}()
	if testPanic != nil {
		testPanic(r)
	}
	switch j.op {
	case opGap:
		j.side.dec.Gap(j.dir)
		fallthrough
	case opEmit:
		switch r.Kind {
		case record.KindConflict:
			conflictPDU(&r.PDU, r.Proto, j.dir, r.Data(), j.off)
		case record.KindGap:
			gapPDU(&r.PDU, r.Proto, j.dir, j.gapLen, j.off, j.reason)
		case record.KindNote:
			if j.gapLen >= noteSYN {
				connPDU(&r.PDU, j.gapLen, j.dir, r.Time, j.out, j.reason, r.Src, r.Dst, r.Parts)
				break
			}
			notePDU(&r.PDU, r.Proto, j.dir, j.gapLen, j.reason)
		default:
			undissectedPDU(&r.PDU, r.Proto, j.dir, r.Data(), j.off, r.Reason)
		}
	case opTCP:
		r.PDU.Dir = j.dir
		s := j.side
		m := dissect.Meta{Frame: r.Frame, Time: r.Time, Client: s.client, Server: s.server, Dir: j.dir}
		if int(j.wire) > len(r.Data()) {
			s.dec.DecodeCut(&r.PDU, r.Data(), int(j.wire), m) // a PDU cut by the end or a gap (tcp.go)
		} else {
			s.dec.Decode(&r.PDU, r.Data(), m)
		}
		r.PDU.Dir = j.dir
	case opICMP:
		a.icmpPDU(j, r, b.addrs[j.addrs+2], b.addrs[j.addrs+3])
	case opUDP:
		a.udpProtos[j.udp].Decode(&r.PDU, r.Data(), int(j.wire), j.dir)
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
var testPanic func(*record.Record)

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
	p.AddExpert(i, record.ExpertPanic, "frame "+strconv.FormatUint(frame, 10)+": the "+proto+" decoder panicked ("+msg+"); its "+itoa(len(data))+" bytes are shown undissected")
	c.Finish()
	if i > 0 {
		p.Nodes[i].Flags |= dissect.FlagMalformed
	}
	p.Dir, p.Pending = dir, false
	p.Message = "Malformed"
	p.Info = "[Malformed PDU: the " + proto + " decoder panicked: " + msg + "]"
}

// releaseOf says whether the pending record r, at the head of those held,
// must go now, and why (a dissect.ReleaseWhy), or -1 to keep holding it:
// past MaxHeld records, the memory budget (heldOver) or HoldWindow of
// packet time, or at the end (all).
func (a *backEnd) releaseOf(r *entry, all bool) int {
	switch {
	case all:
		return int(dissect.ReleaseEnd)
	case a.made-r.seq > uint64(a.opts.MaxHeld):
		// a.made-r.seq: the records made since r, r included; all of
		// them wait behind r.
		return int(dissect.ReleaseCount)
	case a.heldOver:
		return int(dissect.ReleaseMemory)
	case a.bnow.Sub(r.Time) >= a.opts.hold():
		return int(dissect.ReleaseHold)
	}
	return -1
}

// release emits held records from the front while they are no longer
// pending. A pending head holds back the rest so that output stays in
// order; past MaxHeld records, the memory budget or HoldWindow of packet
// time it is given up on (releaseOf).
func (a *backEnd) release(all bool) {
	i := 0
	for ; i < len(a.held); i++ {
		r := a.held[i]
		recycle := true
		if r.PDU.Pending {
			why := a.releaseOf(r, all)
			if why < 0 {
				break
			}
			a.heldOver = false
			a.safely(func() {
				a.expire()
				rel := dissect.Release{Why: dissect.ReleaseWhy(why), Hold: a.opts.hold()}
				switch rel.Why {
				case dissect.ReleaseCount:
					rel.Max = a.opts.MaxHeld
				case dissect.ReleaseMemory:
					rel.Max = int(a.opts.Budget.Limit())
				}
				if r.PDU.Pending && r.udp >= 0 {
					if t := a.trackers[r.udp]; t != nil {
						t.GiveUp(&r.PDU, rel)
					}
				} else if r.dec != nil && r.PDU.Pending {
					r.dec.GiveUp(&r.PDU, rel)
				}
			})
			if r.PDU.Pending {
				// A tracker still holds this PDU and may write to it when a
				// late response comes: emit it, but never reuse it.
				r.PDU.Pending = false
				recycle = false
			}
		}
		a.heldAcct.Credit(r.charged)
		r.charged = 0
		r.dec = nil // only a held record needs it
		if a.opts.Redact {
			a.redact(&r.Record)
		}
		a.emit(r, !recycle)
	}
	if a.borrow {
		for _, r := range a.held[i:] {
			r.Own() // it outlives the batch
		}
	}
	n := copy(a.held, a.held[i:])
	clear(a.held[n:])
	a.held = a.held[:n]
}

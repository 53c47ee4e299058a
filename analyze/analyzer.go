package analyze

import (
	"errors"
	"net/netip"
	"strings"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/ip4defrag"
	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/reassembly"
)

// ErrStop, returned by an emit function, ends the run without an error
// (-c reached its count).
var ErrStop = errors.New("stop")

// Options steer routing and limits.
type Options struct {
	DecodeAs     []DecodeAs // -d rules, tried before the default ports and the heuristics
	NoHeuristics bool       // only ports and -d rules pick protocols
	ClassicSalt  string     // --classic-salt: a heartbeat salt known from elsewhere
	// HoldWindow is how long, in packet time, a request may hold back the
	// output while its response is awaited (so that the request can show
	// "Response in frame N"), and how long bytes whose fate is not decided
	// yet may hold back the records of later frames (reorder.go).
	HoldWindow time.Duration
	// MaxHeld bounds the records held back; past it the oldest request is
	// given up on. It bounds the jobs waiting for earlier frames' records
	// as well.
	MaxHeld int
	// Keep: emit keeps each record (tests and tools that collect them);
	// the analyzer never reuses a record once emitted.
	Keep bool
	// MaxHeldBytes bounds the bytes of those records (default 16 MiB, or
	// MaxHeld records of 16 KB: ordinary PDUs are smaller and meet MaxHeld
	// first): a thousand records of a few MB each (large PDUs) must not
	// wait in memory together. Both shards count every record's bytes, as
	// they count records, so the output does not depend on how the back
	// end is split.
	MaxHeldBytes int
	// Parallel runs the back end (decoding, trackers, emit) on a goroutine
	// of its own; jobs cross in batches of Batch (default 64; 1 for live
	// captures, whose output must not wait).
	Parallel bool
	Batch    int
	// Lite decodes without trees (dissect.PDU.Lite): for output that
	// shows only the summary columns. What it buys (issue 12,
	// bench/fastpaths.md): decoding full trees for the summary costs 63 %
	// more CPU on the project mix, 89 % on slp.
	Lite bool
	// NoTCPHeader leaves the TCP header out of the records' Layers, the IP
	// header kept: the flags, window, length, and the sequence numbers
	// relative to each direction's first, whose table costs a look-up per
	// segment. For output that shows no TCP field and filters on none. What it buys
	// (issue 12): the summary's front end, the bound on its wall time,
	// does less; median wall time of 9 interleaved runs, 100 MB mixes:
	// onebyte 0.40 -> 0.31 s, real 0.86 -> 0.74, slp 0.33 -> 0.30, project
	// 0.47 -> 0.44. TestNoTCPHeader and TestParallelAndLiteMatchSerial
	// hold the records to those made with the header.
	NoTCPHeader bool
	// Export has decoders attach the files PDUs carry (dissect.PDU.Export).
	Export bool
	// Sink has the back end accept, format and write its records itself,
	// with Parallel in two shards (see Sink); emit is then not called.
	Sink Sink
	// Ordered: the Sink's Accept must see every record in order, one at
	// a time (exports, the page, -t dd): the back end is one, not two
	// shards.
	Ordered bool
	// Count, under a Sink, stops the run after this many records shown.
	Count int
	// OnFrame, when set, is called for every frame read, on the goroutine
	// that calls Packet, in frame order (frame-level statistics).
	OnFrame func(FrameInfo)
	// Redact masks every copy of a secret in each record before it is
	// emitted (Record.redact): no renderer, filter or statistic sees one.
	Redact bool
	// Later makes the run one pass of a two-pass analysis (-2): before
	// Seal, the trackers note in it how each request the run gave up on
	// (MaxHeld) ended; after, they show that in such a request when the
	// run gives up on it, as if it had waited for its response.
	Later *dissect.Later

	// FlushEvery, when not zero, is how often Run flushes the pipeline
	// (Flush) while it reads: for input that is not a regular file (a live
	// capture, a pipe), whose records must not wait for batches and
	// buffers that only a busy input fills. Run then reads the source on a
	// goroutine of its own, so that a read that waits for the next packet
	// does not hold the flush back.
	FlushEvery time.Duration
	// FlushEager has Run flush after every read of packets as well (-l).
	FlushEager bool
	// Flush, when set, writes out the output emit buffers: the back end
	// calls it, in order with emit, at every Flush (a Sink that buffers
	// implements Flusher instead).
	Flush func() error
}

func (o *Options) defaults() {
	if o.HoldWindow == 0 {
		// Longer than the trackers' response windows, so that a tracker
		// has given up (and said so) before a request is output.
		o.HoldWindow = maxWindow() + time.Second
	}
	if o.MaxHeld == 0 {
		o.MaxHeld = 1 << 10
	}
	if o.MaxHeldBytes <= 0 {
		o.MaxHeldBytes = 16 << 20
	}
	if o.Batch <= 0 {
		o.Batch = 64
	}
}

// Analyzer turns packets into records. It is not safe for concurrent use.
type Analyzer struct {
	opts Options
	// stageWindow bounds how long, in packet time, the reorder stage
	// holds a job (reorder.go): Options.HoldWindow, or on a file, when
	// HoldWindow was not set, the reassembler's GapTimeout and a second.
	stageWindow time.Duration

	parser4 *gopacket.DecodingLayerParser // starts at IPv4
	parser6 *gopacket.DecodingLayerParser // starts at IPv6
	ip4     layers.IPv4
	ip6     layers.IPv6
	udp     layers.UDP
	tcp     layers.TCP
	payload gopacket.Payload
	decoded []gopacket.LayerType
	trunc   truncFeedback // fastIPv4's
	net     netLayers     // the frame's headers for its records (layers.go)
	defrag  *ip4defrag.IPv4Defragmenter
	frags   fragFrames

	// The front end's state (see back.go).
	frame        uint64
	first        time.Time
	now          time.Time // packet time: the newest packet's, moved on by Flush when the input is idle
	pnow         time.Time // the newest packet's time
	flushAt      time.Time // the packet time of the next housekeeping
	queryServers map[netip.AddrPort]struct{}
	tcpState     *tcpState
	stage        stage // jobs waiting for earlier frames' records (reorder.go)
	stats        Stats
	pp           *pipe    // the back end's goroutine (Parallel), or nil
	one          *batch   // without Parallel: the one job's bytes
	other        *backEnd // under a Sink, the Classic shard's back end

	*backEnd // the back end's state, in an allocation of its own
}

// backEnd is the state only the back end touches. It is allocated apart
// from the front end's fields and padded, so that the two goroutines never
// write to the same cache line: the back end updating its clock and queue
// for every record used to slow the front end's per-packet counters down.
type backEnd struct {
	_        [64]byte
	opts     *Options
	emit     func(*Record) error
	flush    func() error // writes the output out (Options.Flush, Flusher, or a shard's chunk mark)
	trackers []tracker    // the UDP protocols', by their index in udpProtocols
	keys     addrKeys
	held     []*Record // records waiting to be emitted, in order
	free     []*Record
	single   *oneSink     // a Sink on one back end (Ordered, or no Parallel), or nil
	big      chan *Record // records with a large tree, for PDUs likely to need one (bigRecord)
	bnow     time.Time    // packet time as the back end has seen it
	berr     error        // emit's error (ErrStop included)
	records  uint64
	panics   uint64 // decoder panics caught (decode, safely)
	made     uint64 // records made so far (on a shard: by both shards)
	// madeBytes: the bytes of those records, counted as made counts them
	madeBytes uint64
	// borrow: records view their bytes in the batch's arena instead of
	// copying them. Only when they are emitted and done with before the
	// next job: emit does not keep them (no Keep) and nothing holds
	// them back (Lite PDUs are never Pending; were one held, it
	// would own its bytes first: release calls own, and repoint copies
	// every string that views them, TestRecordOwnEveryView). What it buys
	// (issue 12, bench/fastpaths.md; CPU user+sys, paired median of
	// interleaved runs on 100 MB mcgen mixes): copying every record's bytes
	// instead costs the summary 16 % more on the slp mix (status responses
	// of several kilobytes), 5 % on project, 1 % on query.
	borrow bool
	_      [64]byte
}

// Stats counts what a run saw.
type Stats struct {
	Frames, NonIP, Decoded, Records, Truncated uint64
	DecodeErrors                               uint64
	// Panics counts panics of decoders and trackers caught at the back
	// end's boundary (a bug of mcdissect each): those while decoding a
	// PDU are also its record (mc.panic), those in housekeeping (a
	// connection's close, a tracker's expiry) only this count.
	Panics uint64
	// TCPDropped counts TCP payload bytes the reassembler set aside
	// without a record: data after a connection closed or was reset,
	// bytes before the start of a stream picked up mid-way, segments more
	// than 1 GiB ahead. The CLI says so; they are never dropped silently.
	TCPDropped uint64
}

// New makes an analyzer that calls emit for each record, in order. A
// record belongs to the analyzer: emit must not keep it after returning.
func New(opts Options, emit func(*Record) error) *Analyzer {
	window := opts.HoldWindow
	opts.defaults()
	if window == 0 {
		window = opts.HoldWindow
		if opts.FlushEvery == 0 {
			// A file: nothing waits for output, so the reorder stage
			// waits as long as the reassembler may wait for a hole's
			// bytes (a hole no ACK covers is given up after GapTimeout),
			// and records come out in frame order however long a hole
			// lasts. Live input keeps the shorter window: its output
			// must not wait.
			window = max(window, reassembly.DefaultGapTimeout+time.Second)
		}
	}
	a := &Analyzer{opts: opts, stageWindow: window,
		defrag:       ip4defrag.NewIPv4Defragmenter(),
		queryServers: map[netip.AddrPort]struct{}{},
		backEnd:      &backEnd{emit: emit, trackers: newTrackers(opts.Later), borrow: opts.Lite && !opts.Keep},
		one:          &batch{},
	}
	a.backEnd.opts = &a.opts
	a.backEnd.flush = opts.Flush
	if opts.Sink != nil && (!opts.Parallel || opts.Ordered) {
		one := &oneSink{s: opts.Sink, count: opts.Count}
		a.backEnd.single = one
		a.backEnd.emit = one.emit
		a.backEnd.flush = one.flush
	}
	a.big = make(chan *Record, maxBigRecords)
	// gopacket 1.1.19 fixes a parser's first layer, so there is one per IP
	// version; both decode into the same layer structs.
	a.parser4 = gopacket.NewDecodingLayerParser(layers.LayerTypeIPv4, &a.ip4, &a.ip6, &a.udp, &a.tcp, &a.payload)
	a.parser6 = gopacket.NewDecodingLayerParser(layers.LayerTypeIPv6, &a.ip4, &a.ip6, &a.udp, &a.tcp, &a.payload)
	a.parser4.IgnoreUnsupported = true
	a.parser6.IgnoreUnsupported = true
	a.tcpState = newTCPState(a)
	if opts.Parallel {
		a.pp = startPipe(a)
	}
	return a
}

// Stats returns the counts so far; with Parallel, call it after Finish.
func (a *Analyzer) Stats() Stats {
	s := a.stats
	s.Records = a.records
	s.Panics = a.panics
	if a.other != nil {
		s.Records += a.other.records
		s.Panics += a.other.panics
	}
	s.TCPDropped = a.tcpState.r.Stats().Dropped
	return s
}

// Packet feeds one captured frame. data may be reused by the caller after
// Packet returns. The error is emit's (ErrStop included).
func (a *Analyzer) Packet(data []byte, ci gopacket.CaptureInfo, link layers.LinkType) error {
	if err := a.failed(); err != nil {
		return err
	}
	a.frame++
	a.stats.Frames++
	a.net.begin(a.frame, ci)
	if link == layers.LinkTypeEthernet && len(data) >= 14 {
		a.net.eth(data)
	}
	if a.first.IsZero() {
		a.first = ci.Timestamp
	}
	if ci.Timestamp.After(a.pnow) {
		a.pnow = ci.Timestamp
		if a.pnow.After(a.now) {
			a.now = a.pnow
		}
	}
	off, ver, ok := netStart(link, data)
	if !ok {
		a.stats.NonIP++
		if a.opts.OnFrame != nil {
			a.decoded = a.decoded[:0]
			a.observe(frameCI{ci.Timestamp, ci.Length}, 0, false, 0, 0)
		}
		return a.failed()
	}
	if ver == 0 {
		ver = int(data[off] >> 4)
	}
	var err error
	truncated := false
	if !a.fastIPv4(ver, data[off:], &truncated) {
		parser := a.parser4
		if ver == 6 {
			parser = a.parser6
		}
		err = parser.DecodeLayers(data[off:], &a.decoded)
		truncated = parser.Truncated
	}
	truncated = truncated || ci.CaptureLength < ci.Length
	if truncated {
		a.stats.Truncated++
	}
	if a.opts.OnFrame != nil {
		a.observeDecoded(ci)
	}
	for _, lt := range a.decoded {
		switch lt {
		case layers.LayerTypeIPv4:
			if a.ip4.Flags&layers.IPv4MoreFragments != 0 || a.ip4.FragOffset != 0 {
				a.fragment(ci)
				return a.afterPacket()
			}
		case layers.LayerTypeUDP:
			a.stats.Decoded++
			src, dst := a.endpoints(uint16(a.udp.SrcPort), uint16(a.udp.DstPort))
			wire := len(a.udp.Payload)
			if a.udp.Length >= 8 {
				wire = int(a.udp.Length) - 8
			}
			a.handleUDP(ci, src, dst, a.udp.Payload, wire, nil)
			return a.afterPacket()
		case layers.LayerTypeTCP:
			a.stats.Decoded++
			a.tcpState.packet(a.frame, ci, a.netFlow(), &a.tcp)
			return a.afterPacket()
		}
	}
	if err != nil {
		a.stats.DecodeErrors++
	}
	return a.afterPacket()
}

// fastIPv4 decodes the common case, an unfragmented IPv4 packet carrying
// TCP or UDP, with the same gopacket layers the parser uses, but without
// the parser's per-layer dispatch (and its port-to-layer look-ups, whose
// answer, once past TCP or UDP, we never use). It reports whether it did;
// for anything else (IPv6, fragments, other protocols, a malformed header)
// the parser decodes the packet from the start, as before.
//
// What it buys (issue 12, bench/fastpaths.md; CPU user+sys, paired median
// of interleaved runs on 100 MB mcgen mixes): without it the summary costs
// 8.7 % more on the onebyte mix (1.2 million packets, most of them a byte
// of payload), 3.8 % on project, 1.5 % on query; nothing on slp. It stays
// for the many-small-packets case. TestFastIPv4 holds it to the parser.
func (a *Analyzer) fastIPv4(ver int, data []byte, truncated *bool) bool {
	if ver != 4 {
		return false
	}
	df := &a.trunc // a field: a local would escape through the interface
	*df = false
	if a.ip4.DecodeFromBytes(data, df) != nil {
		return false
	}
	if a.ip4.Flags&layers.IPv4MoreFragments != 0 || a.ip4.FragOffset != 0 {
		return false
	}
	switch a.ip4.Protocol {
	case layers.IPProtocolTCP:
		if a.tcp.DecodeFromBytes(a.ip4.Payload, df) != nil {
			return false
		}
		a.decoded = append(a.decoded[:0], layers.LayerTypeIPv4, layers.LayerTypeTCP)
	case layers.IPProtocolUDP:
		if a.udp.DecodeFromBytes(a.ip4.Payload, df) != nil {
			return false
		}
		a.decoded = append(a.decoded[:0], layers.LayerTypeIPv4, layers.LayerTypeUDP)
	default:
		return false
	}
	*truncated = bool(*df)
	return true
}

// truncFeedback records a layer's report that the packet was cut short.
type truncFeedback bool

func (t *truncFeedback) SetTruncated() { *t = true }

func (a *Analyzer) netFlow() gopacket.Flow {
	if a.decoded[0] == layers.LayerTypeIPv6 {
		return a.ip6.NetworkFlow()
	}
	return a.ip4.NetworkFlow()
}

func (a *Analyzer) endpoints(sport, dport uint16) (src, dst netip.AddrPort) {
	var s, d netip.Addr
	if a.decoded[0] == layers.LayerTypeIPv6 {
		s, _ = netip.AddrFromSlice(a.ip6.SrcIP)
		d, _ = netip.AddrFromSlice(a.ip6.DstIP)
	} else {
		s, _ = netip.AddrFromSlice(a.ip4.SrcIP)
		d, _ = netip.AddrFromSlice(a.ip4.DstIP)
	}
	return netip.AddrPortFrom(s, sport), netip.AddrPortFrom(d, dport)
}

// Flush hands the back end everything made so far and has it write out
// what may go, without waiting for a batch to fill: Run calls it every
// Options.FlushEvery on input that is not a regular file. idle is the
// wall time since the last packet was read: packet time moves on by as
// much (never back), so that on a quiet interface a request still
// waiting for its response is given up on, and an idle stream flushed,
// when its window has passed. Packet time still decides those windows;
// the wall clock only stands in for packets that do not come.
func (a *Analyzer) Flush(idle time.Duration) error {
	if err := a.failed(); err != nil {
		return err
	}
	if idle > 0 && !a.pnow.IsZero() {
		if t := a.pnow.Add(idle); t.After(a.now) {
			a.now = t
		}
	}
	if !a.first.IsZero() {
		a.housekeeping()
	}
	a.release(false) // what waited past the window (reorder.go)
	if a.pp != nil {
		a.pp.flush()
		return a.failed()
	}
	a.submit(job{op: opFlush})
	return a.failed()
}

// Done is closed when the back end has stopped early on another goroutine
// (-c reached, an output error): the reader need not wait for the next
// packet to learn it. Nil (never ready) without Parallel, where Packet
// returns the error at once.
func (a *Analyzer) Done() <-chan struct{} {
	if a.pp == nil {
		return nil
	}
	return a.pp.stopc
}

// flushOut writes the output out, on the back end.
func (a *backEnd) flushOut() {
	if a.flush == nil || a.berr != nil {
		return
	}
	if err := a.flush(); err != nil {
		a.berr = err
	}
}

// afterPacket runs the packet-time housekeeping: once per second of capture
// time, idle streams are flushed and unanswered requests given up on.
func (a *Analyzer) afterPacket() error {
	a.housekeeping()
	return a.failed()
}

func (a *Analyzer) housekeeping() {
	if !a.now.Before(a.flushAt) { // a.now.Sub(last flush) >= 1s, without Sub's cost per packet
		a.flushAt = a.now.Add(time.Second)
		a.submit(job{op: opTick})
		a.tcpState.flushIdle(a.now)
		a.defrag.DiscardOlderThan(a.now.Add(-fragTimeout))
		if old := a.frags.discardOlderThan(a.frame, a.now.Add(-fragTimeout)); len(old) > 0 {
			a.fragNotes(old, a.frame, a.now)
		}
	}
}

// Finish flushes every stream and tracker at the end of the input and
// emits what was held.
func (a *Analyzer) Finish() error {
	if a.failed() == nil {
		a.tcpState.close()
		if rest := a.frags.rest(); len(rest) > 0 {
			a.fragNotes(rest, 0, time.Time{})
		}
		a.release(true)
		a.submit(job{op: opFinish})
	}
	var werr error
	if a.pp != nil {
		a.pp.wait()
		if m := a.pp.merger; m != nil {
			werr = m.err
		}
		a.pp = nil
	}
	berr := a.berr
	if berr == nil && a.other != nil {
		berr = a.other.berr
	}
	if berr == nil || berr == ErrStop {
		if werr == ErrStop {
			return nil
		}
		return werr
	}
	return berr
}

// Pooled records keep their slices for the next PDU, but not the slices of
// an exceptionally large one (a status response with a long sample list, a
// 300-player full stat): the pool's memory stays that of ordinary PDUs.
const (
	maxPooledNodes = 128
	maxPooledData  = 4 << 10
)

// newRecord takes a record from the free list (the back end's).
func (a *backEnd) newRecord() *Record {
	var r *Record
	if n := len(a.free); n > 0 {
		r = a.free[n-1]
		a.free[n-1] = nil // the slot must not keep it alive once it is used for a large PDU
		a.free = a.free[:n-1]
		r.reset()
		return r
	}
	return &Record{}
}

// release emits held records from the front while they are no longer
// pending. A pending head holds back the rest so that output stays in
// order; past MaxHeld records, MaxHeldBytes of their bytes or HoldWindow of
// packet time it is given up on.
func (a *backEnd) release(all bool) {
	i := 0
	for ; i < len(a.held) && a.berr == nil; i++ {
		r := a.held[i]
		recycle := true
		if r.PDU.Pending {
			// a.made-r.seq: the records made since r, r included; all of them
			// wait behind r (on a shard, those of the other shard wait in
			// the merger), so the count is the same however the back end is
			// split.
			if !all && a.made-r.seq <= uint64(a.opts.MaxHeld) && a.madeBytes-r.bytesBefore <= uint64(a.opts.MaxHeldBytes) && a.bnow.Sub(r.Time) < a.opts.HoldWindow {
				break
			}
			a.safely(func() {
				a.expire()
				if r.PDU.Pending && r.udp >= 0 {
					if t := a.trackers[r.udp]; t != nil {
						t.GiveUp(&r.PDU)
					}
				} else if g, ok := r.dec.(giver); ok && r.PDU.Pending {
					g.GiveUp(&r.PDU)
				}
			})
			if r.PDU.Pending {
				// A tracker still holds this PDU and may write to it when a
				// late response comes: emit it, but never reuse it; and if
				// emit keeps it, give it a copy, so that the tracker's late
				// write does not change a record already emitted.
				r.PDU.Pending = false
				recycle = false
				if a.opts.Keep {
					r = r.clone()
				}
			}
		}
		a.records++
		r.dec = nil // only a held record needs it: a kept one must not keep its connection's decoder
		if a.opts.Keep && r.PDU.Lite {
			// Its Info may be in memory the decoder reuses.
			r.PDU.Info = strings.Clone(r.PDU.Info)
		}
		if a.opts.Redact {
			r.redact()
		}
		if err := a.emit(r); err != nil {
			a.berr = err
		}
		if recycle && !a.opts.Keep {
			if pooled(r) {
				a.free = append(a.free, r)
			} else {
				a.keepBig(r)
			}
		}
	}
	if a.borrow {
		for _, r := range a.held[i:] {
			r.own() // it outlives the batch
		}
	}
	n := copy(a.held, a.held[i:])
	clear(a.held[n:])
	a.held = a.held[:n]
}

func pooled(r *Record) bool {
	return cap(r.PDU.Nodes) <= maxPooledNodes && cap(r.buf) <= maxPooledData
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
func (a *backEnd) keepBig(r *Record) bool {
	if n := cap(r.PDU.Nodes); n <= maxPooledNodes || n > maxBigNodes || cap(r.buf) > maxPooledData {
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
func (a *backEnd) bigRecord() *Record {
	select {
	case r := <-a.big:
		r.reset()
		return r
	default:
		return nil
	}
}

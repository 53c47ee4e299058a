package analyze

import (
	"net/netip"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/budget"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"
)

// ErrStop, returned by a Sink, ends the run without an error (-c reached
// its count): record.ErrStop, which renderers return too.
var ErrStop = record.ErrStop

// Options steer routing, limits, and what the records carry.
type Options struct {
	DecodeAs     []DecodeAs     // -d rules, tried before the default ports and the heuristics
	NoHeuristics bool           // only ports and -d rules pick protocols
	Prefs        map[string]any // the protocols' preferences (-o), by name, as protocols.ParsePref made them
	// OnFound, when set, is told of each connection or datagram whose
	// protocol was recognised by its heuristics on a port that is not the
	// protocol's own (found.go), on the goroutine that calls Packet.
	OnFound func(Found)
	// HoldWindow is how long, in packet time, a request may hold back the
	// output while its response is awaited (so that the request can show
	// "Response in frame N"). 0 is the default, longer than every
	// protocol's response window; a negative HoldWindow holds nothing
	// (a request goes out at once, as in tshark's single pass: --hold 0).
	// A live capture's is short (--hold): someone watches the output.
	HoldWindow time.Duration
	// MaxHeld bounds the records held back; past it the oldest request is
	// given up on.
	MaxHeld int
	// Budget is the memory budget of the run, which the records held
	// back, the IP fragments and the other holders share (nil: one of
	// budget.DefaultLimit): a thousand records of a few MB each must not
	// wait in memory together.
	Budget *budget.Budget
	// Lite decodes without trees (dissect.PDU.Lite): for output that
	// shows only the summary columns.
	Lite bool
	// NoLayers leaves the layers below Minecraft (record.Record.Layers) out of
	// the records: for output that shows none of their fields and filters
	// on none.
	NoLayers bool
	// Export has decoders attach the files PDUs carry (dissect.PDU.Export).
	Export bool
	// OnFrame, when set, is called for every frame read, on the goroutine
	// that calls Packet, in frame order (frame-level statistics).
	OnFrame func(record.FrameInfo)
	// Redact masks every copy of a secret in each record before it is
	// emitted (redact.go): no renderer, filter or statistic sees one. It
	// decodes with trees (not Lite): secrets are learned from them.
	Redact bool
	// Secrets is the set of secrets Redact learns and masks, made by New
	// when nil: a two-pass run (-2) gives the second pass the first's, so
	// that a secret learned late is masked from the first record on.
	Secrets *dissect.Secrets
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
}

// hold is HoldWindow, 0 for none.
func (o *Options) hold() time.Duration { return max(o.HoldWindow, 0) }

func (o *Options) defaults() {
	o.redactDefaults()
	if o.HoldWindow == 0 {
		// Longer than the trackers' response windows, so that a tracker
		// has given up (and said so) before a request is output.
		o.HoldWindow = protocols.MaxWindow() + time.Second
	}
	if o.MaxHeld == 0 {
		o.MaxHeld = 1 << 10
	}
	if o.Budget == nil {
		o.Budget = budget.New(0)
	}
}

// Analyzer turns packets into records. It is not safe for concurrent use.
type Analyzer struct {
	opts Options

	parser4 *gopacket.DecodingLayerParser // starts at IPv4 (IPv6: decodeIPv6)
	ip4     layers.IPv4
	ip6     layers.IPv6
	udp     layers.UDP
	tcp     layers.TCP
	payload gopacket.Payload
	decoded []gopacket.LayerType
	trunc   truncFeedback // fastIPv4's
	net     netLayers     // the frame's headers for its records (layers.go)
	l3len   int           // the IP header's length, IPv6's extension headers included
	frags   fragState     // fragment.go
	routed  string        // the protocol the frame's UDP payload went to, for OnFrame (frameinfo.go)

	// The front end's state (see back.go).
	frame    uint64
	first    time.Time
	now      time.Time                // packet time: the newest packet's, moved on by Flush when the input is idle
	pnow     time.Time                // the newest packet's time
	flushAt  time.Time                // the packet time of the next housekeeping
	learned  map[netip.AddrPort]uint8 // servers learned by a UDP protocol's heuristic: its index in udpProtos
	run      *protocols.Run           // what the protocols share in this run
	tcpState *tcpState
	stats    Stats
	pp       *pipe  // to the back end's goroutine
	data     []byte // the frame being fed
	netOff   int    // where its network layer starts
	finished bool

	*backEnd // the back end's state, in an allocation of its own
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
	// FragsGivenUp counts IP datagrams whose fragments never completed
	// (each reported: fragment.go); FragOverlaps those completed whose
	// fragments overlapped with different bytes (the first copy used).
	FragsGivenUp, FragOverlaps uint64
	// SecretsRefused counts the secrets --redact could not add to its set,
	// past dissect.MaxPieces (one per record that held one): each was
	// masked in its own record, not in others (redact.go).
	SecretsRefused uint64
}

// New makes an analyzer that gives its records to sink, in order, on a
// goroutine of its own (the back end): the front end, which reads packets,
// reassembles and frames, runs on the caller's.
func New(opts Options, sink Sink) *Analyzer {
	opts.defaults()
	size := treeBatch
	if opts.Lite {
		size = liteBatch
	}
	if opts.FlushEvery > 0 && opts.FlushEager {
		size = 1 // -l: a record never waits for others to fill a batch
	}
	pp := newPipe(size, opts.Budget)
	a := &Analyzer{opts: opts,
		learned: map[netip.AddrPort]uint8{},
		// The protocols' accounts (Classic's levels) are charged where
		// they decode: on the back end.
		run:     &protocols.Run{Later: opts.Later, Prefs: opts.Prefs, Budget: pp.back},
		backEnd: &backEnd{out: newOutStage(sink, !opts.Lite), ob: &outBatch{}, borrow: opts.Lite},
		pp:      pp,
	}
	a.backEnd.pp = a.pp
	for range outBatches - 1 {
		a.spare = append(a.spare, &outBatch{})
	}
	for _, p := range protocols.Of(protocols.UDP) {
		var t protocols.Tracker
		if p.NewTracker != nil {
			t = p.NewTracker(a.run)
		}
		a.udpProtos, a.trackers = append(a.udpProtos, p), append(a.trackers, t)
	}
	a.backEnd.opts = &a.opts
	a.heldAcct = pp.back.Account("held records", func(int64) int64 {
		a.heldOver = true // on the back end's goroutine: release gives the oldest up
		return 0
	})
	a.frags = newFragState(pp.front)
	a.big = make(chan *entry, maxBigRecords)
	a.parser4 = gopacket.NewDecodingLayerParser(layers.LayerTypeIPv4, &a.ip4, &a.udp, &a.tcp, &a.payload)
	a.parser4.IgnoreUnsupported = true
	a.tcpState = newTCPState(a)
	go a.backEnd.run(a.pp)
	return a
}

// Stats returns the counts of the run; call it after Finish.
func (a *Analyzer) Stats() Stats {
	s := a.stats
	s.Records = a.out.records
	s.Panics = a.panics
	s.TCPDropped = a.tcpState.r.Stats().Dropped
	s.SecretsRefused = a.secretsRefused
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
	if a.first.IsZero() {
		a.first = ci.Timestamp
	}
	a.net.begin(a.frame, ci, link, a.first)
	a.data = data
	if ci.Timestamp.After(a.pnow) {
		a.pnow = ci.Timestamp
		if a.pnow.After(a.now) {
			a.now = a.pnow
		}
	}
	off, ver, ok := netStart(link, data)
	a.netOff = off
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
	switch {
	case ver == 6:
		err = a.decodeIPv6(data[off:], &truncated)
	case !a.fastIPv4(ver, data[off:], &truncated):
		err = a.parser4.DecodeLayers(data[off:], &a.decoded)
		truncated = a.parser4.Truncated
		if len(a.decoded) > 0 {
			a.l3len = int(a.ip4.IHL) * 4
		}
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
				a.fragment4(ci)
				return a.afterPacket()
			}
		case layers.LayerTypeIPv6Fragment:
			a.fragment6(ci)
			return a.afterPacket()
		case layers.LayerTypeUDP:
			a.stats.Decoded++
			a.keepHead(8)
			src, dst := a.endpoints(uint16(a.udp.SrcPort), uint16(a.udp.DstPort))
			wire := len(a.udp.Payload)
			if a.udp.Length >= 8 {
				wire = int(a.udp.Length) - 8
			}
			a.routed = ""
			a.handleUDP(ci, src, dst, a.udp.Payload, wire, nil)
			if a.opts.OnFrame != nil {
				a.observeUDP(ci, a.routed)
			}
			return a.afterPacket()
		case layers.LayerTypeTCP:
			a.stats.Decoded++
			a.keepHead(int(a.tcp.DataOffset) * 4)
			a.tcpState.packet(a.frame, ci, a.netFlow(), &a.tcp)
			if a.opts.OnFrame != nil {
				a.observeTCP(ci)
			}
			return a.afterPacket()
		}
	}
	if a.icmp(frameCI{ci.Timestamp, ci.Length}) {
		return a.afterPacket()
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
	a.l3len = int(a.ip4.IHL) * 4
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
	a.submit(job{op: opFlush})
	a.pp.send()
	return a.failed()
}

// Done is closed when the back end has stopped early (the sink's error,
// ErrStop included): the reader need not wait for the next packet to
// learn it.
func (a *Analyzer) Done() <-chan struct{} { return a.pp.stopc }

// failed is the back end's error as the front end may see it: only that
// there was one (Finish returns it).
func (a *Analyzer) failed() error {
	if a.pp.stopped.Load() {
		return ErrStop
	}
	return nil
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
		a.frags.acct.Relieve()
		a.frags.d.Expire(a.now)
		a.fragGivenUp(a.frame, a.now)
	}
}

// Finish flushes every stream and tracker at the end of the input, emits
// what was held, and waits for the back end. It returns the sink's error,
// if any but ErrStop.
func (a *Analyzer) Finish() error {
	if a.finished {
		return nil
	}
	a.finished = true
	if a.failed() == nil {
		a.tcpState.close()
		a.frags.d.End()
		a.fragGivenUp(0, time.Time{})
		a.fragRest()
		a.submit(job{op: opFinish})
	}
	a.pp.close()
	if a.out.err == ErrStop {
		return nil
	}
	return a.out.err
}

// keepHead keeps the header bytes of the frame being fed for its records'
// layers: from the link layer to the end of its transport header, of
// transport bytes past the IP header (0 for a fragment).
func (a *Analyzer) keepHead(transport int) {
	if a.opts.NoLayers {
		return
	}
	end := a.netOff
	if len(a.decoded) > 0 {
		end += a.l3len
	}
	a.net.bytes(a.data, end+transport)
}

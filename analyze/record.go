package analyze

import (
	"net/netip"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/mcdissect/mcdissect/dissect"
)

// Kind says what a record holds.
type Kind uint8

const (
	KindPDU         Kind = iota // a dissected protocol data unit
	KindUndissected             // stream bytes no PDU explains (framing lost, mid-stream start, left at close)
	KindGap                     // stream bytes the capture does not have
	KindConflict                // a retransmission whose bytes differ from the copy used
	KindNote                    // an analysis notice without bytes: a retransmission, an out-of-order segment, an evicted connection, unfinished fragments (notes.go)
)

// Part is one frame's contribution to a reassembled PDU.
type Part struct {
	Frame uint64
	Bytes int
}

// Record is one line of output: a PDU, an undissected range or a gap, with
// where and when it was seen.
type Record struct {
	Kind      Kind
	Frame     uint64    // the frame that completed it
	Time      time.Time // that frame's capture time
	Rel       time.Duration
	Src, Dst  netip.AddrPort
	TCP       bool
	Stream    int    // tcp.stream; -1 for UDP
	Proto     string // "query", "slp", "classic"; "tcp" when no protocol claimed the stream
	Parts     []Part // for TCP: the frames the bytes came from
	GapLength int    // for KindGap
	Reason    string // for undissected ranges and gaps
	Retrans   int    // bytes of retransmitted copies that differed from the first copy
	Layers    Layers // the headers of the frame that completed it (layers.go)
	// DeltaShown is the time since the previous record shown (-t dd),
	// set by the consumer that decides what is shown.
	DeltaShown time.Duration
	PDU        dissect.PDU

	seq uint64 // its index among all the records the back end made
	// bytesBefore: the bytes of all the records made before it (see
	// Options.MaxHeldBytes)
	bytesBefore uint64
	udp         int8         // a datagram's protocol, its index in udpProtocols; -1 for TCP
	dec         streamConn   // TCP: the connection's decoder, which may hold the PDU (giver)
	buf         []byte       // owns PDU.Data, unless borrowed
	data        []byte       // the record's bytes: buf, or a view of the batch's arena
	borrowed    bool         // data is the batch's: the record must be emitted before the batch is reused
	pseudo      dissect.Node // scratch node for pseudo-field lookups (FieldRef.Each)
	pseudoText  [64]byte     // and for its text (an address), so that it allocates nothing
}

// Seq is the record's index among all the records made, in the order
// they are shown.
func (r *Record) Seq() uint64 { return r.seq }

// setData copies data into the record's own buffer: packet buffers are
// reused by the reader, and records may be held until their conversation
// resolves. The PDU itself is set up by the decoder's dissect.Begin, which
// every path calls next.
func (r *Record) setData(data []byte) []byte {
	r.buf = append(r.buf[:0], data...)
	r.data, r.borrowed = r.buf, false
	return r.buf
}

// borrow makes data its bytes without a copy: a view of the batch's arena,
// valid until the back end is done with the batch.
// Lifetime rule: a borrowed record is emitted before the back end takes
// its next job, or owns its bytes first (release calls own, redaction too);
// what it buys is with backEnd.borrow.
func (r *Record) borrow(data []byte) {
	r.data, r.borrowed = data, true
}

// own copies borrowed bytes into the record's buffer, and points its PDU
// and its tree's values there.
func (r *Record) own() {
	if !r.borrowed {
		return
	}
	old := r.data
	r.setData(old)
	r.PDU.Data = r.buf[:len(r.PDU.Data)]
	repoint(&r.PDU, old, r.buf)
}

// repoint makes p, whose views of old were made before old is reused,
// view buf, a copy of old, instead. Node values and object bytes point at
// the same bytes in buf. Strings (keys, texts, expert messages, Message,
// Info) that view old are copied: a string must never change, and buf is
// written over when the record is reused; no decoder makes such a string
// today, so this costs a comparison per string.
//
// unsafe: only addresses are compared, nothing is read or written through
// them. Lifetime rule: a borrowed record views the batch's arena, valid
// until the back end takes the next job; a record that outlives it calls
// own first (release). TestRecordOwn breaks when a view is left behind.
func repoint(p *dissect.PDU, old, buf []byte) {
	if len(old) == 0 {
		return
	}
	lo := uintptr(unsafe.Pointer(&old[0]))
	hi := lo + uintptr(len(old))
	in := func(q unsafe.Pointer) bool { u := uintptr(q); return u >= lo && u < hi }
	str := func(s *string) {
		if len(*s) > 0 && in(unsafe.Pointer(unsafe.StringData(*s))) {
			*s = strings.Clone(*s)
		}
	}
	slice := func(b *[]byte) {
		if len(*b) > 0 && in(unsafe.Pointer(&(*b)[0])) {
			off := int(uintptr(unsafe.Pointer(&(*b)[0])) - lo)
			*b = buf[off : off+len(*b)]
		}
	}
	for i := range p.Nodes {
		n := &p.Nodes[i]
		slice(&n.Value.B)
		str(&n.Key)
		str(&n.Text)
	}
	for i := range p.Experts {
		str(&p.Experts[i].Msg)
	}
	for i := range p.Objects {
		slice(&p.Objects[i].Data)
		str(&p.Objects[i].Name)
	}
	str(&p.Message)
	str(&p.Info)
}

// reset readies a pooled record for reuse, field by field: assigning a
// whole new Record copied its ~700 bytes with write barriers, once per
// PDU. The pseudo-field scratch is not cleared: every lookup sets what it
// reads.
func (r *Record) reset() {
	r.Kind, r.Frame, r.Time, r.Rel = 0, 0, time.Time{}, 0
	r.Src, r.Dst, r.TCP, r.Stream, r.Proto = netip.AddrPort{}, netip.AddrPort{}, false, 0, ""
	r.Parts, r.GapLength, r.Reason, r.Retrans = r.Parts[:0], 0, "", 0
	r.Layers, r.DeltaShown = Layers{}, 0
	r.buf, r.data, r.borrowed, r.dec = r.buf[:0], nil, false, nil
	p := &r.PDU
	p.Reset(nil, 0)
}

// The record-level pseudo-fields, registered so that -e, -Y and -G fields
// know them. Their values come from the record, not from a tree.
var (
	regFrame = dissect.NewRegistry("frame", "Frame")
	regIP    = dissect.NewRegistry("ip", "Internet Protocol")
	regIPv6  = dissect.NewRegistry("ipv6", "Internet Protocol Version 6")
	regUDP   = dissect.NewRegistry("udp", "User Datagram Protocol")
	regTCP   = dissect.NewRegistry("tcp", "Transmission Control Protocol")

	PFFrameNumber  = regFrame.Uint("frame.number", "Frame number", dissect.BaseDec, nil)
	PFTimeRelative = regFrame.Float("frame.time_relative", "Time since the first frame", "s")
	PFTimeEpoch    = regFrame.Float("frame.time_epoch", "Epoch time", "s")
	PFIPSrc        = regIP.Str("ip.src", "Source address")
	PFIPDst        = regIP.Str("ip.dst", "Destination address")
	PFIPv6Src      = regIPv6.Str("ipv6.src", "Source address")
	PFIPv6Dst      = regIPv6.Str("ipv6.dst", "Destination address")
	PFUDPSrc       = regUDP.Uint("udp.srcport", "Source port", dissect.BaseDec, nil)
	PFUDPDst       = regUDP.Uint("udp.dstport", "Destination port", dissect.BaseDec, nil)
	PFTCPSrc       = regTCP.Uint("tcp.srcport", "Source port", dissect.BaseDec, nil)
	PFTCPDst       = regTCP.Uint("tcp.dstport", "Destination port", dissect.BaseDec, nil)
	PFTCPStream    = regTCP.Uint("tcp.stream", "Stream index", dissect.BaseDec, nil)

	PFProtocol  = dissect.Core.Str("mc.protocol", "Protocol")
	PFDirection = dissect.Core.Str("mc.direction", "Direction")
	PFMessage   = dissect.Core.Str("mc.message", "Message")
	PFExpert    = dissect.Core.Str("mc.expert", "Expert items")
	PFFrames    = dissect.Core.Uint("mc.reassembled.frames", "Reassembled from frames", dissect.BaseDec, nil)
	PFGapLength = dissect.Core.Uint("mc.gap.length", "Missing bytes", dissect.BaseDec, nil)

	// Tree fields the pipeline itself adds.
	FieldReassembled = dissect.Core.Label("mc.reassembled", "Reassembled TCP segments")
	FieldGap         = dissect.Core.Label("mc.gap", "Missing bytes (not captured)")
	FieldRetrans     = dissect.Core.Uint("mc.retransmission.differing", "Retransmitted bytes that differ from the first copy", dissect.BaseDec, nil)

	ExpertGap           = dissect.Core.Expert("mc.gap", dissect.SevWarn, "bytes of the stream were not captured; nothing is parsed across them")
	ExpertRetransDiffer = dissect.Core.Expert("mc.retransmission.differing", dissect.SevWarn, "a retransmitted segment carries bytes that differ from the first copy, which was used")
	ExpertPanic         = dissect.Core.Expert("mc.panic", dissect.SevError, "a decoder panicked on these bytes (a bug of mcdissect): the PDU is shown undissected and the run goes on")
	ExpertStreamLost    = dissect.Core.Expert("mc.stream.undissected", dissect.SevWarn, "stream bytes that no PDU explains")
)

func itoa(n int) string     { return strconv.Itoa(n) }
func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// Clone is a deep copy of r whose tree and bytes share nothing with it: a
// record a Sink keeps past its Record call.
func (r *Record) Clone() *Record {
	c := *r
	c.dec = nil
	c.PDU.Info = strings.Clone(r.PDU.Info) // a Lite PDU's views a buffer the decoder reuses
	c.buf = append([]byte(nil), r.data...)
	c.data, c.borrowed = c.buf, false
	c.Parts = append([]Part(nil), r.Parts...)
	c.PDU.Data = c.buf[:len(r.PDU.Data)]
	c.PDU.Nodes = append([]dissect.Node(nil), r.PDU.Nodes...)
	c.PDU.Experts = append([]dissect.ExpertItem(nil), r.PDU.Experts...)
	c.PDU.Objects = append([]dissect.Object(nil), r.PDU.Objects...)
	// Values of bytes point into the old buffer: point them into the new.
	repoint(&c.PDU, r.data, c.buf)
	return &c
}

package record

import (
	"errors"
	"net/netip"
	"strings"
	"time"
	"unsafe"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
)

// ErrStop, returned by whatever consumes records (a Sink, a renderer),
// ends the run without an error: -c reached its count, the page is full.
var ErrStop = errors.New("stop")

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
	Frame     uint64    // the frame that decided it
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
	// DeltaShown is the time since the previous record shown (-t dd),
	// set by the consumer that decides what is shown.
	DeltaShown time.Duration
	PDU        dissect.PDU

	// own is the tree of the layers below Minecraft (frame, Ethernet, IP,
	// TCP or UDP) of the frame that decided it (Layers), made from netBuf
	// and netFrame the first time it is read, with the fields its readers
	// read (layers.go); in scratch instead when the record has one.
	own      layerTree
	scratch  *LayerScratch
	netGen   uint64 // moves on when the record leaves its scratch (LayerScratch)
	netFrame netlayers.Frame
	netSet   bool           // SetLayers was called: the tree can be made
	netWant  netlayers.Want // the fields the record's readers read (WantLayers)
	buf      []byte         // owns PDU.Data, unless borrowed
	netBuf   []byte         // the frame's header bytes; owns net.Data
	data     []byte         // the record's bytes: buf, or a view of a buffer of the pipeline's
	borrowed bool           // data is not the record's: it must own them before that buffer is reused
	pseudo   dissect.Node   // scratch node for pseudo-field lookups (FieldRef.Each)
}

// SetData copies data into the record's own buffer: packet buffers are
// reused by the reader, and records may be held until their conversation
// resolves. The PDU itself is set up by the decoder's dissect.Begin, which
// every path calls next.
func (r *Record) SetData(data []byte) []byte {
	r.buf = append(r.buf[:0], data...)
	r.data, r.borrowed = r.buf, false
	return r.buf
}

// Borrow makes data its bytes without a copy: a view of a buffer the
// caller reuses. Lifetime rule: a borrowed record is done with before that
// buffer is reused, or owns its bytes first (Own; Redact does).
func (r *Record) Borrow(data []byte) {
	r.data, r.borrowed = data, true
}

// Own copies borrowed bytes into the record's buffer, and points its PDU
// and its tree's values there.
func (r *Record) Own() {
	if !r.borrowed {
		return
	}
	old := r.data
	r.SetData(old)
	if within(r.PDU.Data, old) {
		// (a PDU whose decoder derived bytes has a buffer of its own,
		// dissect.Cursor.Derive; a borrowed, Lite, one never does)
		r.PDU.Data = r.buf[:len(r.PDU.Data)]
	}
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
// them. Lifetime rule: a borrowed record views a buffer of the pipeline's;
// a record that outlives it calls Own first. TestRecordOwn breaks when a
// view is left behind.
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

// Reset readies a pooled record for reuse, field by field: assigning a
// whole new Record copied its ~700 bytes with write barriers, once per
// PDU. The pseudo-field scratch is not cleared: every lookup sets what it
// reads.
func (r *Record) Reset() {
	r.Kind, r.Frame, r.Time, r.Rel = 0, 0, time.Time{}, 0
	r.Src, r.Dst, r.TCP, r.Stream, r.Proto = netip.AddrPort{}, netip.AddrPort{}, false, 0, ""
	r.Parts, r.GapLength, r.Reason, r.Retrans = r.Parts[:0], 0, "", 0
	r.DeltaShown = 0
	r.buf, r.data, r.borrowed = r.buf[:0], nil, false
	if r.own.made {
		r.own.net.Reset(nil, 0)
	}
	r.own.made = false
	r.leaveScratch()
	r.netSet, r.netWant = false, netlayers.Want{}
	p := &r.PDU
	p.Reset(nil, 0)
}

// Data is the record's bytes: the PDU's, or what a note, a gap or an
// undissected range shows.
func (r *Record) Data() []byte { return r.data }

// Borrowed tells whether the record's bytes are a view of a buffer of the
// pipeline's (Borrow).
func (r *Record) Borrowed() bool { return r.borrowed }

// BufCap is the capacity of the record's own buffer, for pools that keep
// only records of ordinary size.
func (r *Record) BufCap() int { return cap(r.buf) }

// Clone is a deep copy of r whose tree and bytes share nothing with it: a
// record a Sink keeps past its Record call.
func (r *Record) Clone() *Record {
	// The layers are made before the copy, so that a kept record is never
	// written by a read (Layers), whichever goroutines read it.
	net := r.Layers()
	text := r.tree().text.Bytes()
	c := *r
	c.scratch = nil
	c.PDU.Info = strings.Clone(r.PDU.Info) // a Lite PDU's views its buffer for it, which the next SetInfo writes over (dissect.PDU.SetInfo)
	c.buf = append([]byte(nil), r.data...)
	c.data, c.borrowed = c.buf, false
	c.Parts = append([]Part(nil), r.Parts...)
	c.PDU.Nodes = append([]dissect.Node(nil), r.PDU.Nodes...)
	c.PDU.Experts = append([]dissect.ExpertItem(nil), r.PDU.Experts...)
	c.PDU.Objects = append([]dissect.Object(nil), r.PDU.Objects...)
	c.own = layerTree{net: *net, made: r.netSet, has: netlayers.All}
	c.netBuf = append([]byte(nil), net.Data...)
	c.own.net.Data = c.netBuf
	c.own.net.Nodes = append([]dissect.Node(nil), net.Nodes...)
	c.own.net.Experts = append([]dissect.ExpertItem(nil), net.Experts...)
	repoint(&c.own.net, net.Data, c.netBuf)
	// The texts view r's buffer, which r's next frame writes over.
	repoint(&c.own.net, text, append([]byte(nil), text...))
	// Values of bytes point into the old buffer: point them into the new.
	if within(r.PDU.Data, r.data) || len(r.PDU.Data) == 0 {
		c.PDU.Data = c.buf[:len(r.PDU.Data)]
		repoint(&c.PDU, r.data, c.buf)
	} else {
		// the decoder laid derived bytes (inflated, decrypted) after the
		// PDU's own in a buffer of their own (dissect.Cursor.Derive)
		c.PDU.Data = append([]byte(nil), r.PDU.Data...)
		repoint(&c.PDU, r.PDU.Data, c.PDU.Data)
	}
	return &c
}

package record

import (
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
)

// The tree of a record's layers (frame, Ethernet, IP, TCP or UDP) is made
// when it is first read, with the fields its readers read: those they
// declared (WantLayers, from what each said it reads, Needs) and the one
// being read. A read of a field the tree was not made with makes it again,
// with that field too: a reader that did not declare what it reads gets
// it all the same, at the cost of a second walk.

// SetLayers keeps what the tree of the record's layers is made of: the
// frame's header bytes (copied into the record's own buffer; nil for a
// frame whose bytes are not known) and what they do not hold. The tree is
// made the first time it is read, so that a record nothing reads the
// layers of costs no tree, and one that is read is made just before.
func (r *Record) SetLayers(head []byte, f *netlayers.Frame) {
	r.netBuf = append(r.netBuf[:0], head...)
	r.netFrame = *f
	r.netSet, r.own.made = true, false
	r.leaveScratch()
}

// layerTree is a tree of a record's layers and what it was made with.
type layerTree struct {
	net  dissect.PDU
	text netlayers.Texts // net's texts, which its nodes view
	made bool            // net is made, with the fields of has
	has  netlayers.Want
}

// LayerScratch is one tree of layers that the records handed to one
// goroutine make theirs in, each in turn (UseScratch). The records of a
// run are many and reused from a pool of hundreds, so a tree of its own
// per record is cold in the cache by the time the record is read: its ~60
// nodes cost a cache miss each (-T json: a tenth of its CPU). A record's
// tree in the scratch is its own until the next record's is made there,
// which fits the lifetime of what a reader is given (a record is read
// during the call that hands it over; one kept is a Clone, which makes
// its own).
//
// Only the goroutine that reads the records' layers touches the scratch,
// and points each record at it as it takes the record (UseScratch); the
// one that makes, reuses and redacts the records, while that one reads
// others, never does. A record that leaves it (leaveScratch: Reset,
// SetLayers, Redact) moves its generation on, so that a tree it made there
// is not taken for its own again, without a write to the scratch.
type LayerScratch struct {
	layerTree
	owner *Record // whose tree it holds, nil for none
	gen   uint64  // the owner's generation (Record.netGen) when it took it
}

// UseScratch has r make its layers' tree in s, which only the goroutine
// that reads r uses; the goroutine that hands r over calls it. A record
// whose own tree is made already keeps it: a redacted record's is masked
// (Redact leaves the scratch), a clone's is made.
func (r *Record) UseScratch(s *LayerScratch) {
	if !r.own.made {
		r.scratch = s
	}
}

// tree is where r's layers' tree is made: its own, or the scratch, which
// forgets another record's tree (or r's of a former use) first.
func (r *Record) tree() *layerTree {
	s := r.scratch
	if s == nil {
		return &r.own
	}
	if s.owner != r || s.gen != r.netGen {
		s.owner, s.gen, s.made = r, r.netGen, false
	}
	return &s.layerTree
}

// leaveScratch has r make its tree in its own from now on; r's
// generation moves on, so that a tree it made in the scratch is forgotten
// there: it writes r only, the scratch may be another goroutine's.
func (r *Record) leaveScratch() {
	r.scratch = nil
	r.netGen++
}

// WantLayers declares the fields of the layers the record's readers read
// (Needs.Layers of all of them): the tree is made with them at the first
// read, in one walk. The sink that hands a record to its readers calls it.
func (r *Record) WantLayers(w netlayers.Want) { r.netWant = w }

// Layers is the whole tree of the layers below Minecraft (frame, Ethernet,
// IP, TCP or UDP) of the frame that decided the record, from its header
// bytes (netlayers.Make); empty when no output reads them (SetLayers was
// not called). The first call makes it: like every read of a record, it
// happens on the goroutine the record was handed to (a kept record is a
// Clone, whose layers are made already).
func (r *Record) Layers() *dissect.PDU { return r.LayersWith(netlayers.All) }

// LayerLines is Layers for a reader of the layers' lines only (the nodes
// of the frame and of each layer under it, and their texts): the outline
// of the same tree, or more of it when more is made or declared.
func (r *Record) LayerLines() *dissect.PDU { return r.LayersWith(netlayers.Lines) }

// LayersWith is the tree of the record's layers with at least the fields
// w asks for, and those its readers declared (WantLayers).
func (r *Record) LayersWith(w netlayers.Want) *dissect.PDU {
	if !r.netSet {
		return &r.own.net
	}
	t := r.tree()
	if t.made && t.has.Covers(w) {
		return &t.net
	}
	w = w.Or(r.netWant)
	if t.made {
		w = w.Or(t.has)
	}
	netlayers.Make(&t.net, &t.text, r.netHead(), &r.netFrame, w)
	t.made, t.has = true, w
	return &t.net
}

// netHead is the frame's header bytes SetLayers kept, nil for none.
func (r *Record) netHead() []byte {
	if len(r.netBuf) == 0 {
		return nil
	}
	return r.netBuf
}

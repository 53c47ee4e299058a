package record

import (
	"unsafe"

	"github.com/mcdissect/mcdissect/dissect"
)

// ExpertSecretsFull is on the first record whose secret --redact's set
// refused, past its bounds (analyze counts the others).
var ExpertSecretsFull = dissect.Core.Expert("mc.redact.full", dissect.SevWarn, "--redact's set of secrets is full: this record's secrets are masked in it, not their copies in other records")

// Redact masks r's secrets and every copy of the secrets of set in r's
// own copy of the bytes (--redact), as the back end emits it. set is the
// run's (dissect.Secrets): r's secrets are learned into it first, so that
// the copies found are those of every secret learned so far, in any record
// of any protocol. Then:
//
//   - the tree's marks are masked (dissect.PDU.MaskMarked): its secrets,
//     and its opaque bytes (undissected, an unknown packet's body), which
//     may hold a secret no decoder marked;
//   - a record that is no PDU (undissected bytes, a retransmission's
//     differing bytes) is masked whole, whatever its protocol: when in
//     doubt, the whole range;
//   - every copy of a learned secret is masked (dissect.Secrets.Mask) in
//     the PDU, the layers' tree and the reason the record gives;
//   - a secret the set refused (past its bounds) is still masked here, by a
//     set of r's own, and refused reports how many were: their copies in
//     other records are not masked.
//
// The bytes written are the record's own, never the reader's or the
// batch's (a borrowed record is made to own its bytes first). -w writes the
// frames as read, before they are dissected, so it cannot mask them: the
// CLI refuses --redact with -w.
func (r *Record) Redact(set *dissect.Secrets) (refused int) {
	p := &r.PDU
	r.ownPDUData()
	var own *dissect.Secrets
	if refused = set.Learn(p); refused > 0 {
		own = dissect.NewSecrets()
		own.Learn(p)
	}
	if r.Kind != KindPDU {
		p.RedactAll()
	} else {
		p.MaskMarked()
	}
	// The layers are masked in their tree, made now (Layers): a copy in
	// their header bytes shows in the texts and values made from them.
	var net *dissect.PDU
	if r.netSet {
		r.leaveScratch() // the masked tree must stay the record's
		net = r.Layers()
	}
	for _, s := range [2]*dissect.Secrets{set, own} {
		if s != nil {
			s.Mask(p)
			if net != nil {
				s.MaskLayers(net)
			}
			r.Reason = s.Scrub(r.Reason)
		}
	}
	return refused
}

// ownPDUData makes the PDU's bytes the record's own buffer (its values that
// view them follow), so that they may be written.
func (r *Record) ownPDUData() {
	if r.borrowed {
		r.Own()
	}
	d := r.PDU.Data
	if len(d) == 0 || within(d, r.buf) {
		return
	}
	nb := append([]byte(nil), d...)
	repoint(&r.PDU, d, nb)
	r.PDU.Data = nb
}

// within reports whether b lies inside buf. unsafe: addresses are
// compared, nothing is read or written through them (Go has no safe way to
// ask whether two slices share memory); no fast path, so no benchmark. The
// rule it enforces, that redaction writes only the record's own copy, is
// held by TestRedactBorrowed and the -w redaction tests.
func within(b, buf []byte) bool {
	if len(b) == 0 || len(buf) == 0 {
		return false
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return p >= lo && p+uintptr(len(b)) <= lo+uintptr(len(buf))
}

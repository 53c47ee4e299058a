package record

import (
	"unsafe"

	"github.com/mcdissect/mcdissect/dissect"
)

// Redact masks r's secrets in its own copy of the bytes (--redact), as the
// back end emits it: the tree's secrets with dissect.PDU.Redact, and the
// whole of the undissected bytes (or differing retransmission) of a
// protocol that has secrets (dissect.Registry.HasSecrets) or of a stream
// no protocol claimed, which may hold a salt or key that no tree locates
// (a heartbeat or identification cut short or misframed is often not even
// recognised): when in doubt, the whole range. Records of other
// protocols, and PDUs without a secret, are left as they are, without a
// copy.
//
// The bytes written are the record's own, never the reader's or the
// batch's (a borrowed record is made to own its bytes first). -w writes the
// frames as read, before they are dissected, so it cannot mask them: the
// CLI refuses --redact with -w.
func (r *Record) Redact() {
	p := &r.PDU
	doubt := r.Kind != KindPDU && (r.Proto == "tcp" || secretsIn(r.Proto))
	if !doubt && !p.Sensitive() {
		return
	}
	r.ownPDUData()
	if doubt {
		p.RedactAll()
		return
	}
	p.Redact()
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

// secretsIn reports whether protocol proto has secrets.
func secretsIn(proto string) bool {
	reg := dissect.LookupRegistry(proto)
	return reg != nil && reg.HasSecrets()
}

package dissect

import (
	"bytes"
	"unicode/utf8"
	"unsafe"
)

// RedactedText replaces a secret's value and every copy of it in texts.
const RedactedText = "<redacted>"

// RedactByte overwrites a secret's bytes in PDU.Data ('*', shown as 2a in
// hex, as * in ASCII).
const RedactByte = '*'

// minSecret is the shortest value whose copies in texts and bytes are
// searched for: a shorter one would mask unrelated text (its own node's
// bytes are masked whatever its length).
const minSecret = 4

// Sensitive reports whether any node of p is a secret: flagged
// FlagSensitive by its decoder, or of a Sensitive field.
func (p *PDU) Sensitive() bool {
	for i := range p.Nodes {
		if n := &p.Nodes[i]; n.Flags&FlagSensitive != 0 || n.Field != nil && n.Field.Sensitive {
			return true
		}
	}
	return false
}

// Redact masks every copy of p's secrets in p itself, once, before any
// renderer, filter or statistic reads it (--redact):
//
//   - a secret is a node flagged FlagSensitive or of a Sensitive field;
//     every node inside a secret's byte range or under a secret (its child
//     fields) is one too, but for generated children, which hold no wire
//     bytes (a key's "[Key valid: True]" stays);
//   - when p has a secret, its undissected bytes (mc.undissected) are
//     secrets too: a cut or misframed PDU may hold another copy;
//   - the bytes of every secret are overwritten in p.Data with RedactByte,
//     and so is every other occurrence in p.Data of a secret's value or
//     bytes (ASCII case ignored: keys are hex);
//   - a secret node's value becomes RedactedText (Text and N cleared), and
//     every occurrence of a secret's value in any node's text, key or
//     string value, in Info, Message and the expert items, is replaced by
//     RedactedText.
//
// p.Data is written: the caller makes sure p owns it (not a reader's or a
// batch's buffer others read). Values that alias p.Data are masked with it;
// others are replaced, never written (they may view immutable strings).
func (p *PDU) Redact() {
	if !p.Sensitive() {
		return
	}
	// Mark. A secret's byte range makes the nodes inside it secrets: the
	// range of a Sensitive field's node, or of a flagged leaf. A flagged
	// node with children (a heartbeat's request line holding the salt)
	// is masked itself, but gives its children no range: its salt is a
	// node of its own.
	type span struct{ lo, hi int32 }
	var spans []span
	inSpan := func(lo, hi int32) bool {
		for _, s := range spans {
			if lo >= s.lo && hi <= s.hi && hi > lo {
				return true
			}
		}
		return false
	}
	leaf := make([]bool, len(p.Nodes))
	for i := range leaf {
		leaf[i] = true
	}
	for i := 1; i < len(p.Nodes); i++ {
		if n := &p.Nodes[i]; n.Flags&FlagGenerated == 0 && n.Parent >= 0 {
			leaf[n.Parent] = false
		}
	}
	for i := range p.Nodes {
		n := &p.Nodes[i]
		gen := n.Flags&FlagGenerated != 0
		field := n.Field != nil && n.Field.Sensitive
		sens := n.Flags&FlagSensitive != 0 || field || n.Field == FieldUndissected
		if !sens && !gen && i > 0 && inSpan(n.Offset, n.Offset+n.Length) {
			sens = true
		}
		if !sens {
			continue
		}
		n.Flags |= FlagSensitive
		if !gen && n.Length > 0 && (field || leaf[i]) {
			spans = append(spans, span{n.Offset, n.Offset + n.Length})
		}
	}
	// The secrets' values and bytes, to find their copies.
	var secrets [][]byte
	add := func(b []byte) {
		if len(b) < minSecret {
			return
		}
		for _, s := range secrets {
			if bytes.EqualFold(s, b) {
				return
			}
		}
		secrets = append(secrets, bytes.Clone(b))
	}
	for i := range p.Nodes {
		n := &p.Nodes[i]
		if n.Flags&FlagSensitive == 0 || n.Field == FieldUndissected || !n.Field.Sensitive && !leaf[i] {
			continue // a container's value is its children's, and would mask all of them
		}
		if n.Field.Type == FTString || n.Field.Type == FTBytes {
			add(n.Value.B)
		}
		if n.Flags&FlagGenerated == 0 && n.Length > 0 && int(n.Offset+n.Length) <= len(p.Data) {
			add(p.Data[n.Offset : n.Offset+n.Length])
		}
	}
	// The bytes.
	for _, s := range spans {
		if int(s.hi) <= len(p.Data) && s.lo >= 0 {
			fill(p.Data[s.lo:s.hi])
		}
	}
	for _, s := range secrets {
		maskFold(p.Data, s)
	}
	// The values and texts.
	data := p.Data
	for i := range p.Nodes {
		n := &p.Nodes[i]
		if n.Flags&FlagSensitive != 0 && i > 0 {
			n.Value, n.Text = S(RedactedText), ""
			continue
		}
		n.Text = scrub(n.Text, secrets)
		n.Key = scrub(n.Key, secrets)
		if len(n.Value.B) > 0 && !aliases(n.Value.B, data) {
			if s := n.Value.View(); scrub(s, secrets) != s {
				n.Value.B = []byte(scrub(s, secrets))
			}
		}
	}
	p.Info = scrub(p.Info, secrets)
	p.Message = scrub(p.Message, secrets)
	for i := range p.Experts {
		p.Experts[i].Msg = scrub(p.Experts[i].Msg, secrets)
	}
}

// RedactAll masks every byte of p: for records that may hold a secret no
// tree locates (undissected bytes of a Classic stream, a gap's record):
// when in doubt, the whole range. Every node with bytes is a secret.
func (p *PDU) RedactAll() {
	for i := range p.Nodes {
		if n := &p.Nodes[i]; i > 0 && n.Flags&FlagGenerated == 0 && n.Length > 0 {
			n.Flags |= FlagSensitive
			n.Value, n.Text = S(RedactedText), ""
		}
	}
	fill(p.Data)
}

func fill(b []byte) {
	for i := range b {
		b[i] = RedactByte
	}
}

// aliases reports whether b lies within data. unsafe: addresses are
// compared, nothing is read or written through them; Go has no safe way to
// ask whether two slices share memory. No fast path, so no benchmark: it
// tells the bytes redaction may write (the PDU's) from values made by S,
// which must never be written (TestRedact faults on a string literal if
// they are).
func aliases(b, data []byte) bool {
	if len(b) == 0 || len(data) == 0 {
		return false
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return p >= lo && p < lo+uintptr(len(data))
}

// maskFold overwrites every occurrence of s in b, ASCII case ignored.
func maskFold(b, s []byte) {
	for i := 0; i+len(s) <= len(b); i++ {
		if bytes.EqualFold(b[i:i+len(s)], s) {
			fill(b[i : i+len(s)])
			i += len(s) - 1
		}
	}
}

// scrub replaces every occurrence of a secret in t, ASCII case ignored.
func scrub(t string, secrets [][]byte) string {
	if len(t) == 0 {
		return t
	}
	for _, s := range secrets {
		var out []byte
		last := 0
		for i := 0; i+len(s) <= len(t); i++ {
			if !utf8.RuneStart(t[i]) || !bytes.EqualFold([]byte(t[i:i+len(s)]), s) {
				continue
			}
			out = append(out, t[last:i]...)
			out = append(out, RedactedText...)
			last = i + len(s)
			i = last - 1
		}
		if out != nil {
			t = string(append(out, t[last:]...))
		}
	}
	return t
}

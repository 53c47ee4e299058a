package dissect

import (
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// RedactedText replaces a secret's value and every copy of it in texts.
const RedactedText = "<redacted>"

// RedactByte overwrites a secret's bytes in PDU.Data ('*', shown as 2a in
// hex, as * in ASCII).
const RedactByte = '*'

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

// Redact masks p's secrets and every copy of them in p itself, once,
// before any renderer, filter or statistic reads it: the secrets are
// learned into a set of p's own (Secrets.Learn), the tree's marks are
// masked (MaskMarked), then every copy of the set's values (Secrets.Mask).
// A run masks its records so with the set it learns from all of them
// (record.Record.Redact), which finds copies in other PDUs too.
//
// p.Data is written: the caller makes sure p owns it (not a reader's or a
// batch's buffer others read). Values that alias p.Data are masked with
// it; others are replaced, never written (they may view immutable
// strings).
func (p *PDU) Redact() {
	var s Secrets
	s.Learn(p) // before MaskMarked writes over the secrets' bytes
	p.MaskMarked()
	s.Mask(p)
}

// MaskMarked masks what p's tree marks (--redact):
//
//   - a secret is a node flagged FlagSensitive or of a Sensitive field;
//     every node under a Sensitive field's node is one too (its child
//     fields), but for generated children, which hold no wire bytes (a
//     key's "[Key valid: True]" stays);
//   - opaque bytes (a node of an Opaque field: undissected bytes, an
//     unknown packet's body) are masked whole, in every protocol: they may
//     hold a secret no decoder could mark (a Classic stream decoded as
//     another protocol, a decoder's panic, a PDU misframed); when in
//     doubt, the whole range;
//   - the bytes of a Sensitive field's node, of a flagged node without
//     children on the wire and of opaque bytes are overwritten in p.Data
//     with RedactByte (a flagged node with children, a heartbeat's request
//     line holding the salt, is masked itself but gives its children no
//     range: its salt is a node of its own);
//   - every such node's value becomes RedactedText (Text and N cleared).
//
// Copies elsewhere are Secrets.Mask's. Lite PDUs keep no tree to mark.
func (p *PDU) MaskMarked() {
	if len(p.Nodes) < 2 {
		return
	}
	var leaf []bool
	var under []bool // under a Sensitive field's node
	for i := 1; i < len(p.Nodes); i++ {
		n := &p.Nodes[i]
		gen := n.Flags&FlagGenerated != 0
		field := n.Field != nil && n.Field.Sensitive
		opaque := n.Field != nil && n.Field.Opaque
		inherited := !gen && n.Parent > 0 && under != nil && under[n.Parent]
		if !field && !opaque && !inherited && n.Flags&FlagSensitive == 0 {
			continue
		}
		if under == nil {
			under = make([]bool, len(p.Nodes))
			leaf = leaves(p)
		}
		under[i] = !gen && (field || inherited)
		n.Flags |= FlagSensitive
		n.Value, n.Text = S(RedactedText), ""
		if !gen && n.Length > 0 && (field || opaque || leaf[i]) && n.Offset >= 0 && int(n.Offset+n.Length) <= len(p.Data) {
			fill(p.Data[n.Offset : n.Offset+n.Length])
		}
	}
}

// RedactAll masks every byte of p: for records that may hold a secret no
// tree locates (undissected bytes, a retransmission's differing bytes):
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

// Mask masks, in p, every copy of the set's secrets (see Secrets):
//
//   - in p.Data, each copy's bytes become RedactByte, and so do the parts
//     of a copy cut at the ends of the bytes or of a node's value;
//   - in a value that does not view p.Data (text a decoder made: a string
//     unescaped, decoded from UTF-16 or CP437, a de-chunked body), each
//     copy is replaced by RedactedText (bytes by RedactByte), in a copy of
//     the value; so in texts, keys, Info, Message and the expert items,
//     where a value's old text is replaced by its new one too;
//   - a node whose value held a copy that its bytes do not hold as the scan
//     reads them (encoded otherwise: UTF-16, a JSON escape of another
//     kind) has its bytes masked whole;
//   - a node whose bytes were masked but whose value was made from them
//     and holds no copy the scan finds (a number, a part of a copy) is a
//     secret: its value becomes RedactedText, and so does every copy of
//     its old value in Info and the texts;
//   - a node whose bytes were masked has its text (made from them, perhaps
//     in hex) dropped, unless a copy was found and replaced in it;
//   - the files p carries (Objects) are masked in a copy of their bytes.
//
// p.Data is written: the caller makes sure p owns it.
func (s *Secrets) Mask(p *PDU) { s.mask(p, true) }

// MaskLayers is Mask for the tree of the layers below Minecraft (frame,
// Ethernet, IP, TCP, UDP), whose values and texts are made from their own
// header bytes alone (addresses, ports, lengths, times): only the bytes
// are read, and the nodes over bytes masked lose their values and texts as
// in Mask. Their texts were two thirds of the text a -V run scanned.
func (s *Secrets) MaskLayers(p *PDU) { s.mask(p, false) }

// mask is Mask, reading the values, texts and keys of p's nodes when made
// says that a decoder made them (not from their own bytes alone).
func (s *Secrets) mask(p *PDU, made bool) {
	if len(s.pieces) == 0 {
		return
	}
	spans := find(s, p.Data, true, s.dataSpans[:0])
	// The parts of a copy at the ends of the values that view the bytes:
	// a value is a unit a secret may be cut at (a chat message), and its
	// ends are no ends of the bytes.
	n := len(spans)
	for i := range p.Nodes {
		v := p.Nodes[i].Value.B
		if f := p.Nodes[i].Field; made && f != nil && (f.Type == FTString || f.Type == FTBytes) && len(v) >= MinSecret && aliases(v, p.Data) {
			off := offsetIn(v, p.Data)
			for _, e := range edgeSpans(s, v, s.spans[:0]) {
				spans = append(spans, span{off + e.lo, off + e.hi})
			}
		}
	}
	if len(spans) > n {
		spans = merge(spans, 0)
	}
	s.dataSpans = spans
	var changed [][2]string // values replaced: their copies in texts go too
	if len(spans) > 0 {
		// The old texts of the values that view the bytes, before they
		// change with them.
		for i := range p.Nodes {
			nd := &p.Nodes[i]
			if v := nd.Value.B; nd.Field != nil && nd.Field.Type == FTString && len(v) >= MinSecret && aliases(v, p.Data) {
				off := offsetIn(v, p.Data)
				if sp := clip(spans, off, off+len(v)); len(sp) > 0 {
					old := string(v)
					changed = append(changed, [2]string{old, replaceSpans(old, sp)})
				}
			}
		}
		for _, sp := range spans {
			fill(p.Data[sp.lo:sp.hi])
		}
	}
	var extra []span // node ranges masked whole
	for i := len(p.Nodes) - 1; i >= 0; i-- {
		nd := &p.Nodes[i]
		hit := false
		old := nd.Value.B
		alias := aliases(old, p.Data)
		if made && len(old) > 0 && !alias && nd.Field != nil && (nd.Field.Type == FTString || nd.Field.Type == FTBytes) {
			if nv, ok := s.maskValue(old, nd.Field.Type == FTBytes); ok {
				nd.Value.B = nv
				hit = true
				if nd.Field.Type == FTString {
					changed = append(changed, [2]string{string(old), string(nv)})
				}
			}
		}
		textHit := false
		if made {
			if k, ok := s.scrub(nd.Key); ok {
				nd.Key, hit = k, true
			}
			if t, ok := s.scrub(nd.Text); ok {
				nd.Text, textHit = t, true
			}
		}
		if i == 0 || nd.Flags&FlagGenerated != 0 || nd.Length <= 0 || nd.Offset < 0 || int(nd.Offset+nd.Length) > len(p.Data) {
			continue
		}
		lo, hi := int(nd.Offset), int(nd.Offset+nd.Length)
		over := overlaps(spans, lo, hi) || slices.ContainsFunc(extra, func(e span) bool { return e.lo < hi && lo < e.hi })
		switch {
		case hit && !over:
			fill(p.Data[lo:hi])
			extra = append(extra, span{lo, hi})
		case over && !hit && !alias && derived(nd):
			if nd.Field.Type == FTString && len(old) >= MinSecret {
				changed = append(changed, [2]string{string(old), RedactedText})
			}
			nd.Flags |= FlagSensitive
			nd.Value, nd.Text = S(RedactedText), ""
		case over && !textHit:
			nd.Text = ""
		}
	}
	if len(changed) > 0 {
		// Longest first: a value that holds another is replaced whole.
		slices.SortStableFunc(changed, func(a, b [2]string) int { return len(b[0]) - len(a[0]) })
		for i := range p.Nodes {
			p.Nodes[i].Text = replaceAll(p.Nodes[i].Text, changed)
		}
	}
	p.Info = s.Scrub(replaceAll(p.Info, changed))
	p.Message = s.Scrub(replaceAll(p.Message, changed))
	for i := range p.Experts {
		p.Experts[i].Msg = s.Scrub(replaceAll(p.Experts[i].Msg, changed))
	}
	for i := range p.Objects {
		o := &p.Objects[i]
		o.Name = s.Scrub(o.Name)
		if aliases(o.Data, p.Data) {
			continue // masked with them
		}
		if sp := find(s, o.Data, false, s.spans[:0]); len(sp) > 0 {
			o.Data = slices.Clone(o.Data)
			for _, r := range sp {
				fill(o.Data[r.lo:r.hi])
			}
			s.spans = sp
		}
	}
}

// offsetIn is where b, which lies within data, starts in it. unsafe: as
// aliases, addresses are compared only.
func offsetIn(b, data []byte) int {
	return int(uintptr(unsafe.Pointer(unsafe.SliceData(b))) - uintptr(unsafe.Pointer(unsafe.SliceData(data))))
}

// clip is the parts of the sorted spans within [lo, hi), made relative to lo.
func clip(spans []span, lo, hi int) []span {
	var out []span
	i, _ := slices.BinarySearchFunc(spans, lo, func(s span, lo int) int {
		if s.hi <= lo {
			return -1
		}
		return 1
	})
	for ; i < len(spans) && spans[i].lo < hi; i++ {
		out = append(out, span{max(spans[i].lo, lo) - lo, min(spans[i].hi, hi) - lo})
	}
	return out
}

// Scrub is t with every copy of a secret replaced by RedactedText.
func (s *Secrets) Scrub(t string) string {
	t, _ = s.scrub(t)
	return t
}

func (s *Secrets) scrub(t string) (string, bool) {
	sp := find(s, readOnly(t), false, s.spans[:0])
	if len(sp) == 0 {
		return t, false
	}
	s.spans = sp
	return replaceSpans(t, sp), true
}

// maskValue is the value b with every copy (and a part of a copy at its
// ends: a value is a unit a secret may be cut at, a chat message) masked,
// in a copy; ok is false when b holds none.
func (s *Secrets) maskValue(b []byte, isBytes bool) (nv []byte, ok bool) {
	sp := find(s, b, true, s.spans[:0])
	if len(sp) == 0 {
		return b, false
	}
	s.spans = sp
	if isBytes {
		nv = slices.Clone(b)
		for _, r := range sp {
			fill(nv[r.lo:r.hi])
		}
		return nv, true
	}
	return []byte(replaceSpans(string(b), sp)), true
}

// replaceSpans replaces each span of t by RedactedText, widened to whole
// UTF-8 sequences.
func replaceSpans(t string, sp []span) string {
	out := make([]byte, 0, len(t)+len(sp)*len(RedactedText))
	last := 0
	for _, r := range sp {
		lo, hi := r.lo, r.hi
		for lo > last && !utf8.RuneStart(t[lo]) {
			lo--
		}
		for hi < len(t) && !utf8.RuneStart(t[hi]) {
			hi++
		}
		if lo < last {
			lo = last
		}
		out = append(out, t[last:lo]...)
		out = append(out, RedactedText...)
		last = max(last, hi)
	}
	return string(append(out, t[last:]...))
}

// replaceAll replaces in t every occurrence of each pair's old text by its
// new.
func replaceAll(t string, pairs [][2]string) string {
	for _, pr := range pairs {
		if len(pr[0]) >= MinSecret && len(t) >= len(pr[0]) {
			t = strings.ReplaceAll(t, pr[0], pr[1])
		}
	}
	return t
}

// overlaps reports whether any of the sorted, disjoint spans meets [lo, hi).
func overlaps(spans []span, lo, hi int) bool {
	i, _ := slices.BinarySearchFunc(spans, lo, func(s span, lo int) int {
		if s.hi <= lo {
			return -1
		}
		return 1
	})
	return i < len(spans) && spans[i].lo < hi
}

// derived reports whether n's value is made from its bytes without viewing
// them: a number, or text or bytes decoded into a buffer of their own.
func derived(n *Node) bool {
	switch n.Field.Type {
	case FTUint, FTInt, FTBool, FTFloat, FTFrameNum, FTAbsTime:
		return true
	case FTString, FTBytes:
		return len(n.Value.B) > 0
	}
	return false
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

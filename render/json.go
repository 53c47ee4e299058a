package render

import (
	"strconv"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// jsonRenderer streams a JSON array, one object per record, each with its
// whole tree: names, offsets, lengths, typed values, display strings and
// expert items. Records are batched until they pass the writer's buffer,
// and a larger one is written in pieces between its nodes (batchWriter),
// so what is held does not grow with a record's tree: it is that buffer
// and the text of one node.
type jsonRenderer struct {
	batchWriter
	o      Options
	n      int
	open   []openNode  // the ancestors of the node being written
	show   []byte      // scratch for display strings
	fields []jsonField // by field ID
	clock  stampCache
	when   stampCache // frame.time's (appendAbsTime)
	pairs  pairCache
	exps   expertsByNode
}

func (j *jsonRenderer) Begin() error {
	j.buf = append(j.buf, '[')
	return nil
}

func (j *jsonRenderer) End() error {
	if j.n > 0 {
		j.buf = append(j.buf, '\n')
	}
	j.buf = append(j.buf, "]\n"...)
	return j.Flush()
}

// Record formats r into the renderer's buffer, in pieces (batchWriter).
func (j *jsonRenderer) Record(r *record.Record) error {
	err := j.done(j.Append(j.begin(), r, j.n == 0))
	j.n++
	return err
}

func (j *jsonRenderer) Raw(b []byte, records int) error {
	j.n += records
	return j.raw(b)
}

// Append appends r's object; first is whether it opens the array (no comma).
func (j *jsonRenderer) Append(b []byte, r *record.Record, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, "\n  {\"frame\": "...)
	b = dissect.AppendUint(b, r.Frame)
	b = append(b, ", \"time\": \""...)
	b = j.clock.appendStamp(b, r.Time) // digits and punctuation: nothing to escape
	b = append(b, "Z\", \"time_relative\": "...)
	b = appendRelative(b, r.Rel)
	b = append(b, j.pairs.text(r, appendJSONPair)...)
	b = append(b, ", \"direction\": \""...)
	b = append(b, r.PDU.Dir.String()...) // c2s, s2c or unknown
	b = append(b, "\", \"message\": "...)
	b = appendJSONString(b, r.PDU.Message)
	b = append(b, ", \"info\": "...)
	b = appendJSONString(b, r.PDU.Info)
	// the PDU's own bytes; what a decoder derived from them (inflated,
	// decrypted) lies after them, and is counted apart
	own := len(r.PDU.Data) - r.PDU.Derived
	b = append(b, ", \"length\": "...)
	b = dissect.AppendInt(b, int64(own))
	if w := r.PDU.WireLen - r.PDU.Derived; w > own {
		b = append(b, ", \"wire_length\": "...)
		b = dissect.AppendInt(b, int64(w))
	}
	if r.PDU.Derived > 0 {
		b = append(b, ", \"derived_length\": "...)
		b = dissect.AppendInt(b, int64(r.PDU.Derived))
	}
	if len(r.Parts) > 0 {
		b = append(b, ", \"frames\": ["...)
		for i, p := range r.Parts {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, "{\"frame\": "...)
			b = dissect.AppendUint(b, p.Frame)
			b = append(b, ", \"bytes\": "...)
			b = dissect.AppendInt(b, int64(p.Bytes))
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if r.Kind == record.KindGap {
		b = append(b, ", \"gap_length\": "...)
		b = dissect.AppendInt(b, int64(r.GapLength))
	}
	if net := r.Layers(); len(net.Nodes) > 0 {
		b = append(b, ", \"layers\": "...)
		b = j.appendTree(b, net)
	}
	b = append(b, ", \"tree\": "...)
	if len(r.PDU.Nodes) > 0 {
		b = j.appendTree(b, &r.PDU)
	} else {
		b = append(b, "null"...)
	}
	return append(b, '}')
}

// appendJSONPair appends the members a pairCache keeps: addresses,
// transport and protocol.
func appendJSONPair(b []byte, r *record.Record) []byte {
	var addr [64]byte // on the stack: an IPv6 address with port and zone fits
	b = append(b, ", \"src\": "...)
	b = appendJSONBytes(b, appendAddrPort(addr[:0], r.Src))
	b = append(b, ", \"dst\": "...)
	b = appendJSONBytes(b, appendAddrPort(addr[:0], r.Dst))
	if r.TCP {
		b = append(b, ", \"transport\": \"tcp\", \"stream\": "...)
		b = dissect.AppendInt(b, int64(r.Stream))
	} else {
		b = append(b, ", \"transport\": \"udp\""...)
	}
	b = append(b, ", \"protocol\": "...)
	return appendJSONString(b, r.Proto)
}

// appendRelative appends d in seconds with nine decimals, as
// strconv.AppendFloat(b, d.Seconds(), 'f', 9, 64) does, in integers. Below
// 2^17 s the float is within 1e-10 of d, so it rounds to d's own
// nanoseconds; beyond, the float's rounding is kept, the float way.
func appendRelative(b []byte, d time.Duration) []byte {
	const bound = 1 << 17 * time.Second
	if d <= -bound || d >= bound {
		return strconv.AppendFloat(b, d.Seconds(), 'f', 9, 64)
	}
	if d < 0 {
		b = append(b, '-')
		d = -d
	}
	b = dissect.AppendInt(b, int64(d/time.Second))
	b = append(b, '.')
	return dissect.AppendUintPad(b, uint64(d%time.Second), 9)
}

// openNode is a node whose object is written but not closed yet.
type openNode struct {
	i    int32
	kids bool // its "children" array is open
}

// appendTree writes the tree as nested objects in one pass over the flat
// pre-order slice: a node's object stays open while its subtree follows,
// each child opening its parent's "children" array or adding to it.
func (j *jsonRenderer) appendTree(b []byte, p *dissect.PDU) []byte {
	open := j.open[:0]
	j.exps.index(p)
	experts := len(p.Experts) > 0
	for i := range p.Nodes {
		b = j.cut(b)
		n := &p.Nodes[i]
		par := n.Parent
		for len(open) > 0 && open[len(open)-1].i != par {
			b = closeNode(b, open[len(open)-1])
			open = open[:len(open)-1]
		}
		ind := -1 // the root's object follows what is before it
		if len(open) > 0 {
			top := &open[len(open)-1]
			if top.kids {
				b = append(b, ',')
			} else {
				b = append(b, ", \"children\": ["...)
				top.kids = true
			}
			ind = 2 * (len(open) + 2)
		} else if i > 0 {
			break // a second root: not a tree (Check rejects it)
		}
		b = j.appendFields(b, p, n, int32(i), ind, experts)
		open = append(open, openNode{i: int32(i)})
	}
	for k := len(open) - 1; k >= 0; k-- {
		b = closeNode(b, open[k])
	}
	j.open = open[:0]
	return b
}

func closeNode(b []byte, o openNode) []byte {
	if o.kids {
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendFields writes node n's object, p's node i, up to, not including,
// its children, after a line break and ind spaces when ind >= 0; experts
// is whether p has expert items.
func (j *jsonRenderer) appendFields(b []byte, p *dissect.PDU, n *dissect.Node, i int32, ind int, experts bool) []byte {
	jf := j.field(n.Field)
	switch {
	case n.Key != "":
		if ind >= 0 {
			b = append(b, '\n')
			b = appendSpaces(b, ind)
		}
		if jf != nil && jf.keyHead != nil {
			// The keyed name, "query.kv.hostname": only the key escaped.
			b = append(b, jf.keyHead...)
			b = appendJSONEscaped(b, n.Key)
			b = append(b, jf.keyTail...)
		} else {
			// The keyed name, "query.kv.hostname", built in scratch space.
			j.show = append(append(append(j.show[:0], n.Field.Name...), '.'), n.Key...)
			b = appendHead(b, unsafe.String(unsafe.SliceData(j.show), len(j.show)), n.Field.Label) // not kept: see appendJSONBytes
		}
	case jf != nil:
		b = append(b, jf.lead(ind)...)
	default:
		if ind >= 0 {
			b = append(b, '\n')
			b = appendSpaces(b, ind)
		}
		b = appendHead(b, n.Field.Name, n.Field.Label)
	}
	b = dissect.AppendInt(b, int64(n.Offset))
	b = append(b, ", \"length\": "...)
	b = dissect.AppendInt(b, int64(n.Length))
	done := false
	if jf != nil && n.Text == "" && !redacted(&j.o, n) {
		b, done = j.appendKnown(b, n, jf)
	}
	if !done && hasValue(n) {
		if redacted(&j.o, n) {
			b = append(b, ", \"show\": "...)
			b = appendJSONString(b, redactedText)
		} else if n.Text != "" {
			b = append(b, ", \"show\": \""...)
			b = j.appendShownJSON(b, n.Text, false)
			b = append(b, '"')
			b = j.appendValue(b, n)
		} else if str, ok := plainString(n); ok {
			// Quoted for display, as itself, and in JSON its quotes
			// escaped: one scan of the string for the two members.
			b = append(b, ", \"show\": \"\\\""...)
			b = append(b, str...)
			b = append(b, "\\\"\", \"value\": \""...)
			b = append(b, str...)
			b = append(b, '"')
		} else {
			b = append(b, ", \"show\": \""...)
			b = j.appendShow(b, n, jf != nil && jf.plain)
			b = j.appendValue(b, n)
		}
	}
	if n.Flags&(dissect.FlagGenerated|dissect.FlagTruncated|dissect.FlagMalformed) != 0 {
		if n.Flags&dissect.FlagGenerated != 0 {
			b = append(b, ", \"generated\": true"...)
		}
		if n.Flags&dissect.FlagTruncated != 0 {
			b = append(b, ", \"truncated\": true"...)
		}
		if n.Flags&dissect.FlagMalformed != 0 {
			b = append(b, ", \"malformed\": true"...)
		}
	}
	if !experts {
		return b
	}
	first := true
	for _, k := range j.exps.at(int(i)) {
		e := &p.Experts[k]
		if first {
			b = append(b, ", \"expert\": ["...)
			first = false
		} else {
			b = append(b, ", "...)
		}
		b = append(b, "{\"name\": "...)
		b = appendJSONString(b, e.Info.Name)
		b = append(b, ", \"severity\": "...)
		b = appendJSONString(b, e.Info.Severity.String())
		b = append(b, ", \"message\": "...)
		b = appendJSONString(b, e.Msg)
		b = append(b, '}')
	}
	if !first {
		b = append(b, ']')
	}
	return b
}

// appendShow appends n's display string and its closing quote, after
// the opening quote; plain is its field's jsonField.plain. The display
// string is written in place, and only what follows its first byte to
// escape, if any, is moved out to be escaped back: there is seldom
// anything to escape but for the quotes of string values, near the end.
func (j *jsonRenderer) appendShow(b []byte, n *dissect.Node, plain bool) []byte {
	start := len(b)
	b = dissect.AppendValue(b, n)
	if plain && n.Text == "" {
		return append(b, '"')
	}
	k := start + jsonSafe(unsafe.String(unsafe.SliceData(b[start:]), len(b)-start)) // not kept: see appendJSONBytes
	if k < len(b) {
		j.show = append(j.show[:0], b[k:]...)
		b = appendJSONEscaped(b[:k], unsafe.String(unsafe.SliceData(j.show), len(j.show))) // not kept: see appendJSONBytes
	}
	return append(b, '"')
}

// plainString returns n's string value if n shows it quoted (a string
// field's node with no text of its own or custom display) and it holds
// nothing that either the display or JSON escapes, as most strings do.
func plainString(n *dissect.Node) (string, bool) {
	if n.Field.Type != dissect.FTString || n.Text != "" || n.Field.Custom != nil {
		return "", false
	}
	s := n.Value.View()
	return s, dissect.PlainPrefix(s) == len(s)
}

// jsonField is what the renderer keeps of a field. What every node reads
// comes first, in one cache line.
type jsonField struct {
	// leadBuf is head after a line break and ind spaces (lead).
	leadBuf []byte
	ind     int
	// kind and tail: how appendKnown writes the value of a node without
	// text of its own (jsonkind.go).
	kind jsonKind
	// plain: every display string AppendValue makes of its values is
	// free of what a JSON string escapes, so that none needs scanning.
	plain bool
	tail  []byte
	// head is the start of its nodes' objects, name and label escaped:
	// most of every node's bytes, the same each time.
	head []byte
	// keyHead and keyTail are the start of a keyed node's object around
	// its escaped key: name and '.', then label; nil when the name is not
	// valid UTF-8 (its escaping could then depend on the key's bytes).
	keyHead, keyTail []byte
}

// field returns what the renderer keeps of f, nil for a field without
// an ID.
func (j *jsonRenderer) field(f *dissect.Field) *jsonField {
	if id := f.ID(); id > 0 && id < len(j.fields) && j.fields[id].head != nil {
		return &j.fields[id]
	}
	return j.newField(f)
}

// newField is field for a field seen for the first time.
func (j *jsonRenderer) newField(f *dissect.Field) *jsonField {
	id := f.ID()
	if id == 0 {
		return nil
	}
	if id >= len(j.fields) {
		j.fields = append(j.fields, make([]jsonField, id+1-len(j.fields))...)
	}
	jf := &j.fields[id]
	if jf.head == nil {
		jf.head = appendHead(nil, f.Name, f.Label)
		jf.leadBuf = append(append(jf.leadBuf, '\n'), jf.head...) // ind 0
		jf.plain = plainField(f)
		jf.kind, jf.tail = kindOf(f)
		if utf8.ValidString(f.Name) {
			jf.keyHead = append(appendJSONEscaped(append(jf.keyHead, "{\"name\": \""...), f.Name), '.')
			jf.keyTail = append(jf.keyTail, '"')
			jf.keyTail = append(jf.keyTail, ", \"label\": "...)
			jf.keyTail = appendJSONString(jf.keyTail, f.Label)
			jf.keyTail = append(jf.keyTail, ", \"offset\": "...)
		}
	}
	return jf
}

// lead is the start of a node's object after a line break and ind
// spaces, or without them for ind < 0.
func (jf *jsonField) lead(ind int) []byte {
	if ind < 0 {
		return jf.head
	}
	if jf.ind != ind {
		jf.leadBuf = append(appendSpaces(append(jf.leadBuf[:0], '\n'), ind), jf.head...)
		jf.ind = ind
	}
	return jf.leadBuf
}

// plainField tells jsonField.plain: numbers, booleans and bytes, with
// names and unit free of what JSON escapes too. Custom formatters and
// strings are never taken to be.
func plainField(f *dissect.Field) bool {
	if f.Custom != nil {
		return false
	}
	switch f.Type {
	case dissect.FTUint, dissect.FTFrameNum, dissect.FTInt, dissect.FTBool, dissect.FTFloat, dissect.FTBytes:
	default:
		return false
	}
	if jsonSafe(f.Unit) != len(f.Unit) {
		return false
	}
	for _, name := range f.Names {
		if jsonSafe(name) != len(name) {
			return false
		}
	}
	return true
}

func appendHead(b []byte, name, label string) []byte {
	b = append(b, "{\"name\": "...)
	b = appendJSONString(b, name)
	b = append(b, ", \"label\": "...)
	b = appendJSONString(b, label)
	return append(b, ", \"offset\": "...)
}

// appendValue appends ", \"value\": v" with v typed: numbers as
// numbers, booleans, text as strings, bytes as hex.
func (j *jsonRenderer) appendValue(b []byte, n *dissect.Node) []byte {
	v := n.Value
	switch n.Field.Type {
	case dissect.FTUint, dissect.FTFrameNum:
		b = append(b, ", \"value\": "...)
		return dissect.AppendUint(b, v.N)
	case dissect.FTInt:
		b = append(b, ", \"value\": "...)
		return dissect.AppendInt(b, v.Int())
	case dissect.FTFloat:
		b = append(b, ", \"value\": "...)
		if len(v.B) > 0 { // dissect.FExact
			return append(b, v.B...)
		}
		return dissect.AppendFloat(b, v.Float(), 'g')
	case dissect.FTBool:
		b = append(b, ", \"value\": "...)
		return strconv.AppendBool(b, v.Bool())
	case dissect.FTString:
		b = append(b, ", \"value\": "...)
		return appendJSONBytes(b, v.B) // no string copy
	case dissect.FTBytes:
		b = append(b, ", \"value\": \""...)
		b = j.appendHex(b, v.B, 0)
		return append(b, '"')
	case dissect.FTAbsTime:
		b = append(b, ", \"value\": \""...)
		b = dissect.AppendAbsTime(b, v.Time())
		return append(b, '"')
	}
	return b
}

// appendJSONBytes is appendJSONString for bytes, without a copy.
//
// unsafe (here and where this file views j.show or b as a string): the
// string views bytes that are written again later (the scratch j.show, the
// output buffer, a PDU's data). Lifetime rule: it is read during the call
// and never kept: the appenders append, jsonSafe returns an index, and no
// cache holds such a string (its keys are the field pointers).
// TestCachesChangeNothing breaks if one ever did: a warm appender's output
// would differ from a fresh one's. What it buys (issue 12,
// bench/fastpaths.md): a string(b) at each of these places instead cost
// -T json 5.4 % more CPU on the project mix (paired median of 7 interleaved
// runs; borderline).
func appendJSONBytes(b, s []byte) []byte {
	return appendJSONString(b, unsafe.String(unsafe.SliceData(s), len(s)))
}

// appendJSONString appends s as a JSON string. Control characters, DEL and
// C1 controls are escaped as \u00XX, so that JSON printed to a terminal is
// as safe as the tree; invalid UTF-8 becomes U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendJSONEscaped(b, s)
	return append(b, '"')
}

// appendJSONEscaped appends s escaped for a JSON string, without quotes.
func appendJSONEscaped(b []byte, s string) []byte {
	for {
		k := jsonSafe(s)
		b = append(b, s[:k]...)
		if k == len(s) {
			return b
		}
		s = s[k:]
		r, size := rune(s[0]), 1
		if r >= 0x80 {
			r, size = utf8.DecodeRuneInString(s)
		}
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r < 0xa0: // C0 and C1 controls, DEL
			b = append(b, '\\', 'u', '0', '0', hexDigits[r>>4], hexDigits[r&15])
		default:
			// Line separators and format characters (bidirectional
			// overrides) are escaped too: they reorder terminal text.
			b = append(b, '\\', 'u', hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
		}
		s = s[size:]
	}
}

// jsonSafe returns the length of the start of s that a JSON string
// carries as it is: up to the first quote, backslash, control character,
// invalid UTF-8, line separator or format character.
func jsonSafe(s string) int { return safeLen(s, false) }

// safeLen is jsonSafe, or with shown shownSafe (jsonkind.go).
func safeLen(s string, shown bool) int {
	i := 0
	for {
		i += dissect.PlainPrefix(s[i:])
		if i == len(s) || s[i] < 0x80 {
			return i
		}
		if c := s[i]; c >= 0xc2 && c < 0xe0 && i+1 < len(s) && s[i+1]&0xc0 == 0x80 {
			// A two-byte rune (°, ÷, Δ: Classic's displays have them),
			// decoded here, as the general decoder is a call.
			if r := rune(c&0x1f)<<6 | rune(s[i+1]&0x3f); r < 0xa0 || dissect.IsFormat(r) {
				return i
			}
			i += 2
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r < 0xa0 || r == 0x2028 || r == 0x2029 {
			return i
		}
		if shown && (r == utf8.RuneError || dissect.IsFormat(r)) ||
			!shown && (r == utf8.RuneError && size == 1 || r < 0x10000 && dissect.IsFormat(r)) {
			return i
		}
		i += size
	}
}

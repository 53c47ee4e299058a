package render

import (
	"bufio"
	"encoding/hex"
	"strconv"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/dissect"
)

// jsonRenderer streams a JSON array, one object per record, each with its
// whole tree: names, offsets, lengths, typed values, display strings and
// expert items. Objects are written as they complete, so memory stays flat.
type jsonRenderer struct {
	w    *bufio.Writer
	o    Options
	buf  []byte
	n    int
	open []openNode // the ancestors of the node being written
	show []byte     // scratch for display strings
	// heads caches, per field (by ID), the start of its nodes' objects
	// (name and label, escaped): most of every node's bytes, the same
	// each time.
	heads [][]byte
	clock stampCache
}

func (j *jsonRenderer) Begin() error { _, err := j.w.WriteString("["); return err }

func (j *jsonRenderer) End() error {
	if j.n > 0 {
		j.w.WriteString("\n")
	}
	j.w.WriteString("]\n")
	return j.w.Flush()
}

func (j *jsonRenderer) Record(r *analyze.Record) error {
	j.buf = j.Append(j.buf[:0], r, j.n == 0)
	j.n++
	_, err := j.w.Write(j.buf)
	return err
}

func (j *jsonRenderer) Raw(b []byte, records int) error {
	j.n += records
	_, err := j.w.Write(b)
	return err
}

// Append appends r's object; first is whether it opens the array (no comma).
func (j *jsonRenderer) Append(b []byte, r *analyze.Record, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, "\n  {\"frame\": "...)
	b = strconv.AppendUint(b, r.Frame, 10)
	b = append(b, ", \"time\": "...)
	j.clock.sep = 'T'
	j.show = append(j.clock.appendStamp(j.show[:0], r.Time), 'Z')
	b = appendJSONBytes(b, j.show)
	b = append(b, ", \"time_relative\": "...)
	b = strconv.AppendFloat(b, r.Rel.Seconds(), 'f', 9, 64)
	b = append(b, ", \"src\": "...)
	b = appendJSONBytes(b, r.Src.AppendTo(j.show[:0]))
	b = append(b, ", \"dst\": "...)
	b = appendJSONBytes(b, r.Dst.AppendTo(j.show[:0]))
	if r.TCP {
		b = append(b, ", \"transport\": \"tcp\", \"stream\": "...)
		b = strconv.AppendInt(b, int64(r.Stream), 10)
	} else {
		b = append(b, ", \"transport\": \"udp\""...)
	}
	b = append(b, ", \"protocol\": "...)
	b = appendJSONString(b, r.Proto)
	b = append(b, ", \"direction\": "...)
	b = appendJSONString(b, r.PDU.Dir.String())
	b = append(b, ", \"message\": "...)
	b = appendJSONString(b, r.PDU.Message)
	b = append(b, ", \"info\": "...)
	b = appendJSONString(b, r.PDU.Info)
	b = append(b, ", \"length\": "...)
	b = strconv.AppendInt(b, int64(len(r.PDU.Data)), 10)
	if r.PDU.WireLen > len(r.PDU.Data) {
		b = append(b, ", \"wire_length\": "...)
		b = strconv.AppendInt(b, int64(r.PDU.WireLen), 10)
	}
	if len(r.Parts) > 0 {
		b = append(b, ", \"frames\": ["...)
		for i, p := range r.Parts {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, "{\"frame\": "...)
			b = strconv.AppendUint(b, p.Frame, 10)
			b = append(b, ", \"bytes\": "...)
			b = strconv.AppendInt(b, int64(p.Bytes), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if r.Kind == analyze.KindGap {
		b = append(b, ", \"gap_length\": "...)
		b = strconv.AppendInt(b, int64(r.GapLength), 10)
	}
	b = append(b, ", \"tree\": "...)
	if len(r.PDU.Nodes) > 0 {
		b = j.appendTree(b, &r.PDU)
	} else {
		b = append(b, "null"...)
	}
	return append(b, '}')
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
	for i := range p.Nodes {
		par := p.Nodes[i].Parent
		for len(open) > 0 && open[len(open)-1].i != par {
			b = closeNode(b, open[len(open)-1])
			open = open[:len(open)-1]
		}
		if len(open) > 0 {
			top := &open[len(open)-1]
			if top.kids {
				b = append(b, ',')
			} else {
				b = append(b, ", \"children\": ["...)
				top.kids = true
			}
			b = append(b, '\n')
			b = appendSpaces(b, 2*(len(open)+2))
		} else if i > 0 {
			break // a second root: not a tree (Check rejects it)
		}
		b = j.appendFields(b, p, int32(i))
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

// appendFields writes node i's object up to, not including, its children.
func (j *jsonRenderer) appendFields(b []byte, p *dissect.PDU, i int32) []byte {
	n := &p.Nodes[i]
	if n.Key == "" {
		b = append(b, j.head(n.Field)...)
	} else {
		// The keyed name, "query.kv.hostname", built in scratch space.
		j.show = append(append(append(j.show[:0], n.Field.Name...), '.'), n.Key...)
		b = appendHead(b, unsafe.String(unsafe.SliceData(j.show), len(j.show)), n.Field.Label)
	}
	b = strconv.AppendInt(b, int64(n.Offset), 10)
	b = append(b, ", \"length\": "...)
	b = strconv.AppendInt(b, int64(n.Length), 10)
	if n.Field.Type != dissect.FTNone && n.Field.Type != dissect.FTProtocol || n.Text != "" {
		b = append(b, ", \"show\": "...)
		if redacted(&j.o, n) {
			b = appendJSONString(b, redactedText)
		} else {
			j.show = dissect.AppendValue(j.show[:0], n)
			b = appendJSONBytes(b, j.show)
		}
		if !redacted(&j.o, n) {
			b = appendJSONValue(b, n)
		}
	}
	if n.Flags&dissect.FlagGenerated != 0 {
		b = append(b, ", \"generated\": true"...)
	}
	if n.Flags&dissect.FlagTruncated != 0 {
		b = append(b, ", \"truncated\": true"...)
	}
	if n.Flags&dissect.FlagMalformed != 0 {
		b = append(b, ", \"malformed\": true"...)
	}
	first := true
	for _, e := range p.Experts {
		if e.Node != i {
			continue
		}
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

// head is the cached start of an object of f's nodes.
func (j *jsonRenderer) head(f *dissect.Field) []byte {
	id := f.ID()
	if id == 0 {
		j.show = appendHead(j.show[:0], f.Name, f.Label)
		return j.show
	}
	if id >= len(j.heads) {
		j.heads = append(j.heads, make([][]byte, id+1-len(j.heads))...)
	}
	h := j.heads[id]
	if h == nil {
		h = appendHead(nil, f.Name, f.Label)
		j.heads[id] = h
	}
	return h
}

func appendHead(b []byte, name, label string) []byte {
	b = append(b, "{\"name\": "...)
	b = appendJSONString(b, name)
	b = append(b, ", \"label\": "...)
	b = appendJSONString(b, label)
	return append(b, ", \"offset\": "...)
}

func appendSpaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

// appendJSONValue appends ", \"value\": v" with v typed: numbers as
// numbers, booleans, text as strings, bytes as hex.
func appendJSONValue(b []byte, n *dissect.Node) []byte {
	v := n.Value
	switch n.Field.Type {
	case dissect.FTUint, dissect.FTFrameNum:
		b = append(b, ", \"value\": "...)
		return strconv.AppendUint(b, v.N, 10)
	case dissect.FTInt:
		b = append(b, ", \"value\": "...)
		return strconv.AppendInt(b, v.Int(), 10)
	case dissect.FTFloat:
		b = append(b, ", \"value\": "...)
		return strconv.AppendFloat(b, v.Float(), 'g', -1, 64)
	case dissect.FTBool:
		b = append(b, ", \"value\": "...)
		return strconv.AppendBool(b, v.Bool())
	case dissect.FTString:
		b = append(b, ", \"value\": "...)
		return appendJSONBytes(b, v.B) // no string copy
	case dissect.FTBytes:
		b = append(b, ", \"value\": \""...)
		b = hex.AppendEncode(b, v.B)
		return append(b, '"')
	}
	return b
}

// jsonPlain marks the bytes a JSON string carries as they are.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return
}()

// appendJSONBytes is appendJSONString for bytes, without a copy.
func appendJSONBytes(b, s []byte) []byte {
	return appendJSONString(b, unsafe.String(unsafe.SliceData(s), len(s)))
}

// appendJSONString appends s as a JSON string. Control characters, DEL and
// C1 controls are escaped as \u00XX, so that JSON printed to a terminal is
// as safe as the tree; invalid UTF-8 becomes U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		// Runs of printable ASCII, most of any output, go in one copy.
		j := i
		for j < len(s) && jsonPlain[s[j]] {
			j++
		}
		if j > i {
			b = append(b, s[i:j]...)
			if i = j; i == len(s) {
				break
			}
		}
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			if c == '"' || c == '\\' {
				b = append(b, '\\')
			}
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r < 0x20 || r >= 0x7f && r < 0xa0:
			b = append(b, `\u00`...)
			b = append(b, hexDigits[r>>4], hexDigits[r&15])
		case r == 0x2028 || r == 0x2029 || r < 0x10000 && unicode.Is(unicode.Cf, r):
			// Line separators and format characters (bidirectional
			// overrides) are escaped too: they reorder terminal text.
			b = append(b, `\u`...)
			b = append(b, hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

package render

import (
	"unicode/utf8"
	"unsafe"

	"github.com/mcdissect/mcdissect/dissect"
)

// jsonKind is how -T json writes the "show" and "value" members of a
// node without text of its own, decided once per field (kindOf): most
// nodes are numbers, flags, addresses and times whose display string is,
// or starts with, the JSON value's text, so the two members come from one
// formatting and nothing is scanned for escapes.
type jsonKind uint8

const (
	kindGeneral jsonKind = iota // AppendValue, escaped, then the typed value
	kindNone                    // no value: a subtree header
	kindUint                    // decimal digits and tail (unit, "value"), digits
	kindInt                     // the same, signed
	kindHex                     // 0x digits padded to the width and tail, decimal digits
	kindBool                    // "True" and true, "False" and false
	kindBytes                   // hex digits twice, as a string
	kindFloat                   // an exact float's text and tail, its text
	kindTime                    // an absolute time's text twice, as a string
	kindString                  // a string's text quoted, and as a string
)

// kindOf is f's jsonKind and, for the kinds of numbers, the tail written
// after the display string's digits: the unit, the closing quote and the
// "value" member's name.
func kindOf(f *dissect.Field) (jsonKind, []byte) {
	if f.Custom != nil {
		return kindGeneral, nil
	}
	tail := func() []byte {
		t := []byte(nil)
		if f.Unit != "" {
			t = append(append(t, ' '), f.Unit...)
		}
		return append(t, "\", \"value\": "...)
	}
	unitPlain := jsonSafe(f.Unit) == len(f.Unit)
	switch f.Type {
	case dissect.FTNone, dissect.FTProtocol:
		return kindNone, nil
	case dissect.FTUint, dissect.FTFrameNum:
		if f.Names != nil || !unitPlain {
			return kindGeneral, nil
		}
		switch f.Base {
		case dissect.BaseHex:
			return kindHex, tail()
		case dissect.BaseDecHex, dissect.BaseHexDec:
			return kindGeneral, nil
		}
		return kindUint, tail()
	case dissect.FTInt:
		if f.Names != nil || !unitPlain {
			return kindGeneral, nil
		}
		return kindInt, tail()
	case dissect.FTFloat:
		if !unitPlain {
			return kindGeneral, nil
		}
		return kindFloat, tail()
	case dissect.FTBool:
		return kindBool, nil
	case dissect.FTBytes:
		return kindBytes, nil
	case dissect.FTAbsTime:
		return kindTime, nil
	case dissect.FTString:
		return kindString, nil
	}
	return kindGeneral, nil
}

// appendKnown appends node n's "show" and "value" members as its field's
// kind writes them; it reports false, having appended nothing, for a
// node that takes the general way. n has no text of its own and is not
// masked.
func (j *jsonRenderer) appendKnown(b []byte, n *dissect.Node, jf *jsonField) ([]byte, bool) {
	v := &n.Value
	switch jf.kind {
	case kindNone:
		return b, true
	case kindUint, kindInt:
		b = append(b, ", \"show\": \""...)
		k := len(b)
		if jf.kind == kindInt {
			b = dissect.AppendInt(b, int64(v.N))
		} else {
			b = dissect.AppendUint(b, v.N)
		}
		m := len(b)
		b = append(b, jf.tail...)
		return append(b, b[k:m]...), true
	case kindHex:
		w := int(n.Length)
		if w == 0 {
			w = n.Field.Width
		}
		b = append(b, ", \"show\": \""...)
		b = dissect.AppendHexNum(b, v.N, w)
		b = append(b, jf.tail...)
		return dissect.AppendUint(b, v.N), true
	case kindBool:
		if v.N != 0 {
			return append(b, ", \"show\": \"True\", \"value\": true"...), true
		}
		return append(b, ", \"show\": \"False\", \"value\": false"...), true
	case kindBytes:
		if len(v.B) == 0 || len(v.B) > dissect.MaxBytesShown {
			return b, false // shown "<empty>", or cut short
		}
		b = append(b, ", \"show\": \""...)
		k := len(b)
		b = appendHexBytes(b, v.B)
		m := len(b)
		b = append(b, "\", \"value\": \""...)
		b = append(b, b[k:m]...)
		return append(b, '"'), true
	case kindFloat:
		if len(v.B) == 0 { // not dissect.FExact: shown 'f', valued 'g'
			return b, false
		}
		b = append(b, ", \"show\": \""...)
		b = append(b, v.B...)
		b = append(b, jf.tail...)
		return append(b, v.B...), true
	case kindTime:
		b = append(b, ", \"show\": \""...)
		k := len(b)
		b = j.when.appendAbsTime(b, int64(v.N))
		m := len(b)
		b = append(b, "\", \"value\": \""...)
		b = append(b, b[k:m]...)
		return append(b, '"'), true
	case kindString:
		// Quoted for display, as itself, and in JSON its quotes
		// escaped. Most strings are plain ASCII through: one scan for
		// the two members.
		str := v.View()
		k := dissect.PlainPrefix(str)
		b = append(b, ", \"show\": \"\\\""...)
		b = append(b, str[:k]...)
		if k < len(str) {
			b = j.appendShownJSON(b, str[k:], true)
		}
		b = append(b, "\\\"\", \"value\": \""...)
		b = append(b, str[:k]...)
		if k < len(str) {
			b = appendJSONEscaped(b, str[k:])
		}
		return append(b, '"'), true
	}
	return b, false
}

// appendHexBytes appends b in lowercase hex, two digits a byte, as
// hex.AppendEncode does.
func appendHexBytes(dst, b []byte) []byte {
	for _, c := range b {
		dst = append(dst, hexDigits[c>>4], hexDigits[c&15])
	}
	return dst
}

// appendShownJSON appends, escaped for a JSON string, what
// dissect.AppendSafe (quoted false) or the inside of dissect.AppendQuoted
// (quoted true) makes of s, in one pass over s: the runs both escapers
// carry as they are are copied, and the runes either escapes are escaped
// one by one, both ways. Both escape rune by rune, so the pieces make the
// whole.
func (j *jsonRenderer) appendShownJSON(b []byte, s string, quoted bool) []byte {
	for {
		k := shownSafe(s)
		b = append(b, s[:k]...)
		if k == len(s) {
			return b
		}
		s = s[k:]
		switch c := s[0]; {
		case c == '"' || c == '\\':
			if quoted { // \" or \\ shown, each escaped
				b = append(b, '\\', '\\', '\\', c)
			} else {
				b = append(b, '\\', c)
			}
			s = s[1:]
		default:
			_, size := utf8.DecodeRuneInString(s)
			j.show = dissect.AppendSafe(j.show[:0], s[:size])
			b = appendJSONEscaped(b, unsafe.String(unsafe.SliceData(j.show), len(j.show))) // not kept: see appendJSONBytes
			s = s[size:]
		}
	}
}

// shownSafe returns the length of the start of s that dissect.AppendSafe
// and a JSON string both carry as they are: jsonSafe's, less U+FFFD and
// format characters beyond the BMP, which AppendSafe escapes.
func shownSafe(s string) int { return safeLen(s, true) }

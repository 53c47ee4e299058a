package dissect

import (
	"encoding/hex"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// MaxBytesShown bounds how many bytes a bytes value shows before "…".
const MaxBytesShown = 32

// AppendValue appends the display form of n's value ("Handshake (9)",
// "0x0f0f0f0f", a quoted string) to dst.
//
// Text from the wire is always escaped: a MOTD can hold terminal escape
// codes, and a dissector must never let captured bytes drive the user's
// terminal. A node's own Text is escaped the same way, unquoted.
func AppendValue(dst []byte, n *Node) []byte {
	if n.Text != "" {
		return AppendSafe(dst, n.Text)
	}
	f, v := n.Field, n.Value
	if f.Custom != nil {
		return f.Custom(dst, n)
	}
	switch f.Type {
	case FTUint, FTFrameNum:
		w := int(n.Length)
		if w == 0 {
			w = f.Width
		}
		return appendUint(dst, f, v.N, w)
	case FTInt:
		dst = strconv.AppendInt(dst, v.Int(), 10)
		if f.Names != nil {
			dst = append(dst, " ("...)
			dst = append(dst, f.Names.Name(uint64(v.Int()))...)
			dst = append(dst, ')')
		}
		return appendUnit(dst, f)
	case FTBool:
		if v.Bool() {
			return append(dst, "True"...)
		}
		return append(dst, "False"...)
	case FTFloat:
		return appendUnit(strconv.AppendFloat(dst, v.Float(), 'f', -1, 64), f)
	case FTString:
		return AppendQuoted(dst, v.View())
	case FTBytes:
		return AppendHex(dst, v.B)
	}
	return dst
}

func appendUint(dst []byte, f *Field, v uint64, width int) []byte {
	if f.Names != nil {
		name, ok := f.Names[v]
		if !ok {
			// "Unknown (5)", not "Unknown (5) (5)".
			dst = append(dst, "Unknown ("...)
			dst = appendBase(dst, f.Base, v, width)
			return append(dst, ')')
		}
		dst = append(dst, name...)
		dst = append(dst, " ("...)
		dst = appendBase(dst, f.Base, v, width)
		return append(dst, ')')
	}
	return appendUnit(appendBase(dst, f.Base, v, width), f)
}

func appendBase(dst []byte, b Base, v uint64, width int) []byte {
	switch b {
	case BaseHex:
		return appendHexNum(dst, v, width)
	case BaseDecHex:
		dst = strconv.AppendUint(dst, v, 10)
		dst = append(dst, " ("...)
		dst = appendHexNum(dst, v, width)
		return append(dst, ')')
	}
	return strconv.AppendUint(dst, v, 10)
}

func appendHexNum(dst []byte, v uint64, width int) []byte {
	dst = append(dst, "0x"...)
	var buf [16]byte
	h := strconv.AppendUint(buf[:0], v, 16) // on the stack: no string per value
	for i := len(h); i < 2*width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, h...)
}

func appendUnit(dst []byte, f *Field) []byte {
	if f.Unit != "" {
		dst = append(dst, ' ')
		dst = append(dst, f.Unit...)
	}
	return dst
}

// AppendHex appends b in hex, at most MaxBytesShown bytes of it.
func AppendHex(dst []byte, b []byte) []byte {
	if len(b) == 0 {
		return append(dst, "<empty>"...)
	}
	n := min(len(b), MaxBytesShown)
	dst = hex.AppendEncode(dst, b[:n])
	if n < len(b) {
		dst = append(dst, "…"...)
	}
	return dst
}

// AppendQuoted appends s in double quotes, escaped as AppendSafe does, with
// quotes and backslashes escaped too.
func AppendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s, true)
	return append(dst, '"')
}

// AppendSafe appends s with every byte that could act on a terminal
// escaped: C0 and C1 control characters, DEL, invalid UTF-8 and Unicode
// format characters (bidirectional overrides) become \xNN or \u{NNNN}.
func AppendSafe(dst []byte, s string) []byte { return appendEscaped(dst, s, false) }

// plainByte marks the bytes shown as they are whether quoted or not;
// '"' and '\\' are plain only unquoted.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return
}()

func appendEscaped(dst []byte, s string, quoted bool) []byte {
	for i := 0; i < len(s); {
		// Runs of plain ASCII, nearly all text, go in one copy.
		j := i
		for j < len(s) && plainByte[s[j]] {
			j++
		}
		if j > i {
			dst = append(dst, s[i:j]...)
			if i = j; i == len(s) {
				break
			}
		}
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			if quoted && (c == '"' || c == '\\') {
				dst = append(dst, '\\')
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, `\x`...)
			dst = appendHexByte(dst, c)
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case r < 0x20 || r == 0x7f:
			dst = append(dst, `\x`...)
			dst = appendHexByte(dst, byte(r))
		case r >= 0x80 && r < 0xa0 || unicode.Is(unicode.Cf, r) || r == 0xfffd:
			dst = append(dst, `\u{`...)
			dst = strconv.AppendUint(dst, uint64(r), 16)
			dst = append(dst, '}')
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst
}

func appendHexByte(dst []byte, c byte) []byte {
	const digits = "0123456789abcdef"
	return append(dst, digits[c>>4], digits[c&15])
}

// Display is AppendValue as a string, for tests and slow paths.
func Display(n *Node) string { return string(AppendValue(nil, n)) }

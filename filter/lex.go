package filter

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// tokKind is the class of a token. Words are what Wireshark's scanner
// calls unparsed literals: field names, numbers, byte strings, addresses;
// what a word means is decided where it is used, by the type of the field
// it is compared with.
type tokKind uint8

const (
	tEOF    tokKind = iota
	tWord           // query.type, 25565, fe:fd, 10.0.0.0/8, ::1, and, contains
	tString         // "text" or r"raw": s holds the decoded text
	tChar           // 'a': s holds the one byte
	tSlice          // [ ... ]: s holds what is between the brackets
	tOp             // == != === !== < <= > >= ~ ~= && || ^^ & ! ( ) { } , ..
)

type token struct {
	k   tokKind
	s   string // text as written (tWord, tOp), or decoded (tString, tChar, tSlice)
	pos int    // byte offset in the expression
	end int    // byte offset just past it
}

// ops are the operators, longest first so that "===" is not read as "==".
var ops = []string{"===", "!==", "==", "!=", "<=", ">=", "~=", "&&", "||", "^^", "..",
	"<", ">", "~", "&", "!", "(", ")", "{", "}", ","}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '.' || c == '-' || c == ':' || c == '/' || c >= utf8.RuneSelf
}

// lex splits expr into tokens, ending with a tEOF token at len(expr).
func lex(expr string) ([]token, error) {
	var toks []token
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '"' || c == 'r' && i+1 < len(expr) && expr[i+1] == '"':
			t, err := lexString(expr, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i = t.end
		case c == '\'':
			t, err := lexChar(expr, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i = t.end
		case c == '[':
			j := strings.IndexByte(expr[i:], ']')
			if j < 0 {
				return nil, errAt(expr, i, i+1, "The right bracket was missing from a slice.")
			}
			toks = append(toks, token{k: tSlice, s: expr[i+1 : i+j], pos: i, end: i + j + 1})
			i += j + 1
		case isWordByte(c) && !strings.HasPrefix(expr[i:], ".."):
			j := i
			for j < len(expr) && isWordByte(expr[j]) && !strings.HasPrefix(expr[j:], "..") {
				j++
			}
			toks = append(toks, token{k: tWord, s: expr[i:j], pos: i, end: j})
			i = j
		default:
			op := ""
			for _, o := range ops {
				if strings.HasPrefix(expr[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				_, n := utf8.DecodeRuneInString(expr[i:])
				return nil, errAt(expr, i, i+n, strconv.Quote(expr[i:i+n])+" was unexpected in this context.")
			}
			toks = append(toks, token{k: tOp, s: op, pos: i, end: i + len(op)})
			i += len(op)
		}
	}
	return append(toks, token{k: tEOF, pos: len(expr), end: len(expr)}), nil
}

// lexString reads a double-quoted string at expr[i] (or a raw one, r"…"),
// decoding the escapes of Wireshark's table: \' \" \\ \a \b \f \n \r \t
// \v, \NNN octal, \xNN hex, \uNNNN and \UNNNNNNNN code points. A raw
// string keeps every backslash; \" still does not end it.
func lexString(expr string, i int) (token, error) {
	start := i
	raw := expr[i] == 'r'
	if raw {
		i++
	}
	i++ // the quote
	var b []byte
	for {
		if i >= len(expr) {
			return token{}, errAt(expr, start, len(expr), "The final quote was missing from a quoted string.")
		}
		c := expr[i]
		if c == '"' {
			return token{k: tString, s: string(b), pos: start, end: i + 1}, nil
		}
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		if i+1 >= len(expr) {
			return token{}, errAt(expr, start, len(expr), "The final quote was missing from a quoted string.")
		}
		if raw {
			b = append(b, '\\', expr[i+1])
			i += 2
			continue
		}
		nb, n, ok := unescape(b, expr[i:])
		if !ok {
			return token{}, errAt(expr, i, i+n, "Invalid escape sequence "+expr[i:i+n]+".")
		}
		b, i = nb, i+n
	}
}

// unescape decodes the escape sequence at the start of s (s[0] is the
// backslash), appending its bytes to b; n is how many bytes of s it takes.
func unescape(b []byte, s string) (out []byte, n int, ok bool) {
	if len(s) < 2 {
		return b, len(s), false
	}
	switch c := s[1]; c {
	case '\'', '"', '\\':
		return append(b, c), 2, true
	case 'a':
		return append(b, 7), 2, true
	case 'b':
		return append(b, 8), 2, true
	case 'f':
		return append(b, 12), 2, true
	case 'n':
		return append(b, '\n'), 2, true
	case 'r':
		return append(b, '\r'), 2, true
	case 't':
		return append(b, '\t'), 2, true
	case 'v':
		return append(b, 11), 2, true
	case 'x':
		j := 2
		for j < len(s) && j < 4 && isHex(s[j]) {
			j++
		}
		if j == 2 {
			return b, 2, false
		}
		v, _ := strconv.ParseUint(s[2:j], 16, 8)
		return append(b, byte(v)), j, true
	case 'u', 'U':
		w := 4
		if c == 'U' {
			w = 8
		}
		if len(s) < 2+w {
			return b, len(s), false
		}
		v, err := strconv.ParseUint(s[2:2+w], 16, 32)
		if err != nil || !utf8.ValidRune(rune(v)) {
			return b, 2 + w, false
		}
		return utf8.AppendRune(b, rune(v)), 2 + w, true
	default:
		if c >= '0' && c <= '7' {
			j := 1
			for j < len(s) && j < 4 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[1:j], 8, 16)
			if v > 255 {
				return b, j, false
			}
			return append(b, byte(v)), j, true
		}
		_, sz := utf8.DecodeRuneInString(s[1:])
		return b, 1 + sz, false
	}
}

// lexChar reads a character constant: 'a', '\n', '\x0a', '\012'.
func lexChar(expr string, i int) (token, error) {
	j := i + 1
	var b []byte
	switch {
	case j < len(expr) && expr[j] == '\\':
		var n int
		var ok bool
		b, n, ok = unescape(nil, expr[j:])
		if !ok {
			return token{}, errAt(expr, j, j+n, "Invalid escape sequence "+expr[j:j+n]+".")
		}
		j += n
	case j < len(expr) && expr[j] != '\'':
		b = []byte{expr[j]}
		j++
	}
	if len(b) != 1 || j >= len(expr) || expr[j] != '\'' {
		end := strings.IndexByte(expr[i+1:], '\'')
		if end < 0 {
			end = len(expr)
		} else {
			end += i + 2
		}
		return token{}, errAt(expr, i, end, "A character constant holds one byte, like 'a' or '\\x0a'.")
	}
	return token{k: tChar, s: string(b), pos: i, end: j + 1}, nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

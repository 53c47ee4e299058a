package slp

import (
	"encoding/binary"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A small lenient JSON scanner that records where each value lies, which
// encoding/json does not. It is bounded: nesting depth and node count are
// limited, and it never allocates from a length read off the wire. It is
// lenient in one way real servers need: raw control characters (a newline)
// inside strings are accepted and flagged.

type jkind uint8

const (
	jObject jkind = iota + 1
	jArray
	jString
	jNumber
	jBool
	jNull
)

const (
	jsonMaxDepth = 64
	jsonMaxNodes = 1 << 14
)

// jnode is one JSON value. Offsets are into the JSON text.
type jnode struct {
	kind       jkind
	esc        bool  // a string with escapes: unescape to read it
	ctrl       bool  // a string with raw control characters
	start, end int32 // the value, quotes included for strings
	kstart     int32 // the member's key (quotes included), -1 in arrays and at the top
	kend       int32
	kesc       bool
	first      int32 // first child, -1
	next       int32 // next sibling, -1
}

type jparser struct {
	s      []byte
	n      []jnode
	pos    int
	err    string // why the JSON does not parse
	errOff int
	limit  bool // a depth or size limit was hit
	ctrlAt int  // offset of the first raw control character, -1
}

// parse parses s into p.n (reused). It reports whether s is one JSON value
// with nothing but white space after it.
func (p *jparser) parse(s []byte) bool {
	*p = jparser{s: s, n: p.n[:0], ctrlAt: -1}
	p.ws()
	if p.value(0) < 0 {
		return false
	}
	p.ws()
	if p.pos != len(s) {
		return p.fail("text after the JSON value")
	}
	return true
}

func (p *jparser) fail(msg string) bool {
	if p.err == "" {
		p.err, p.errOff = msg, p.pos
	}
	return false
}

func (p *jparser) ws() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jparser) add(k jkind) int32 {
	p.n = append(p.n, jnode{kind: k, start: int32(p.pos), kstart: -1, kend: -1, first: -1, next: -1})
	return int32(len(p.n) - 1)
}

// value parses one value at p.pos and returns its index, -1 on error.
func (p *jparser) value(depth int) int32 {
	if depth > jsonMaxDepth {
		p.limit = true
		p.fail("nesting deeper than " + strconv.Itoa(jsonMaxDepth))
		return -1
	}
	if len(p.n) >= jsonMaxNodes {
		p.limit = true
		p.fail("more than " + strconv.Itoa(jsonMaxNodes) + " values")
		return -1
	}
	if p.pos >= len(p.s) {
		p.fail("the text ends where a value should start")
		return -1
	}
	switch c := p.s[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		i := p.add(jString)
		esc, ctrl, ok := p.str()
		if !ok {
			return -1
		}
		p.n[i].esc, p.n[i].ctrl, p.n[i].end = esc, ctrl, int32(p.pos)
		return i
	case c == '-' || c >= '0' && c <= '9':
		i := p.add(jNumber)
		if !p.number() {
			return -1
		}
		p.n[i].end = int32(p.pos)
		return i
	default:
		for _, lit := range [...]string{"true", "false", "null"} {
			if len(p.s)-p.pos >= len(lit) && string(p.s[p.pos:p.pos+len(lit)]) == lit {
				k := jBool
				if lit == "null" {
					k = jNull
				}
				i := p.add(k)
				p.pos += len(lit)
				p.n[i].end = int32(p.pos)
				return i
			}
		}
		p.fail("unexpected " + quoteByte(c) + " where a value should start")
		return -1
	}
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return "byte " + hexByte(c)
}

func (p *jparser) object(depth int) int32 {
	i := p.add(jObject)
	p.pos++
	p.ws()
	last := int32(-1)
	if p.pos < len(p.s) && p.s[p.pos] == '}' {
		p.pos++
		p.n[i].end = int32(p.pos)
		return i
	}
	for {
		p.ws()
		if p.pos >= len(p.s) || p.s[p.pos] != '"' {
			p.fail("expected a string key")
			return -1
		}
		ks := int32(p.pos)
		kesc, _, ok := p.str()
		if !ok {
			return -1
		}
		ke := int32(p.pos)
		p.ws()
		if p.pos >= len(p.s) || p.s[p.pos] != ':' {
			p.fail("expected ':' after a key")
			return -1
		}
		p.pos++
		p.ws()
		v := p.value(depth + 1)
		if v < 0 {
			return -1
		}
		p.n[v].kstart, p.n[v].kend, p.n[v].kesc = ks, ke, kesc
		if last < 0 {
			p.n[i].first = v
		} else {
			p.n[last].next = v
		}
		last = v
		p.ws()
		if p.pos >= len(p.s) {
			p.fail("the text ends inside an object")
			return -1
		}
		switch p.s[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			p.n[i].end = int32(p.pos)
			return i
		default:
			p.fail("expected ',' or '}' in an object")
			return -1
		}
	}
}

func (p *jparser) array(depth int) int32 {
	i := p.add(jArray)
	p.pos++
	p.ws()
	last := int32(-1)
	if p.pos < len(p.s) && p.s[p.pos] == ']' {
		p.pos++
		p.n[i].end = int32(p.pos)
		return i
	}
	for {
		p.ws()
		v := p.value(depth + 1)
		if v < 0 {
			return -1
		}
		if last < 0 {
			p.n[i].first = v
		} else {
			p.n[last].next = v
		}
		last = v
		p.ws()
		if p.pos >= len(p.s) {
			p.fail("the text ends inside an array")
			return -1
		}
		switch p.s[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			p.n[i].end = int32(p.pos)
			return i
		default:
			p.fail("expected ',' or ']' in an array")
			return -1
		}
	}
}

// str scans a string at p.pos (on its opening quote) to after its closing
// quote.
func (p *jparser) str() (esc, ctrl, ok bool) {
	p.pos++
	for p.pos < len(p.s) {
		// Skip eight plain bytes at a time (none a quote, a backslash or
		// a control character): a favicon is kilobytes of them.
		for p.pos+8 <= len(p.s) && plain8(binary.LittleEndian.Uint64(p.s[p.pos:])) {
			p.pos += 8
		}
		if p.pos >= len(p.s) {
			break
		}
		c := p.s[p.pos]
		switch {
		case c == '"':
			p.pos++
			return esc, ctrl, true
		case c == '\\':
			esc = true
			if p.pos+1 >= len(p.s) {
				p.pos++
				return esc, ctrl, p.fail("the text ends inside an escape")
			}
			switch p.s[p.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.pos += 2
			case 'u':
				if p.pos+6 > len(p.s) || !isHex4(p.s[p.pos+2:p.pos+6]) {
					return esc, ctrl, p.fail("a \\u escape without 4 hex digits")
				}
				p.pos += 6
			default:
				return esc, ctrl, p.fail("unknown escape \\" + string(rune(p.s[p.pos+1])))
			}
		case c < 0x20:
			if p.ctrlAt < 0 {
				p.ctrlAt = p.pos
			}
			ctrl = true
			p.pos++
		default:
			p.pos++
		}
	}
	return esc, ctrl, p.fail("the text ends inside a string")
}

// plain8 reports whether none of the eight bytes in x is '"', '\\' or
// below 0x20, with the bit tricks of "Bit Twiddling Hacks" (haszero,
// hasless): a byte b is zero exactly when (b-1) & ^b has its top bit set
// and no lower byte borrowed, and the test as a whole is exact.
func plain8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := x ^ (ones * '"')
	bs := x ^ (ones * '\\')
	return ((q-ones)&^q|(bs-ones)&^bs|(x-ones*0x20)&^x)&highs == 0
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func (p *jparser) number() bool {
	start := p.pos
	if p.s[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if digits() == 0 {
		p.pos = start
		return p.fail("a number without digits")
	}
	if p.pos < len(p.s) && p.s[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return p.fail("a number with no digits after '.'")
		}
	}
	if p.pos < len(p.s) && (p.s[p.pos] == 'e' || p.s[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.s) && (p.s[p.pos] == '+' || p.s[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return p.fail("a number with no digits in its exponent")
		}
	}
	return true
}

// raw is the text of value i.
func (p *jparser) raw(i int32) []byte { return p.s[p.n[i].start:p.n[i].end] }

// strBytes returns string value i's content: the bytes between the quotes
// when it has no escapes (no copy), else the unescaped text appended to
// scratch.
func (p *jparser) strBytes(i int32, scratch []byte) []byte {
	n := &p.n[i]
	return unescape(p.s[n.start+1:n.end-1], n.esc, scratch)
}

func (p *jparser) key(i int32, scratch []byte) []byte {
	n := &p.n[i]
	if n.kstart < 0 {
		return nil
	}
	return unescape(p.s[n.kstart+1:n.kend-1], n.kesc, scratch)
}

// keyIs compares member i's key with k.
func (p *jparser) keyIs(i int32, k string) bool {
	n := &p.n[i]
	if n.kstart < 0 {
		return false
	}
	if !n.kesc {
		return string(p.s[n.kstart+1:n.kend-1]) == k
	}
	var buf [64]byte
	return string(unescape(p.s[n.kstart+1:n.kend-1], true, buf[:0])) == k
}

// member finds the member of object i with key k, -1 if none.
func (p *jparser) member(i int32, k string) int32 {
	if i < 0 || p.n[i].kind != jObject {
		return -1
	}
	for c := p.n[i].first; c >= 0; c = p.n[c].next {
		if p.keyIs(c, k) {
			return c
		}
	}
	return -1
}

func unescape(b []byte, esc bool, out []byte) []byte {
	if !esc {
		return b
	}
	out = out[:0]
	for k := 0; k < len(b); k++ {
		c := b[k]
		if c != '\\' || k+1 >= len(b) {
			out = append(out, c)
			continue
		}
		k++
		switch b[k] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if k+5 > len(b) {
				out = append(out, b[k-1:]...)
				return out
			}
			r := rune(hex4(b[k+1 : k+5]))
			k += 4
			if utf16.IsSurrogate(r) && k+6 < len(b) && b[k+1] == '\\' && b[k+2] == 'u' {
				if r2 := utf16.DecodeRune(r, rune(hex4(b[k+3:k+7]))); r2 != utf8.RuneError {
					r = r2
					k += 6
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			out = append(out, b[k])
		}
	}
	return out
}

func hex4(b []byte) uint16 {
	var v uint16
	for _, c := range b {
		v <<= 4
		switch {
		case c >= '0' && c <= '9':
			v |= uint16(c - '0')
		case c >= 'a' && c <= 'f':
			v |= uint16(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			v |= uint16(c - 'A' + 10)
		}
	}
	return v
}

// intValue reads number i as an integer ("20", "-1", "20.0").
func (p *jparser) intValue(i int32) (int64, bool) {
	if i < 0 || p.n[i].kind != jNumber {
		return 0, false
	}
	b := p.raw(i)
	neg := false
	if len(b) > 0 && b[0] == '-' {
		neg, b = true, b[1:]
	}
	var v int64
	k := 0
	for ; k < len(b) && b[k] >= '0' && b[k] <= '9'; k++ {
		if v > (1<<62)/10 {
			return 0, false
		}
		v = v*10 + int64(b[k]-'0')
	}
	if k < len(b) {
		// a fraction of zeros is still an integer; anything else is not
		if b[k] != '.' {
			return 0, false
		}
		for k++; k < len(b); k++ {
			if b[k] != '0' {
				return 0, false
			}
		}
	}
	if neg {
		v = -v
	}
	return v, true
}

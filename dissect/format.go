package dissect

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"time"
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
		dst = AppendInt(dst, v.Int())
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
		if len(v.B) > 0 { // FExact
			return appendUnit(append(dst, v.B...), f)
		}
		return appendUnit(AppendFloat(dst, v.Float(), 'f'), f)
	case FTString:
		return AppendQuoted(dst, v.View())
	case FTBytes:
		return AppendHex(dst, v.B)
	case FTAbsTime:
		return AppendAbsTime(dst, v.Time())
	}
	return dst
}

// AbsTimeLayout is the date and time of day of AppendAbsTime, as a
// time.Layout: the nanoseconds and " UTC" follow.
const AbsTimeLayout = "Jan _2, 2006 15:04:05"

// AppendAbsTime appends t in UTC as tshark writes an absolute time
// (frame.time) where the local zone is UTC: "Nov 22, 2026
// 14:33:00.357623000 UTC", the day padded with a space, the nanoseconds
// exact. Output is in UTC whatever the machine's zone, so that it is the
// same everywhere; a filter literal without a zone is local time, as in
// tshark (filter).
func AppendAbsTime(dst []byte, t time.Time) []byte {
	t = t.UTC()
	dst = t.AppendFormat(dst, AbsTimeLayout)
	dst = append(dst, '.')
	dst = AppendUintPad(dst, uint64(t.Nanosecond()), 9)
	return append(dst, " UTC"...)
}

// AppendISOTime appends t in UTC as ISO 8601 with nine decimals and a Z,
// "2026-11-22T14:33:00.357623000Z", as tshark's -T ek writes absolute
// times.
func AppendISOTime(dst []byte, t time.Time) []byte {
	t = t.UTC()
	dst = t.AppendFormat(dst, "2006-01-02T15:04:05")
	dst = append(dst, '.')
	dst = AppendUintPad(dst, uint64(t.Nanosecond()), 9)
	return append(dst, 'Z')
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
		dst = AppendUint(dst, v)
		dst = append(dst, " ("...)
		dst = appendHexNum(dst, v, width)
		return append(dst, ')')
	case BaseHexDec:
		dst = appendHexNum(dst, v, width)
		dst = append(dst, " ("...)
		dst = AppendUint(dst, v)
		return append(dst, ')')
	}
	return AppendUint(dst, v)
}

// AppendHexNum appends v as "0x" and lowercase hex digits, zero-padded to
// 2*width digits (width in bytes), as tshark prints a hex field.
func AppendHexNum(dst []byte, v uint64, width int) []byte { return appendHexNum(dst, v, width) }

// appendHexNum appends v as "0x" and lowercase hex digits, zero-padded to
// 2*width digits, written straight into dst.
func appendHexNum(dst []byte, v uint64, width int) []byte {
	n := max((bits.Len64(v)+3)/4, 1, 2*width)
	dst = slices.Grow(dst, 2+n)
	b := dst[len(dst) : len(dst)+2+n]
	b[0], b[1] = '0', 'x'
	for i := len(b) - 1; i >= 2; i-- {
		b[i] = hexDigits[v&15]
		v >>= 4
	}
	return dst[:len(dst)+len(b)]
}

// AppendUint appends v in decimal, as strconv.AppendUint(dst, v, 10) does.
// Nearly every number a tree shows (offsets, lengths, IDs, ports) is
// below 10000: those are written a digit pair at a time into dst, with
// no call and no copy out of a scratch buffer.
func AppendUint(dst []byte, v uint64) []byte {
	switch {
	case v < 10:
		return append(dst, byte('0'+v))
	case v < 100:
		return append(dst, decPairs[2*v], decPairs[2*v+1])
	case v < 1000:
		hi, lo := v/100, v%100
		return append(dst, byte('0'+hi), decPairs[2*lo], decPairs[2*lo+1])
	case v < 10000:
		hi, lo := v/100, v%100
		return append(dst, decPairs[2*hi], decPairs[2*hi+1], decPairs[2*lo], decPairs[2*lo+1])
	}
	// In place, two digits at a time from the end: strconv formats into
	// a buffer of its own and copies, and frame numbers and offsets past
	// 9999 are most of what -V prints.
	n := 5
	for t := v / 100000; t != 0; t /= 10 {
		n++
	}
	l := len(dst)
	dst = append(dst, make([]byte, n)...)
	b := dst[l : l+n]
	i := n
	for v >= 100 {
		q := v / 100
		r := v - q*100
		i -= 2
		b[i], b[i+1] = decPairs[2*r], decPairs[2*r+1]
		v = q
	}
	if v >= 10 {
		b[i-2], b[i-1] = decPairs[2*v], decPairs[2*v+1]
	} else {
		b[i-1] = byte('0' + v)
	}
	return dst
}

// AppendInt appends v in decimal, as strconv.AppendInt(dst, v, 10) does.
func AppendInt(dst []byte, v int64) []byte {
	if v < 0 {
		// -v overflows for the least int64, but as a uint64 it is still
		// that number's magnitude.
		return AppendUint(append(dst, '-'), uint64(-v))
	}
	return AppendUint(dst, uint64(v))
}

// AppendUintPad appends v in decimal with at least width digits, zeros
// before it as needed: the fractions of seconds in time stamps.
func AppendUintPad(dst []byte, v uint64, width int) []byte {
	var b [24]byte
	i := len(b)
	for ; v >= 100; v /= 100 {
		i -= 2
		r := v % 100
		b[i], b[i+1] = decPairs[2*r], decPairs[2*r+1]
	}
	if v >= 10 {
		i -= 2
		b[i], b[i+1] = decPairs[2*v], decPairs[2*v+1]
	} else {
		i--
		b[i] = byte('0' + v)
	}
	for ; len(b)-i < width && i > 0; i-- {
		b[i-1] = '0'
	}
	return append(dst, b[i:]...)
}

const decPairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

const hexDigits = "0123456789abcdef"

// AppendFloat appends v as strconv.AppendFloat(dst, v, fmt, -1, 64) does,
// for fmt 'f' or 'g'. Fixed-point protocols carry values in 32nds (Classic
// positions and angles). Below a million such a value has an exact decimal
// expansion of at most 5 fractional and 12 significant digits, too few for
// a shorter decimal to round to the same float, so that expansion is its
// shortest form; 'g' shows it without an exponent too (it uses one only
// below 1e-4 and from 1e6). It is written here in integers, far faster
// than the general shortest-float search.
func AppendFloat(dst []byte, v float64, fmt byte) []byte {
	// |m| < 32e6 is false for NaN and infinities too, and makes the
	// conversion exact, so the comparison tells whether m is whole.
	if m := v * 32; math.Abs(m) < 32e6 && float64(int64(m)) == m && (v != 0 || !math.Signbit(v)) {
		k := int64(m)
		if k < 0 {
			dst = append(dst, '-')
			k = -k
		}
		return append(AppendUint(dst, uint64(k>>5)), frac32[k&31]...)
	}
	return strconv.AppendFloat(dst, v, fmt, -1, 64)
}

// frac32 is the decimal fraction of each 32nd, trailing zeros trimmed.
var frac32 = func() (t [32]string) {
	for f := 1; f < 32; f++ {
		s := strconv.Itoa(100000 + f*3125) // f/32 = f*3125/100000
		t[f] = "." + strings.TrimRight(s[1:], "0")
	}
	return
}()

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
// escaped: C0 and C1 control characters, DEL, invalid UTF-8, the line and
// paragraph separators U+2028 and U+2029 (line ends to a terminal, to
// JavaScript and to line-based tools) and Unicode format characters
// (bidirectional overrides) become \xNN or \u{NNNN}.
func AppendSafe(dst []byte, s string) []byte { return appendEscaped(dst, s, false) }

// PlainPrefix returns the length of the run of plain ASCII (0x20 to 0x7e,
// less '"' and '\\') that starts s: the bytes every escaper of this module
// copies as they are, whatever else it escapes. It reads eight bytes at a
// time, as most text is one long such run.
func PlainPrefix(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if m := unplain(load64(s[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	if i == len(s) {
		return i
	}
	if len(s) < 8 {
		for ; i < len(s) && plainByte[s[i]]; i++ {
		}
		return i
	}
	// The last 1 to 7 bytes, in the word that ends s: its first 8-(len-i)
	// bytes are checked already, so their marks are shifted out.
	if m := unplain(load64(s[len(s)-8:])) >> (8 * (8 - (len(s) - i))); m != 0 {
		return i + bits.TrailingZeros64(m)>>3
	}
	return len(s)
}

// unplain marks with its top bit each byte of x (as load64 reads it) that
// PlainPrefix stops at.
func unplain(x uint64) uint64 {
	const (
		ones = 0x0101010101010101
		low7 = 0x7f7f7f7f7f7f7f7f
		high = 0x8080808080808080
	)
	// Per byte, on its low seven bits l (so no sum carries into the next
	// byte), bit 7 of: ^(l+0x60) flags l < 0x20, l+1 flags DEL,
	// ^((l^c)+0x7f) flags l == c; x itself flags bytes >= 0x80.
	l := x & low7
	m := ^(l + 0x60*ones) | (l + ones) | x |
		^((l ^ '"'*ones) + low7) | ^((l ^ '\\'*ones) + low7)
	return m & high
}

// load64 reads s[:8] little-endian; the compiler makes it one load.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// plainByte marks the bytes PlainPrefix passes.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return
}()

// IsFormat reports whether r is a Unicode format character (category Cf,
// bidirectional overrides among them), as unicode.Is(unicode.Cf, r), by a
// bitmap below U+10000: escapers ask it of every non-ASCII rune.
func IsFormat(r rune) bool {
	if uint32(r) < 0x10000 {
		return formatBMP[r>>6]>>(r&63)&1 != 0
	}
	return unicode.Is(unicode.Cf, r)
}

var formatBMP = func() (t [0x10000 / 64]uint64) {
	for _, g := range unicode.Cf.R16 {
		for r := uint32(g.Lo); r <= uint32(g.Hi); r += uint32(g.Stride) {
			t[r>>6] |= 1 << (r & 63)
		}
	}
	return
}()

// appendEscaped appends s escaped as AppendSafe says; quoted escapes '"'
// and '\\' too. It copies and checks in one pass: a word of s at a time
// is stored to dst whole and checked, and dst keeps the bytes of it that
// need no escape. A stop (a byte to escape, or a non-ASCII rune to check)
// is then handled on its own.
func appendEscaped(dst []byte, s string, quoted bool) []byte {
	plain := &plainByte
	if !quoted {
		plain = &safeByte
	}
	for i := 0; i < len(s); {
		// Room for the rest of s as it is, and a word more for the store
		// that runs past the end of a plain run.
		if cap(dst)-len(dst) < len(s)-i+8 {
			dst = slices.Grow(dst, len(s)-i+8)
		}
		b := dst[:cap(dst)]
		n := len(dst)
		if quoted {
			n, i = copyPlain(b, n, s, i)
		} else {
			n, i = copySafe(b, n, s, i)
		}
		// Fewer than a word left, or at a stop: a byte at a time.
		for i < len(s) && plain[s[i]] {
			b[n] = s[i]
			n++
			i++
		}
		dst = b[:n]
		if i == len(s) {
			break
		}
		c := s[i]
		if c < 0x80 {
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default: // other C0 controls and DEL
				dst = append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
			}
			i++
			continue
		}
		// Two- and three-byte runes (°, Δ, →) are decoded here, as the
		// general decoder is a call; the room made above holds them.
		if c >= 0xc2 && c < 0xe0 && i+1 < len(s) && s[i+1]&0xc0 == 0x80 {
			if r := rune(c&0x1f)<<6 | rune(s[i+1]&0x3f); r >= 0xa0 && !IsFormat(r) {
				dst = append(dst, c, s[i+1])
				i += 2
				continue
			}
		} else if c&0xf0 == 0xe0 && i+2 < len(s) && s[i+1]&0xc0 == 0x80 && s[i+2]&0xc0 == 0x80 {
			r := rune(c&0x0f)<<12 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f)
			if r >= 0x800 && (r < 0xd800 || r > 0xdfff) && r != 0x2028 && r != 0x2029 && r != 0xfffd && !IsFormat(r) {
				dst = append(dst, c, s[i+1], s[i+2])
				i += 3
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
		case r < 0xa0 || r == 0xfffd || r == 0x2028 || r == 0x2029 || IsFormat(r): // C1 controls and the rest
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

// copyPlain copies the run of plain bytes at s[i:] to b[n:] a word at a
// time, up to the last word of s, and returns the indexes after it in b
// and s; b has room for the run and a word more.
func copyPlain(b []byte, n int, s string, i int) (int, int) {
	for ; i+8 <= len(s); i, n = i+8, n+8 {
		x := load64(s[i:])
		binary.LittleEndian.PutUint64(b[n:], x)
		if m := unplain(x); m != 0 {
			k := bits.TrailingZeros64(m) >> 3
			return n + k, i + k
		}
	}
	return n, i
}

// copySafe is copyPlain for AppendSafe's bytes (safeByte).
func copySafe(b []byte, n int, s string, i int) (int, int) {
	for ; i+8 <= len(s); i, n = i+8, n+8 {
		x := load64(s[i:])
		binary.LittleEndian.PutUint64(b[n:], x)
		if m := unsafeBytes(x); m != 0 {
			k := bits.TrailingZeros64(m) >> 3
			return n + k, i + k
		}
	}
	return n, i
}

// unsafeBytes marks with its top bit each byte of x (as load64 reads it)
// that AppendSafe does not copy as it is: C0 controls, DEL, and bytes
// from 0x80 (to be checked as part of a rune).
func unsafeBytes(x uint64) uint64 {
	const (
		ones = 0x0101010101010101
		low7 = 0x7f7f7f7f7f7f7f7f
		high = 0x8080808080808080
	)
	l := x & low7
	return (^(l + 0x60*ones) | (l + ones) | x) & high
}

// safeByte marks the bytes AppendSafe copies as they are: plainByte's,
// and '"' and '\\'.
var safeByte = func() (t [256]bool) {
	t = plainByte
	t['"'], t['\\'] = true, true
	return
}()

func appendHexByte(dst []byte, c byte) []byte {
	return append(dst, hexDigits[c>>4], hexDigits[c&15])
}

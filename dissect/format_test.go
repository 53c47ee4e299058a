package dissect

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestAppendValue(t *testing.T) {
	r := &Registry{Proto: "fmt"} // not registered: the fields are local to this test
	names := Names{9: "Handshake", 0: "Stat"}
	typ := &Field{Name: "fmt.type", Type: FTUint, Base: BaseDec, Names: names}
	hexF := &Field{Name: "fmt.id", Type: FTUint, Base: BaseHex}
	hexW := &Field{Name: "fmt.idw", Type: FTUint, Base: BaseHex, Width: 4}
	dh := &Field{Name: "fmt.dh", Type: FTUint, Base: BaseDecHex}
	hd := &Field{Name: "fmt.hd", Type: FTUint, Base: BaseHexDec, Width: 2}
	str := &Field{Name: "fmt.s", Type: FTString}
	byt := &Field{Name: "fmt.b", Type: FTBytes}
	flt := &Field{Name: "fmt.f", Type: FTFloat, Unit: "s"}
	in := &Field{Name: "fmt.i", Type: FTInt}
	bl := &Field{Name: "fmt.bool", Type: FTBool}
	_ = r
	for _, c := range []struct {
		n    Node
		want string
	}{
		{Node{Field: typ, Length: 1, Value: U(9)}, "Handshake (9)"},
		{Node{Field: typ, Length: 1, Value: U(5)}, "Unknown (5)"},
		{Node{Field: hexF, Length: 4, Value: U(0x304)}, "0x00000304"},
		{Node{Field: hexW, Length: 0, Value: U(1)}, "0x00000001"},
		{Node{Field: dh, Length: 1, Value: U(11)}, "11 (0x0b)"},
		{Node{Field: hd, Length: 2, Value: U(36120)}, "0x8d18 (36120)"},
		{Node{Field: str, Value: B([]byte("§fmsh\x1b[2J\x00"))}, `"§fmsh\x1b[2J\x00"`},
		{Node{Field: str, Value: S("a\"b\\c\u202e")}, `"a\"b\\c\u{202e}"`},
		{Node{Field: str, Value: S("line\u2028para\u2029end")}, `"line\u{2028}para\u{2029}end"`},
		{Node{Field: str, Value: B([]byte{0xff, 'a'})}, `"\xffa"`},
		{Node{Field: byt, Value: B([]byte{0xfe, 0xfd})}, "fefd"},
		{Node{Field: byt, Value: B(make([]byte, 40))}, "0000000000000000000000000000000000000000000000000000000000000000…"},
		{Node{Field: flt, Value: F(0.000109)}, "0.000109 s"},
		{Node{Field: in, Value: I(-1942601834)}, "-1942601834"},
		{Node{Field: bl, Value: Bool(true)}, "True"},
		{Node{Field: typ, Value: U(9), Text: "custom\x1b"}, `custom\x1b`},
	} {
		if got := display(&c.n); got != c.want {
			t.Errorf("%s %v: got %q, want %q", c.n.Field.Name, c.n.Value, got, c.want)
		}
	}
}

func TestCustomdisplay(t *testing.T) {
	f := &Field{Name: "fmt.custom", Type: FTUint, Custom: func(dst []byte, n *Node) []byte {
		return append(append(dst, "custom "...), byte('0'+n.Value.N))
	}}
	if got := display(&Node{Field: f, Value: U(7)}); got != "custom 7" {
		t.Errorf("got %q", got)
	}
	if got := display(&Node{Field: f, Value: U(7), Text: "own text"}); got != "own text" {
		t.Errorf("a node's own text comes first: got %q", got)
	}
}

// escapedRef is appendEscaped as it was first written, a byte and a rune
// at a time: the fast one must escape every string exactly as it does.
func escapedRef(dst []byte, s string, quoted bool) []byte {
	for i := 0; i < len(s); {
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
		case r >= 0x80 && r < 0xa0 || unicode.Is(unicode.Cf, r) || r == 0xfffd || unicode.In(r, unicode.Zl, unicode.Zp):
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

func checkEscaped(t *testing.T, s string) {
	t.Helper()
	for _, quoted := range []bool{false, true} {
		if got, want := appendEscaped(nil, s, quoted), escapedRef(nil, s, quoted); string(got) != string(want) {
			t.Fatalf("%q quoted=%v: got %q, want %q", s, quoted, got, want)
		}
	}
}

func TestEscapedEveryRune(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		c := string(r)
		checkEscaped(t, c)
		checkEscaped(t, "abcdefgh"+c+"ijklmnop"+c)
		if IsFormat(r) != unicode.Is(unicode.Cf, r) {
			t.Fatalf("IsFormat(%U) = %v", r, IsFormat(r))
		}
	}
	for c := 0; c < 256; c++ {
		for i := 0; i < 10; i++ { // the byte at every place in a word and after
			checkEscaped(t, strings.Repeat("x", i)+string(byte(c))+"0123456789")
		}
	}
}

// TestEscapedSequences checks every two-byte sequence and every
// three-byte one that starts a three-byte rune (E0 to EF, a continuation
// byte, anything): the overlong forms, the encoded surrogates and the
// sequences cut short take the general decoder, the others a shorter way.
func TestEscapedSequences(t *testing.T) {
	b := []byte("abcdefgh\x00\x00\x00ijk")
	for c0 := 0x80; c0 < 0x100; c0++ {
		for c1 := 0; c1 < 0x100; c1++ {
			b[8], b[9] = byte(c0), byte(c1)
			checkEscaped(t, string(b[8:10]))
			if c0&0xf0 != 0xe0 || c1&0xc0 != 0x80 {
				continue
			}
			for c2 := 0; c2 < 0x100; c2++ {
				b[10] = byte(c2)
				checkEscaped(t, string(b))
			}
		}
	}
}

func TestEscapedRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "Z", " ", "~", "\"", "\\", "\x00", "\x1b", "\x7f", "\n", "\t", "\r", "\x80", "\xc3", "\xa9", "\xff",
		"é", "Δ", "÷", "°", "−", "\u202e", "\u00ad", "\ufffd", "\U000e0001", "😀", "\u0085", "\u2028", "\u2029"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		checkEscaped(t, b.String())
	}
}

// TestEscapedDense: texts where most bytes are escaped (quotes and
// backslashes, as in JSON) or few are, of every length up to 200, into
// buffers of every spare room up to 40 bytes: the escaper runs out of the
// room it made and must make more.
func TestEscapedDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, alphabet := range []string{`"\`, `"a`, `\\"aaaaaaa`, "\"\x00a", "\"é"} {
		for n := 0; n <= 200; n++ {
			b := make([]byte, n)
			for i := range b {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
			s := string(b)
			for _, quoted := range []bool{false, true} {
				want := string(escapedRef([]byte("pre"), s, quoted))
				for room := 0; room <= 40; room += 3 {
					dst := append(make([]byte, 0, 3+room), "pre"...)
					if got := string(appendEscaped(dst, s, quoted)); got != want {
						t.Fatalf("%q quoted=%v room %d: got %q, want %q", s, quoted, room, got, want)
					}
				}
			}
		}
	}
}

func FuzzEscaped(f *testing.F) {
	f.Add("plain text that is long enough")
	f.Add("\x1b[2J\u202e\"\\\xff")
	f.Fuzz(func(t *testing.T, s string) { checkEscaped(t, s) })
}

func TestAppendNumbers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	u := []uint64{0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 65535, 1 << 32, math.MaxUint64}
	for range 100000 {
		u = append(u, rng.Uint64()>>rng.IntN(64))
	}
	for _, v := range u {
		if got, want := string(AppendUint(nil, v)), strconv.FormatUint(v, 10); got != want {
			t.Fatalf("AppendUint(%d) = %q", v, got)
		}
		if got, want := string(AppendUint([]byte("x:"), v)), "x:"+strconv.FormatUint(v, 10); got != want {
			t.Fatalf("AppendUint(x:, %d) = %q", v, got)
		}
		if got, want := string(AppendInt(nil, int64(v))), strconv.FormatInt(int64(v), 10); got != want {
			t.Fatalf("AppendInt(%d) = %q", int64(v), got)
		}
		if got, want := string(AppendInt(nil, -int64(v))), strconv.FormatInt(-int64(v), 10); got != want {
			t.Fatalf("AppendInt(%d) = %q", -int64(v), got)
		}
		for _, w := range []int{0, 1, 6, 9, 24} {
			d := strconv.FormatUint(v, 10)
			want := strings.Repeat("0", max(0, w-len(d))) + d
			if got := string(AppendUintPad(nil, v, w)); got != want {
				t.Fatalf("AppendUintPad(%d, %d) = %q, want %q", v, w, got, want)
			}
		}
		for _, w := range []int{0, 1, 2, 4, 8} {
			h := strconv.FormatUint(v, 16)
			want := "0x" + strings.Repeat("0", max(0, 2*w-len(h))) + h
			if got := string(appendHexNum(nil, v, w)); got != want {
				t.Fatalf("appendHexNum(%#x, %d) = %q, want %q", v, w, got, want)
			}
		}
	}
}

func TestAppendFloat(t *testing.T) {
	check := func(v float64) {
		t.Helper()
		for _, fmt := range []byte{'f', 'g'} {
			if got, want := string(AppendFloat(nil, v, fmt)), strconv.FormatFloat(v, fmt, -1, 64); got != want {
				t.Fatalf("AppendFloat(%v, %c) = %q, want %q", v, fmt, got, want)
			}
		}
	}
	// Every 32nd near zero, where the digits are fewest, and at random
	// up to and past the fast path's bound.
	for k := -200000; k <= 200000; k++ {
		check(float64(k) / 32)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		k := rng.Int64N(64e6) - 32e6
		check(float64(k) / 32)
		check(float64(k) / 64)
		check(rng.NormFloat64() * 1000)
	}
	for _, v := range []float64{math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1e6, 999999.96875, -999999.96875,
		1e-5, 0.1, 1e21, 1e300, 5e-324, math.MaxFloat64} {
		check(v)
	}
}

func TestPlainPrefix(t *testing.T) {
	ref := func(s string) int {
		i := 0
		for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' && s[i] != '\\' {
			i++
		}
		return i
	}
	for n := 0; n <= 24; n++ {
		for at := 0; at <= n; at++ {
			for c := 0; c < 256; c++ {
				b := []byte(strings.Repeat("a", n))
				if at < n {
					b[at] = byte(c)
				}
				if got, want := PlainPrefix(string(b)), ref(string(b)); got != want {
					t.Fatalf("%q: %d, want %d", b, got, want)
				}
			}
		}
	}
}

// display is a node's value as the tree shows it, as a string.
func display(n *Node) string { return string(AppendValue(nil, n)) }

// BenchmarkEscaped escapes texts of the kinds -V shows most: a status
// response's JSON (a quote every few bytes), a layer's line (ASCII and an
// arrow), a player's name, a MOTD in Cyrillic.
func BenchmarkEscaped(b *testing.B) {
	for _, c := range []struct {
		name, s string
		quoted  bool
	}{
		{"json", `{"version":{"name":"1.21.1","protocol":767},"players":{"max":200,"online":11,"sample":[{"name":"RedDragon706","id":"4e2205e8-ff3e-401c-a119-d40172fefea5"},{"name":"TinyPanda","id":"6dde2bf3-5be4-4413-8b35-254e2b3b7312"}]},"description":{"text":"Vanilla+ survival, est. 2019\nNow on 1.21.1"}}`, true},
		{"line", "Frame 4: 78 bytes on wire (624 bits), 78 bytes captured (624 bits), 2024-08-09 12:00:00.000429000 UTC, TCP stream 0, client → server", false},
		{"name", "LilDigger", true},
		{"cyrillic", "Добро пожаловать на сервер", true},
	} {
		b.Run(c.name, func(b *testing.B) {
			var dst []byte
			b.SetBytes(int64(len(c.s)))
			for range b.N {
				dst = appendEscaped(dst[:0], c.s, c.quoted)
			}
		})
	}
}

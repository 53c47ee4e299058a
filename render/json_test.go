package render

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mcdissect/mcdissect/dissect"
)

// jsonStringRef is appendJSONString as it was first written, a byte and a
// rune at a time: the fast one must escape every string exactly as it does.
func jsonStringRef(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
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
			b = append(b, `\u`...)
			b = append(b, hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

func checkJSONString(t *testing.T, s string) {
	t.Helper()
	if got, want := appendJSONString(nil, s), jsonStringRef(nil, s); string(got) != string(want) {
		t.Fatalf("%q: got %s, want %s", s, got, want)
	}
}

func TestJSONStringEveryRune(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		c := string(r)
		checkJSONString(t, c)
		checkJSONString(t, "abcdefgh"+c+"ijklmnop"+c)
	}
	for c := 0; c < 256; c++ {
		for i := 0; i < 10; i++ {
			checkJSONString(t, strings.Repeat("x", i)+string(byte(c))+"0123456789")
		}
	}
}

func TestJSONStringRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "Z", " ", "~", "\"", "\\", "\x00", "\x1b", "\x7f", "\n", "\t", "\x80", "\xc3", "\xa9", "\xff",
		"é", "Δ", "÷", "°", "\u2028", "\u202e", "\u00ad", "\ufffd", "\U000e0001", "😀", "\u0085"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		checkJSONString(t, b.String())
	}
}

func FuzzJSONString(f *testing.F) {
	f.Add("plain text that is long enough")
	f.Add("\x1b[2J\u202e\"\\\xff\u2028")
	f.Fuzz(func(t *testing.T, s string) { checkJSONString(t, s) })
}

// TestAppendRelative: the integer seconds print what the float printed.
func TestAppendRelative(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	ds := []time.Duration{0, 1, -1, 999_999_999, time.Second, -time.Second, 1<<17*time.Second - 1, 1 << 17 * time.Second,
		-(1<<17*time.Second - 1), 1 << 40, -1 << 50, math.MaxInt64, math.MinInt64}
	for range 200000 {
		ds = append(ds, time.Duration(rng.Int64N(int64(1<<18*time.Second))-int64(1<<17*time.Second)))
	}
	for _, d := range ds {
		if got, want := string(appendRelative(nil, d)), strconv.FormatFloat(d.Seconds(), 'f', 9, 64); got != want {
			t.Fatalf("%d ns: %s, want %s", int64(d), got, want)
		}
	}
}

// TestPlainStringMembers: a plain string's show and value members, written
// directly, are what the general way writes.
func TestPlainStringMembers(t *testing.T) {
	f := &dissect.Field{Name: "t.s", Label: "S", Type: dissect.FTString}
	j := &jsonRenderer{}
	for _, s := range []string{"", "mc.example.net", "Notch", "a b ~ {}[]", "with \"quote\"", `back\slash`, "é", "\x1b"} {
		n := &dissect.Node{Field: f, Value: dissect.S(s)}
		general := j.appendValue(j.appendShow([]byte(`, "show": "`), n, false), n)
		str, ok := plainString(n)
		if !ok {
			if dissect.PlainPrefix(s) == len(s) {
				t.Errorf("%q: not taken as plain", s)
			}
			continue
		}
		direct := `, "show": "\"` + str + `\"", "value": "` + str + `"`
		if direct != string(general) {
			t.Errorf("%q: direct %s, general %s", s, direct, general)
		}
	}
}

package classic

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// The fast formatters must print exactly what strconv prints: the trees
// and Info lines are compared byte for byte by the goldens.

func TestAppendFixed32(t *testing.T) {
	check := func(raw int64) {
		want := strconv.FormatFloat(float64(raw)/32, 'f', -1, 64)
		if got := string(appendFixed32(nil, raw)); got != want {
			t.Fatalf("%d: %q, want %q", raw, got, want)
		}
		if got := string(appendFloat(nil, float64(raw)/32)); got != want {
			t.Fatalf("appendFloat %d: %q, want %q", raw, got, want)
		}
	}
	for raw := int64(-70000); raw <= 70000; raw++ {
		check(raw)
	}
	for _, raw := range []int64{math.MinInt32, math.MaxInt32, math.MinInt32 + 1, math.MaxInt32 - 31, 1 << 40, -(1 << 40) - 17} {
		check(raw)
	}
	for _, v := range []float64{math.Copysign(0, -1), 0.1, -1e300, math.Inf(1), math.NaN(), 1 << 60} {
		if got, want := string(appendFloat(nil, v)), strconv.FormatFloat(v, 'f', -1, 64); got != want {
			t.Errorf("appendFloat(%v): %q, want %q", v, got, want)
		}
	}
}

func TestAppendQuote(t *testing.T) {
	for _, s := range []string{"", "plain", `say "hi"`, `back\slash`, "tab\there", "é", "\x7f", "\xff\xfe", "&a&bcolour", "'single'"} {
		if got, want := string(appendQuote(nil, []byte(s))), strconv.Quote(s); got != want {
			t.Errorf("appendQuote(%q) = %s, want %s", s, got, want)
		}
		if got, want := string(appendQuoted(nil, []byte(s))), string(dissect.AppendQuoted(nil, s)); got != want {
			t.Errorf("appendQuoted(%q) = %s, want %s", s, got, want)
		}
	}
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	for i := range b {
		if got, want := string(appendQuote(nil, b[i:i+1])), strconv.Quote(string(b[i:i+1])); got != want {
			t.Errorf("byte %#x: %s, want %s", i, got, want)
		}
	}
}

func TestStripColors(t *testing.T) {
	for _, s := range []string{"", "&", "&&", "&a", "a&", "&ahello &fworld", "&zno", "&0a&1b&fc"} {
		if got, want := string(stripColors(nil, []byte(s))), stripColorsRef(s); got != want {
			t.Errorf("stripColors(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestAngleDisplay: the angle formatters print what they did with strconv.
func TestAngleDisplay(t *testing.T) {
	for v := 0; v < 256; v++ {
		deg := float64(v) * 360 / 256
		n := &dissect.Node{Value: dissect.F(deg)}
		want := strconv.FormatFloat(deg, 'f', -1, 64)
		if got := string(appendYaw(nil, n)); got[:len(want)] != want {
			t.Errorf("yaw %d: %q, want it to start %q", v, got, want)
		}
		if got, want := string(appendFloat(nil, 360-deg)), strconv.FormatFloat(360-deg, 'f', -1, 64); got != want {
			t.Errorf("360 - %v: %q, want %q", deg, got, want)
		}
	}
}

// TestDisplaySpec holds the display formatters to what they show, spelt
// out with strconv: every coordinate and delta a packet can carry, every
// angle byte, and values no packet makes (they take the general way).
func TestDisplaySpec(t *testing.T) {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	node := func(v float64) *dissect.Node { return &dissect.Node{Value: dissect.F(v)} }
	odd := []float64{0.1, -2.7, math.Copysign(0, -1), 1e300, 1 << 50, 1.0 / 3}
	fixed := func(v float64, mid string) string {
		return f(v) + mid + strconv.FormatInt(int64(math.Round(v*32)), 10) + " ÷ 32)"
	}
	vals := odd
	for raw := int64(-40000); raw <= 40000; raw++ {
		vals = append(vals, float64(raw)/32)
	}
	for _, raw := range []int64{math.MinInt32, math.MaxInt32} {
		vals = append(vals, float64(raw)/32)
	}
	for _, v := range vals {
		if got, want := string(appendFixed(nil, node(v))), fixed(v, " blocks (fixed point "); got != want {
			t.Fatalf("fixed %v: %q, want %q", v, got, want)
		}
		if got, want := string(appendDelta(nil, node(v))), fixed(v, " blocks (signed delta "); got != want {
			t.Fatalf("delta %v: %q, want %q", v, got, want)
		}
	}
	angles := odd
	for v := 0; v < 256; v++ {
		angles = append(angles, float64(v)*360/256)
	}
	for _, deg := range angles {
		if deg < 0 || deg > 1e6 {
			continue // no compass point: no byte makes one
		}
		raw := rawAngle(deg)
		want := f(deg) + "° facing " + compass[((raw+16)/32)%8] + " (raw " + strconv.Itoa(raw) + ")"
		if got := string(appendYaw(nil, node(deg))); got != want {
			t.Fatalf("yaw %v: %q, want %q", deg, got, want)
		}
		var mid string
		switch {
		case raw == 0:
			mid = "° level"
		case raw <= 64:
			mid = "° looking down " + f(deg) + "°"
		case raw >= 192:
			mid = "° looking up " + f(360-deg) + "°"
		default:
			mid = "° beyond straight down/up: head upside down"
		}
		want = f(deg) + mid + " (raw " + strconv.Itoa(raw) + ")"
		if got := string(appendPitch(nil, node(deg))); got != want {
			t.Fatalf("pitch %v: %q, want %q", deg, got, want)
		}
	}
}

// stripColorsRef returns s without its &-colour codes (& and one hex digit).
func stripColorsRef(s string) string {
	if strings.IndexByte(s, '&') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '&' && i+1 < len(s) && isColorDigit(s[i+1]) {
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

package classic

import (
	"math"
	"strconv"
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
		if got, want := string(stripColors(nil, []byte(s))), StripColors(s); got != want {
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

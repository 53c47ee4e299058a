package analyze

import (
	"testing"
	"time"
)

func TestExactTimes(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0.000000000"}, {1, "0.000000001"}, {1500 * time.Millisecond, "1.500000000"},
		{642434100 * time.Nanosecond, "0.642434100"}, {-1, "-0.000000001"},
	} {
		if got := string(AppendSeconds9(nil, c.d)); got != c.want {
			t.Errorf("AppendSeconds9(%d) = %q, want %q", c.d, got, c.want)
		}
	}
	for _, c := range []struct {
		t          time.Time
		epoch, abs string
	}{
		{time.Unix(1795342882, 642434100), "1795342882.642434100", "Nov 22, 2026 10:21:22.642434100 UTC"},
		{time.Unix(1714564800, 0), "1714564800.000000000", "May  1, 2024 12:00:00.000000000 UTC"},
		{time.Unix(-1, 500000000), "-0.500000000", "Dec 31, 1969 23:59:59.500000000 UTC"},
	} {
		if got := string(AppendEpoch9(nil, c.t)); got != c.epoch {
			t.Errorf("AppendEpoch9(%v) = %q, want %q", c.t, got, c.epoch)
		}
		if got := string(AppendFrameTime(nil, c.t)); got != c.abs {
			t.Errorf("AppendFrameTime(%v) = %q, want %q", c.t, got, c.abs)
		}
	}
}

func TestWindowSize(t *testing.T) {
	for _, c := range []struct {
		l    Layers
		want uint32
	}{
		{Layers{Window: 64, WScale: 10, TCPFlags: TCPFlagACK}, 65536},
		{Layers{Window: 64, WScale: -1, TCPFlags: TCPFlagACK}, 64},      // scale unknown: raw, as tshark
		{Layers{Window: 65495, WScale: 7, TCPFlags: TCPFlagSYN}, 65495}, // a SYN's window is never scaled
		{Layers{Window: 512, WScale: 0, TCPFlags: TCPFlagACK}, 512},
	} {
		if got := c.l.WindowSize(); got != c.want {
			t.Errorf("%+v: %d, want %d", c.l, got, c.want)
		}
	}
}

package classic

import "testing"

func TestCount8(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4, 5, 15, 16, 17, 1000, 4099} {
		b := make([]byte, n)
		seed := uint32(n)
		for i := range b {
			seed = seed*1664525 + 1013904223
			b[i] = byte(seed >> 24)
			if i%50 < 40 {
				b[i] = 1 // runs, as in a level
			}
		}
		var want, got [1024]uint32
		for _, v := range b {
			want[v]++
		}
		got[0] = 5 // count8 adds to what is there
		want[0] += 5
		count8(&got, b)
		if got != want {
			t.Errorf("%d bytes: counts differ", n)
		}
	}
}

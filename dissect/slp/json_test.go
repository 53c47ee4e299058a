package slp

import (
	"math/rand/v2"
	"testing"
)

// TestPlain8 checks the eight-byte test of the string scanner against a
// byte loop, on every byte value in every position and on random words.
func TestPlain8(t *testing.T) {
	slow := func(b [8]byte) bool {
		for _, c := range b {
			if c == '"' || c == '\\' || c < 0x20 {
				return false
			}
		}
		return true
	}
	word := func(b [8]byte) uint64 {
		var x uint64
		for i := 7; i >= 0; i-- {
			x = x<<8 | uint64(b[i])
		}
		return x
	}
	check := func(b [8]byte) {
		if got, want := plain8(word(b)), slow(b); got != want {
			t.Fatalf("plain8(% x) = %v, want %v", b, got, want)
		}
	}
	for _, fill := range []byte{'a', 0x20, 0x21, 0x7f, 0x80, 0xff, 0x5b, 0x5d, 0x23} {
		for pos := range 8 {
			for v := range 256 {
				var b [8]byte
				for i := range b {
					b[i] = fill
				}
				b[pos] = byte(v)
				check(b)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1 << 16 {
		var b [8]byte
		for i := range b {
			b[i] = byte(r.UintN(256))
		}
		check(b)
	}
}

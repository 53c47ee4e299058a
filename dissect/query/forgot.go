package query

import (
	"hash/fnv"
	"io"
	"time"
)

// forgotten remembers, approximately, the clients whose tokens the
// tracker dropped to stay within MaxClients (shrink), so that a token it
// can no longer find is not called "not issued": a busy capture (the
// Query mix, some 30,000 clients within a token's 30 s) passes the cap
// within seconds, and every stat request of a client evicted before it
// came was reported as carrying a token never issued to it, which was
// false.
//
// It is a Bloom filter over the client's "ip:port": a client it says no
// to was never evicted, so "not issued" stays a verdict; a false yes
// only turns that verdict into "could not be checked". Two generations
// of TokenMemory each: a token older than that would be forgotten by age
// anyway. The hash is FNV-1a, fixed, so that runs are reproducible. The
// bits are made at the first eviction: a capture under the cap pays
// nothing.
type forgotten struct {
	gens  [2]*[forgotWords]uint64 // current, previous
	since time.Time               // when the current generation began
}

const (
	forgotWords = 1 << 14 // 2^20 bits, 128 KiB a generation
	forgotBits  = forgotWords * 64
	forgotK     = 3
)

// bits yields the filter's bit positions for key: double hashing of the
// two halves of one 64-bit hash. It runs at an eviction or a token not
// found, not per packet.
func (f *forgotten) bits(key string) [forgotK]uint32 {
	fh := fnv.New64a()
	io.WriteString(fh, key)
	h := fh.Sum64()
	h1, h2 := uint32(h), uint32(h>>32)|1
	var b [forgotK]uint32
	for i := range b {
		b[i] = (h1 + uint32(i)*h2) % forgotBits
	}
	return b
}

// add notes that client was evicted at packet time now.
func (f *forgotten) add(client string, now time.Time) {
	f.rotate(now)
	if f.gens[0] == nil {
		f.gens[0] = new([forgotWords]uint64)
	}
	for _, b := range f.bits(client) {
		f.gens[0][b/64] |= 1 << (b % 64)
	}
}

// rotate starts a new generation when the current one is TokenMemory old,
// and forgets both when the previous one would be past that too.
func (f *forgotten) rotate(now time.Time) {
	if f.since.IsZero() {
		f.since = now
	}
	age := now.Sub(f.since)
	if age < TokenMemory {
		return
	}
	old := f.gens[1]
	f.gens[1], f.gens[0] = f.gens[0], old
	if age >= 2*TokenMemory && f.gens[1] != nil {
		clear(f.gens[1][:])
	}
	if f.gens[0] != nil {
		clear(f.gens[0][:])
	}
	f.since = now
}

// has reports whether client may have been evicted within about two
// TokenMemory of now (no: it was not).
func (f *forgotten) has(client string, now time.Time) bool {
	if f.gens[0] == nil {
		return false
	}
	f.rotate(now)
	bs := f.bits(client)
	return holds(f.gens[0], bs) || holds(f.gens[1], bs)
}

// holds reports whether generation g has every bit of bs set.
func holds(g *[forgotWords]uint64, bs [forgotK]uint32) bool {
	if g == nil {
		return false
	}
	for _, b := range bs {
		if g[b/64]&(1<<(b%64)) == 0 {
			return false
		}
	}
	return true
}

package inflate

import (
	"io"
	"math/bits"
)

// fastBits is how many bits a table looks up at most at once: codes as
// long or shorter are decoded in one step, longer ones bit by bit.
const fastBits = 9

// entryNone is the entry of table.fast for bits no code begins with (in
// an incomplete code); 0 is that for bits that begin a code longer than
// fastBits.
const entryNone = 1 << 15

// table decodes one canonical Huffman code (RFC 1951 section 3.2.2).
type table struct {
	// fast, indexed by the next bits of the stream (mask selects them:
	// as many as the longest code has, at most fastBits), holds
	// symbol<<4 | length for a code of that length or shorter, 0 or
	// entryNone; entries past mask are unused
	fast  [1 << fastBits]uint16
	mask  uint64
	count [16]uint16  // codes of each length (count[0] unused)
	syms  [288]uint16 // the symbols in code order: by length, then value
	// min is the fewest bits a symbol is read with (the shortest code,
	// or more: see readCodes), 0 for an empty code
	min uint8
}

// init builds the code whose symbol i has code length lens[i] (0: none),
// and reports whether the lengths make a code. As in zlib and Go's
// compress/flate, a code must be complete, except that a code of a single
// length-1 symbol, and an empty code, are accepted: reading a symbol with
// either fails when the stream uses a code it lacks.
func (t *table) init(lens []uint8) bool { return t.initWidth(lens, fastBits) }

// initWidth is init with a table of at most maxWidth bits (at most
// fastBits): a block that is to give only a few symbols fills a smaller
// table, and reads its longer codes bit by bit (symSlow), as every code
// longer than the table is read.
func (t *table) initWidth(lens []uint8, maxWidth int) bool {
	t.count = [16]uint16{}
	for _, l := range lens {
		t.count[l]++
	}
	t.count[0] = 0
	left := 1 // codes of the current length not yet taken
	shortest, longest := 0, 0
	for l := 1; l < len(t.count); l++ {
		left = left<<1 - int(t.count[l])
		if left < 0 {
			return false // over-subscribed
		}
		if t.count[l] > 0 {
			if shortest == 0 {
				shortest = l
			}
			longest = l
		}
	}
	t.min = uint8(shortest)
	switch {
	case longest == 0:
		t.mask, t.fast[0] = 0, entryNone
		return true
	case left != 0 && !(longest == 1 && t.count[1] == 1):
		return false // incomplete
	}

	// the symbols in code order
	var next [16]uint16
	for l := 1; l < len(next)-1; l++ {
		next[l+1] = next[l] + t.count[l]
	}
	for s, l := range lens {
		if l != 0 {
			t.syms[next[l]] = uint16(s)
			next[l]++
		}
	}

	// a complete code up to the width long fills the table; otherwise the
	// rest is the beginning of longer codes, or no code
	width := min(longest, maxWidth, fastBits)
	fast := t.fast[:1<<width]
	t.mask = 1<<width - 1
	switch {
	case left != 0:
		clear(fast)
		fast[1] = entryNone
	case longest > width:
		clear(fast) // the beginnings of longer codes
	}
	code, k := 0, 0 // the next code, MSB first, and its index in syms
	for l := 1; l <= width; l++ {
		for range t.count[l] {
			e := t.syms[k]<<4 | uint16(l)
			for i := int(bits.Reverse16(uint16(code)) >> (16 - l)); i < len(fast); i += 1 << l {
				fast[i] = e
			}
			code++
			k++
		}
		code <<= 1
	}
	return true
}

// sym reads one symbol coded with t.
func (r *bitReader) sym(t *table) (int, error) {
	if r.n < 15 {
		r.refill()
	}
	e := t.fast[r.b&t.mask&(1<<fastBits-1)]
	if l := uint(e & 15); l != 0 && r.n >= 15 {
		r.b >>= l
		r.n -= l
		return int(e >> 4), nil
	}
	return r.symSlow(t)
}

// symSlow is sym for a long code, a code the table lacks, or the end of
// the input. Like compress/flate, it asks for t.min bits before it
// decodes anything (so a stream that ends early fails alike), and reads
// no bit past the code.
func (r *bitReader) symSlow(t *table) (int, error) {
	if t.min == 0 {
		return 0, r.corrupt("a symbol of an empty Huffman code")
	}
	if r.n < uint(t.min) {
		return 0, io.ErrUnexpectedEOF
	}
	e := t.fast[r.b&t.mask&(1<<fastBits-1)]
	if e == entryNone {
		return 0, r.corrupt("a Huffman code the block's code lacks")
	}
	if l := uint(e & 15); l != 0 {
		if l > r.n {
			return 0, io.ErrUnexpectedEOF
		}
		r.b >>= l
		r.n -= l
		return int(e >> 4), nil
	}
	// a long code: walk the canonical code one bit at a time, first being
	// the first code of length l and k the index of its symbol
	code, first, k := 0, 0, 0
	b := r.b
	for l := uint(1); l < uint(len(t.count)); l++ {
		if l > r.n {
			return 0, io.ErrUnexpectedEOF
		}
		code |= int(b & 1)
		b >>= 1
		c := int(t.count[l])
		if code-first < c {
			r.b >>= l
			r.n -= l
			return int(t.syms[k+code-first]), nil
		}
		k += c
		first = (first + c) << 1
		code <<= 1
	}
	return 0, r.corrupt("a Huffman code the block's code lacks")
}

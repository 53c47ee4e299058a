package classic

import (
	"encoding/binary"
	"hash/crc32"
	"math/bits"
)

// A DEFLATE decoder for a whole level held in memory. compress/flate reads
// its input a byte at a time through an interface and writes its output to
// a 32 KiB window that is then copied out; a level is joined before it is
// inflated, so here the input is a slice read 64 bits at a time, and the
// output buffer is the window: matches copy within it.
//
// It only ever answers "this is the level": any error, anything
// compress/flate might judge otherwise (an incomplete code, a read past
// the input, a gzip header with optional fields) and any output past the
// limit make it give up, and compress/flate inflates the level again, so
// that broken levels and bombs are reported in its words. A stream that
// inflates gives the same bytes whichever decoder reads it: DEFLATE
// leaves no choice.

const (
	fastBits = 10 // bits looked up at once; longer codes go through a sub-table
	fastMask = 1<<fastBits - 1
	subFlag  = 1 << 5 // in a table entry: the rest points to a sub-table
)

// huffTable decodes one Huffman code. An entry is symbol<<16 | length, a
// length of 0 marking bit patterns no code has; or, with subFlag,
// offset<<16 | subFlag | index bits of a sub-table for codes longer than
// fastBits.
type huffTable struct {
	fast [1 << fastBits]uint32
	sub  []uint32
}

// build makes the table of the canonical code with these code lengths. It
// refuses what compress/flate refuses: an over-subscribed code, and an
// incomplete one other than a single code of length 1. An empty code
// builds (a block without distances has one); using it fails.
func (t *huffTable) build(lengths []uint8) bool {
	var count [16]int
	for _, l := range lengths {
		count[l]++
	}
	count[0] = 0
	maxLen := 15
	for maxLen > 0 && count[maxLen] == 0 {
		maxLen--
	}
	left := 1
	for l := 1; l <= 15; l++ {
		left = left<<1 - count[l]
		if left < 0 {
			return false
		}
	}
	clear(t.fast[:])
	t.sub = t.sub[:0]
	if maxLen == 0 {
		return true
	}
	if left != 0 && !(maxLen == 1 && count[1] == 1) {
		return false
	}
	var next [16]int
	code := 0
	for l := 1; l <= 15; l++ {
		code = (code + count[l-1]) << 1
		next[l] = code
	}
	subBits := max(maxLen-fastBits, 0)
	for sym, l := range lengths {
		if l == 0 {
			continue
		}
		r := int(bits.Reverse16(uint16(next[l])) >> (16 - l))
		next[l]++
		e := uint32(sym)<<16 | uint32(l)
		if int(l) <= fastBits {
			for i := r; i < 1<<fastBits; i += 1 << l {
				t.fast[i] = e
			}
			continue
		}
		p := t.fast[r&fastMask]
		if p == 0 {
			p = uint32(len(t.sub))<<16 | subFlag | uint32(subBits)
			t.fast[r&fastMask] = p
			for range 1 << subBits {
				t.sub = append(t.sub, 0)
			}
		}
		sub := t.sub[p>>16:]
		for i := r >> fastBits; i < 1<<subBits; i += 1 << (int(l) - fastBits) {
			sub[i] = e
		}
	}
	return true
}

// Length and distance bases and extra bits (RFC 1951, 3.2.5).
var (
	lenBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lenExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	dstBase  = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	dstExtra = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
)

// fixedLit and fixedDist are the fixed-code block's tables. The fixed
// distance code has 32 five-bit codes; 30 and 31 are refused when read.
var fixedLit, fixedDist = func() (l, d *huffTable) {
	var ll [288]uint8
	for i := range ll {
		switch {
		case i < 144:
			ll[i] = 8
		case i < 256:
			ll[i] = 9
		case i < 280:
			ll[i] = 7
		default:
			ll[i] = 8
		}
	}
	var dl [32]uint8
	for i := range dl {
		dl[i] = 5
	}
	l, d = new(huffTable), new(huffTable)
	l.build(ll[:])
	d.build(dl[:])
	return
}()

// codeOrder is the order of the code length code's lengths.
var codeOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// fastInflater holds a dynamic block's tables, reused level after level.
type fastInflater struct {
	lit, dist, clen huffTable
	lengths         [286 + 32]uint8
	// in, pos, bits, n: the input and the bits taken from it but not yet
	// used (the low n bits of bits). over counts zero bytes made up past
	// the end of the input, so that a read past it shows.
	in   []byte
	pos  int
	bits uint64
	n    uint
	over int
}

// refill makes at least 56 bits available. Past the end of the input it
// adds zero bytes; it reports false when so many were added that the
// stream has certainly been read past its end.
func (f *fastInflater) refill() bool {
	if f.pos+8 <= len(f.in) {
		f.bits |= binary.LittleEndian.Uint64(f.in[f.pos:]) << f.n
		f.pos += int(63-f.n) >> 3
		f.n |= 56
		return true
	}
	for f.n <= 56 {
		if f.pos < len(f.in) {
			f.bits |= uint64(f.in[f.pos]) << f.n
			f.pos++
		} else {
			f.over++
		}
		f.n += 8
	}
	return f.over <= 8
}

// consumed is the number of input bytes the bits used so far span.
func (f *fastInflater) consumed() int { return f.pos + f.over - int(f.n>>3) }

// sym decodes one symbol with t; enough bits must be there. It returns -1
// for a bit pattern that is no code.
func (f *fastInflater) sym(t *huffTable) int {
	e := t.fast[f.bits&fastMask]
	if e&subFlag != 0 {
		e = t.sub[int(e>>16)+int(f.bits>>fastBits)&(1<<(e&31)-1)]
	}
	l := uint(e & 31)
	if l == 0 {
		return -1
	}
	f.bits >>= l
	f.n -= l
	return int(e >> 16)
}

// take returns the next n ≤ 32 bits; enough bits must be there.
func (f *fastInflater) take(n uint) int {
	v := int(f.bits & (1<<n - 1))
	f.bits >>= n
	f.n -= n
	return v
}

// inflateFast inflates the raw DEFLATE stream at the start of src into out
// (appending; out's capacity is a hint, and what lies past its length may be
// anything: every byte of the result is written), at most limit bytes. ok is
// false when the stream does not inflate cleanly within the limit; end is the
// length of the stream in src. res is the buffer it ended in, even when ok
// is false (then empty), so that a fallback can reuse it.
func (f *fastInflater) inflateFast(src, out []byte, limit int) (res []byte, end int, ok bool) {
	f.in, f.pos, f.bits, f.n, f.over = src, 0, 0, 0, 0
	defer func() { f.in = nil }() // the pool does not keep the level's data alive
	o := len(out)
	out = out[:cap(out)]
	fail := func() ([]byte, int, bool) { return out[:0], 0, false }
	for final := false; !final; {
		if f.n < 3 && !f.refill() {
			return fail()
		}
		final = f.take(1) == 1
		var lit, dist *huffTable
		switch f.take(2) {
		case 0:
			// Stored: the rest of the byte is dropped, then LEN, NLEN.
			f.take(f.n & 7)
			p := f.consumed()
			if p+4 > len(src) {
				return fail()
			}
			n := int(binary.LittleEndian.Uint16(src[p:]))
			if uint16(n) != ^binary.LittleEndian.Uint16(src[p+2:]) || p+4+n > len(src) || o+n > limit {
				return fail()
			}
			out = grow(out, o+n, limit)
			copy(out[o:], src[p+4:p+4+n])
			o += n
			f.pos, f.bits, f.n, f.over = p+4+n, 0, 0, 0
			continue
		case 1:
			lit, dist = fixedLit, fixedDist
		case 2:
			if !f.readTables() {
				return fail()
			}
			lit, dist = &f.lit, &f.dist
		default:
			return fail()
		}
		for {
			if f.n < 48 && !f.refill() {
				return fail()
			}
			s := f.sym(lit)
			if s < 256 {
				if s < 0 || o >= limit {
					return fail()
				}
				if o >= len(out) {
					out = grow(out, o+1, limit)
				}
				out[o] = byte(s)
				o++
				continue
			}
			if s == 256 {
				break
			}
			s -= 257
			if s >= len(lenBase) {
				return fail()
			}
			length := int(lenBase[s]) + f.take(uint(lenExtra[s]))
			d := f.sym(dist)
			if d < 0 || d >= len(dstBase) {
				return fail()
			}
			dst := int(dstBase[d]) + f.take(uint(dstExtra[d]))
			if dst > o || o+length > limit {
				return fail()
			}
			if o+length > len(out) {
				out = grow(out, o+length, limit)
			}
			w := out[o : o+length]
			if dst == 1 {
				// A run of one byte, most of a level: written a word at
				// a time, air through clear (memclr). Written even when
				// zero: the buffer is pooled and not cleared before use,
				// so that a level costs the bytes it inflates to, never
				// the size its finalize packet declares.
				if b := out[o-1]; b != 0 {
					fill(w, b)
				} else {
					clear(w)
				}
			} else {
				// An overlapping copy repeats the dst bytes before it:
				// each copy doubles what there is to copy from.
				n := copy(w, out[o-dst:o])
				for n < length {
					n += copy(w[n:], w[:n])
				}
			}
			o += length
		}
	}
	end = f.consumed()
	if end > len(src) {
		return fail()
	}
	return out[:o], end, true
}

// fill sets every byte of w to b.
func fill(w []byte, b byte) {
	v := uint64(b) * 0x0101010101010101
	for len(w) >= 8 {
		binary.LittleEndian.PutUint64(w, v)
		w = w[8:]
	}
	for i := range w {
		w[i] = b
	}
}

// grow returns out with a length of at least n (n ≤ limit), keeping its
// first bytes; the rest is not cleared. The new buffer doubles (a power of
// two, so that it can be pooled) and comes from the level pool; out goes
// back to it.
func grow(out []byte, n, limit int) []byte {
	if n <= len(out) {
		return out
	}
	c := min(max(2*len(out), n, 4<<10), limit)
	b := getLevelBuf(c)
	b = b[:cap(b)]
	copy(b, out)
	putLevelBuf(out)
	return b
}

// readTables reads a dynamic block's code lengths and builds its tables.
func (f *fastInflater) readTables() bool {
	if f.n < 14 && !f.refill() {
		return false
	}
	nlit := f.take(5) + 257
	ndist := f.take(5) + 1
	nclen := f.take(4) + 4
	if nlit > 286 || ndist > 30 {
		return false
	}
	var cl [19]uint8
	for i := range nclen {
		if f.n < 3 && !f.refill() {
			return false
		}
		cl[codeOrder[i]] = uint8(f.take(3))
	}
	if !f.clen.build(cl[:]) {
		return false
	}
	ls := f.lengths[:nlit+ndist]
	for i := 0; i < len(ls); {
		if f.n < 32 && !f.refill() {
			return false
		}
		s := f.sym(&f.clen)
		switch {
		case s < 0:
			return false
		case s < 16:
			ls[i] = uint8(s)
			i++
			continue
		}
		var rep int
		var v uint8
		switch s {
		case 16:
			if i == 0 {
				return false
			}
			rep, v = 3+f.take(2), ls[i-1]
		case 17:
			rep = 3 + f.take(3)
		default:
			rep = 11 + f.take(7)
		}
		if i+rep > len(ls) {
			return false
		}
		for range rep {
			ls[i] = v
			i++
		}
	}
	return f.lit.build(ls[:nlit]) && f.dist.build(ls[nlit:])
}

// gunzipFast inflates a gzip member whose header has no optional fields
// (what level senders write), checking its CRC and size. end is where the
// member ends in src.
func (f *fastInflater) gunzipFast(src, out []byte, limit int) (res []byte, end int, ok bool) {
	const header = 10
	if len(src) < header || src[0] != 0x1f || src[1] != 0x8b || src[2] != 8 || src[3] != 0 {
		return out[:0], 0, false
	}
	res, end, ok = f.inflateFast(src[header:], out, limit)
	end += header
	if !ok || end+8 > len(src) {
		return res[:0], 0, false
	}
	if binary.LittleEndian.Uint32(src[end:]) != crc32.ChecksumIEEE(res) || binary.LittleEndian.Uint32(src[end+4:]) != uint32(len(res)) {
		return res[:0], 0, false
	}
	return res, end + 8, true
}

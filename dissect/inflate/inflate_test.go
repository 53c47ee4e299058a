package inflate

import (
	"bytes"
	"encoding/binary"
	"hash/adler32"
	"math/bits"
	"strings"
	"testing"
)

// bitWriter writes a deflate bit stream for hand-made tests.
type bitWriter struct {
	out []byte
	acc uint64
	n   uint
}

// bits writes the k low bits of v, lowest first (header fields, extra
// bits).
func (w *bitWriter) bits(v uint64, k uint) *bitWriter {
	w.acc |= v << w.n
	w.n += k
	for w.n >= 8 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.n -= 8
	}
	return w
}

// code writes a Huffman code of length l, its first bit highest.
func (w *bitWriter) code(c uint64, l uint) *bitWriter {
	return w.bits(uint64(bits.Reverse16(uint16(c))>>(16-l)), l)
}

// align pads to a whole byte, then appends p.
func (w *bitWriter) align(p ...byte) *bitWriter {
	if w.n > 0 {
		w.bits(0, 8-w.n)
	}
	w.out = append(w.out, p...)
	return w
}

// fixedLit writes literal/length symbol s with the fixed code.
func (w *bitWriter) fixedLit(s int) *bitWriter {
	switch {
	case s < 144:
		return w.code(uint64(0x30+s), 8)
	case s < 256:
		return w.code(uint64(0x190+s-144), 9)
	case s < 280:
		return w.code(uint64(s-256), 7)
	}
	return w.code(uint64(0xc0+s-280), 8)
}

// fixedText writes each byte of s as a fixed-code literal.
func (w *bitWriter) fixedText(s string) *bitWriter {
	for i := 0; i < len(s); i++ {
		w.fixedLit(int(s[i]))
	}
	return w
}

// copyFixed writes a copy with fixed codes: length symbol ls and its
// extra bits, distance symbol ds and its extra bits.
func (w *bitWriter) copyFixed(ls int, lx uint64, lk uint, ds int, dx uint64, dk uint) *bitWriter {
	w.fixedLit(ls).bits(lx, lk)
	return w.code(uint64(ds), 5).bits(dx, dk)
}

// canonical returns the canonical code (RFC 1951 section 3.2.2) of each
// symbol with a length in lens.
func canonical(lens []uint8) []uint64 {
	var count, next [16]uint64
	for _, l := range lens {
		count[l]++
	}
	count[0] = 0
	for l := 1; l < 16; l++ {
		next[l] = (next[l-1] + count[l-1]) << 1
	}
	codes := make([]uint64, len(lens))
	for s, l := range lens {
		if l != 0 {
			codes[s] = next[l]
			next[l]++
		}
	}
	return codes
}

// dynamic is a dynamic block's header, written from its code lengths.
type dynamic struct {
	lit, dist []uint8
	clen      [19]uint8 // by symbol; zero: lengths 1..5 for 0..4 and 5 for the rest
	// clenSyms, when set, is what is written as the code lengths
	// (symbol, extra bits value), instead of one symbol per length
	clenSyms [][2]int
	nlit     int // HLIT+257 as written, when not len(lit)
	litCodes []uint64
	dstCodes []uint64
}

// dynamic writes the block header (BFINAL set, BTYPE 2) and its codes.
func (w *bitWriter) dynamic(d *dynamic) *bitWriter {
	nlit := d.nlit
	if nlit == 0 {
		nlit = len(d.lit)
	}
	w.bits(1, 1).bits(2, 2)
	w.bits(uint64(nlit-257), 5).bits(uint64(len(d.dist)-1), 5).bits(19-4, 4)
	cl := d.clen
	if cl == [19]uint8{} {
		// a complete code: 13 symbols of 4 bits, 6 of 5
		for s := range cl {
			cl[s] = 4
			if s > 12 {
				cl[s] = 5
			}
		}
	}
	for i := range 19 {
		w.bits(uint64(cl[clenOrder[i]]), 3)
	}
	cc := canonical(cl[:])
	if d.clenSyms != nil {
		for _, s := range d.clenSyms {
			w.code(cc[s[0]], uint(cl[s[0]]))
			switch s[0] {
			case 16:
				w.bits(uint64(s[1]), 2)
			case 17:
				w.bits(uint64(s[1]), 3)
			case 18:
				w.bits(uint64(s[1]), 7)
			}
		}
	} else {
		for _, l := range append(append([]uint8{}, d.lit...), d.dist...) {
			w.code(cc[l], uint(cl[l]))
		}
	}
	d.litCodes, d.dstCodes = canonical(d.lit), canonical(d.dist)
	return w
}

func (w *bitWriter) lit(d *dynamic, s int) *bitWriter {
	return w.code(d.litCodes[s], uint(d.lit[s]))
}

func (w *bitWriter) dst(d *dynamic, s int) *bitWriter {
	return w.code(d.dstCodes[s], uint(d.dist[s]))
}

// zlibOf wraps deflate data in a zlib header and the checksum of want.
func zlibOf(deflate []byte, want string) []byte {
	z := append([]byte{0x78, 0x9c}, deflate...)
	return binary.BigEndian.AppendUint32(z, adler32.Checksum([]byte(want)))
}

// lens returns n code lengths: l for the symbols in set, else 0.
func lens(n int, l uint8, set ...int) []uint8 {
	out := make([]uint8, n)
	for _, s := range set {
		out[s] = l
	}
	return out
}

// testLit is a complete literal/length code: 'a'-'g' 3 bits, 256 (end)
// 4, 257 5, 265 and 285 6.
func testLit() []uint8 {
	l := make([]uint8, 286)
	for s := 'a'; s <= 'g'; s++ { // 7 codes of 3 bits: 7/8
		l[s] = 3
	}
	l[256], l[257] = 4, 5 // 1/16 + 1/32
	l[265], l[285] = 6, 6 // 2/64: 1 in all
	return l
}

type handCase struct {
	name string
	z    []byte
	n    int
	want string
	kind string
}

// handMade returns the hand-made streams: each block type, copies that
// overlap what they write, and each error.
func handMade() []handCase {
	w := func() *bitWriter { return new(bitWriter) }
	var cases []handCase
	add := func(name string, z []byte, n int, want, kind string) {
		cases = append(cases, handCase{name, z, n, want, kind})
	}
	stored := func(final uint64, p string) *bitWriter {
		n := len(p)
		return w().bits(final, 1).bits(0, 2).align(byte(n), byte(n>>8), ^byte(n), ^byte(n>>8)).align([]byte(p)...)
	}

	add("stored", zlibOf(stored(1, "hello").out, "hello"), 100, "hello", "ok")
	add("stored n<len", zlibOf(stored(1, "hello").out, "hello"), 3, "hel", "ok")
	add("stored n=len, no checksum", zlibOf(stored(1, "hello").out, "")[:2+5+5], 5, "hello", "ok")
	two := append(w().bits(0, 1).bits(0, 2).align(0, 0, 0xff, 0xff).out, stored(1, "xy").out...)
	add("stored empty then final", zlibOf(two, "xy"), 100, "xy", "ok")
	add("stored cut in data", zlibOf(stored(1, "hello").out, "hello")[:2+5+2], 100, "he", "unexpected EOF")
	add("stored cut in length", zlibOf(stored(1, "hello").out, "hello")[:2+3], 100, "", "unexpected EOF")
	bad := stored(1, "hello").out
	bad[3] ^= 1
	add("stored length complement", zlibOf(bad, "hello"), 100, "", "corrupt")

	fixed := w().bits(1, 1).bits(1, 2).fixedText("abc").fixedLit(256).align().out
	add("fixed", zlibOf(fixed, "abc"), 100, "abc", "ok")
	add("fixed n=0", zlibOf(fixed, "abc"), 0, "", "ok")
	add("fixed bad checksum", zlibOf(fixed, "abd"), 100, "abc", "checksum")
	add("fixed bad checksum unread", zlibOf(fixed, "abd"), 3, "abc", "ok")
	add("fixed no checksum", zlibOf(fixed, "abc")[:2+len(fixed)], 100, "abc", "unexpected EOF")
	add("fixed short checksum", zlibOf(fixed, "abc")[:2+len(fixed)+3], 100, "abc", "unexpected EOF")
	// length 10 (symbol 264), distance 1 (symbol 0): one byte repeated
	rle := w().bits(1, 1).bits(1, 2).fixedText("a").copyFixed(264, 0, 0, 0, 0, 0).fixedLit(256).align().out
	add("fixed overlap dist 1", zlibOf(rle, strings.Repeat("a", 11)), 100, strings.Repeat("a", 11), "ok")
	add("fixed overlap cut by n", zlibOf(rle, strings.Repeat("a", 11)), 6, "aaaaaa", "ok")
	// length 8 (symbol 262), distance 3 (symbol 2)
	abc := w().bits(1, 1).bits(1, 2).fixedText("abc").copyFixed(262, 0, 0, 2, 0, 0).fixedLit(256).align().out
	add("fixed overlap dist 3", zlibOf(abc, "abcabcabcab"), 100, "abcabcabcab", "ok")
	// length 258 (symbol 285), distance 2; then length 13 (symbol 266,
	// extra 0 of 1 bit), distance 7 (symbol 5: 7-8, extra 0)
	long := w().bits(1, 1).bits(1, 2).fixedText("xyzwvut").copyFixed(285, 0, 0, 1, 0, 0).copyFixed(266, 0, 1, 5, 0, 1).fixedLit(256).align().out
	lw := "xyzwvut" + strings.Repeat("ut", 129)
	lw += lw[len(lw)-7:][:7] + lw[len(lw)-7:][:6]
	add("fixed 258 and extra bits", zlibOf(long, lw), 1000, lw, "ok")
	// distance symbol 29 (24577 + 13 bits) is too far after 3 bytes
	far := w().bits(1, 1).bits(1, 2).fixedText("abc").copyFixed(257, 0, 0, 29, 0, 13).fixedLit(256).align().out
	add("distance too far", zlibOf(far, ""), 100, "abc", "corrupt")
	far4 := w().bits(1, 1).bits(1, 2).fixedText("abc").copyFixed(257, 0, 0, 3, 0, 0).fixedLit(256).align().out
	add("distance 4 after 3 bytes", zlibOf(far4, ""), 100, "abc", "corrupt")
	add("distance symbol 30", zlibOf(w().bits(1, 1).bits(1, 2).fixedText("a").copyFixed(257, 0, 0, 30, 0, 0).align().out, ""), 100, "a", "corrupt")
	add("length symbol 286", zlibOf(w().bits(1, 1).bits(1, 2).fixedText("a").fixedLit(286).align().out, ""), 100, "a", "corrupt")
	add("block type 3", zlibOf(w().bits(1, 1).bits(3, 2).align().out, ""), 100, "", "corrupt")
	cut := zlibOf(w().bits(1, 1).bits(1, 2).fixedText("abcdef").out, "")
	add("fixed cut", cut[:len(cut)-4], 100, "abcde", "unexpected EOF")
	add("empty deflate", []byte{0x78, 0x9c}, 100, "", "unexpected EOF")
	// a non-final fixed block, then a stored one
	mixed := w().bits(0, 1).bits(1, 2).fixedText("ab").fixedLit(256).bits(1, 1).bits(0, 2).align(2, 0, 0xfd, 0xff, 'c', 'd').out
	add("fixed then stored", zlibOf(mixed, "abcd"), 100, "abcd", "ok")

	// a dynamic block with its own codes, copies with extra bits
	d := &dynamic{lit: testLit(), dist: lens(30, 1, 0, 4)}
	dw := w().dynamic(d)
	for _, c := range "abcdefg" {
		dw.lit(d, int(c))
	}
	dw.lit(d, 265).bits(1, 1).dst(d, 4).bits(1, 1) // length 12, distance 6
	dw.lit(d, 257).dst(d, 0)                       // length 3, distance 1
	dw.lit(d, 256).align()
	dwant := "abcdefg" + "bcdefgbcdefg" + "ggg"
	add("dynamic", zlibOf(dw.out, dwant), 100, dwant, "ok")
	add("dynamic n mid-copy", zlibOf(dw.out, dwant), 12, dwant[:12], "ok")

	// a distance code of one length-1 code: accepted, its missing code
	// fails when used
	d = &dynamic{lit: testLit(), dist: lens(1, 1, 0)}
	one := w().dynamic(d).lit(d, 'a').lit(d, 257).dst(d, 0).lit(d, 256).align().out
	add("one distance code", zlibOf(one, "aaaa"), 100, "aaaa", "ok")
	d = &dynamic{lit: testLit(), dist: lens(2, 1, 0)}
	miss := w().dynamic(d).lit(d, 'a').lit(d, 257).code(1, 1).lit(d, 256).align().out
	add("missing distance code", zlibOf(miss, ""), 100, "a", "corrupt")
	d = &dynamic{lit: testLit(), dist: lens(1, 0)}
	add("empty distance code unused", zlibOf(w().dynamic(d).lit(d, 'a').lit(d, 256).align().out, "a"), 100, "a", "ok")
	d = &dynamic{lit: testLit(), dist: lens(1, 0)}
	add("empty distance code used", zlibOf(w().dynamic(d).lit(d, 'a').lit(d, 257).align().out, ""), 100, "a", "corrupt")

	// bad dynamic headers
	d = &dynamic{lit: testLit(), dist: lens(30, 1, 0, 4), nlit: 287}
	add("287 literal codes", zlibOf(w().dynamic(d).align().out, ""), 100, "", "corrupt")
	d = &dynamic{lit: testLit(), dist: lens(31, 1, 0, 4)}
	add("31 distance codes", zlibOf(w().dynamic(d).align().out, ""), 100, "", "corrupt")
	over := testLit()
	over['h'] = 3
	d = &dynamic{lit: over, dist: lens(30, 1, 0, 4)}
	add("over-subscribed literal code", zlibOf(w().dynamic(d).align().out, ""), 100, "", "corrupt")
	under := testLit()
	under['g'] = 0
	d = &dynamic{lit: under, dist: lens(30, 1, 0, 4)}
	add("incomplete literal code", zlibOf(w().dynamic(d).align().out, ""), 100, "", "corrupt")
	d = &dynamic{lit: testLit(), dist: lens(30, 2, 0, 4)}
	add("incomplete distance code", zlibOf(w().dynamic(d).align().out, ""), 100, "", "corrupt")
	d = &dynamic{lit: testLit(), dist: lens(30, 1, 0, 4)}
	for s := range d.clen {
		d.clen[s] = 4
	}
	add("over-subscribed code length code", zlibOf(w().dynamic(d).align().out, ""), 100, "", "corrupt")
	d = &dynamic{lit: testLit(), dist: lens(30, 1, 0, 4), clen: [19]uint8{16: 2, 17: 2, 18: 2}}
	add("incomplete code length code", zlibOf(w().dynamic(d).align().out, ""), 100, "", "corrupt")
	rep := [19]uint8{0: 2, 3: 2, 16: 2, 18: 2}
	d = &dynamic{lit: testLit(), dist: lens(30, 1, 0, 4), clen: rep, clenSyms: [][2]int{{16, 0}}}
	add("repeat with no previous length", zlibOf(w().dynamic(d).align().out, ""), 100, "", "corrupt")
	d = &dynamic{lit: testLit(), dist: lens(30, 1, 0, 4), clen: rep, clenSyms: [][2]int{{18, 127}, {18, 127}, {18, 127}}}
	add("repeat past the last code", zlibOf(w().dynamic(d).align().out, ""), 100, "", "corrupt")
	d = &dynamic{lit: testLit(), dist: lens(30, 1, 0, 4), clen: rep, clenSyms: [][2]int{{3, 0}, {16, 3}, {18, 100}}}
	add("header cut", zlibOf(w().dynamic(d).out, "")[:2+10], 100, "", "unexpected EOF")

	// zlib headers
	add("no header", nil, 100, "", "unexpected EOF")
	add("one header byte", []byte{0x78}, 100, "", "unexpected EOF")
	add("method 7", append([]byte{0x77, 0x9c - 3}, fixed...), 100, "", "header")
	add("window 2^16", append([]byte{0x88, 0x98}, fixed...), 100, "", "header")
	add("check bits", append([]byte{0x78, 0x9d}, fixed...), 100, "", "header")
	add("dictionary", append([]byte{0x78, 0xbb, 0, 0, 0, 2}, fixed...), 100, "", "dictionary")
	add("dictionary cut", []byte{0x78, 0xbb, 0, 0, 0}, 100, "", "unexpected EOF")
	add("empty dictionary", append(append([]byte{0x78, 0xbb, 0, 0, 0, 1}, fixed...), zlibOf(nil, "abc")[2:]...), 100, "abc", "ok")
	return cases
}

func TestPrefixHandMade(t *testing.T) {
	for _, c := range handMade() {
		t.Run(c.name, func(t *testing.T) {
			var d Decoder
			got, err := d.Prefix(nil, c.z, c.n)
			if string(got) != c.want || kind(err) != c.kind {
				t.Errorf("Prefix(%x, %d) = %q, %v (%s); want %q, %s", c.z, c.n, got, err, kind(err), c.want, c.kind)
			}
			checkPrefix(t, &d, c.z, c.n)
		})
	}
}

// TestPrefixTruncated cuts zlib streams at every byte: each cut stream
// fails, or stops at n, as compress/zlib does.
func TestPrefixTruncated(t *testing.T) {
	var d Decoder
	for i, gen := range []byte{1, 2, 3, 5, 14, 26} {
		z := compressed(gen, chunkLike(1)[:1200])
		for cut := range len(z) {
			for _, n := range []int{1, 512, 1 << 20} {
				checkPrefix(t, &d, z[:cut], n)
			}
		}
		if t.Failed() {
			t.Fatalf("stream %d", i)
		}
	}
}

// TestPrefixAllocs: a reused Decoder with a buffer big enough allocates
// nothing.
func TestPrefixAllocs(t *testing.T) {
	z := compressed(1, chunkLike(1))
	var d Decoder
	buf := make([]byte, 0, 4096)
	allocs := testing.AllocsPerRun(50, func() {
		out, err := d.Prefix(buf[:0], z, 4096)
		if err != nil || len(out) != 4096 {
			t.Fatalf("Prefix = %d bytes, %v", len(out), err)
		}
	})
	if allocs != 0 {
		t.Errorf("Prefix allocates %v times per call; want 0", allocs)
	}
}

// TestPrefixLarge inflates all of a big stream, across its blocks, to the
// byte.
func TestPrefixLarge(t *testing.T) {
	data := chunkLike(8)
	for _, gen := range []byte{1, 2, 3, 4, 12} {
		got, err := Prefix(nil, compressed(gen, data), len(data)+1)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("level %d: Prefix = %d bytes, %v; want %d bytes", levels[gen-1], len(got), err, len(data))
		}
	}
}

// TestPrefixSmallTables: a dynamic block asked for smallWant bytes or
// fewer fills tables of smallBits and reads longer codes bit by bit;
// every n on both sides of the bound gives what compress/zlib gives, with
// one Decoder going from stream to stream (so that a table entry left
// from another stream's code would show).
func TestPrefixSmallTables(t *testing.T) {
	var d Decoder
	text := bytes.Repeat([]byte("the quick brown fox jumps over the lazy dog; ÄÖÜ 0123456789 "), 40)
	var zs [][]byte
	for _, data := range [][]byte{chunkLike(1)[:4000], text, chunkLike(3)[:3000]} {
		for _, gen := range []byte{1, 2, 5, 12} {
			zs = append(zs, compressed(gen, data))
		}
	}
	for n := 1; n <= smallWant+16; n++ {
		for i := range zs {
			for _, k := range []int{i, len(zs) - 1 - i} {
				checkPrefix(t, &d, zs[k], n)
				checkPrefix(t, &d, zs[k][:len(zs[k])/2], 1<<20)
			}
		}
	}
}

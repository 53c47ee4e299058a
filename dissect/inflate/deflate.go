package inflate

import (
	"encoding/binary"
	"io"
	"strconv"
)

// A CorruptError reports deflate data that breaks RFC 1951.
type CorruptError struct {
	Offset int    // the byte of the zlib stream where decoding found it
	What   string // what is wrong
}

func (e *CorruptError) Error() string {
	return "inflate: corrupt deflate data at offset " + strconv.Itoa(e.Offset) + ": " + e.What
}

func (r *bitReader) corrupt(what string) error {
	return &CorruptError{Offset: r.offset(), What: what}
}

// Limits of RFC 1951 section 3.2.7, as compress/flate enforces them.
const (
	maxLit  = 286 // literal/length codes a dynamic block may define
	maxDist = 30  // distance codes
)

// clenOrder is the order the code length code's lengths are sent in.
const clenOrder = "\x10\x11\x12\x00\x08\x07\x09\x06\x0a\x05\x0b\x04\x0c\x03\x0d\x02\x0e\x01\x0f"

// blocks inflates deflate blocks, appending to out, until out reaches
// limit bytes or the final block ends; ended says which. Distances reach
// back no further than out[start:].
func (d *Decoder) blocks(out []byte, start, limit int) (o []byte, ended bool, err error) {
	r := &d.br
	for len(out) < limit {
		h, err := r.bits(3)
		if err != nil {
			return out, false, err
		}
		var done bool
		switch h >> 1 {
		case 0:
			out, done, err = d.stored(out, limit)
		case 1:
			d.useFixed()
			out, done, err = d.codes(out, start, limit)
		case 2:
			if err = d.readCodes(limit - len(out)); err != nil {
				return out, false, err
			}
			out, done, err = d.codes(out, start, limit)
		default:
			err = r.corrupt("reserved block type 3")
		}
		if err != nil || !done {
			return out, false, err
		}
		if h&1 != 0 {
			return out, true, nil
		}
	}
	return out, false, nil
}

// stored copies a stored block (RFC 1951 section 3.2.4); done reports
// that the block ended before limit.
func (d *Decoder) stored(out []byte, limit int) (o []byte, done bool, err error) {
	r := &d.br
	at := r.align()
	if len(r.in)-at < 4 {
		return out, false, io.ErrUnexpectedEOF
	}
	n := int(binary.LittleEndian.Uint16(r.in[at:]))
	if uint16(n) != ^binary.LittleEndian.Uint16(r.in[at+2:]) {
		r.pos = at + 4
		return out, false, r.corrupt("stored block length does not match its complement")
	}
	at += 4
	k := min(n, limit-len(out), len(r.in)-at)
	out = append(out, r.in[at:at+k]...)
	r.pos = at + k
	switch {
	case k == n:
		return out, true, nil
	case len(out) == limit:
		return out, false, nil
	}
	return out, false, io.ErrUnexpectedEOF
}

// useFixed loads the fixed codes (RFC 1951 section 3.2.6).
func (d *Decoder) useFixed() {
	if d.fixed {
		return
	}
	l := d.lens[:288+32]
	for i := range l {
		switch {
		case i < 144:
			l[i] = 8
		case i < 256:
			l[i] = 9
		case i < 280:
			l[i] = 7
		default:
			l[i] = 8
		}
	}
	for i := 288; i < len(l); i++ {
		l[i] = 5
	}
	d.lit.init(l[:288])
	d.dist.init(l[288:])
	d.fixed = true
}

// smallWant is the most bytes a block may be asked for and still have
// tables of smallBits.
const (
	smallWant = 128
	smallBits = 6
)

// readCodes reads a dynamic block's codes (RFC 1951 section 3.2.7), for
// want more bytes at most.
func (d *Decoder) readCodes(want int) error {
	r := &d.br
	d.fixed = false
	h, err := r.bits(14)
	if err != nil {
		return err
	}
	nlit, ndist, nclen := int(h&31)+257, int(h>>5&31)+1, int(h>>10)+4
	if nlit > maxLit {
		return r.corrupt(strconv.Itoa(nlit) + " literal/length codes")
	}
	if ndist > maxDist {
		return r.corrupt(strconv.Itoa(ndist) + " distance codes")
	}
	var cl [19]uint8
	for i := range nclen {
		v, err := r.bits(3)
		if err != nil {
			return err
		}
		cl[clenOrder[i]] = uint8(v)
	}
	if !d.clen.init(cl[:]) {
		return r.corrupt("invalid code length code")
	}
	lens := d.lens[:nlit+ndist]
	for i := 0; i < len(lens); {
		s, err := r.sym(&d.clen)
		if err != nil {
			return err
		}
		if s < 16 {
			lens[i] = uint8(s)
			i++
			continue
		}
		var v uint8
		var rep uint32
		switch s {
		case 16:
			if i == 0 {
				return r.corrupt("code length repeat with no previous length")
			}
			v = lens[i-1]
			rep, err = r.bits(2)
			rep += 3
		case 17:
			rep, err = r.bits(3)
			rep += 3
		default:
			rep, err = r.bits(7)
			rep += 11
		}
		if err != nil {
			return err
		}
		if i+int(rep) > len(lens) {
			return r.corrupt("code lengths repeat past the last code")
		}
		for range rep {
			lens[i] = v
			i++
		}
	}
	// a block asked for a few bytes reads a few dozen symbols: filling
	// 512-entry tables for them cost more than reading them
	width := fastBits
	if want <= smallWant {
		width = smallBits
	}
	if !d.lit.initWidth(lens[:nlit], width) {
		return r.corrupt("invalid literal/length code")
	}
	if !d.dist.initWidth(lens[nlit:], width) {
		return r.corrupt("invalid distance code")
	}
	// every block ends with end-of-block: compress/flate reads at least
	// its length for any symbol, and so fails alike at the input's end
	d.lit.min = max(d.lit.min, lens[256])
	return nil
}

// codes inflates a Huffman-coded block with d.lit and d.dist (RFC 1951
// section 3.2.5); done reports that the block ended before limit.
func (d *Decoder) codes(out []byte, start, limit int) (o []byte, done bool, err error) {
	r := &d.br
	for len(out) < limit {
		s, err := r.sym(&d.lit)
		if err != nil {
			return out, false, err
		}
		if s < 256 {
			out = append(out, byte(s))
			continue
		}
		if s == 256 {
			return out, true, nil
		}
		if s >= maxLit {
			return out, false, r.corrupt("literal/length symbol " + strconv.Itoa(s))
		}
		var length int
		switch {
		case s < 265:
			length = s - 254
		case s < 285:
			extra := uint(s-261) >> 2
			v, err := r.bits(extra)
			if err != nil {
				return out, false, err
			}
			length = (4+(s-265)&3)<<extra + 3 + int(v)
		default:
			length = 258
		}
		s, err = r.sym(&d.dist)
		if err != nil {
			return out, false, err
		}
		var dist int
		switch {
		case s < 4:
			dist = s + 1
		case s < maxDist:
			extra := uint(s-2) >> 1
			v, err := r.bits(extra)
			if err != nil {
				return out, false, err
			}
			dist = (2+s&1)<<extra + 1 + int(v)
		default:
			return out, false, r.corrupt("distance symbol " + strconv.Itoa(s))
		}
		if dist > len(out)-start {
			return out, false, r.corrupt("distance " + strconv.Itoa(dist) + " reaches before the start")
		}
		out = copyBack(out, dist, min(length, limit-len(out)))
	}
	return out, false, nil
}

// copyBack appends to out the k bytes that begin dist bytes back; when
// k > dist they repeat.
func copyBack(out []byte, dist, k int) []byte {
	at := len(out)
	if cap(out)-at < k {
		out = append(out[:cap(out)], make([]byte, at+k-cap(out))...)
	}
	out = out[:at+k]
	from := at - dist
	if dist >= k {
		copy(out[at:], out[from:from+k])
		return out
	}
	// out[from:i] repeats with period dist from the right phase, so it
	// can be copied whole to i, doubling each time
	for i := at; i < at+k; {
		i += copy(out[i:at+k], out[from:i])
	}
	return out
}

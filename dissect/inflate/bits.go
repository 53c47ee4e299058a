package inflate

import (
	"encoding/binary"
	"io"
)

// bitReader reads deflate's bit stream: bits are taken from each byte
// lowest first. b holds n loaded bits, the next one lowest; above them it
// holds zeros or the stream's own next bits (a whole-word load counts only
// whole bytes, and the next load puts the same bits in the same place).
type bitReader struct {
	in  []byte
	pos int    // the next byte of in to load
	b   uint64 // loaded bits
	n   uint   // how many bits of b are loaded
}

// refill loads whole bytes until b holds at least 56 bits or the input
// ends.
func (r *bitReader) refill() {
	if r.pos+8 <= len(r.in) {
		r.b |= binary.LittleEndian.Uint64(r.in[r.pos:]) << r.n
		r.pos += int(63-r.n) >> 3
		r.n |= 56
		return
	}
	for r.n <= 56 && r.pos < len(r.in) {
		r.b |= uint64(r.in[r.pos]) << r.n
		r.pos++
		r.n += 8
	}
}

// bits reads k bits (k <= 32), the first one lowest.
func (r *bitReader) bits(k uint) (uint32, error) {
	if r.n < k {
		r.refill()
		if r.n < k {
			return 0, io.ErrUnexpectedEOF
		}
	}
	v := uint32(r.b & (1<<k - 1))
	r.b >>= k
	r.n -= k
	return v, nil
}

// align drops the bits left of the current byte and returns the offset
// of the next whole byte; the reader is left empty there.
func (r *bitReader) align() int {
	r.pos -= int(r.n >> 3)
	r.b, r.n = 0, 0
	return r.pos
}

// offset is the offset in the input of the byte holding the next unread
// bit, for error messages.
func (r *bitReader) offset() int {
	return r.pos - int((r.n+7)>>3)
}

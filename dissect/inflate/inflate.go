// Package inflate inflates a zlib stream (RFC 1950 around RFC 1951's
// deflate) from its bytes, up to as many as asked for, and stops there:
// the one inflater of Minecraft Java's compressed packets, whole or only
// their first bytes.
//
// Go's compress/flate fills its 32 KiB window (or ends the block) before
// it hands out a byte, so reading the first 512 bytes of a large packet
// costs as much as inflating 32 KiB of it; and it reads its input a byte
// at a time through an interface. A summary of Minecraft Java traffic
// needs only a compressed packet's id and first fields: Prefix decodes
// until it has the bytes asked for and returns; asked for a whole packet,
// it reads the stream as a slice.
//
// Prefix agrees with compress/zlib (NewReader, no dictionary): let zlib
// deliver T bytes and then end with the error E (io.EOF when the stream
// and its checksum are good). If zlib rejects the header, Prefix fails
// alike (ErrHeader, ErrDictionary or io.ErrUnexpectedEOF). Otherwise,
// asked for n bytes:
//
//   - when T >= n, Prefix returns zlib's first n bytes and no error: it
//     stops there, and what follows (later blocks, the Adler-32
//     checksum) is not read, so errors further on are not reported;
//   - when T < n, Prefix returns the T bytes and an error of E's kind:
//     none for io.EOF, io.ErrUnexpectedEOF for data that ends early,
//     ErrChecksum, or a *CorruptError where compress/flate returns a
//     flate.CorruptInputError (offsets and messages differ).
//
// FuzzPrefix checks this against compress/zlib.
//
// Decoding allocates nothing but the output: it is appended to the
// caller's slice, and grows with the bytes actually inflated, never by a
// size the stream declares.
package inflate

import (
	"encoding/binary"
	"errors"
	"hash/adler32"
	"io"
	"math"
)

// Errors of the zlib wrapper. Data that ends early is io.ErrUnexpectedEOF;
// bad deflate data is a *CorruptError.
var (
	ErrHeader     = errors.New("inflate: invalid zlib header")
	ErrDictionary = errors.New("inflate: zlib stream needs a preset dictionary")
	ErrChecksum   = errors.New("inflate: invalid zlib checksum")
)

// A Decoder holds the Huffman tables of one inflation (some 5 KB), for
// reuse: a connection keeps one. Its zero value is ready; it is not safe
// for concurrent use.
type Decoder struct {
	br    bitReader
	lit   table
	dist  table
	clen  table
	lens  [288 + 32]uint8 // code lengths being read
	fixed bool            // lit and dist hold the fixed codes
}

// Prefix inflates the first n bytes of the zlib stream z with a new
// Decoder; see Decoder.Prefix.
func Prefix(dst, z []byte, n int) ([]byte, error) {
	var d Decoder
	return d.Prefix(dst, z, n)
}

// Prefix appends to dst the first n bytes the zlib stream z inflates to
// (all of them when there are fewer, n <= 0 asks for none) and returns
// the extended slice. It stops as soon as it has n bytes; if the stream
// ends first, it checks the Adler-32 checksum. On error the slice holds
// the bytes inflated before it. The package comment says how its results
// match compress/zlib's. z is only read, and not kept after the call.
func (d *Decoder) Prefix(dst, z []byte, n int) ([]byte, error) {
	at, err := header(z)
	if err != nil {
		return dst, err
	}
	start := len(dst)
	limit := start + min(max(n, 0), math.MaxInt-start)
	d.br = bitReader{in: z, pos: at}
	out, ended, err := d.blocks(dst, start, limit)
	d.br.in = nil
	if err != nil || !ended || len(out) == limit {
		return out, err
	}
	at = d.br.align()
	if len(z)-at < 4 {
		return out, io.ErrUnexpectedEOF
	}
	if binary.BigEndian.Uint32(z[at:]) != adler32.Checksum(out[start:]) {
		return out, ErrChecksum
	}
	return out, nil
}

// header checks the zlib header (RFC 1950 section 2.2) and returns where
// the deflate data begins. A preset dictionary is refused unless its
// Adler-32 is 1, that of the empty dictionary, which compress/zlib
// accepts with no dictionary given (it changes nothing).
func header(z []byte) (int, error) {
	if len(z) < 2 {
		return 0, io.ErrUnexpectedEOF
	}
	cmf, flg := z[0], z[1]
	if cmf&15 != 8 || cmf>>4 > 7 || (uint(cmf)<<8|uint(flg))%31 != 0 {
		return 0, ErrHeader
	}
	if flg&0x20 == 0 {
		return 2, nil
	}
	if len(z) < 6 {
		return 0, io.ErrUnexpectedEOF
	}
	if binary.BigEndian.Uint32(z[2:]) != 1 {
		return 0, ErrDictionary
	}
	return 6, nil
}

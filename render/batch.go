package render

import (
	"bufio"
	"encoding/hex"
)

// batchWriter is how a renderer writes: records are formatted into buf and
// handed to w once they are more than w buffers, in one Write, which a
// bufio.Writer holding nothing passes straight on: output bytes are copied
// once, not into its buffer first. Flush and Raw hand over what buf holds
// first, so that order and the periodic flush (live output) are kept.
//
// A record larger than that is handed over in pieces while it is being
// formatted: a tree of 262,144 nodes is some 60 MB of PDML, which buf
// would otherwise hold whole (and twice over while append grows it).
// Record brackets the formatting with begin and done; the appenders call
// cut where a piece may end, so that buf holds at most w's size and what
// one step (a node, a line of hex, a value) adds. The limit is w's size,
// the bound spill keeps for whole records, so a record is cut where it
// would have been handed over anyway, and each piece, larger than what w
// buffers, goes to w's writer without a copy into w.
type batchWriter struct {
	w   *bufio.Writer
	buf []byte
	// cutting is set from begin to done: only then does cut hand bytes
	// over. Append (an Appender's whole record) never sets it.
	cutting bool
	err     error // the first error of a cut, for done to return
}

// begin starts a record that Record formats into buf, in pieces: it
// returns buf for the record to be appended to.
func (b *batchWriter) begin() []byte {
	b.cutting = true
	return b.buf
}

// done ends the record begin started: dst is buf with what followed the
// last piece. It returns the first error of a piece's Write, if any, or
// spill's.
func (b *batchWriter) done(dst []byte) error {
	b.cutting = false
	b.buf = dst
	if err := b.err; err != nil {
		b.err = nil
		return err
	}
	return b.spill()
}

// cut hands dst, buf with the record being formatted, to w once it holds
// more than w buffers, and returns it emptied; outside begin and done, it
// returns dst as it is. Callers call it only where they hold no offset into
// dst (escapeXMLTail's start, a quote to wrap a value in, a line to take
// back): everything before the call may be gone after it.
func (b *batchWriter) cut(dst []byte) []byte {
	if !b.cutting || len(dst) <= b.w.Size() {
		return dst
	}
	if _, err := b.w.Write(dst); err != nil && b.err == nil {
		b.err = err
	}
	b.buf = dst[:0] // written: a record given up halfway must not write it twice
	return b.buf
}

// hexPiece is how many bytes appendHex writes between two chances to cut:
// some 32 to 48 KB of text.
const hexPiece = 16 << 10

// appendHex appends bs in lowercase hex, sep between two bytes unless sep
// is 0, with a chance to cut (cut) every hexPiece bytes: a value of
// megabytes (an inflated chunk's bytes) is one node, but megabytes of
// text. Callers hold no offset into dst.
func (b *batchWriter) appendHex(dst, bs []byte, sep byte) []byte {
	for i := 0; i < len(bs); i += hexPiece {
		dst = b.cut(dst)
		if i > 0 && sep != 0 {
			dst = append(dst, sep)
		}
		dst = appendHexSep(dst, bs[i:min(i+hexPiece, len(bs))], sep)
	}
	return dst
}

// appendHexSep appends bs in lowercase hex, sep between two bytes unless
// sep is 0.
func appendHexSep(dst, bs []byte, sep byte) []byte {
	if sep == 0 {
		return hex.AppendEncode(dst, bs)
	}
	for i, c := range bs {
		if i > 0 {
			dst = append(dst, sep)
		}
		dst = append(dst, hexDigits[c>>4], hexDigits[c&15])
	}
	return dst
}

// spill hands buf to w once it holds more than w buffers.
func (b *batchWriter) spill() error {
	if len(b.buf) <= b.w.Size() {
		return nil
	}
	return b.give()
}

// give hands w what buf holds.
func (b *batchWriter) give() error {
	if len(b.buf) == 0 {
		return nil
	}
	_, err := b.w.Write(b.buf)
	b.buf = b.buf[:0]
	return err
}

// Flush writes out what buf and w hold.
func (b *batchWriter) Flush() error {
	if err := b.give(); err != nil {
		return err
	}
	return b.w.Flush()
}

// raw writes p after what buf holds.
func (b *batchWriter) raw(p []byte) error {
	if err := b.give(); err != nil {
		return err
	}
	_, err := b.w.Write(p)
	return err
}

package slp

import (
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
)

// MaxFrameLength is the largest packet length a VarInt of at most 3 bytes
// can carry: the protocol's limit for one frame.
const MaxFrameLength = 1<<21 - 1

// varint status.
const (
	viOK      = iota
	viShort   // the bytes end inside the VarInt
	viTooLong // more than 5 bytes: malformed
)

// readVarInt decodes a VarInt (at most 5 bytes, as the protocol allows) at
// the front of b: its value as a 32-bit two's complement number, its length
// and a status. A sixth byte is never read as part of the number.
func readVarInt(b []byte) (v int32, n int, st int) {
	var u uint32
	for i := 0; i < 5; i++ {
		if i >= len(b) {
			return 0, i, viShort
		}
		u |= uint32(b[i]&0x7f) << (7 * i)
		if b[i]&0x80 == 0 {
			return int32(u), i + 1, viOK
		}
	}
	return 0, 5, viTooLong
}

// appendVarInt appends v as a VarInt (for tests and samples).
func appendVarInt(dst []byte, v int32) []byte {
	u := uint32(v)
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}

// AppendVarInt appends v as a VarInt; sample generators use it.
func AppendVarInt(dst []byte, v int32) []byte { return appendVarInt(dst, v) }

// varInt reads a VarInt field with the cursor. A VarInt cut by the end of
// the PDU fails f like any short read; one longer than 5 bytes is added over
// its 5 bytes as malformed and stops the walk.
func varInt(c *dissect.Cursor, f *dissect.Field) (int32, int32, bool) {
	if c.Failed() {
		return 0, -1, false
	}
	b := c.Peek(5)
	v, n, st := readVarInt(b)
	switch st {
	case viShort:
		c.Fail(f, "VarInt needs more than the "+strconv.Itoa(len(b))+" bytes left")
		return 0, -1, false
	case viTooLong:
		off := c.Off()
		i := c.Invalid(f, "VarInt longer than 5 bytes")
		c.Expert(i, ExpertVarIntTooLong, f.Name+" at offset "+strconv.Itoa(off)+": the 5th byte "+hexByte(b[4])+" still has its continuation bit set")
		return 0, i, false
	}
	var val dissect.Value
	if f.Type == dissect.FTInt {
		val = dissect.I(int64(v))
	} else {
		val = dissect.U(uint64(uint32(v)))
	}
	return v, c.Field(f, n, val), true
}

func hexByte(b byte) string { return hexBytes[b] }

// hexBytes holds "0x00" to "0xff", so that showing a byte allocates nothing.
var hexBytes = func() (t [256]string) {
	const digits = "0123456789abcdef"
	for b := range t {
		t[b] = "0x" + string([]byte{digits[b>>4], digits[b&15]})
	}
	return t
}()

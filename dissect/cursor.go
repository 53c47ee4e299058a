package dissect

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"unsafe"
)

// Cursor walks a PDU's bytes, adding a node for each field it reads.
//
// Its error is sticky: the first read that cannot be satisfied adds the field
// with the bytes that are there, flags it Truncated (the capture cut the PDU)
// or Malformed (the PDU itself is too short), adds one expert item naming the
// field and its offset, and consumes the rest. Every later read returns zero
// values and adds nothing, so a decoder can be written as a straight walk and
// checked once at the end.
//
// Two outcomes are kept apart, as gopacket keeps a truncated packet apart
// from a decoding error: running out of bytes that the capture cut off
// (Fail, a short read: Truncated) and bytes that are there but wrong
// (Invalid, Malformed, a negative length: Malformed). IsTruncated and
// IsMalformed tell a decoder which happened.
type Cursor struct {
	P    *PDU
	data []byte // what the cursor walks: P.Data, or in a Lite PDU derived bytes (Derive)
	// liteDerived: data is bytes given to Derive in a Lite PDU, not P.Data
	liteDerived bool
	off         int
	parent      int32
	stack       [16]int32 // open subtrees; a fixed array so opening one allocates nothing
	depth       int
	over        int // subtrees opened past the stack's depth: added flat, closed without a pop
	failed      bool
	trunc       bool // the walk ran out of bytes the capture cut off
	bad         bool // some bytes present are wrong
}

// Begin resets p for data and returns a cursor with the protocol root open.
// It is returned by value so that a decoder's cursor can live on its stack.
// It is small enough to be inlined, so that the cursor is made in the
// decoder's frame: a cursor built in a call and copied out to it, some
// 150 bytes read back just after they were written, cost every record.
func Begin(p *PDU, root *Field, data []byte, wireLen int) Cursor {
	c := Cursor{P: p, parent: -1}
	c.begin(root, data, wireLen)
	return c
}

// begin is Begin's work on the cursor made for it.
func (c *Cursor) begin(root *Field, data []byte, wireLen int) {
	c.P.Reset(data, wireLen)
	c.data = c.P.Data
	c.Open(root, len(data))
}

func (c *Cursor) Off() int { return c.off }

// Rest is how many bytes of the PDU, on the wire, follow the cursor
// (WireLen - Off): a "rest of the packet" field read with it fails as
// truncated when the capture cut the PDU. In derived bytes of a Lite PDU
// it is what is left of them.
func (c *Cursor) Rest() int {
	if c.liteDerived {
		return c.Remaining()
	}
	return c.P.WireLen - c.off
}

// Data is what the cursor walks: the PDU's data, or in a Lite PDU the
// bytes given to Derive. Offsets (Off, node offsets) index into it.
func (c *Cursor) Data() []byte   { return c.data }
func (c *Cursor) Len() int       { return len(c.data) }
func (c *Cursor) Remaining() int { return len(c.data) - c.off }
func (c *Cursor) Failed() bool   { return c.failed }

// IsTruncated reports whether the walk stopped because the capture cut
// the PDU short: the bytes it needed were on the wire, not in the capture.
func (c *Cursor) IsTruncated() bool { return c.trunc }

// IsMalformed reports whether bytes present in the PDU are wrong: a
// failure by Invalid, a node marked by Malformed, a negative length, or a
// PDU too short for its fields although the capture has all of it.
func (c *Cursor) IsMalformed() bool { return c.bad }

// Parent is the index of the open subtree new nodes go under.
func (c *Cursor) Parent() int32 { return c.parent }

// Last is the index of the node added last.
func (c *Cursor) Last() int32 { return int32(len(c.P.Nodes) - 1) }

// Peek returns up to n bytes at the cursor without consuming them.
func (c *Cursor) Peek(n int) []byte {
	if c.failed {
		return nil
	}
	if n > c.Remaining() {
		n = c.Remaining()
	}
	return c.data[c.off : c.off+n]
}

// Open starts a subtree of f at the cursor, n bytes long; n < 0 means "as
// long as what is read until Close".
//
// Past 16 open subtrees a subtree is added as a node of the innermost one
// that fits (its length 0 when n < 0) and its Close pops nothing. In a
// Lite PDU the returned index is the root's, which Open leaves alone.
func (c *Cursor) Open(f *Field, n int) int32 {
	i := c.P.AddNode(c.parent, f, c.off, max(n, 0), Value{})
	if c.depth >= len(c.stack) {
		c.over++
		return i
	}
	if n < 0 && c.owns(i) {
		c.P.Nodes[i].Length = -1
	}
	c.stack[c.depth] = c.parent
	c.depth++
	c.parent = i
	return i
}

// owns reports whether node i is the cursor's to write: any node of a full
// tree, never a Lite PDU's root, which every AddNode answers with.
func (c *Cursor) owns(i int32) bool { return c.P.keeps(i) }

// Close ends the innermost open subtree. A subtree opened with n < 0 gets
// the length read since it was opened.
func (c *Cursor) Close() {
	if c.over > 0 {
		c.over--
		return
	}
	if c.depth == 0 {
		return
	}
	n := &c.P.Nodes[c.parent]
	if n.Length < 0 {
		n.Length = int32(c.off) - n.Offset
	}
	c.depth--
	c.parent = c.stack[c.depth]
}

// Field adds f over the next n bytes with value v and consumes them. It is
// the primitive every typed read uses; decoders use it for values they
// compute themselves (VarInts, fixed-point numbers).
func (c *Cursor) Field(f *Field, n int, v Value) int32 {
	if c.failed {
		return -1
	}
	if n < 0 {
		c.fail(f, "negative length "+strconv.Itoa(n), true)
		return -1
	}
	if n > c.Remaining() {
		c.fail(f, "needs "+strconv.Itoa(n)+" bytes, "+strconv.Itoa(c.Remaining())+" left", false)
		return -1
	}
	i := c.P.AddNode(c.parent, f, c.off, n, v)
	c.off += n
	return i
}

// Skip consumes the next n bytes, which would be field f, without adding
// a node for them: a field the tree being made leaves out, as Wireshark
// fakes the items nothing will read. When fewer than n are left it fails
// as Field does.
func (c *Cursor) Skip(f *Field, n int) {
	if c.failed || n < 0 || n > c.Remaining() {
		c.Field(f, n, Value{})
		return
	}
	c.off += n
}

// Take consumes n bytes for f and returns them, or nil after a failure.
func (c *Cursor) Take(f *Field, n int) ([]byte, int32) {
	if c.failed || n < 0 || n > c.Remaining() {
		c.Field(f, n, Value{})
		return nil, -1
	}
	b := c.data[c.off : c.off+n]
	return b, c.Field(f, n, B(b))
}

// Fail marks f, over the rest of the PDU, as cut short; msg says what was
// missing. Decoders call it when a length or terminator they need is not
// there; it is the same sticky failure as a short read: Truncated when the
// capture cut the PDU, Malformed when the PDU has all its bytes and is
// too short for its fields.
func (c *Cursor) Fail(f *Field, msg string) int32 {
	if c.failed {
		return -1
	}
	return c.fail(f, msg, false)
}

// Invalid marks f, over the rest of the PDU, as malformed, whether or not
// the capture cut the PDU: the bytes are there but wrong (a VarInt longer
// than 5 bytes, a negative length), so the walk cannot go on. It is the
// same sticky failure as Fail.
func (c *Cursor) Invalid(f *Field, msg string) int32 {
	if c.failed {
		return -1
	}
	return c.fail(f, msg, true)
}

func (c *Cursor) fail(f *Field, msg string, wrong bool) int32 {
	i := c.P.AddNode(c.parent, f, c.off, c.Remaining(), B(c.data[c.off:]))
	e, flag := ExpertMalformed, FlagMalformed
	if !wrong && c.P.Cut() {
		e, flag = ExpertTruncated, FlagTruncated
		c.trunc = true
	} else {
		c.bad = true
	}
	if c.owns(i) {
		c.P.Nodes[i].Flags |= flag
	}
	c.P.AddExpert(i, e, f.Name+" at offset "+strconv.Itoa(c.off)+": "+msg)
	c.off = len(c.data)
	c.failed = true
	return i
}

// Malformed flags an already added node as wrong and hangs e on it. It does
// not stop the walk: the bytes are there, only their meaning is off.
func (c *Cursor) Malformed(node int32, e *ExpertInfo, msg string) {
	if node < 0 {
		return
	}
	c.bad = true
	if c.owns(node) {
		c.P.Nodes[node].Flags |= FlagMalformed
	}
	c.P.AddExpert(node, e, msg)
}

// Expert hangs e on node, if the node exists.
func (c *Cursor) Expert(node int32, e *ExpertInfo, msg string) {
	if node >= 0 {
		c.P.AddExpert(node, e, msg)
	}
}

func (c *Cursor) Uint8(f *Field) (uint8, int32) {
	if c.failed || c.Remaining() < 1 {
		return 0, c.Field(f, 1, Value{})
	}
	v := c.data[c.off]
	return v, c.Field(f, 1, U(uint64(v)))
}

func (c *Cursor) Int8(f *Field) (int8, int32) {
	if c.failed || c.Remaining() < 1 {
		return 0, c.Field(f, 1, Value{})
	}
	v := int8(c.data[c.off])
	return v, c.Field(f, 1, I(int64(v)))
}

func (c *Cursor) Uint16(f *Field) (uint16, int32) {
	if c.failed || c.Remaining() < 2 {
		return 0, c.Field(f, 2, Value{})
	}
	v := binary.BigEndian.Uint16(c.data[c.off:])
	return v, c.Field(f, 2, U(uint64(v)))
}

// Uint16LE reads a little-endian short and flags the node so that renderers
// can say so: the Query hostport is the one little-endian number on the wire.
func (c *Cursor) Uint16LE(f *Field) (uint16, int32) {
	if c.failed || c.Remaining() < 2 {
		return 0, c.Field(f, 2, Value{})
	}
	v := binary.LittleEndian.Uint16(c.data[c.off:])
	i := c.Field(f, 2, U(uint64(v)))
	if c.owns(i) {
		c.P.Nodes[i].Flags |= FlagLittleEndian
	}
	return v, i
}

func (c *Cursor) Int16(f *Field) (int16, int32) {
	if c.failed || c.Remaining() < 2 {
		return 0, c.Field(f, 2, Value{})
	}
	v := int16(binary.BigEndian.Uint16(c.data[c.off:]))
	return v, c.Field(f, 2, I(int64(v)))
}

func (c *Cursor) Uint32(f *Field) (uint32, int32) {
	if c.failed || c.Remaining() < 4 {
		return 0, c.Field(f, 4, Value{})
	}
	v := binary.BigEndian.Uint32(c.data[c.off:])
	return v, c.Field(f, 4, U(uint64(v)))
}

func (c *Cursor) Int32(f *Field) (int32, int32) {
	if c.failed || c.Remaining() < 4 {
		return 0, c.Field(f, 4, Value{})
	}
	v := int32(binary.BigEndian.Uint32(c.data[c.off:]))
	return v, c.Field(f, 4, I(int64(v)))
}

func (c *Cursor) Uint64(f *Field) (uint64, int32) {
	if c.failed || c.Remaining() < 8 {
		return 0, c.Field(f, 8, Value{})
	}
	v := binary.BigEndian.Uint64(c.data[c.off:])
	return v, c.Field(f, 8, U(v))
}

func (c *Cursor) Int64(f *Field) (int64, int32) {
	if c.failed || c.Remaining() < 8 {
		return 0, c.Field(f, 8, Value{})
	}
	v := int64(binary.BigEndian.Uint64(c.data[c.off:]))
	return v, c.Field(f, 8, I(v))
}

// CString reads a NUL-terminated string. The node covers the terminator too;
// its value is the text without it. A missing terminator is a failure of f.
func (c *Cursor) CString(f *Field) ([]byte, int32) {
	if c.failed {
		return nil, -1
	}
	rest := c.data[c.off:]
	n := bytes.IndexByte(rest, 0)
	if n < 0 {
		return nil, c.fail(f, "no NUL terminator in the "+strconv.Itoa(len(rest))+" bytes left", false)
	}
	s := rest[:n:n]
	return s, c.Field(f, n+1, B(s))
}

// CStrings reads a list of NUL-terminated strings of f ended by an empty
// one, read as end (a Query player list), and returns how many whole
// strings it read. each, when not nil, is called with every whole
// string's node the PDU keeps and the string (its value), for what only
// the tree shows of it. A string missing its NUL fails as CString does;
// bytes running out before the empty string fail as end, with msg.
//
// The loop is CString's, without its calls per string: a list may hold
// thousands, and a Lite PDU adds none of their nodes.
func (c *Cursor) CStrings(f, end *Field, msg string, each func(i int32, s []byte)) (n int) {
	for !c.failed {
		rest := c.data[c.off:]
		if len(rest) == 0 {
			c.fail(end, msg, false)
			break
		}
		if rest[0] == 0 {
			c.Field(end, 1, B(rest[:1:1]))
			break
		}
		k := bytes.IndexByte(rest, 0)
		if k < 0 {
			c.fail(f, "no NUL terminator in the "+strconv.Itoa(len(rest))+" bytes left", false)
			break
		}
		s := rest[:k:k]
		i := c.P.AddNode(c.parent, f, c.off, k+1, B(s))
		c.off += k + 1
		n++
		if each != nil && c.owns(i) {
			each(i, s)
		}
	}
	return n
}

// Finish closes every open subtree and accounts for the bytes nobody read:
// they become an mc.undissected node with an expert item, so no byte of a
// PDU is ever silently dropped.
func (c *Cursor) Finish() {
	for c.depth > 1 {
		c.Close()
	}
	if r := c.Remaining(); r > 0 && !c.failed {
		i := c.P.AddNode(c.parent, FieldUndissected, c.off, r, B(c.data[c.off:]))
		c.P.AddExpert(i, ExpertUndissected, strconv.Itoa(r)+" bytes at offset "+strconv.Itoa(c.off)+" are not part of any field")
		c.off = len(c.data)
	}
	c.Close()
}

// Derive makes b, bytes the decoder derived from the PDU's own (a
// decrypted or inflated packet), the bytes the cursor reads next, and
// opens a subtree of f over them: Wireshark's new data source, laid flat.
// The bytes are appended to the PDU's data after everything before them
// (P.Data becomes a new buffer and P.Derived grows by len(b)), so that
// nodes point into them as into wire bytes; the root and every open
// subtree are stretched to cover them, and nodes that viewed the old data
// view the new. Close the subtree as usual; whatever of b is not read
// becomes undissected at Finish. The cursor should have read every byte
// before it (they are not read after).
//
// A Lite PDU keeps its data: the cursor reads b on its own, adds no node
// and leaves the PDU as it was (its Message and Info are what decoders
// set). A failed cursor derives nothing and returns -1.
func (c *Cursor) Derive(f *Field, b []byte) int32 {
	if c.failed {
		return -1
	}
	if c.P.Lite {
		c.data, c.off, c.liteDerived = b, 0, true
		return c.Open(f, len(b))
	}
	old := c.P.Data
	// a new buffer (the full slice expression forces one), filled by
	// append: make would clear it first, a second pass over every byte
	nd := append(old[:len(old):len(old)], b...)
	c.P.Data, c.data = nd, nd
	c.P.Derived += len(b)
	c.P.WireLen += len(b)
	viewNew(c.P, old, nd)
	c.off = len(old)
	for i := range c.P.Nodes {
		// open subtrees (length -1 until closed) stretch by themselves;
		// the root and fixed-length ancestors of the cursor are stretched
		// here
		if n := &c.P.Nodes[i]; n.Length >= 0 && int(n.Offset+n.Length) == len(old) && c.isOpen(int32(i)) {
			n.Length += int32(len(b))
		}
	}
	return c.Open(f, len(b))
}

// isOpen reports whether node i is the current parent or one of its open
// ancestors.
func (c *Cursor) isOpen(i int32) bool {
	if i == c.parent {
		return true
	}
	for d := 0; d < c.depth; d++ {
		if c.stack[d] == i {
			return true
		}
	}
	return false
}

// viewNew makes the values of p's nodes that view old view the same bytes
// in nd, a copy of old with more after it.
func viewNew(p *PDU, old, nd []byte) {
	if len(old) == 0 {
		return
	}
	lo := &old[0]
	for i := range p.Nodes {
		v := &p.Nodes[i].Value.B
		if len(*v) == 0 || cap(*v) == 0 {
			continue
		}
		if off, ok := within(*v, old, lo); ok {
			*v = nd[off : off+len(*v)]
		}
	}
}

// within reports whether v lies in old (whose first byte is lo) and at
// what offset. unsafe: addresses are compared, nothing is read through
// them (Go has no safe way to ask whether two slices share memory).
func within(v, old []byte, lo *byte) (int, bool) {
	base := uintptr(unsafe.Pointer(lo))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(v)))
	if p < base || p+uintptr(len(v)) > base+uintptr(len(old)) {
		return 0, false
	}
	return int(p - base), true
}

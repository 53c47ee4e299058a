package java

import (
	"encoding/binary"
	"math"
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
)

// Limits of the walk.
const (
	// maxDepth bounds how deeply types nest at run time (recursive item
	// components, containers in containers): deeper is malformed.
	maxDepth = 64
	// maxZeroWidth bounds the elements of an array whose elements may
	// take no byte (a count cannot be checked against the bytes left).
	maxZeroWidth = 1 << 16
	// maxNodes bounds the nodes one packet's walk adds (23 MB of tree):
	// an inflated packet of 2 MiB could otherwise make a node of every
	// byte (empty arrays, empty compounds), 2 million from a few hundred
	// bytes on the wire. Past it the walk stops and the rest of the
	// packet is one node. A vanilla 1.20.4 server's Declare Recipes has
	// some 120,000 fields; the bound leaves twice that.
	maxNodes = 1 << 18
	// growAt is how many nodes a walk adds before it grows the tree for
	// the rest of the packet at once (past): more than most packets add.
	growAt = 1 << 14
	// maxString is the protocol's longest string, in bytes (32767
	// UTF-16 units, at most 3 bytes each).
	maxString = 32767 * 3
)

// val is a value a later switch or count may read: an integer (bools 0/1,
// mappers their number) and, for text, its bytes (a view of the PDU).
type val struct {
	i int64
	f float64 // floats' own value (i is it truncated)
	s []byte
}

// walker walks one packet's bytes with a compiled type.
type walker struct {
	// c is the decoder's cursor, copied in for the walk and back after
	// it: a walker on the stack holds it there, where a pointer to the
	// decoder's would move that to the heap (a walker's fields, written
	// through its pointer, count as leaking)
	c dissect.Cursor
	walkBuf
	depth int
	// topDone is how many of top's slots were read whole (a cut walk
	// stops short), and short is set when Info wanted one that was not
	topDone int
	short   bool
	// stopAt, when > 0: the packet's fields Info shows are read once
	// topDone reaches it; then stopped is set, and the rest of the walk
	// is the tree's only (fields), as all of it is when stopped is set
	// from the start
	stopAt  int
	stopped bool
	pkt     int32 // the packet's node
	// base is how many nodes the PDU had when the walk began; next is
	// how many it may add before full looks again (growAt, then
	// maxNodes); capped is set once the walk has added maxNodes (full)
	base   int
	next   int
	capped bool
	// brand is what a plugin message on the brand channel carries, read
	// by info (Result.Brand)
	brand []byte
}

// walkBuf is what a walker grows as it walks, kept for the next walk.
type walkBuf struct {
	vals  []val
	bases []int
	pos   []val // the last position read (x, y, z), for Info lines
	// top holds the packet container's values once the walk is done
	top  []val
	info []byte // the Info line's buffer (info)
}

func (w *walker) frameVal(r ref) (val, bool) {
	if !r.ok || r.up >= len(w.bases) {
		return val{}, false
	}
	base := w.bases[len(w.bases)-1-r.up]
	if base+r.slot >= len(w.vals) {
		return val{}, false
	}
	v := w.vals[base+r.slot]
	if r.mask != 0 {
		return val{i: b2i(uint64(v.i)&r.mask != 0)}, true
	}
	return v, true
}

// full reports whether the walk has added its most nodes; from then on it
// reads nothing more (walk returns at once, loops stop).
func (w *walker) full() bool {
	return len(w.c.P.Nodes)-w.base > w.next && w.past()
}

// past is full's work once the walk has added next nodes: past growAt it
// grows the tree once for the rest of the walk (as many nodes as bytes
// are left, up to maxNodes: appends would copy a large tree a dozen
// times), past maxNodes it is full.
func (w *walker) past() bool {
	if w.next < maxNodes {
		n := len(w.c.P.Nodes) - w.base
		w.c.P.Grow(min(maxNodes-n, w.c.Remaining()) + 64)
		w.next = maxNodes
		return false
	}
	w.capped = true
	return true
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// walk reads t, adding a node of f (a generic field when f is nil and the
// type has bytes of its own), and returns its value.
func (w *walker) walk(t *typ, f *dissect.Field) val {
	c := &w.c
	if c.Failed() || w.capped {
		return val{}
	}
	switch t.k {
	case kVoid:
		return val{}
	case kInt:
		return w.integer(t, orAnon(f, t))
	case kVarInt:
		v, _ := varInt(c, orAnon(f, t))
		return val{i: int64(v)}
	case kVarLong:
		v, _ := varLong(c, orAnon(f, t))
		return val{i: v}
	case kBool:
		return w.boolean(orAnon(f, t))
	case kF32:
		b := c.Peek(4)
		if len(b) < 4 {
			c.Field(orAnon(f, t), 4, dissect.Value{})
			return val{}
		}
		v := float64(math.Float32frombits(binary.BigEndian.Uint32(b)))
		c.Field(orAnon(f, t), 4, dissect.F(v))
		return val{i: int64(v), f: v}
	case kF64:
		b := c.Peek(8)
		if len(b) < 8 {
			c.Field(orAnon(f, t), 8, dissect.Value{})
			return val{}
		}
		v := math.Float64frombits(binary.BigEndian.Uint64(b))
		c.Field(orAnon(f, t), 8, dissect.F(v))
		return val{i: int64(v), f: v}
	case kString, kBuffer:
		return w.bytes(t, orAnon(f, t))
	case kRest:
		r := max(c.Rest(), 0)
		b, _ := c.Take(orAnon(f, t), r)
		return val{s: b}
	case kUUID:
		b, i := c.Take(orAnon(f, t), 16)
		c.P.Annotate(i, func() { c.P.Nodes[i].Value = dissect.S(formatUUID(b)) })
		return val{s: b}
	case kContainer:
		return w.container(t, f)
	case kSwitch:
		ct := w.choose(t)
		if f != nil && ct.sf != nil {
			f = ct.sf
		}
		return w.walk(ct, f)
	case kArray:
		return w.array(t, f)
	case kOption:
		if p := w.boolean(FieldPresent); p.i == 0 || c.Failed() {
			return val{}
		}
		return w.walk(t.elem, f)
	case kBitfield:
		return w.bitfield(t, orAnon(f, t))
	case kBitflags:
		return w.bitflags(t, orAnon(f, t))
	case kMapper:
		return w.mapper(t, orAnon(f, t))
	case kNBT, kAnonNBT, kOptNBT, kAnonOptNBT:
		return w.nbt(t, f)
	case kGzipNBT:
		return w.gzipNBT(f)
	case kMetaLoop:
		return w.metaLoop(t, f)
	case kTopBit:
		return w.topBit(t, f)
	case kHolder:
		return w.holder(t, f)
	case kHolderSet:
		return w.holderSet(t, f)
	case kLpVec3:
		return w.lpVec3(orAnon(f, t))
	}
	// an unknown native type: say so and stop here
	off := c.Off()
	_, i := c.Take(orAnon(f, t), c.Remaining())
	if i >= 0 {
		c.Malformed(i, ExpertUnknownType, "at offset "+strconv.Itoa(off)+": unknown native type "+t.name+": the rest of the packet is not dissected")
	}
	return val{}
}

// orAnon is f, or the generic field of t's type when the data gives no
// name (an anonymous field with bytes of its own).
func orAnon(f *dissect.Field, t *typ) *dissect.Field {
	if f != nil {
		return f
	}
	return anonField(fieldType(t))
}

func (w *walker) enter() bool {
	w.depth++
	if w.depth > maxDepth {
		w.c.Invalid(FieldTooDeep, "types nested more than "+strconv.Itoa(maxDepth)+" deep")
		return false
	}
	return true
}

func (w *walker) container(t *typ, f *dissect.Field) val {
	c := &w.c
	if !w.enter() {
		w.depth--
		return val{}
	}
	open := f != nil
	if open {
		c.Open(f, -1)
	}
	base := -1
	if t.frame {
		base = len(w.vals)
		for k := 0; k < t.nslots; k++ {
			w.vals = append(w.vals, val{})
		}
		w.bases = append(w.bases, base)
	}
	w.fields(t, 0)
	if t.frame {
		if len(w.bases) == 1 {
			w.top = append(w.top[:0], w.vals[base:]...)
		}
		w.vals = w.vals[:base]
		w.bases = w.bases[:len(w.bases)-1]
	}
	if open {
		c.Close()
	}
	w.depth--
	return val{}
}

// fields walks t's fields from the from-th. Once the fields Info shows
// are read (stopped), the rest of the packet is what only its tree
// shows: it is walked in an Annotate of the packet's node, not at all in
// a Lite PDU.
func (w *walker) fields(t *typ, from int) {
	c := &w.c
	for i := from; i < len(t.fields); i++ {
		if w.stopped {
			c.P.Annotate(w.pkt, func() {
				w.stopped = false
				w.fields(t, i)
			})
			return
		}
		fd := &t.fields[i]
		v := w.walk(fd.t, fd.f)
		if fd.slot >= 0 && len(w.bases) > 0 {
			w.vals[w.bases[len(w.bases)-1]+fd.slot] = v
		}
		if fd.t.k == kBitfield && len(w.bases) > 0 {
			w.storeBits(fd.t, uint64(v.i))
		}
		if c.Failed() {
			return
		}
		if len(w.bases) == 1 {
			w.topDone = max(w.topDone, fd.slot+1)
			for _, b := range fd.t.bits {
				w.topDone = max(w.topDone, b.slot+1)
			}
			if w.stopAt > 0 && w.topDone >= w.stopAt {
				w.stopped, w.stopAt = true, 0
			}
		}
	}
}

// storeBits keeps a bitfield's parts in their slots.
func (w *walker) storeBits(t *typ, raw uint64) {
	base := w.bases[len(w.bases)-1]
	shift := uint(t.size) * 8
	for _, p := range t.bits {
		shift -= uint(p.size)
		v := bitsOf(raw, shift, p.size, p.signed)
		if p.slot >= 0 && base+p.slot < len(w.vals) {
			w.vals[base+p.slot] = val{i: v}
		}
	}
}

func bitsOf(raw uint64, shift uint, size uint8, signed bool) int64 {
	v := (raw >> shift) & (1<<size - 1)
	if signed && size > 0 && v&(1<<(size-1)) != 0 {
		return int64(v) - int64(1)<<size
	}
	return int64(v)
}

// choose picks a switch's case.
func (w *walker) choose(t *typ) *typ {
	v, ok := w.frameVal(t.ref)
	if !ok {
		return t.def
	}
	if t.ref.str || v.s != nil && t.scases != nil && t.icases == nil {
		if ct, ok := t.scases[string(v.s)]; ok {
			return ct
		}
		return t.def
	}
	if ct, ok := t.icases[v.i]; ok {
		return ct
	}
	return t.def
}

func (w *walker) integer(t *typ, f *dissect.Field) val {
	c := &w.c
	n := int(t.size)
	b := c.Peek(n)
	if len(b) < n {
		c.Field(f, n, dissect.Value{})
		return val{}
	}
	var u uint64
	for _, x := range b {
		u = u<<8 | uint64(x)
	}
	if t.signed {
		s := int64(u<<(64-8*n)) >> (64 - 8*n)
		c.Field(f, n, dissect.I(s))
		return val{i: s}
	}
	c.Field(f, n, dissect.U(u))
	return val{i: int64(u)}
}

func (w *walker) boolean(f *dissect.Field) val {
	c := &w.c
	off := c.Off()
	b := c.Peek(1)
	if len(b) < 1 {
		c.Field(f, 1, dissect.Value{})
		return val{}
	}
	i := c.Field(f, 1, dissect.Bool(b[0] != 0))
	if b[0] > 1 {
		c.Malformed(i, dissect.ExpertMalformed, f.Name+" at offset "+strconv.Itoa(off)+": boolean byte "+strconv.Itoa(int(b[0]))+", expected 0 or 1")
	}
	return val{i: int64(b[0])}
}

// count reads an array's, string's or buffer's count: a prefix (its own
// node, unless node is false: strings and buffers cover their prefix),
// a fixed number or a value read before.
func (w *walker) count(t *typ, node bool) (n int64, prefix int, ok bool) {
	c := &w.c
	switch {
	case t.count != nil:
		off := c.Off()
		if node {
			v := w.walk(t.count, FieldCount)
			return v.i, c.Off() - off, !c.Failed()
		}
		v, k, st := peekCount(c, t.count)
		if st != viOK {
			// let the field read fail with the right message
			w.walk(t.count, FieldCount)
			return 0, 0, false
		}
		return v, k, true
	case t.fixed >= 0:
		return int64(t.fixed), 0, true
	}
	v, ok := w.frameVal(t.ref)
	if !ok {
		c.Invalid(FieldCount, "the count's field was not read")
		return 0, 0, false
	}
	return v.i, 0, true
}

// peekCount reads a count prefix without consuming it.
func peekCount(c *dissect.Cursor, t *typ) (int64, int, uint8) {
	b := c.Peek(10)
	switch t.k {
	case kVarInt, kVarLong:
		v, n, st := readVarInt(b)
		return int64(v), n, st
	case kInt:
		if len(b) < int(t.size) {
			return 0, 0, viShort
		}
		var u uint64
		for _, x := range b[:t.size] {
			u = u<<8 | uint64(x)
		}
		if t.signed {
			return int64(u<<(64-8*t.size)) >> (64 - 8*t.size), int(t.size), viOK
		}
		return int64(u), int(t.size), viOK
	}
	return 0, 0, viLong
}

// bytes reads a string or buffer: one node over the prefix and the bytes.
func (w *walker) bytes(t *typ, f *dissect.Field) val {
	c := &w.c
	n, k, ok := w.count(t, false)
	if !ok {
		return val{}
	}
	if n < 0 {
		c.Invalid(f, "negative length "+strconv.FormatInt(n, 10))
		return val{}
	}
	if t.k == kString && n > maxString {
		c.Invalid(f, "string of "+strconv.FormatInt(n, 10)+" bytes, the protocol allows "+strconv.Itoa(maxString))
		return val{}
	}
	if !w.fits(f, n, 1, k, "length "+strconv.FormatInt(n, 10)) {
		return val{}
	}
	b := c.Peek(k + int(n))[k:]
	i := c.Field(f, k+int(n), dissect.B(b))
	if t.chat {
		c.P.Annotate(i, func() {
			if s := chatJSON(b); s != "" {
				c.P.AddGenerated(i, FieldChatText, dissect.S(s), "")
			}
		})
	}
	return val{s: b}
}

func (w *walker) array(t *typ, f *dissect.Field) val {
	c := &w.c
	if !w.enter() {
		w.depth--
		return val{}
	}
	defer func() { w.depth-- }()
	if f == nil {
		f = FieldArray
	}
	c.Open(f, -1)
	defer c.Close()
	n, _, ok := w.count(t, true)
	if !ok {
		return val{}
	}
	if n < 0 {
		c.Invalid(FieldCount, "negative count "+strconv.FormatInt(n, 10))
		return val{}
	}
	min := minLen(t.elem)
	if min == 0 && n > maxZeroWidth {
		c.Invalid(FieldCount, "count "+strconv.FormatInt(n, 10)+" of elements that may take no byte: more than "+strconv.Itoa(maxZeroWidth))
		return val{}
	}
	if !w.fits(FieldElements, n, int64(min), 0, "count "+strconv.FormatInt(n, 10)+", elements of at least "+strconv.Itoa(min)+" bytes") {
		return val{}
	}
	for k := int64(0); k < n && !c.Failed() && !w.full(); k++ {
		w.walk(t.elem, t.entry)
	}
	return val{i: n}
}

// fits checks a count read from the wire before anything is allocated or
// looped over: n elements of at least size bytes, after skip more bytes,
// must fit in what the packet has on the wire (else malformed) and in what
// the capture has (else truncated: the capture cut it). f gets the failure.
func (w *walker) fits(f *dissect.Field, n, size int64, skip int, what string) bool {
	c := &w.c
	if n < 0 {
		c.Invalid(f, what+": negative")
		return false
	}
	need := n * size
	if size != 0 && need/size != n {
		need = math.MaxInt64
	}
	if wire := int64(c.Rest() - skip); need > wire {
		c.Invalid(f, what+": "+strconv.FormatInt(wire, 10)+" bytes left in the packet")
		return false
	}
	if left := int64(c.Remaining() - skip); need > left {
		c.Fail(f, what+": "+strconv.FormatInt(left, 10)+" bytes left in the capture")
		return false
	}
	return true
}

// minLen is the fewest bytes a value of t takes.
func minLen(t *typ) int {
	switch t.k {
	case kInt:
		return int(t.size)
	case kVarInt, kVarLong, kBool, kString, kBuffer, kOption, kNBT, kAnonNBT, kOptNBT, kAnonOptNBT, kMetaLoop, kTopBit, kHolder, kHolderSet, kLpVec3:
		return 1
	case kMapper, kBitflags:
		if t.size == 0 {
			return 1
		}
		return int(t.size)
	case kF32:
		return 4
	case kF64:
		return 8
	case kUUID:
		return 16
	case kBitfield:
		return int(t.size)
	case kGzipNBT:
		return 2
	case kContainer:
		n := 0
		for i := range t.fields {
			if t.fields[i].t == t {
				continue
			}
			n += minLen(t.fields[i].t)
		}
		return n
	}
	return 0
}

func (w *walker) bitfield(t *typ, f *dissect.Field) val {
	c := &w.c
	n := int(t.size)
	b := c.Peek(n)
	off := c.Off()
	if len(b) < n || n > 8 {
		c.Field(f, n, dissect.Value{})
		return val{}
	}
	var raw uint64
	for _, x := range b {
		raw = raw<<8 | uint64(x)
	}
	i := c.Field(f, n, dissect.U(raw))
	c.P.Annotate(i, func() { bitNodes(c.P, t, i, off, raw) })
	if len(t.bits) == 3 && t.bits[0].size >= 12 {
		w.keepPos(t, raw)
	}
	return val{i: int64(raw)}
}

// bitNodes adds the parts of bitfield node i (at off, raw its bits) under
// it; a block position's node shows them in one line.
func bitNodes(pdu *dissect.PDU, t *typ, i int32, off int, raw uint64) {
	n := int(t.size)
	shift := uint(n) * 8
	start := 0
	var text []byte
	for _, p := range t.bits {
		shift -= uint(p.size)
		v := bitsOf(raw, shift, p.size, p.signed)
		lo, hi := start/8, (start+int(p.size)+7)/8
		start += int(p.size)
		if p.f == nil {
			continue
		}
		var vv dissect.Value
		if p.signed {
			vv = dissect.I(v)
		} else {
			vv = dissect.U(uint64(v))
		}
		pdu.AddNode(i, p.f, off+lo, hi-lo, vv)
		if len(t.bits) == 3 {
			if len(text) > 0 {
				text = append(text, ", "...)
			}
			text = append(text, p.f.Label...)
			text = append(text, ' ')
			text = strconv.AppendInt(text, v, 10)
		}
	}
	if len(t.bits) == 3 && t.bits[0].size >= 12 {
		pdu.Nodes[i].Text = string(text)
	}
}

// keepPos remembers a block position (a three-part bitfield) for Info.
func (w *walker) keepPos(t *typ, raw uint64) {
	w.pos = w.pos[:0]
	shift := uint(t.size) * 8
	for _, p := range t.bits {
		shift -= uint(p.size)
		w.pos = append(w.pos, val{i: bitsOf(raw, shift, p.size, p.signed), s: []byte(p.f.Label)})
	}
}

func (w *walker) bitflags(t *typ, f *dissect.Field) val {
	c := &w.c
	off := c.Off()
	var raw uint64
	var n int
	if t.size == 0 {
		v, _ := varInt(c, f)
		raw, n = uint64(uint32(v)), c.Off()-off
		if c.Failed() {
			return val{}
		}
	} else {
		n = int(t.size)
		b := c.Peek(n)
		if len(b) < n {
			c.Field(f, n, dissect.Value{})
			return val{}
		}
		for _, x := range b {
			raw = raw<<8 | uint64(x)
		}
		c.Field(f, n, dissect.U(raw))
	}
	i := c.Last()
	c.P.Annotate(i, func() {
		c.P.Nodes[i].Value = dissect.U(raw)
		for bit, ff := range t.flagF {
			if ff != nil {
				c.P.AddNode(i, ff, off, n, dissect.Bool(raw&(1<<uint(bit)) != 0))
			}
		}
	})
	return val{i: int64(raw)}
}

func (w *walker) mapper(t *typ, f *dissect.Field) val {
	c := &w.c
	v := w.walk(t.elem, f)
	if c.Failed() {
		return v
	}
	i := c.Last()
	c.P.Annotate(i, func() {
		if name, ok := t.names[v.i]; ok {
			c.P.Nodes[i].Text = name
			c.P.Nodes[i].Value = dissect.U(uint64(v.i))
		}
	})
	return v
}

// metaLoop reads entity metadata entries until the end byte.
func (w *walker) metaLoop(t *typ, f *dissect.Field) val {
	c := &w.c
	if !w.enter() {
		w.depth--
		return val{}
	}
	defer func() { w.depth-- }()
	if f == nil {
		f = FieldArray
	}
	c.Open(f, -1)
	defer c.Close()
	for n := 0; !c.Failed() && !w.full(); n++ {
		b := c.Peek(1)
		if len(b) == 0 {
			c.Fail(FieldMetaEnd, "no end byte ("+strconv.Itoa(int(t.endVal))+") after "+strconv.Itoa(n)+" entries")
			return val{}
		}
		if b[0] == t.endVal {
			c.Field(FieldMetaEnd, 1, dissect.U(uint64(b[0])))
			return val{i: int64(n)}
		}
		w.walk(t.elem, t.entry)
	}
	return val{}
}

// topBit reads elements while their first byte has its top bit set.
func (w *walker) topBit(t *typ, f *dissect.Field) val {
	c := &w.c
	if !w.enter() {
		w.depth--
		return val{}
	}
	defer func() { w.depth-- }()
	if f == nil {
		f = FieldArray
	}
	c.Open(f, -1)
	defer c.Close()
	for n := 0; !c.Failed() && !w.full(); n++ {
		b := c.Peek(1)
		if len(b) == 0 {
			c.Fail(t.entry, "no element after "+strconv.Itoa(n))
			return val{}
		}
		more := b[0]&0x80 != 0
		w.walk(t.elem, t.entry)
		if !more {
			return val{i: int64(n + 1)}
		}
	}
	return val{}
}

// holder reads a registry entry holder: VarInt 0 and an inline value, or
// the registry id plus one.
func (w *walker) holder(t *typ, f *dissect.Field) val {
	c := &w.c
	if f != nil {
		c.Open(f, -1)
		defer c.Close()
	}
	b := c.Peek(5)
	v, n, st := readVarInt(b)
	if st != viOK || v != 0 {
		id, i := varInt(c, t.baseF)
		c.P.SetValue(i, dissect.I(int64(id)-1))
		return val{i: int64(id) - 1}
	}
	c.Field(FieldInline, n, dissect.U(0))
	if t.other != nil {
		return w.walk(t.other, t.otherF)
	}
	return val{}
}

// holderSet reads an IDSet: VarInt 0 and a tag name, or n-1 ids.
func (w *walker) holderSet(t *typ, f *dissect.Field) val {
	c := &w.c
	if f != nil {
		c.Open(f, -1)
		defer c.Close()
	}
	n, _ := varInt(c, FieldCount)
	if c.Failed() {
		return val{}
	}
	if n == 0 {
		if t.other != nil {
			return w.walk(t.other, t.baseF)
		}
		return val{}
	}
	k := int64(n) - 1
	if k < 0 {
		c.Invalid(FieldCount, "holder set of "+strconv.FormatInt(k, 10)+" ids")
		return val{}
	}
	if !w.fits(FieldElements, k, 1, 0, "holder set of "+strconv.FormatInt(k, 10)+" ids") {
		return val{}
	}
	for j := int64(0); j < k && !c.Failed() && !w.full() && t.elem != nil; j++ {
		w.walk(t.elem, t.otherF)
	}
	return val{i: k}
}

// lpVec3 reads a low-precision vector (1.21.9+): a zero byte for the zero
// vector, else six bytes (three 15-bit components and a 2-bit scale) and,
// when the scale's third bit is set, a VarInt of more scale.
func (w *walker) lpVec3(f *dissect.Field) val {
	c := &w.c
	b := c.Peek(6)
	if len(b) == 0 {
		c.Field(f, 1, dissect.Value{})
		return val{}
	}
	if b[0] == 0 {
		c.Field(f, 1, dissect.Value{})
		return val{}
	}
	if len(b) < 6 {
		c.Field(f, 6, dissect.Value{})
		return val{}
	}
	n := 6
	scale := uint64(b[0] & 3)
	if b[0]&4 != 0 {
		v, k, st := readVarInt(c.Peek(11)[6:])
		if st != viOK {
			c.Invalid(f, "bad VarInt scale")
			return val{}
		}
		scale |= uint64(uint32(v)) << 2
		n += k
	}
	l := uint64(b[0]) | uint64(b[1])<<8 | uint64(binary.BigEndian.Uint32(b[2:6]))<<16
	comp := func(sh uint) float64 {
		v := min((l>>sh)&32767, 32766)
		return (float64(v)*2/32766 - 1) * float64(scale)
	}
	i := c.Field(f, n, dissect.Value{})
	c.P.SetTextFunc(i, func() string {
		return "(" + strconv.FormatFloat(comp(3), 'g', 5, 64) + ", " + strconv.FormatFloat(comp(18), 'g', 5, 64) + ", " + strconv.FormatFloat(comp(33), 'g', 5, 64) + ")"
	})
	return val{}
}

// VarInt reading.
const (
	viOK uint8 = iota
	viShort
	viLong
)

// readVarInt decodes a VarInt of at most 5 bytes at the front of b.
func readVarInt(b []byte) (int32, int, uint8) {
	var v uint32
	for i := 0; i < 5; i++ {
		if i >= len(b) {
			return 0, i, viShort
		}
		v |= uint32(b[i]&0x7f) << (7 * uint(i))
		if b[i]&0x80 == 0 {
			return int32(v), i + 1, viOK
		}
	}
	return 0, 5, viLong
}

// varInt reads a VarInt into a node of f; it returns the value and the
// node (-1 on failure).
func varInt(c *dissect.Cursor, f *dissect.Field) (int32, int32) {
	v, n, st := readVarInt(c.Peek(5))
	switch st {
	case viShort:
		c.Fail(f, "VarInt cut after "+strconv.Itoa(n)+" bytes")
		return 0, -1
	case viLong:
		c.Invalid(f, "VarInt longer than 5 bytes")
		return 0, -1
	}
	return v, c.Field(f, n, dissect.I(int64(v)))
}

// varLong reads a VarLong (at most 10 bytes).
func varLong(c *dissect.Cursor, f *dissect.Field) (int64, int32) {
	b := c.Peek(10)
	var v uint64
	for i := 0; i < 10; i++ {
		if i >= len(b) {
			c.Fail(f, "VarLong cut after "+strconv.Itoa(i)+" bytes")
			return 0, -1
		}
		v |= uint64(b[i]&0x7f) << (7 * uint(i))
		if b[i]&0x80 == 0 {
			return int64(v), c.Field(f, i+1, dissect.I(int64(v)))
		}
	}
	c.Invalid(f, "VarLong longer than 10 bytes")
	return 0, -1
}

func formatUUID(b []byte) string {
	const digits = "0123456789abcdef"
	var out [36]byte
	j := 0
	for k, x := range b[:16] {
		if k == 4 || k == 6 || k == 8 || k == 10 {
			out[j] = '-'
			j++
		}
		out[j], out[j+1] = digits[x>>4], digits[x&15]
		j += 2
	}
	return string(out[:])
}

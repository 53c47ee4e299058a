package classic

import (
	"encoding/binary"
	"slices"

	"github.com/mcdissect/mcdissect/dissect"
)

// Movement and block packets are most of a session, and their layouts are
// fixed: once the packet is known to hold every item, walkFast reads them
// from the bytes and writes their nodes into room made once, instead of
// going through the cursor field by field (a bounds check, a failure
// check and an append each). What a field shows is the same helpers' work
// either way (decode.go).

// fastKind reports whether walkFast reads items of kind k.
func fastKind(k kind) bool {
	switch k {
	case kU8, kI8, kU16, kI16, kU32, kI32, kPID, kHeld, kBlock, kPos, kBlockPos, kDelta, kYaw, kPitch:
		return true
	}
	return false
}

// walkFast reads a fixed layout of fast kinds into a tree (or, Lite, only
// into the Info column). It reports
// false, having added nothing, when the bytes after the packet ID are not
// exactly the layout: the cursor walk then reports what is missing or
// left over. When it reports true the packet is complete, and the
// cursor, which read only the packet ID, must not be finished.
func (d *dec) walkFast(items []item) bool {
	n := &d.conn.n
	off := d.c.Off()
	size := 0
	for i := range items {
		size += items[i].k.size(n)
	}
	if d.c.Remaining() != size {
		return false
	}
	p := d.pdu()
	// One node per item, and a generated one under an eye-level Y; a Lite
	// PDU keeps its root only (put adds nothing), but its Info is made
	// the same way.
	if !p.Lite {
		p.Nodes = slices.Grow(p.Nodes, len(items)+1)
	}
	b := p.Data
	for j := range items {
		it := &items[j]
		f := it.f
		switch it.k {
		case kU8:
			v := b[off]
			i := put(p, f, off, 1, uint64(v))
			if f == FieldMode {
				d.mode(i, v)
			}
			off++
		case kI8:
			put(p, f, off, 1, uint64(int64(int8(b[off]))))
			off++
		case kU16:
			put(p, f, off, 2, uint64(binary.BigEndian.Uint16(b[off:])))
			off += 2
		case kI16:
			put(p, f, off, 2, uint64(int64(int16(binary.BigEndian.Uint16(b[off:])))))
			off += 2
		case kU32:
			put(p, f, off, 4, uint64(binary.BigEndian.Uint32(b[off:])))
			off += 4
		case kI32:
			put(p, f, off, 4, uint64(int64(int32(binary.BigEndian.Uint32(b[off:])))))
			off += 4
		case kPID:
			v := int8(b[off])
			d.player(put(p, f, off, 1, uint64(int64(v))), v)
			off++
		case kHeld:
			switch {
			case n.heldBlock:
				off = d.blockFast(FieldBlockType, off, " holding ")
			case n.extBlocks:
				v := binary.BigEndian.Uint16(b[off:])
				d.heldWide(put(p, FieldPlayerID, off, 2, uint64(v)), v)
				off += 2
			default:
				v := int8(b[off])
				d.player(put(p, FieldPlayerID, off, 1, uint64(int64(v))), v)
				off++
			}
		case kBlock:
			off = d.blockFast(f, off, " ")
		case kPos:
			var raw int64
			w := 2
			if n.extPos {
				raw, w = int64(int32(binary.BigEndian.Uint32(b[off:]))), 4
			} else {
				raw = int64(int16(binary.BigEndian.Uint16(b[off:])))
			}
			d.fixedDone(f, put(p, f, off, w, uint64(raw)), raw)
			off += w
		case kBlockPos:
			v := int16(binary.BigEndian.Uint16(b[off:]))
			d.blockPos(f, put(p, f, off, 2, uint64(int64(v))), v)
			off += 2
		case kDelta:
			v := int8(b[off])
			d.delta(f, put(p, f, off, 1, uint64(int64(v))), v)
			off++
		case kYaw:
			v := b[off]
			d.yawDone(f, put(p, f, off, 1, uint64(v)), v)
			off++
		case kPitch:
			v := b[off]
			d.pitchDone(f, put(p, f, off, 1, uint64(v)), v)
			off++
		}
	}
	d.posInfo()
	return true
}

// blockFast reads a block ID at off (two bytes under ExtendedBlocks) and
// returns the offset after it.
func (d *dec) blockFast(f *dissect.Field, off int, sep string) int {
	p := d.pdu()
	var v uint64
	w := 1
	if d.conn.n.extBlocks {
		v, w = uint64(binary.BigEndian.Uint16(p.Data[off:])), 2
	} else {
		v = uint64(p.Data[off])
	}
	put(p, f, off, w, v)
	d.blockInfo(sep, v)
	return off + w
}

// put adds a node under the root, in room the caller made. AddNode writes
// a reused slot field by field, storing a pointer only when it changes.
func put(p *dissect.PDU, f *dissect.Field, off, n int, v uint64) int32 {
	return p.AddNode(0, f, off, n, dissect.U(v))
}

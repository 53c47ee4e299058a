package java

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"math"
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
)

// NBT tag types.
const (
	tagEnd = iota
	tagByte
	tagShort
	tagInt
	tagLong
	tagFloat
	tagDouble
	tagByteArray
	tagString
	tagList
	tagCompound
	tagIntArray
	tagLongArray
)

// maxNBTDepth is Java's own limit on nesting (NbtAccounter).
const maxNBTDepth = 512

// maxGzipNBT caps what a 1.7 compressedNbt inflates to.
const maxGzipNBT = 2 << 20

// nbt reads network NBT: named (type, name, payload) before 1.20.2,
// anonymous (type, payload) after; the optional forms are a lone TAG_End
// byte when absent. Every tag is a node of its type's keyed field with the
// tag's name as key. The value returned views the whole NBT's bytes.
func (w *walker) nbt(t *typ, f *dissect.Field) val {
	c := &w.c
	start := c.Off()
	b := c.Peek(1)
	if len(b) == 0 {
		c.Field(orAnon(f, &typ{k: kBuffer}), 1, dissect.Value{})
		return val{}
	}
	if b[0] == tagEnd {
		// TAG_End alone: no NBT (vanilla writes it for "none" in the
		// required forms too)
		ff := f
		if ff == nil {
			ff = FieldNBTEnd
		}
		c.P.SetText(c.Field(ff, 1, dissect.U(0)), "none (TAG_End)")
		return val{}
	}
	if f != nil {
		c.Open(f, -1)
	}
	named := t.k == kNBT || t.k == kOptNBT
	w.tag(int(b[0]), named, 0, true)
	if f != nil {
		c.Close()
	}
	end := c.Off()
	v := val{s: c.Data()[start:end]}
	if t.chat && !c.Failed() {
		c.P.Annotate(c.Parent(), func() {
			if s := chatNBT(v.s, named); s != "" {
				c.P.AddGenerated(c.Parent(), FieldChatText, dissect.S(s), "")
			}
		})
	}
	return v
}

// tag reads one tag whose type is tt; withHeader: its type byte (and, if
// named, its name) are at the cursor.
func (w *walker) tag(tt int, named bool, depth int, withHeader bool) {
	c := &w.c
	if depth > maxNBTDepth {
		c.Invalid(FieldNBTCompound, "NBT nested deeper than "+strconv.Itoa(maxNBTDepth))
		return
	}
	if tt < 0 || tt >= len(nbtFields) || tt == tagEnd {
		c.Invalid(FieldNBTCompound, "NBT tag type "+strconv.Itoa(tt))
		return
	}
	f := nbtFields[tt]
	hdr := 0
	var name []byte
	if withHeader {
		hdr = 1
		if named {
			b := c.Peek(3)
			if len(b) < 3 {
				c.Fail(f, "NBT tag name cut")
				return
			}
			nl := int(binary.BigEndian.Uint16(b[1:]))
			if 3+nl > c.Remaining() {
				c.Fail(f, "NBT tag name of "+strconv.Itoa(nl)+" bytes, "+strconv.Itoa(c.Remaining()-3)+" left")
				return
			}
			name = c.Peek(3 + nl)[3:]
			hdr = 3 + nl
		}
	}
	switch tt {
	case tagCompound, tagList:
		i := c.Open(f, -1)
		w.setKey(i, name)
		if hdr > 0 {
			c.Field(FieldNBTHeader, hdr, dissect.B(name))
		}
		if tt == tagCompound {
			w.compound(depth)
		} else {
			w.list(depth)
		}
		c.Close()
		return
	}
	// a scalar or array tag: one node over header and payload
	size, ok := w.payloadSize(tt, hdr)
	if !ok {
		return
	}
	p := c.Peek(hdr + size)
	if len(p) < hdr+size {
		c.Fail(f, "NBT "+nbtNames[tt]+" needs "+strconv.Itoa(hdr+size)+" bytes, "+strconv.Itoa(c.Remaining())+" left")
		return
	}
	pl := p[hdr:]
	var v dissect.Value
	switch tt {
	case tagByte:
		v = dissect.I(int64(int8(pl[0])))
	case tagShort:
		v = dissect.I(int64(int16(binary.BigEndian.Uint16(pl))))
	case tagInt:
		v = dissect.I(int64(int32(binary.BigEndian.Uint32(pl))))
	case tagLong:
		v = dissect.I(int64(binary.BigEndian.Uint64(pl)))
	case tagFloat:
		v = dissect.F(float64(math.Float32frombits(binary.BigEndian.Uint32(pl))))
	case tagDouble:
		v = dissect.F(math.Float64frombits(binary.BigEndian.Uint64(pl)))
	case tagString:
		v = dissect.B(pl[2:])
	default: // arrays: the bytes after the count
		v = dissect.B(pl[4:])
	}
	i := c.Field(f, hdr+size, v)
	w.setKey(i, name)
}

func (w *walker) setKey(i int32, name []byte) {
	if len(name) > 0 {
		w.c.P.Annotate(i, func() { w.c.P.Nodes[i].Key = string(name) })
	}
}

// payloadSize is the size of a scalar or array payload hdr bytes after
// the cursor, checked against the bytes left.
func (w *walker) payloadSize(tt int, hdr int) (int, bool) {
	c := &w.c
	f := nbtFields[tt]
	rest := c.Peek(c.Remaining())
	if len(rest) < hdr {
		c.Fail(f, "NBT tag header cut")
		return 0, false
	}
	rest = rest[hdr:]
	need := func(n int) (int, bool) { return n, true }
	switch tt {
	case tagByte:
		return need(1)
	case tagShort:
		return need(2)
	case tagInt, tagFloat:
		return need(4)
	case tagLong, tagDouble:
		return need(8)
	case tagString:
		if len(rest) < 2 {
			c.Fail(f, "NBT string length cut")
			return 0, false
		}
		return 2 + int(binary.BigEndian.Uint16(rest)), true
	case tagByteArray, tagIntArray, tagLongArray:
		if len(rest) < 4 {
			c.Fail(f, "NBT array length cut")
			return 0, false
		}
		n := int64(int32(binary.BigEndian.Uint32(rest)))
		el := int64(1)
		if tt == tagIntArray {
			el = 4
		} else if tt == tagLongArray {
			el = 8
		}
		if !w.fits(f, n, el, hdr+4, "NBT array of "+strconv.FormatInt(n, 10)+" elements") {
			return 0, false
		}
		return 4 + int(n*el), true
	}
	return 0, false
}

func (w *walker) compound(depth int) {
	c := &w.c
	for !c.Failed() && !w.full() {
		b := c.Peek(1)
		if len(b) == 0 {
			c.Fail(FieldNBTEnd, "NBT compound without its end tag")
			return
		}
		if b[0] == tagEnd {
			c.Field(FieldNBTEnd, 1, dissect.U(0))
			return
		}
		w.tag(int(b[0]), true, depth+1, true)
	}
}

func (w *walker) list(depth int) {
	c := &w.c
	b := c.Peek(5)
	if len(b) < 5 {
		c.Fail(FieldNBTListHeader, "NBT list header cut")
		return
	}
	et := int(b[0])
	n := int64(int32(binary.BigEndian.Uint32(b[1:])))
	i := c.Field(FieldNBTListHeader, 5, dissect.U(uint64(max(n, 0))))
	c.P.SetTextFunc(i, func() string { return strconv.FormatInt(n, 10) + " × " + nbtName(et) })
	if n <= 0 {
		return
	}
	if et == tagEnd || et >= len(nbtFields) {
		c.Invalid(FieldNBTListHeader, "NBT list of "+strconv.FormatInt(n, 10)+" "+nbtName(et))
		return
	}
	if !w.fits(FieldElements, n, int64(nbtMin[et]), 0, "NBT list of "+strconv.FormatInt(n, 10)+" "+nbtName(et)) {
		return
	}
	for k := int64(0); k < n && !c.Failed() && !w.full(); k++ {
		w.tag(et, false, depth+1, false)
	}
}

func nbtName(t int) string {
	if t >= 0 && t < len(nbtNames) {
		return nbtNames[t]
	}
	return "Unknown (" + strconv.Itoa(t) + ")"
}

// nbtMin is the fewest bytes a payload of each tag type takes.
var nbtMin = [...]int{0, 1, 2, 4, 8, 4, 8, 4, 2, 5, 1, 4, 4}

var nbtNames = [...]string{"End", "Byte", "Short", "Int", "Long", "Float", "Double", "Byte array", "String", "List", "Compound", "Int array", "Long array"}

// gzipNBT reads 1.7's compressedNbt: an i16 length (-1: none) and that
// many bytes of gzip'd named NBT, shown inflated.
func (w *walker) gzipNBT(f *dissect.Field) val {
	c := &w.c
	if f == nil {
		f = FieldNBTGzip
	}
	b := c.Peek(2)
	if len(b) < 2 {
		c.Field(f, 2, dissect.Value{})
		return val{}
	}
	n := int(int16(binary.BigEndian.Uint16(b)))
	if n <= 0 {
		c.Field(f, 2, dissect.Value{})
		return val{}
	}
	if 2+n > c.Remaining() {
		c.Fail(f, "needs "+strconv.Itoa(2+n)+" bytes, "+strconv.Itoa(c.Remaining())+" left")
		return val{}
	}
	z := c.Peek(2 + n)[2:]
	i := c.Field(f, 2+n, dissect.B(z))
	// inflated only to show its size, or why it does not inflate
	c.P.Annotate(i, func() {
		zr, err := gzip.NewReader(bytes.NewReader(z))
		if err == nil {
			var out []byte
			out, err = io.ReadAll(io.LimitReader(zr, maxGzipNBT))
			if err == nil {
				c.P.AddGenerated(i, FieldNBTInflated, dissect.U(uint64(len(out))), "")
			}
		}
		if err != nil {
			c.Malformed(i, ExpertNBTGzip, f.Name+": "+err.Error())
		}
	})
	return val{}
}

package classic

import (
	"encoding/hex"
	"math"
	"strconv"
	"sync"
	"unsafe"

	"github.com/mcdissect/mcdissect/dissect"
)

// dec is one packet's decoding state. A decoding Conn takes one (decs) and
// reuses it packet after packet, so that decoding allocates no state of
// its own.
type dec struct {
	c    dissect.Cursor
	conn *Conn
	p    *pkt
	// of the packet's Meta, what decoders use: the frame (a level lists
	// its chunks') and the server (whose salt checks a key)
	frame  uint64
	server string
	dir    dissect.Dir
	info   []byte
	tmp    []byte // scratch: a cut message without colour codes
	// Node texts (and string values) made while decoding are appended to
	// out and set when the packet is done: one string holds them all, the
	// Info too (see text).
	out   []byte
	later []pending
	texts []byte // the block texts are copied into (text)
	// positions read by the generic walk, for the Info column, in 1/32
	// block (block coordinates too, so that they print the same way)
	pos    [3]int64
	npos   int
	firstS bool
}

// decs are decoding states between connections, with their buffers.
var decs = sync.Pool{New: func() any { return new(dec) }}

// maxSpareDec: a buffer of a dec grown past this (a hostile message, a
// long list of texts) is not kept for the next connection.
const maxSpareDec = 64 << 10

// putDec gives d back for another connection: nothing decoded points into
// its buffers but the text block, which is never written over (text).
func putDec(d *dec) {
	d.c = dissect.Cursor{}
	d.conn, d.p, d.server = nil, nil, ""
	if cap(d.info) > maxSpareDec || cap(d.tmp) > maxSpareDec || cap(d.out) > maxSpareDec || cap(d.later) > maxSpareDec {
		return
	}
	decs.Put(d)
}

// pending is a text of d.out waiting for its node.
type pending struct {
	node  int32
	a, b  int32
	value bool // the node's value (dissect.S), not its Text
}

// Decode dissects one framed packet of this connection. m.Dir says the
// direction; m.Frame is remembered for the level's chunks. The PDU is
// complete (TCP payload the framer delimited); DecodeCut takes a wire
// length for a packet the capture cut.
func (c *Conn) Decode(p *dissect.PDU, data []byte, m dissect.Meta) {
	c.DecodeCut(p, data, len(data), m)
}

// DecodeCut is Decode for a packet the capture cut (by a gap or by the
// connection's end): wireLen is its length on the wire, the length Frame
// asked for, and data holds the first len(data) bytes. The packet ID and
// every field whose bytes are all there are decoded as usual; the field
// the bytes end in is Truncated (dissect.Cursor), with the expert item
// naming it, its offset and how many of its bytes there are, and the Info
// ends in "[cut: N of M bytes]", as SLP's does. A cut packet teaches the
// negotiation nothing, and a key cut short is not checked.
func (c *Conn) DecodeCut(p *dissect.PDU, data []byte, wireLen int, m dissect.Meta) {
	if c.d == nil {
		c.d = decs.Get().(*dec)
	}
	// Field by field: the dec is on the heap, and rewriting the whole
	// struct would put every pointer in it through the write barrier.
	d := c.d
	// Pointers are stored only when they change (the Conn and the server
	// are the same packet after packet): each store of one costs a write
	// barrier while the collector marks.
	if d.conn != c {
		d.conn = c
	}
	if d.p != nil {
		d.p = nil
	}
	if d.server != m.Server {
		d.server = m.Server
	}
	d.frame, d.dir = m.Frame, m.Dir
	d.info, d.tmp, d.out, d.later = d.info[:0], d.tmp[:0], d.out[:0], d.later[:0]
	d.npos, d.firstS = 0, false
	d.c = dissect.Begin(p, Registry.Root(), data, wireLen)
	p.Dir = m.Dir
	if len(data) == 0 {
		d.c.Uint8(FieldPacketID)
		d.c.Finish()
		p.Message, p.Info = "Empty", "Empty packet"+cutNote(0, wireLen)
		return
	}
	pk, why := c.lookup(m.Dir, data[0])
	id, idNode := d.c.Uint8(FieldPacketID)
	if pk == nil {
		d.setText(idNode, "Unknown ("+hex2(id)+")")
		d.c.Malformed(idNode, ExpertUnknownPacket, "classic.packet_id at offset 0: "+why+"; the framing of this direction is lost")
		d.c.Finish()
		p.Message = "Unknown packet"
		p.Info = "Unknown packet " + hex2(id) + " (" + dirName(m.Dir) + ")" + cutNote(len(data), wireLen)
		return
	}
	d.p = pk
	d.setText(idNode, pk.idText)
	if pk.extBit >= 0 {
		if c.agreed&(1<<pk.extBit) == 0 { // Negotiated(pk.ext), kept up to date by observe
			d.c.Expert(idNode, ExpertNotAgreed, "classic.packet_id at offset 0: "+pk.name+" belongs to "+pk.ext+", which both sides did not announce")
		}
	}
	d.info = append(d.info, pk.name...)
	if pk.dec != nil {
		pk.dec(d)
	} else {
		d.walk(pk.items)
	}
	if len(data) == wireLen {
		c.observe(m.Dir, data)
		if len(c.held) > 0 && (data[0] == 0x10 || data[0] == 0x11) {
			c.settleHeld() // agreed.go
		}
	}
	d.c.Finish()
	p.Message = pk.name
	if wireLen > len(data) {
		d.info = appendCut(d.info, len(data), wireLen)
		sayCut(p, len(data), wireLen)
	}
	d.done(p, pk.name)
	c.linkIdent(p, data, wireLen > len(data), m)
}

// appendCut appends the note a cut PDU's Info ends in: how many of its
// bytes the capture holds (SLP's wording).
func appendCut(b []byte, have, wire int) []byte {
	b = append(b, " [cut: "...)
	b = dissect.AppendInt(b, int64(have))
	b = append(b, " of "...)
	b = dissect.AppendInt(b, int64(wire))
	return append(b, " bytes]"...)
}

// sayCut adds to the truncated expert item of a cut PDU (the cursor's,
// naming the field the bytes end in) that the PDU was cut and how much of
// it there is.
func sayCut(p *dissect.PDU, have, wire int) {
	for i := len(p.Experts) - 1; i >= 0; i-- {
		if e := &p.Experts[i]; e.Info == dissect.ExpertTruncated {
			e.Msg += "; the packet was cut (by a gap or the connection's end): " + strconv.Itoa(have) + " of its " + strconv.Itoa(wire) + " bytes captured"
			if e.Node > 0 {
				cutNumber(&p.Nodes[e.Node])
			}
			return
		}
	}
}

// cutNumber gives a number the capture cut short no value: the cursor
// leaves it the bytes there are, which a number's display would read as
// 0 (or as its exact text, for a float). It shows those bytes instead.
func cutNumber(n *dissect.Node) {
	switch n.Field.Type {
	case dissect.FTUint, dissect.FTInt, dissect.FTFloat, dissect.FTBool:
	default:
		return
	}
	t := "cut short: none of its bytes"
	if len(n.Value.B) > 0 {
		t = "cut short after " + strconv.Itoa(len(n.Value.B)) + " byte"
		if len(n.Value.B) > 1 {
			t += "s"
		}
		t += ": " + hex.EncodeToString(n.Value.B)
	}
	n.Value, n.Text = dissect.Value{}, t
}

// cutNote is appendCut's note as a string, empty for a PDU that is whole.
func cutNote(have, wire int) string {
	if wire <= have {
		return ""
	}
	return string(appendCut(nil, have, wire))
}

// done sets the Info and the texts made while decoding, from one string.
//
// A Lite PDU (no node texts: textFrom and setText drop the root's) hands
// its Info to PDU.SetInfo, the buffer the PDU keeps for it, rather than to
// the connection's text blocks: the record reuses that buffer packet after
// packet, while the blocks are garbage once filled. On the project mix the
// blocks were 31 % of all the bytes the summary allocated (33 of 107 MB),
// a collection's worth of work the summary did not need (issue 12).
func (d *dec) done(p *dissect.PDU, name string) {
	if len(d.later) == 0 {
		switch {
		case len(d.info) == len(name): // nothing was added to the name
			p.Info = name
		default:
			p.SetInfo(d.info)
		}
		return
	}
	off := len(d.out)
	d.out = append(d.out, d.info...)
	s := d.text(d.out)
	p.Info = s[off:]
	for _, t := range d.later {
		n := &p.Nodes[t.node]
		if t.value {
			n.Value = dissect.S(s[t.a:t.b])
		} else {
			n.Text = s[t.a:t.b]
		}
	}
}

// textBlock is the size of the blocks packets' texts are copied into.
const textBlock = 2 << 10

// text returns b as a string. It is copied into a block that the
// connection's next packets share: bytes are written there once and never
// again, so the strings made over them stay as they are, and a packet
// allocates only when a block fills (a position update's Info is some 70
// bytes). A block stays alive while a string in it does.
//
// unsafe: the string views the block. Lifetime rule: a block is appended
// to, never reset or written over (a full one is replaced), so a string
// over it never changes, however long a record keeps it. What it buys
// (issue 12, bench/fastpaths.md): a string(b) per text instead cost 12 %
// CPU on the summary of the project and classic-big mixes. TestTextsStay
// breaks if a block is ever written over.
func (d *dec) text(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > textBlock/4 {
		return string(b)
	}
	if cap(d.texts)-len(d.texts) < len(b) {
		d.texts = make([]byte, 0, textBlock)
	}
	n := len(d.texts)
	d.texts = append(d.texts, b...)
	return unsafe.String(&d.texts[n], len(b))
}

// textFrom makes d.out[a:] the text of node i, set when the packet is done.
func (d *dec) textFrom(i int32, a int) {
	if i == 0 {
		return // the root: a Lite PDU's answer for a node it did not keep (as setText)
	}
	d.later = append(d.later, pending{node: i, a: int32(a), b: int32(len(d.out))})
}

func (d *dec) pdu() *dissect.PDU { return d.c.P }

// setText gives node i a text. An index of 0 is the root: a Lite PDU's
// answer for a node it did not keep (and no field's node in a full one).
func (d *dec) setText(i int32, s string) {
	if i > 0 {
		d.pdu().Nodes[i].Text = s
	}
}

// walk reads a fixed layout item by item.
func (d *dec) walk(items []item) {
	for i := range items {
		it := &items[i]
		if it.cond != nil && !it.cond(&d.conn.n) {
			continue
		}
		d.item(it)
	}
	d.posInfo()
}

// posInfo adds the coordinates a layout held to the Info.
func (d *dec) posInfo() {
	if d.npos == 3 {
		d.info = append(d.info, " at ("...)
		for i, v := range d.pos {
			if i > 0 {
				d.info = append(d.info, ", "...)
			}
			d.info = appendFixed32(d.info, v)
		}
		d.info = append(d.info, ')')
	}
}

// absolute reports whether the packet's coordinates are an entity's eye
// position (the seed: Y is 51/32 blocks above the feet).
func (d *dec) absolute() bool {
	switch d.p.id {
	case 0x07, 0x08, 0x21, 0x2e, 0x36:
		return true
	}
	return false
}

func (d *dec) item(it *item) {
	c := &d.c
	switch it.k {
	case kU8:
		v, i := c.Uint8(it.f)
		if it.f == FieldMode && i >= 0 {
			d.mode(i, v)
		}
	case kI8:
		c.Int8(it.f)
	case kBool:
		if c.Failed() || c.Remaining() < 1 {
			c.Field(it.f, 1, dissect.Value{})
			return
		}
		v := c.Peek(1)[0]
		i := c.Field(it.f, 1, dissect.Bool(v != 0))
		if v > 1 && i > 0 {
			d.setText(i, "True ("+strconv.Itoa(int(v))+")")
		}
	case kU16:
		c.Uint16(it.f)
	case kI16:
		c.Int16(it.f)
	case kU32:
		c.Uint32(it.f)
	case kI32:
		c.Int32(it.f)
	case kF32:
		d.float32(it.f)
	case kStr:
		s, _ := d.str(it.f, false)
		if !d.firstS && len(s) > 0 {
			d.firstS = true
			d.info = append(d.info, ' ')
			d.info = appendQuote(d.info, s)
		}
	case kBytes64:
		c.Take(it.f, 64)
	case kPID:
		d.playerID(it.f)
	case kHeld:
		if d.conn.n.heldBlock {
			d.block(FieldBlockType, " holding ")
		} else if d.conn.n.extBlocks {
			v, i := c.Uint16(FieldPlayerID)
			if i > 0 {
				d.heldWide(i, v)
			}
		} else {
			d.playerID(FieldPlayerID)
		}
	case kBlock:
		d.block(it.f, " ")
	case kTex:
		if d.conn.n.extTex {
			c.Uint16(it.f)
		} else {
			c.Uint8(it.f)
		}
	case kPos:
		d.fixed(it.f)
	case kBlockPos:
		v, i := c.Int16(it.f)
		if i >= 0 {
			d.blockPos(it.f, i, v)
		}
	case kDelta:
		v, i := c.Int8(it.f)
		if i >= 0 {
			d.delta(it.f, i, v)
		}
	case kYaw:
		d.yaw(it.f)
	case kPitch:
		d.pitch(it.f)
	case kFixed32, kFixed32short:
		var raw int64
		var i int32
		if it.k == kFixed32 {
			v, n := c.Int32(it.f)
			raw, i = int64(v), n
		} else {
			v, n := c.Uint16(it.f)
			raw, i = int64(v), n
		}
		if i > 0 {
			n := &d.pdu().Nodes[i]
			n.Value.N = math.Float64bits(float64(raw) / 32)
			a := len(d.out)
			d.out = appendFixed(d.out, n)
			d.textFrom(i, a)
		}
	case kFixed10k:
		v, i := c.Int32(it.f)
		if i > 0 {
			d.pdu().Nodes[i].Value.N = math.Float64bits(float64(v) / 10000)
			a := len(d.out)
			d.out = strconv.AppendFloat(d.out, float64(v)/10000, 'f', -1, 64)
			d.out = append(d.out, " (raw "...)
			d.out = dissect.AppendInt(d.out, int64(v))
			d.out = append(d.out, " ÷ 10000)"...)
			d.textFrom(i, a)
		}
	case kBB16:
		v, i := c.Int8(it.f)
		if i > 0 {
			d.pdu().Nodes[i].Value.N = math.Float64bits(float64(v) / 16)
			a := len(d.out)
			d.out = strconv.AppendFloat(d.out, float64(v)/16, 'f', -1, 64)
			d.out = append(d.out, " blocks (raw "...)
			d.out = dissect.AppendInt(d.out, int64(v))
			d.out = append(d.out, " ÷ 16)"...)
			d.textFrom(i, a)
		}
	}
}

// The helpers below finish a field once the cursor read it: node i (0 in a
// Lite PDU) holds the raw value read.

func (d *dec) mode(i int32, v uint8) {
	d.info = append(d.info, ", "...)
	d.info = append(d.info, modeNames.Name(uint64(v))...)
	if v > 1 {
		d.pdu().ExpertFunc(i, ExpertMode, func() string {
			return "classic.mode at offset " + strconv.Itoa(int(d.pdu().Nodes[i].Offset)) + ": " + strconv.Itoa(int(v)) + ", expected 0 (destroy) or 1 (create)"
		})
	}
}

func (d *dec) heldWide(i int32, v uint16) {
	a := len(d.out)
	d.out = dissect.AppendInt(d.out, int64(v))
	d.out = append(d.out, " (two bytes under ExtendedBlocks; 255 = self)"...)
	d.textFrom(i, a)
}

func (d *dec) blockPos(f *dissect.Field, i int32, v int16) {
	if i > 0 {
		// Values computed from a typed read replace its N only: S and
		// B are empty, and storing a whole Value (pointers and all)
		// would go through the GC's write barrier.
		d.pdu().Nodes[i].Value.N = math.Float64bits(float64(v))
		a := len(d.out)
		d.out = dissect.AppendInt(d.out, int64(v))
		d.out = append(d.out, " (block coordinate, not fixed point)"...)
		d.textFrom(i, a)
	}
	if f == FieldX || f == FieldY || f == FieldZ {
		d.addPos(int64(v) * 32)
	}
}

func (d *dec) delta(f *dissect.Field, i int32, v int8) {
	if i > 0 {
		n := &d.pdu().Nodes[i]
		n.Value.N = math.Float64bits(float64(v) / 32)
		if f.Custom == nil {
			a := len(d.out)
			d.out = appendDelta(d.out, n)
			d.textFrom(i, a)
		}
	}
	if f == FieldDX {
		d.info = append(d.info, " Δ("...)
	} else {
		d.info = append(d.info, ", "...)
	}
	d.info = appendFixed32(d.info, int64(v))
	if f == FieldDZ {
		d.info = append(d.info, ')')
	}
}

// addPos notes a coordinate for the Info, in 1/32 block.
func (d *dec) addPos(v int64) {
	if d.npos < 3 {
		d.pos[d.npos] = v
		d.npos++
	}
}

func (d *dec) float32(f *dissect.Field) {
	v, i := d.c.Uint32(f)
	if i > 0 {
		d.pdu().Nodes[i].Value.N = math.Float64bits(float64(float32frombits(v)))
	}
}

// playerID reads a signed player ID: -1 (255) is the receiving player.
func (d *dec) playerID(f *dissect.Field) {
	v, i := d.c.Int8(f)
	if i >= 0 {
		d.player(i, v)
	}
}

func (d *dec) player(i int32, v int8) {
	if v == -1 {
		d.setText(i, "-1 (255): self, the receiving player")
		d.info = append(d.info, ", self"...)
		return
	}
	d.info = append(d.info, ", player "...)
	d.info = dissect.AppendInt(d.info, int64(v))
}

// block reads a block ID: one byte, two under ExtendedBlocks.
func (d *dec) block(f *dissect.Field, sep string) {
	var v uint64
	var i int32
	if d.conn.n.extBlocks {
		var w uint16
		w, i = d.c.Uint16(f)
		v = uint64(w)
	} else {
		var b uint8
		b, i = d.c.Uint8(f)
		v = uint64(b)
	}
	if i >= 0 {
		d.blockInfo(sep, v)
	}
}

func (d *dec) blockInfo(sep string, v uint64) {
	d.info = append(d.info, sep...)
	d.info = appendName(d.info, blockNames, v)
}

// appendName appends names.Name(v) without making a string of an unknown
// value.
func appendName(dst []byte, names dissect.Names, v uint64) []byte {
	if s, ok := names[v]; ok {
		return append(dst, s...)
	}
	dst = append(dst, "Unknown ("...)
	dst = dissect.AppendUint(dst, v)
	return append(dst, ')')
}

// fixed reads a fixed-point coordinate: 5 fractional bits, a short (an int
// under ExtEntityPositions).
func (d *dec) fixed(f *dissect.Field) {
	var raw int64
	var i int32
	if d.conn.n.extPos {
		var v int32
		v, i = d.c.Int32(f)
		raw = int64(v)
	} else {
		var v int16
		v, i = d.c.Int16(f)
		raw = int64(v)
	}
	if i >= 0 {
		d.fixedDone(f, i, raw)
	}
}

func (d *dec) fixedDone(f *dissect.Field, i int32, raw int64) {
	d.addPos(raw)
	d.pdu().Annotate(i, func() { d.describeFixed(f, i, raw) })
}

// describeFixed gives node i, a fixed-point number f read as raw, its
// value in blocks and its text.
func (d *dec) describeFixed(f *dissect.Field, i int32, raw int64) {
	p := d.pdu()
	n := &p.Nodes[i]
	n.Value.N = math.Float64bits(float64(raw) / 32)
	if f.Custom == nil { // the CPE fields read the same way show their text here
		a := len(d.out)
		d.out = appendFixed(d.out, n)
		d.textFrom(i, a)
	}
	if f == FieldY && d.absolute() {
		// FieldFeetY's display (display.go) says how it follows from Y.
		p.AddGenerated(i, FieldFeetY, dissect.F(float64(raw-51)/32), "")
		if d.p.id == 0x08 && d.dir == dissect.DirS2C {
			d.c.Expert(i, ExpertEyeHeight, eyeHeightMsg(int(p.Nodes[i].Offset)))
		}
	}
}

// eyeHeightMsg is the teleport's eye-level note for Y at offset off; the
// two offsets Y has (short or int coordinates) are made once.
func eyeHeightMsg(off int) string {
	switch off {
	case 4:
		return eyeHeightMsg4
	case 6:
		return eyeHeightMsg6
	}
	return makeEyeHeightMsg(off)
}

func makeEyeHeightMsg(off int) string {
	return "classic.y at offset " + strconv.Itoa(off) + ": a teleport's Y is the eye; to stand on block row Y send Y×32+51"
}

var eyeHeightMsg4, eyeHeightMsg6 = makeEyeHeightMsg(4), makeEyeHeightMsg(6)

var compass = [8]string{"north (−Z)", "north-east", "east (+X)", "south-east", "south (+Z)", "south-west", "west (−X)", "north-west"}

func (d *dec) yaw(f *dissect.Field) {
	v, i := d.c.Uint8(f)
	if i >= 0 {
		d.yawDone(f, i, v)
	}
}

func (d *dec) yawDone(f *dissect.Field, i int32, v uint8) {
	if i > 0 {
		n := &d.pdu().Nodes[i]
		n.Value.N = math.Float64bits(float64(v) * 360 / 256)
		if f.Custom == nil {
			a := len(d.out)
			d.out = appendYaw(d.out, n)
			d.textFrom(i, a)
		}
	}
	d.info = append(d.info, " yaw "...)
	d.info = dissect.AppendInt(d.info, int64(v))
}

func (d *dec) pitch(f *dissect.Field) {
	v, i := d.c.Uint8(f)
	if i >= 0 {
		d.pitchDone(f, i, v)
	}
}

func (d *dec) pitchDone(f *dissect.Field, i int32, v uint8) {
	if i > 0 {
		n := &d.pdu().Nodes[i]
		n.Value.N = math.Float64bits(float64(v) * 360 / 256)
		if f.Custom == nil {
			a := len(d.out)
			d.out = appendPitch(d.out, n)
			d.textFrom(i, a)
		}
		if v > 64 && v < 192 {
			d.c.Expert(i, ExpertPitch, "classic.pitch at offset "+strconv.Itoa(int(n.Offset))+": "+strconv.Itoa(int(v))+", valid are 0–64 (down) and 192–255 (up)")
		}
	}
	d.info = append(d.info, " pitch "...)
	d.info = dissect.AppendInt(d.info, int64(v))
}

func decIdentification(d *dec) {
	c := &d.c
	ver, vi := c.Uint8(FieldProtocolVersion)
	d.checkVersion(ver, vi)
	name, _ := d.str(FieldUsername, false)
	d.info = append(d.info, ' ')
	d.info = appendQuote(d.info, name)
	key, ki := d.str(FieldKey, false)
	if ki >= 0 {
		if ki > 0 {
			d.pdu().Nodes[ki].Flags |= dissect.FlagSensitive
		}
		d.checkKey(string(name), string(key), ki) // before the next field: its nodes go under the key
	}
	if ver > 5 || c.Remaining() > 0 {
		u, ui := c.Uint8(FieldUnused)
		if ui >= 0 {
			if u == 0x42 {
				d.setText(ui, "0x42: CPE client (Classic Protocol Extension)")
				c.Expert(ui, ExpertCPEClient, "classic.unused at offset 130: 0x42, the client supports the Classic Protocol Extension")
				d.info = append(d.info, ", CPE"...)
			} else if ui > 0 {
				d.setText(ui, hex2(u)+": vanilla client (0x42 would mark CPE)")
			}
		}
	}
}

func (d *dec) checkVersion(ver uint8, vi int32) {
	if vi < 0 || ver == 7 {
		return
	}
	msg := "classic.protocol_version at offset 1: " + strconv.Itoa(int(ver)) + ", expected 7"
	if ver == 6 {
		msg += " (protocol 6, 0.0.20a–0.0.23a, has the same packet lengths)"
	} else if ver <= 5 {
		msg += " (protocol 5 and older: identification 130 bytes, without the last byte)"
	}
	d.c.Expert(vi, ExpertProtocol, msg)
}

func decServerIdentification(d *dec) {
	c := &d.c
	ver, vi := c.Uint8(FieldProtocolVersion)
	d.checkVersion(ver, vi)
	name, _ := d.str(FieldServerName, false)
	d.str(FieldMOTD, false)
	d.info = append(d.info, ' ')
	d.info = appendQuote(d.info, name)
	if ver > 5 || c.Remaining() > 0 {
		u, ui := c.Uint8(FieldUserType)
		if ui >= 0 {
			d.info = append(d.info, ", "...)
			d.info = appendName(d.info, userTypeNames, uint64(u))
		}
	}
}

var messageTypeNames = dissect.Names{0: "Chat", 1: "Status 1", 2: "Status 2", 3: "Status 3", 11: "Bottom right 1", 12: "Bottom right 2", 13: "Bottom right 3", 100: "Announcement", 101: "Big announcement", 102: "Small announcement"}

func decMessage(d *dec) {
	c := &d.c
	yellow := false
	if d.dir == dissect.DirC2S {
		v, i := c.Uint8(FieldMessageByte)
		switch {
		case i < 0:
		case v == 0xff:
			d.setText(i, "0xff: unused (player ID 255, self)")
		case d.conn.n.longerMessages && v <= 1:
			if v == 1 {
				d.setText(i, "0x01: partial, more of this message follows (LongerMessages)")
			} else {
				d.setText(i, "0x00: last part (LongerMessages)")
			}
		}
	} else if d.conn.n.messageTypes {
		v, i := c.Uint8(FieldMessageByte)
		if i > 0 {
			a := len(d.out)
			d.out = appendName(d.out, messageTypeNames, uint64(v))
			d.out = append(d.out, " ("...)
			d.out = dissect.AppendInt(d.out, int64(v))
			d.out = append(d.out, ", MessageTypes)"...)
			d.textFrom(i, a)
		}
	} else {
		v, i := c.Int8(FieldPlayerID)
		if i >= 0 {
			if v == -1 {
				d.setText(i, "-1 (255): self / the server")
			}
			if uint8(v) >= 127 {
				yellow = true
				c.P.ExpertFunc(i, ExpertYellowPrefix, func() string { return yellowMsg(uint8(v)) })
			}
		}
	}
	s, _ := d.str(FieldMessage, true)
	if yellow {
		d.info = append(d.info, " (yellow)"...)
	}
	d.info = append(d.info, ' ')
	d.info = appendQuote(d.info, s)
}

// yellowMsg is the note on a message from player ID v ≥ 127; the server's
// own (255, the usual one) is made once.
func yellowMsg(v uint8) string {
	if v == 255 {
		return yellowMsg255
	}
	return makeYellowMsg(v)
}

func makeYellowMsg(v uint8) string {
	return "classic.player_id at offset 1: " + strconv.Itoa(int(v)) + " ≥ 127, the client prepends &e: the message starts yellow (colour codes after the first character still apply; ClassiCube does it for 255 only)"
}

var yellowMsg255 = makeYellowMsg(255)

func decExtInfo(d *dec) {
	app, _ := d.str(FieldAppName, false)
	n, ni := d.c.Uint16(FieldExtCount)
	d.info = append(d.info, ' ')
	d.info = appendQuote(d.info, app)
	if ni >= 0 { // not cut off
		d.info = append(d.info, ", "...)
		d.info = dissect.AppendInt(d.info, int64(n))
		d.info = append(d.info, " extensions"...)
	}
}

func decExtEntry(d *dec) {
	name, ni := d.str(FieldExtName, false)
	v, vi := d.c.Uint32(FieldExtVersion)
	d.info = append(d.info, ' ')
	d.info = append(d.info, name...)
	if vi >= 0 { // not cut off
		d.info = append(d.info, " v"...)
		d.info = dissect.AppendUint(d.info, uint64(v))
	}
	if ni < 0 || vi < 0 {
		return
	}
	d.entryAgreed(string(name), v) // agreed.go
}

// decBulk: BulkBlockUpdate, count−1 then 256 indices, 256 blocks and, under
// ExtendedBlocks, 64 bytes of high bits; only the first count slots count.
func decBulk(d *dec) {
	c := &d.c
	cnt, ci := c.Uint8(FieldBulkCount)
	count := int(cnt) + 1
	if ci > 0 {
		a := len(d.out)
		d.out = dissect.AppendInt(d.out, int64(count))
		d.out = append(d.out, " (raw "...)
		d.out = dissect.AppendInt(d.out, int64(cnt))
		d.out = append(d.out, " + 1)"...)
		d.textFrom(ci, a)
	}
	for i := 0; i < count; i++ {
		v, ni := c.Uint32(FieldBulkIndex)
		if ni > 0 {
			if x, y, z, ok := d.conn.level.unpack(v); ok {
				a := len(d.out)
				d.out = dissect.AppendUint(d.out, uint64(v))
				d.out = append(d.out, " = ("...)
				d.out = dissect.AppendInt(d.out, int64(x))
				d.out = append(d.out, ", "...)
				d.out = dissect.AppendInt(d.out, int64(y))
				d.out = append(d.out, ", "...)
				d.out = dissect.AppendInt(d.out, int64(z))
				d.out = append(d.out, ')')
				d.textFrom(ni, a)
			}
		}
	}
	if count < 256 {
		c.Take(FieldBulkUnused, (256-count)*4)
	}
	for i := 0; i < count; i++ {
		c.Uint8(FieldBlockType)
	}
	if count < 256 {
		c.Take(FieldBulkUnused, 256-count)
	}
	if d.conn.n.extBlocks {
		c.Take(FieldBulkHigh, 64)
	}
	if ci >= 0 { // not cut off
		d.info = append(d.info, ", "...)
		d.info = dissect.AppendInt(d.info, int64(count))
		d.info = append(d.info, " blocks"...)
	}
}

package classic

import (
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
)

// dec is one packet's decoding state.
type dec struct {
	c    dissect.Cursor
	conn *Conn
	p    *pkt
	m    dissect.Meta
	dir  dissect.Dir
	info []byte
	tmp  []byte // scratch for node texts, reused
	// positions read by the generic walk, for the Info column
	pos    [3]float64
	npos   int
	firstS bool
}

// Decode dissects one framed packet of this connection. m.Dir says the
// direction; m.Frame is remembered for the level's chunks. The PDU is
// complete (TCP payload the framer delimited); DecodeWire takes a wire
// length for a packet the capture cut.
func (c *Conn) Decode(p *dissect.PDU, data []byte, m dissect.Meta) {
	c.DecodeWire(p, data, len(data), m)
}

// DecodeWire is Decode for a packet of wireLen bytes of which data holds
// the first len(data): reads past the end are Truncated.
func (c *Conn) DecodeWire(p *dissect.PDU, data []byte, wireLen int, m dissect.Meta) {
	d := dec{conn: c, m: m, dir: m.Dir, info: c.infoBuf[:0], tmp: c.tmpBuf[:0]}
	defer func() { c.infoBuf, c.tmpBuf = d.info[:0], d.tmp[:0] }()
	d.c = dissect.Begin(p, Registry.Root(), data, wireLen)
	p.Dir = m.Dir
	if len(data) == 0 {
		d.c.Uint8(FieldPacketID)
		d.c.Finish()
		p.Message, p.Info = "Empty", "Empty packet"
		return
	}
	pk, why := c.lookup(m.Dir, data[0])
	id, idNode := d.c.Uint8(FieldPacketID)
	if pk == nil {
		p.Nodes[idNode].Text = "Unknown (" + hex2(id) + ")"
		d.c.Malformed(idNode, ExpertUnknownPacket, "classic.packet_id at offset 0: "+why+"; the framing of this direction is lost")
		d.c.Finish()
		p.Message = "Unknown packet"
		p.Info = "Unknown packet " + hex2(id) + " (" + dirName(m.Dir) + ")"
		return
	}
	d.p = pk
	p.Nodes[idNode].Text = pk.idText
	if pk.ext != "" && pk.ext != "*" {
		if _, ok := c.Negotiated(pk.ext); !ok {
			d.c.Expert(idNode, ExpertNotAgreed, "classic.packet_id at offset 0: "+pk.name+" belongs to "+pk.ext+", which both sides did not announce")
		}
	}
	d.info = append(d.info, pk.name...)
	if pk.dec != nil {
		pk.dec(&d)
	} else {
		d.walk(pk.items)
	}
	if len(data) == wireLen {
		c.observe(m.Dir, data)
	}
	d.c.Finish()
	p.Message = pk.name
	p.Info = string(d.info)
}

func (d *dec) pdu() *dissect.PDU { return d.c.P }

func (d *dec) setText(i int32, s string) {
	if i >= 0 {
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
	if d.npos == 3 {
		d.info = append(d.info, " at ("...)
		for i, v := range d.pos {
			if i > 0 {
				d.info = append(d.info, ", "...)
			}
			d.info = strconv.AppendFloat(d.info, v, 'f', -1, 64)
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
			d.info = append(d.info, ", "...)
			d.info = append(d.info, modeNames.Name(uint64(v))...)
			if v > 1 {
				c.Expert(i, ExpertMode, "classic.mode at offset "+strconv.Itoa(int(d.pdu().Nodes[i].Offset))+": "+strconv.Itoa(int(v))+", expected 0 (destroy) or 1 (create)")
			}
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
		if v > 1 {
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
		if !d.firstS && s != "" {
			d.firstS = true
			d.info = append(d.info, ' ')
			d.info = strconv.AppendQuote(d.info, s)
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
			d.setText(i, strconv.Itoa(int(v))+" (two bytes under ExtendedBlocks; 255 = self)")
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
			d.pdu().Nodes[i].Value = dissect.F(float64(v))
			d.setText(i, strconv.Itoa(int(v))+" (block coordinate, not fixed point)")
			if it.f == FieldX || it.f == FieldY || it.f == FieldZ {
				d.addPos(float64(v))
			}
		}
	case kDelta:
		v, i := c.Int8(it.f)
		if i >= 0 {
			f := float64(v) / 32
			d.pdu().Nodes[i].Value = dissect.F(f)
			if it.f.Custom == nil {
				d.setText(i, string(appendDelta(d.tmp[:0], &dissect.Node{Value: dissect.F(f)})))
			}
			if it.f == FieldDX {
				d.info = append(d.info, " Δ("...)
			} else {
				d.info = append(d.info, ", "...)
			}
			d.info = strconv.AppendFloat(d.info, f, 'f', -1, 64)
			if it.f == FieldDZ {
				d.info = append(d.info, ')')
			}
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
		if i >= 0 {
			v := dissect.F(float64(raw) / 32)
			d.pdu().Nodes[i].Value = v
			d.setText(i, string(appendFixed(d.tmp[:0], &dissect.Node{Value: v})))
		}
	case kFixed10k:
		v, i := c.Int32(it.f)
		if i >= 0 {
			d.pdu().Nodes[i].Value = dissect.F(float64(v) / 10000)
			d.setText(i, strconv.FormatFloat(float64(v)/10000, 'f', -1, 64)+" (raw "+strconv.Itoa(int(v))+" ÷ 10000)")
		}
	case kBB16:
		v, i := c.Int8(it.f)
		if i >= 0 {
			d.pdu().Nodes[i].Value = dissect.F(float64(v) / 16)
			d.setText(i, strconv.FormatFloat(float64(v)/16, 'f', -1, 64)+" blocks (raw "+strconv.Itoa(int(v))+" ÷ 16)")
		}
	}
}

func (d *dec) addPos(v float64) {
	if d.npos < 3 {
		d.pos[d.npos] = v
		d.npos++
	}
}

func (d *dec) float32(f *dissect.Field) {
	v, i := d.c.Uint32(f)
	if i >= 0 {
		d.pdu().Nodes[i].Value = dissect.F(float64(float32frombits(v)))
	}
}

// playerID reads a signed player ID: -1 (255) is the receiving player.
func (d *dec) playerID(f *dissect.Field) {
	v, i := d.c.Int8(f)
	if i < 0 {
		return
	}
	if v == -1 {
		d.setText(i, "-1 (255): self, the receiving player")
		d.info = append(d.info, ", self"...)
		return
	}
	d.info = append(d.info, ", player "...)
	d.info = strconv.AppendInt(d.info, int64(v), 10)
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
		d.info = append(d.info, sep...)
		d.info = append(d.info, blockNames.Name(v)...)
	}
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
	if i < 0 {
		return
	}
	blocks := float64(raw) / 32
	n := &d.pdu().Nodes[i]
	n.Value = dissect.F(blocks)
	if f.Custom == nil { // the CPE fields read the same way show their text here
		n.Text = string(appendFixed(d.tmp[:0], n))
	}
	d.addPos(blocks)
	if f == FieldY && d.absolute() {
		b := d.tmp[:0]
		defer func() { d.tmp = b[:0] }()
		feet := float64(raw-51) / 32
		b = strconv.AppendFloat(b, feet, 'f', -1, 64)
		b = append(b, " blocks: Y is eye level, the feet are 51/32 = 1.59375 blocks lower"...)
		d.pdu().AddGenerated(i, FieldFeetY, dissect.F(feet), string(b))
		if d.p.id == 0x08 && d.dir == dissect.DirS2C {
			d.c.Expert(i, ExpertEyeHeight, "classic.y at offset "+strconv.Itoa(int(n.Offset))+": a teleport's Y is the eye; to stand on block row Y send Y×32+51")
		}
	}
}

var compass = [8]string{"north (−Z)", "north-east", "east (+X)", "south-east", "south (+Z)", "south-west", "west (−X)", "north-west"}

func (d *dec) yaw(f *dissect.Field) {
	v, i := d.c.Uint8(f)
	if i < 0 {
		return
	}
	deg := float64(v) * 360 / 256
	n := &d.pdu().Nodes[i]
	n.Value = dissect.F(deg)
	if f.Custom == nil {
		n.Text = string(appendYaw(d.tmp[:0], n))
	}
	d.info = append(d.info, " yaw "...)
	d.info = strconv.AppendInt(d.info, int64(v), 10)
}

func (d *dec) pitch(f *dissect.Field) {
	v, i := d.c.Uint8(f)
	if i < 0 {
		return
	}
	deg := float64(v) * 360 / 256
	n := &d.pdu().Nodes[i]
	n.Value = dissect.F(deg)
	if f.Custom == nil {
		n.Text = string(appendPitch(d.tmp[:0], n))
	}
	if v > 64 && v < 192 {
		d.c.Expert(i, ExpertPitch, "classic.pitch at offset "+strconv.Itoa(int(n.Offset))+": "+strconv.Itoa(int(v))+", valid are 0–64 (down) and 192–255 (up)")
	}
	d.info = append(d.info, " pitch "...)
	d.info = strconv.AppendInt(d.info, int64(v), 10)
}

func decIdentification(d *dec) {
	c := &d.c
	ver, vi := c.Uint8(FieldProtocolVersion)
	d.checkVersion(ver, vi)
	name, _ := d.str(FieldUsername, false)
	d.info = append(d.info, ' ')
	d.info = strconv.AppendQuote(d.info, name)
	_, ki := d.str(FieldKey, false)
	if ki >= 0 {
		d.pdu().Nodes[ki].Flags |= dissect.FlagSensitive
		d.checkKey(name, ki) // before the next field: its nodes go under the key
	}
	if ver > 5 || c.Remaining() > 0 {
		u, ui := c.Uint8(FieldUnused)
		if ui >= 0 {
			if u == 0x42 {
				d.setText(ui, "0x42: CPE client (Classic Protocol Extension)")
				c.Expert(ui, ExpertCPEClient, "classic.unused at offset 130: 0x42, the client supports the Classic Protocol Extension")
				d.info = append(d.info, ", CPE"...)
			} else {
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
	d.info = strconv.AppendQuote(d.info, name)
	if ver > 5 || c.Remaining() > 0 {
		u, ui := c.Uint8(FieldUserType)
		if ui >= 0 {
			d.info = append(d.info, ", "...)
			d.info = append(d.info, userTypeNames.Name(uint64(u))...)
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
		d.setText(i, messageTypeNames.Name(uint64(v))+" ("+strconv.Itoa(int(v))+", MessageTypes)")
	} else {
		v, i := c.Int8(FieldPlayerID)
		if i >= 0 {
			if v == -1 {
				d.setText(i, "-1 (255): self / the server")
			}
			if uint8(v) >= 127 {
				yellow = true
				c.Expert(i, ExpertYellowPrefix, "classic.player_id at offset 1: "+strconv.Itoa(int(uint8(v)))+" ≥ 127, the client prepends &e: the message starts yellow (colour codes after the first character still apply; ClassiCube does it for 255 only)")
			}
		}
	}
	s, _ := d.str(FieldMessage, true)
	if yellow {
		d.info = append(d.info, " (yellow)"...)
	}
	d.info = append(d.info, ' ')
	d.info = strconv.AppendQuote(d.info, s)
}

func decExtInfo(d *dec) {
	app, _ := d.str(FieldAppName, false)
	n, _ := d.c.Uint16(FieldExtCount)
	d.info = append(d.info, ' ')
	d.info = strconv.AppendQuote(d.info, app)
	d.info = append(d.info, ", "...)
	d.info = strconv.AppendInt(d.info, int64(n), 10)
	d.info = append(d.info, " extensions"...)
}

func decExtEntry(d *dec) {
	name, ni := d.str(FieldExtName, false)
	v, vi := d.c.Uint32(FieldExtVersion)
	d.info = append(d.info, ' ')
	d.info = append(d.info, name...)
	d.info = append(d.info, " v"...)
	d.info = strconv.AppendUint(d.info, uint64(v), 10)
	if ni < 0 || vi < 0 {
		return
	}
	other := dissect.DirS2C
	if d.dir == dissect.DirS2C {
		other = dissect.DirC2S
	}
	ov, ok := findExt(d.conn.ext[other], name)
	switch {
	case ok:
		d.pdu().AddGenerated(0, FieldExtAgreed, dissect.Bool(true), "True: the other side announced it too (v"+strconv.FormatUint(uint64(ov), 10)+"; agreed v"+strconv.FormatUint(uint64(min(ov, v)), 10)+")")
	case d.conn.extDeclare[other] >= 0 && len(d.conn.ext[other]) >= d.conn.extDeclare[other]:
		d.pdu().AddGenerated(0, FieldExtAgreed, dissect.Bool(false), "False: the other side's list is complete without it")
	default:
		d.pdu().AddGenerated(0, FieldExtAgreed, dissect.Bool(false), "not yet known: the other side has not finished its list")
	}
}

// decBulk: BulkBlockUpdate, count−1 then 256 indices, 256 blocks and, under
// ExtendedBlocks, 64 bytes of high bits; only the first count slots count.
func decBulk(d *dec) {
	c := &d.c
	cnt, ci := c.Uint8(FieldBulkCount)
	count := int(cnt) + 1
	d.setText(ci, strconv.Itoa(count)+" (raw "+strconv.Itoa(int(cnt))+" + 1)")
	for i := 0; i < count; i++ {
		v, ni := c.Uint32(FieldBulkIndex)
		if ni >= 0 {
			if x, y, z, ok := d.conn.level.unpack(v); ok {
				d.setText(ni, strconv.FormatUint(uint64(v), 10)+" = ("+strconv.Itoa(x)+", "+strconv.Itoa(y)+", "+strconv.Itoa(z)+")")
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
	d.info = append(d.info, ", "...)
	d.info = strconv.AppendInt(d.info, int64(count), 10)
	d.info = append(d.info, " blocks"...)
}

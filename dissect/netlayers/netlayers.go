// Package netlayers dissects the layers of a frame below Minecraft's:
// the frame itself, the link layer (Ethernet II, 802.1Q tags, Linux cooked
// capture, BSD loopback), IPv4 or IPv6, and TCP or UDP, into the same
// typed tree the protocols make, with tshark's filter names (frame.len,
// ip.src, tcp.flags.syn), offsets into the frame's header bytes, and the
// one-line summaries tshark -V prints for them.
//
// It is pure: the header bytes and what they do not hold (Frame: the
// frame's number, time and lengths, the TCP stream and its relative
// sequence numbers) in, a tree out.
package netlayers

import (
	"encoding/binary"
	"net/netip"
	"strconv"
	"sync"
	"time"
	"unsafe"

	"github.com/mcdissect/mcdissect/dissect"
)

// Link types (LINKTYPE_*), as capture files and interfaces give them.
const (
	LinkNull     = 0
	LinkEthernet = 1
	LinkRaw      = 101
	LinkLoop     = 108
	LinkSLL      = 113
	LinkIPv4     = 228
	LinkIPv6     = 229
	LinkSLL2     = 276
	// LinkNone is a frame with no captured layers: bytes typed by hand.
	LinkNone = 0xffffffff
)

// Frame is what a frame's layers show that their header bytes do not hold.
type Frame struct {
	Number          uint64
	Time            time.Time
	Rel, Delta      time.Duration // since the first frame, since the previous one
	WireLen, CapLen int
	Link            uint32
	// Protocols ends frame.protocols after the layers found ("slp").
	Protocols string
	// Stream is the TCP connection's index (tcp.stream), -1 for UDP;
	// Client is the conversation's client: the frame's line says which way
	// the frame went.
	Stream int
	Client netip.AddrPort
	// TCP's sequence and acknowledgement numbers relative to each
	// direction's first (when Relative), with the window scale both ends
	// announced (WScale, -1 if unknown).
	Relative       bool
	RelSeq, RelAck uint32
	WScale         int8
}

// Dissect makes p the tree of a frame's layers: head holds its bytes from
// the link header to the end of the TCP or UDP header (or fewer, when the
// capture cut them; nothing for a frame whose bytes are not known).
//
// The texts it makes (the layers' lines, the addresses, the exact times,
// frame.protocols) are written into one buffer and become one string at
// the end, which the nodes' texts and values view: a record's layers cost
// one allocation for all their text, not one per text.
func Dissect(p *dissect.PDU, head []byte, f *Frame) { dissectFrame(p, head, f, false) }

// Lines makes p the outline of the tree Dissect makes: the frame and its
// layers, each with its line, and none of their fields, for an output that
// shows the layers' lines only (-V without -O naming a layer). It is the
// same walk over the same bytes: the fields are read and left out of the
// tree, as Wireshark fakes the items that no filter reads and no view
// shows. Expert items are the same.
func Lines(p *dissect.PDU, head []byte, f *Frame) { dissectFrame(p, head, f, true) }

func dissectFrame(p *dissect.PDU, head []byte, f *Frame, lines bool) {
	s := scratch.Get().(*texts)
	s.b, s.refs = s.b[:0], s.refs[:0]
	s.cur = dissect.Begin(p, RegFrame.Root(), head, len(head))
	c := &s.cur
	s.protos = s.protos[:0]
	d := dis{p: p, c: c, f: f, t: s, stream: -1, lines: lines}
	d.frame()
	off, etype := d.link()
	switch etype {
	case 0x0800:
		d.ip4(off)
	case 0x86dd:
		d.ip6(off)
	}
	if !hasProto(d.t.protos, f.Protocols) {
		d.t.protos = append(d.t.protos, f.Protocols...)
	}
	if !lines {
		lo := len(s.b)
		s.b = append(s.b, trimColon(d.t.protos)...)
		s.value(p.AddGenerated(0, FieldFrameProtocols, dissect.Value{}, ""), lo)
	}
	c.Finish()
	d.frameLine()
	s.settle(p)
	s.cur = dissect.Cursor{}
	scratch.Put(s)
}

// texts is what Dissect writes its texts into before they become one
// string (settle); pooled, as every record's layers need one.
type texts struct {
	b      []byte
	refs   []textRef
	protos []byte // frame.protocols so far, each followed by ':'
	// cur walks the header bytes: here rather than on Dissect's stack,
	// which it would leave for the heap (the walk recurses into what an
	// ICMP error quotes).
	cur dissect.Cursor
}

// textRef is a text of node Node: b[Lo:Hi] once settled, its Text or
// (Value) its value.
type textRef struct {
	Node   int32
	Lo, Hi int32
	Value  bool
}

var scratch = sync.Pool{New: func() any {
	return &texts{b: make([]byte, 0, 512), refs: make([]textRef, 0, 24), protos: make([]byte, 0, 48)}
}}

// text makes b[lo:] the text of node i; value makes it its value.
func (t *texts) text(i int32, lo int) {
	if i >= 0 {
		t.refs = append(t.refs, textRef{Node: i, Lo: int32(lo), Hi: int32(len(t.b))})
	}
}

func (t *texts) value(i int32, lo int) { t.valueOf(i, lo, len(t.b)) }

// valueOf makes b[lo:hi] the value of node i.
func (t *texts) valueOf(i int32, lo, hi int) {
	if i >= 0 {
		t.refs = append(t.refs, textRef{Node: i, Lo: int32(lo), Hi: int32(hi), Value: true})
	}
}

// settle makes the buffer one string and gives the nodes their texts in
// it. A value views the string's bytes, as dissect.S's do.
func (t *texts) settle(p *dissect.PDU) {
	if len(t.refs) == 0 {
		return
	}
	all := string(t.b)
	for _, r := range t.refs {
		if int(r.Node) >= len(p.Nodes) {
			continue
		}
		n := &p.Nodes[r.Node]
		if r.Value {
			n.Value.B = unsafe.Slice(unsafe.StringData(all[r.Lo:]), r.Hi-r.Lo)
		} else {
			n.Text = all[r.Lo:r.Hi]
		}
	}
}

type dis struct {
	p         *dissect.PDU
	c         *dissect.Cursor
	f         *Frame
	t         *texts
	ip        netip.Addr
	from      netip.AddrPort // the frame's source
	transport string         // for the frame's line: "TCP", "UDP", "ICMP"
	stream    int            // with "TCP": its stream, -1 if none
	quoted    bool           // inside an ICMP error's quoted datagram
	lines     bool           // the outline only (Lines): fields are left out
}

// field adds f over the next n bytes (dissect.Cursor.Field), or in an
// outline skips them; it returns the node's index, or -1 for none.
func (d *dis) field(f *dissect.Field, n int, v dissect.Value) int32 {
	if d.lines {
		d.c.Skip(f, n)
		return -1
	}
	return d.c.Field(f, n, v)
}

// node adds f over [off, off+n) under parent, unless in an outline.
func (d *dis) node(parent int32, f *dissect.Field, off, n int, v dissect.Value) int32 {
	if d.lines {
		return -1
	}
	return d.p.AddNode(parent, f, off, n, v)
}

// gen adds a generated f under parent, unless in an outline.
func (d *dis) gen(parent int32, f *dissect.Field, v dissect.Value, text string) int32 {
	if d.lines {
		return -1
	}
	return d.p.AddGenerated(parent, f, v, text)
}

// hasProto reports whether protos (each followed by ':') names proto
// already (an ICMP record's own layer).
func hasProto(protos []byte, proto string) bool {
	if proto == "" {
		return false
	}
	for len(protos) > 0 {
		i := 0
		for i < len(protos) && protos[i] != ':' {
			i++
		}
		if string(protos[:i]) == proto {
			return true
		}
		if i == len(protos) {
			break
		}
		protos = protos[i+1:]
	}
	return false
}

func trimColon(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == ':' {
		return b[:n-1]
	}
	return b
}

// frame adds the frame's own generated fields.
func (d *dis) frame() {
	if d.lines {
		return
	}
	p, f, t := d.p, d.f, d.t
	p.AddGenerated(0, FieldFrameNumber, dissect.U(f.Number), "")
	p.AddGenerated(0, FieldFrameTime, dissect.Time(f.Time), "")
	lo := len(t.b)
	t.b = AppendEpoch9(t.b, f.Time)
	t.value(p.AddGenerated(0, FieldFrameEpoch, dissect.F(float64(f.Time.UnixNano())/1e9), ""), lo)
	lo = len(t.b)
	t.b = AppendSeconds9(t.b, f.Delta)
	t.value(p.AddGenerated(0, FieldFrameDelta, dissect.F(f.Delta.Seconds()), ""), lo)
	lo = len(t.b)
	t.b = AppendSeconds9(t.b, f.Rel)
	t.value(p.AddGenerated(0, FieldFrameRelative, dissect.F(f.Rel.Seconds()), ""), lo)
	if f.WireLen > 0 || f.CapLen > 0 {
		p.AddGenerated(0, FieldFrameLen, dissect.U(uint64(f.WireLen)), "")
		p.AddGenerated(0, FieldFrameCapLen, dissect.U(uint64(f.CapLen)), "")
	}
}

// frameLine writes the frame's line, once the layers have said which
// transport the frame carries and which way it went.
func (d *dis) frameLine() {
	f, t := d.f, d.t
	lo := len(t.b)
	b := append(t.b, "Frame "...)
	b = dissect.AppendUint(b, f.Number)
	b = append(b, ": "...)
	if f.WireLen > 0 || f.CapLen > 0 {
		b = dissect.AppendInt(b, int64(f.WireLen))
		b = append(b, " bytes on wire ("...)
		b = dissect.AppendInt(b, int64(f.WireLen)*8)
		b = append(b, " bits), "...)
		b = dissect.AppendInt(b, int64(f.CapLen))
		b = append(b, " bytes captured ("...)
		b = dissect.AppendInt(b, int64(f.CapLen)*8)
		b = append(b, " bits), "...)
	}
	if f.Link == LinkNone {
		b = append(b, "bytes typed by hand"...)
	} else {
		b = appendUTC(b, f.Time)
	}
	if d.transport != "" {
		b = append(b, ", "...)
		b = append(b, d.transport...)
		if d.stream >= 0 {
			b = append(b, " stream "...)
			b = dissect.AppendInt(b, int64(d.stream))
		}
		if f.Client.IsValid() {
			if d.from == f.Client {
				b = append(b, ", client → server"...)
			} else {
				b = append(b, ", server → client"...)
			}
		}
	}
	t.b = b
	t.text(0, lo)
}

// appendUTC appends t in UTC as "2006-01-02 15:04:05.000000000 UTC".
func appendUTC(b []byte, t time.Time) []byte {
	t = t.UTC()
	y, mo, day := t.Date()
	if y < 0 || y > 9999 {
		b = t.AppendFormat(b, "2006-01-02 15:04:05.")
	} else {
		h, mi, s := t.Clock()
		b = dissect.AppendUintPad(b, uint64(y), 4)
		b = append(b, '-')
		b = dissect.AppendUintPad(b, uint64(mo), 2)
		b = append(b, '-')
		b = dissect.AppendUintPad(b, uint64(day), 2)
		b = append(b, ' ')
		b = dissect.AppendUintPad(b, uint64(h), 2)
		b = append(b, ':')
		b = dissect.AppendUintPad(b, uint64(mi), 2)
		b = append(b, ':')
		b = dissect.AppendUintPad(b, uint64(s), 2)
		b = append(b, '.')
	}
	b = dissect.AppendUintPad(b, uint64(t.Nanosecond()), 9)
	return append(b, " UTC"...)
}

// link dissects the link layer and its VLAN tags, and returns where the
// network layer starts and its EtherType (0 when none is known).
func (d *dis) link() (int, uint16) {
	c, head := d.c, d.p.Data
	var etype uint16
	off := 0
	switch d.f.Link {
	case LinkEthernet:
		if len(head) < 14 {
			return d.cut(0, "Ethernet II")
		}
		d.t.protos = append(d.t.protos, "eth:ethertype:"...)
		i := c.Open(RegEth.Root(), 14)
		lo := len(d.t.b)
		d.t.b = append(d.t.b, "Ethernet II, Src: "...)
		d.t.b = appendEther(d.t.b, head[6:12])
		d.t.b = append(d.t.b, ", Dst: "...)
		d.t.b = appendEther(d.t.b, head[0:6])
		d.t.text(i, lo)
		d.field(FieldEthDst, 6, dissect.B(head[0:6]))
		d.hidden(FieldEthAddr, 0, 6, dissect.B(head[0:6]))
		d.field(FieldEthSrc, 6, dissect.B(head[6:12]))
		d.hidden(FieldEthAddr, 6, 6, dissect.B(head[6:12]))
		etype = binary.BigEndian.Uint16(head[12:14])
		d.field(FieldEthType, 2, dissect.U(uint64(etype)))
		c.Close()
		off = 14
	case LinkSLL, LinkSLL2:
		n := 16
		if d.f.Link == LinkSLL2 {
			n = 20
		}
		if len(head) < n {
			return d.cut(0, "Linux cooked capture")
		}
		d.t.protos = append(d.t.protos, "sll:ethertype:"...)
		i := c.Open(RegSLL.Root(), n)
		if n == 16 {
			d.line(i, "Linux cooked capture v1")
			d.field(FieldSLLPktType, 2, dissect.U(uint64(binary.BigEndian.Uint16(head[0:2]))))
			d.field(FieldSLLOther, 12, dissect.B(head[2:14]))
			etype = binary.BigEndian.Uint16(head[14:16])
			d.field(FieldSLLType, 2, dissect.U(uint64(etype)))
		} else {
			d.line(i, "Linux cooked capture v2")
			etype = binary.BigEndian.Uint16(head[0:2])
			d.field(FieldSLLType, 2, dissect.U(uint64(etype)))
			d.field(FieldSLLOther, 2, dissect.B(head[2:4]))
			d.field(FieldSLLIfIndex, 4, dissect.U(uint64(binary.BigEndian.Uint32(head[4:8]))))
			d.field(FieldSLLOther, 2, dissect.B(head[8:10]))
			d.field(FieldSLLPktType, 1, dissect.U(uint64(head[10])))
			d.field(FieldSLLOther, 9, dissect.B(head[11:20]))
		}
		c.Close()
		off = n
	case LinkNull, LinkLoop:
		if len(head) < 4 {
			return d.cut(0, "Null/Loopback")
		}
		d.t.protos = append(d.t.protos, "null:"...)
		af := binary.LittleEndian.Uint32(head)
		if af > 0xffff {
			af = binary.BigEndian.Uint32(head)
		}
		i := c.Open(RegNull.Root(), 4)
		d.line(i, "Null/Loopback")
		d.field(FieldNullFamily, 4, dissect.U(uint64(af)))
		c.Close()
		switch af {
		case 2:
			return 4, 0x0800
		case 10, 24, 28, 30:
			return 4, 0x86dd
		}
		return 4, 0
	case LinkRaw, 12, LinkIPv4, LinkIPv6:
		if len(head) == 0 {
			return 0, 0
		}
		d.t.protos = append(d.t.protos, "raw:"...)
		if head[0]>>4 == 6 {
			return 0, 0x86dd
		}
		return 0, 0x0800
	default:
		return 0, 0
	}
	// 802.1Q, 802.1ad and QinQ (0x9100) tags, possibly stacked.
	for etype == 0x8100 || etype == 0x88a8 || etype == 0x9100 {
		if len(head) < off+4 {
			return d.cut(off, "802.1Q Virtual LAN")
		}
		d.t.protos = append(d.t.protos, "vlan:ethertype:"...)
		tci := binary.BigEndian.Uint16(head[off : off+2])
		i := c.Open(RegVLAN.Root(), 4)
		lo := len(d.t.b)
		d.t.b = append(d.t.b, "802.1Q Virtual LAN, PRI: "...)
		d.t.b = dissect.AppendUint(d.t.b, uint64(tci>>13))
		d.t.b = append(d.t.b, ", ID: "...)
		d.t.b = dissect.AppendUint(d.t.b, uint64(tci&0x0fff))
		d.t.text(i, lo)
		d.at(FieldVLANPriority, off, 1, dissect.U(uint64(tci>>13)))
		d.field(FieldVLANID, 2, dissect.U(uint64(tci&0x0fff)))
		etype = binary.BigEndian.Uint16(head[off+2 : off+4])
		d.field(FieldVLANType, 2, dissect.U(uint64(etype)))
		c.Close()
		off += 4
	}
	return off, etype
}

// cut notes that the capture cut a header short at off.
func (d *dis) cut(off int, layer string) (int, uint16) {
	d.p.AddExpert(0, ExpertTruncated, "the "+layer+" header at offset "+strconv.Itoa(off)+" is cut short")
	return off, 0
}

// at adds f over [off, off+n) under the open subtree without moving the
// cursor: a field sharing bytes with the next one (ip.version and
// ip.hdr_len in one byte).
func (d *dis) at(f *dissect.Field, off, n int, v dissect.Value) int32 {
	return d.node(d.c.Parent(), f, off, n, v)
}

// hidden adds a hidden node (ip.addr, tcp.port) over [off, off+n).
func (d *dis) hidden(f *dissect.Field, off, n int, v dissect.Value) int32 {
	i := d.node(d.c.Parent(), f, off, n, v)
	if int(i) > 0 {
		d.p.Nodes[i].Flags |= dissect.FlagHidden
	}
	return i
}

// line makes text, a constant, the text of node i.
func (d *dis) line(i int32, text string) {
	if i >= 0 {
		d.p.Nodes[i].Text = text
	}
}

// appendEther appends a MAC address, aa:bb:cc:dd:ee:ff.
func appendEther(dst, b []byte) []byte {
	const hex = "0123456789abcdef"
	for i, c := range b {
		if i > 0 {
			dst = append(dst, ':')
		}
		dst = append(dst, hex[c>>4], hex[c&15])
	}
	return dst
}

// ipLine writes an IP layer's line, "<name>, Src: a, Dst: b", as the text
// of node i, and returns where its addresses' texts lie in the buffer.
func (d *dis) ipLine(i int32, name string, src, dst netip.Addr) (s0, s1, t0, t1 int) {
	t := d.t
	lo := len(t.b)
	t.b = append(t.b, name...)
	t.b = append(t.b, ", Src: "...)
	s0 = len(t.b)
	t.b = src.AppendTo(t.b)
	s1 = len(t.b)
	t.b = append(t.b, ", Dst: "...)
	t0 = len(t.b)
	t.b = dst.AppendTo(t.b)
	t1 = len(t.b)
	t.text(i, lo)
	return
}

// ip4 dissects an IPv4 header at off, then its transport.
func (d *dis) ip4(off int) {
	c, head := d.c, d.p.Data
	if len(head) < off+20 {
		d.cut(off, "IPv4")
		return
	}
	h := head[off:]
	ihl := int(h[0]&15) * 4
	if ihl < 20 || len(h) < ihl {
		d.cut(off, "IPv4")
		return
	}
	src, _ := netip.AddrFromSlice(h[12:16])
	dst, _ := netip.AddrFromSlice(h[16:20])
	d.t.protos = append(d.t.protos, "ip:"...)
	i := c.Open(RegIP.Root(), ihl)
	d.ip = src
	s0, s1, t0, t1 := d.ipLine(i, "Internet Protocol Version 4", src, dst)
	d.at(FieldIPVersion, off, 1, dissect.U(uint64(h[0]>>4)))
	d.field(FieldIPHdrLen, 1, dissect.U(uint64(ihl)))
	d.field(FieldIPDSField, 1, dissect.U(uint64(h[1])))
	d.field(FieldIPLen, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[2:4]))))
	d.field(FieldIPID, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[4:6]))))
	ff := binary.BigEndian.Uint16(h[6:8])
	fi := d.at(FieldIPFlags, off+6, 1, dissect.U(uint64(ff>>13)))
	d.node(fi, FieldIPFlagDF, off+6, 1, dissect.Bool(ff&0x4000 != 0))
	d.node(fi, FieldIPFlagMF, off+6, 1, dissect.Bool(ff&0x2000 != 0))
	d.field(FieldIPFragOff, 2, dissect.U(uint64(ff&0x1fff)*8))
	d.field(FieldIPTTL, 1, dissect.U(uint64(h[8])))
	d.field(FieldIPProto, 1, dissect.U(uint64(h[9])))
	d.field(FieldIPChecksum, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[10:12]))))
	d.t.valueOf(d.field(FieldIPSrc, 4, dissect.Value{}), s0, s1)
	d.t.valueOf(d.hidden(FieldIPAddr, off+12, 4, dissect.Value{}), s0, s1)
	d.t.valueOf(d.field(FieldIPDst, 4, dissect.Value{}), t0, t1)
	d.t.valueOf(d.hidden(FieldIPAddr, off+16, 4, dissect.Value{}), t0, t1)
	if ihl > 20 {
		d.field(FieldIPOptions, ihl-20, dissect.B(h[20:ihl]))
	}
	c.Close()
	if ff&0x3fff != 0 && ff&0x1fff != 0 {
		return // a fragment past the first: no transport header
	}
	d.layer4(h[9], off+ihl)
}

// ip6 dissects an IPv6 header at off and its extension headers, then its
// transport.
func (d *dis) ip6(off int) {
	c, head := d.c, d.p.Data
	if len(head) < off+40 {
		d.cut(off, "IPv6")
		return
	}
	h := head[off:]
	src, _ := netip.AddrFromSlice(h[8:24])
	dst, _ := netip.AddrFromSlice(h[24:40])
	d.t.protos = append(d.t.protos, "ipv6:"...)
	i := c.Open(RegIPv6.Root(), -1)
	d.ip = src
	s0, s1, t0, t1 := d.ipLine(i, "Internet Protocol Version 6", src, dst)
	w := binary.BigEndian.Uint32(h[0:4])
	d.at(FieldIPv6Version, off, 1, dissect.U(uint64(w>>28)))
	d.at(FieldIPv6TClass, off, 2, dissect.U(uint64(w>>20&0xff)))
	d.field(FieldIPv6Flow, 4, dissect.U(uint64(w&0xfffff)))
	d.field(FieldIPv6PLen, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[4:6]))))
	next := h[6]
	d.field(FieldIPv6Nxt, 1, dissect.U(uint64(next)))
	d.field(FieldIPv6HLim, 1, dissect.U(uint64(h[7])))
	d.t.valueOf(d.field(FieldIPv6Src, 16, dissect.Value{}), s0, s1)
	d.t.valueOf(d.hidden(FieldIPv6Addr, off+8, 16, dissect.Value{}), s0, s1)
	d.t.valueOf(d.field(FieldIPv6Dst, 16, dissect.Value{}), t0, t1)
	d.t.valueOf(d.hidden(FieldIPv6Addr, off+24, 16, dissect.Value{}), t0, t1)
	pos := off + 40
	for ext := 0; ext < 8; ext++ {
		switch next {
		case 0, 43, 60: // hop-by-hop, routing, destination options
			if len(head) < pos+2 {
				c.Close()
				d.cut(pos, "IPv6 extension")
				return
			}
			n := (int(head[pos+1]) + 1) * 8
			if len(head) < pos+n {
				c.Close()
				d.cut(pos, "IPv6 extension")
				return
			}
			d.field(FieldIPv6Ext, n, dissect.U(uint64(next)))
			next, pos = head[pos], pos+n
			continue
		case 44: // fragment
			if len(head) < pos+8 {
				c.Close()
				d.cut(pos, "IPv6 fragment")
				return
			}
			d.field(FieldIPv6Ext, 8, dissect.U(uint64(next)))
			fo := binary.BigEndian.Uint16(head[pos+2 : pos+4])
			next, pos = head[pos], pos+8
			if fo>>3 != 0 {
				c.Close()
				return // past the first fragment: no transport header
			}
			continue
		}
		break
	}
	c.Close()
	d.layer4(next, pos)
}

// layer4 dissects the TCP, UDP or ICMP header at off.
func (d *dis) layer4(proto byte, off int) {
	switch proto {
	case 6:
		d.tcp(off)
	case 17:
		d.udp(off)
	case 1:
		if !d.quoted {
			d.icmp(off, false)
		}
	case 58:
		if !d.quoted {
			d.icmp(off, true)
		}
	}
}

// icmp dissects an ICMP or ICMPv6 header at off and, for an error
// message (destination unreachable, time exceeded...), the datagram it
// quotes: its IP header and the start of its transport header, as tshark
// shows them, with the same fields (ip.src, udp.dstport) inside.
func (d *dis) icmp(off int, v6 bool) {
	c, head := d.c, d.p.Data
	if len(head) < off+8 {
		d.cut(off, "ICMP")
		return
	}
	h := head[off:]
	reg, ftype, fcode, fsum, frest := RegICMP, FieldICMPType, FieldICMPCode, FieldICMPChecksum, FieldICMPUnused
	name, line := "icmp:", "Internet Control Message Protocol"
	typ, code := h[0], h[1]
	errMsg := typ == 3 || typ == 11 || typ == 12 || typ == 5
	unreach := typ == 3
	if v6 {
		reg, ftype, fcode, fsum, frest = RegICMP6, FieldICMP6Type, FieldICMP6Code, FieldICMP6Checksum, FieldICMP6Reserved
		name, line = "icmpv6:", "Internet Control Message Protocol v6"
		errMsg, unreach = typ >= 1 && typ <= 4, typ == 1
	}
	d.t.protos = append(d.t.protos, name...)
	d.transport, d.stream = "ICMP", -1
	if v6 {
		d.transport = "ICMPv6"
	}
	i := c.Open(reg.Root(), -1)
	d.line(i, line)
	d.field(ftype, 1, dissect.U(uint64(typ)))
	ci := d.field(fcode, 1, dissect.U(uint64(code)))
	if unreach && ci > 0 {
		lo := len(d.t.b)
		d.t.b = dissect.AppendUint(d.t.b, uint64(code))
		d.t.b = append(d.t.b, " ("...)
		d.t.b = append(d.t.b, ICMPUnreachable(v6, code)...)
		d.t.b = append(d.t.b, ')')
		d.t.text(ci, lo)
	}
	d.field(fsum, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[2:4]))))
	if !errMsg {
		if len(h) > 4 {
			rest := FieldICMPRest
			if v6 {
				rest = FieldICMP6Rest
			}
			d.field(rest, len(h)-4, dissect.B(h[4:]))
		}
		c.Close()
		return
	}
	d.field(frest, 4, dissect.B(h[4:8]))
	// The quoted datagram: its addresses are not the frame's, which keeps
	// its own source and transport for the frame's line.
	from, transport, stream, ip := d.from, d.transport, d.stream, d.ip
	d.quoted = true
	if len(h) > 8 {
		switch h[8] >> 4 {
		case 4:
			d.ip4(off + 8)
		case 6:
			d.ip6(off + 8)
		}
	}
	d.quoted = false
	d.from, d.transport, d.stream, d.ip = from, transport, stream, ip
	c.Close()
}

func (d *dis) tcp(off int) {
	c, head, f := d.c, d.p.Data, d.f
	if d.quoted && len(head) < off+20 {
		d.quotedTCP(off)
		return
	}
	if len(head) < off+20 {
		d.cut(off, "TCP")
		return
	}
	h := head[off:]
	hl := int(h[12]>>4) * 4
	if hl < 20 || len(h) < hl {
		d.cut(off, "TCP")
		return
	}
	sp, dp := binary.BigEndian.Uint16(h[0:2]), binary.BigEndian.Uint16(h[2:4])
	seq, ack := binary.BigEndian.Uint32(h[4:8]), binary.BigEndian.Uint32(h[8:12])
	flags := binary.BigEndian.Uint16(h[12:14]) & 0x01ff
	win := binary.BigEndian.Uint16(h[14:16])
	rseq, rack := seq, ack
	if f.Relative && !d.quoted {
		rseq, rack = f.RelSeq, f.RelAck
	}
	if flags&0x10 == 0 {
		rack = 0
	}
	payload := max(f.WireLen-(off+hl), 0)
	if ipLen := ipPayload(head, off); ipLen >= 0 {
		payload = max(ipLen-hl, 0)
	}
	d.t.protos = append(d.t.protos, "tcp:"...)
	stream := f.Stream
	if d.quoted {
		stream = -1 // the quoted segment's connection is not the frame's
	}
	d.from, d.transport, d.stream = netip.AddrPortFrom(d.ip, sp), "TCP", stream
	i := c.Open(RegTCP.Root(), hl)
	t := d.t
	lo := len(t.b)
	t.b = d.portsLine(t.b, "Transmission Control Protocol", sp, dp)
	t.b = append(t.b, ", Seq: "...)
	t.b = dissect.AppendUint(t.b, uint64(rseq))
	if flags&0x10 != 0 {
		t.b = append(t.b, ", Ack: "...)
		t.b = dissect.AppendUint(t.b, uint64(rack))
	}
	t.b = append(t.b, ", Len: "...)
	t.b = dissect.AppendInt(t.b, int64(payload))
	t.text(i, lo)
	d.field(FieldTCPSrcPort, 2, dissect.U(uint64(sp)))
	d.hidden(FieldTCPPort, off, 2, dissect.U(uint64(sp)))
	d.field(FieldTCPDstPort, 2, dissect.U(uint64(dp)))
	d.hidden(FieldTCPPort, off+2, 2, dissect.U(uint64(dp)))
	if stream >= 0 {
		d.gen(i, FieldTCPStream, dissect.U(uint64(stream)), "")
	}
	d.gen(i, FieldTCPLen, dissect.U(uint64(payload)), "")
	d.field(FieldTCPSeq, 4, dissect.U(uint64(rseq)))
	d.gen(i, FieldTCPSeqRaw, dissect.U(uint64(seq)), "")
	d.field(FieldTCPAck, 4, dissect.U(uint64(rack)))
	d.gen(i, FieldTCPAckRaw, dissect.U(uint64(ack)), "")
	d.at(FieldTCPHdrLen, off+12, 1, dissect.U(uint64(hl)))
	fi := d.field(FieldTCPFlags, 2, dissect.U(uint64(flags)))
	for _, b := range [...]struct {
		f   *dissect.Field
		bit uint16
	}{{FieldTCPFlagCWR, 0x80}, {FieldTCPFlagECE, 0x40}, {FieldTCPFlagURG, 0x20}, {FieldTCPFlagACK, 0x10}, {FieldTCPFlagPSH, 0x08}, {FieldTCPFlagRST, 0x04}, {FieldTCPFlagSYN, 0x02}, {FieldTCPFlagFIN, 0x01}} {
		d.node(fi, b.f, off+12, 2, dissect.Bool(flags&b.bit != 0))
	}
	d.field(FieldTCPWinRaw, 2, dissect.U(uint64(win)))
	scaled := uint64(win)
	if f.WScale > 0 && flags&0x02 == 0 {
		scaled <<= uint(f.WScale)
	}
	d.gen(i, FieldTCPWin, dissect.U(scaled), "")
	d.gen(i, FieldTCPWinScale, dissect.I(int64(scale(f.WScale))), "")
	d.field(FieldTCPChecksum, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[16:18]))))
	d.field(FieldTCPUrgent, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[18:20]))))
	if hl > 20 {
		d.field(FieldTCPOptions, hl-20, dissect.B(h[20:hl]))
	}
	c.Close()
}

// quotedTCP shows what an ICMP error quotes of a TCP header when it is
// less than the whole header (RFC 792 asks for 8 bytes): the ports, and
// the sequence number when its 4 bytes are there.
func (d *dis) quotedTCP(off int) {
	c, head := d.c, d.p.Data
	h := head[min(off, len(head)):]
	if len(h) < 4 {
		return
	}
	d.t.protos = append(d.t.protos, "tcp:"...)
	sp, dp := binary.BigEndian.Uint16(h[0:2]), binary.BigEndian.Uint16(h[2:4])
	i := c.Open(RegTCP.Root(), min(len(h), 8))
	lo := len(d.t.b)
	d.t.b = d.portsLine(d.t.b, "Transmission Control Protocol", sp, dp)
	d.t.text(i, lo)
	d.field(FieldTCPSrcPort, 2, dissect.U(uint64(sp)))
	d.hidden(FieldTCPPort, off, 2, dissect.U(uint64(sp)))
	d.field(FieldTCPDstPort, 2, dissect.U(uint64(dp)))
	d.hidden(FieldTCPPort, off+2, 2, dissect.U(uint64(dp)))
	if len(h) >= 8 {
		d.field(FieldTCPSeqRaw, 4, dissect.U(uint64(binary.BigEndian.Uint32(h[4:8]))))
	}
	c.Close()
}

// scale is tcp.window_size_scalefactor: 2^shift, -1 when the shift is
// not known (no SYN captured), -2 when the ends use none.
func scale(shift int8) int {
	if shift < 0 {
		return -1
	}
	return 1 << shift
}

// ipPayload is the length of the IP payload from the IPv4 header's total
// length, or -1 (IPv6, or no IPv4 header found before off).
func ipPayload(head []byte, off int) int {
	for i := 0; i+20 <= off && i+20 <= len(head); i++ {
		if head[i]>>4 == 4 && int(head[i]&15)*4 == off-i {
			return int(binary.BigEndian.Uint16(head[i+2:i+4])) - (off - i)
		}
	}
	return -1
}

func (d *dis) udp(off int) {
	c, head := d.c, d.p.Data
	if len(head) < off+8 {
		d.cut(off, "UDP")
		return
	}
	h := head[off:]
	sp, dp := binary.BigEndian.Uint16(h[0:2]), binary.BigEndian.Uint16(h[2:4])
	d.t.protos = append(d.t.protos, "udp:"...)
	d.from, d.transport, d.stream = netip.AddrPortFrom(d.ip, sp), "UDP", -1
	i := c.Open(RegUDP.Root(), 8)
	lo := len(d.t.b)
	d.t.b = d.portsLine(d.t.b, "User Datagram Protocol", sp, dp)
	d.t.text(i, lo)
	d.field(FieldUDPSrcPort, 2, dissect.U(uint64(sp)))
	d.hidden(FieldUDPPort, off, 2, dissect.U(uint64(sp)))
	d.field(FieldUDPDstPort, 2, dissect.U(uint64(dp)))
	d.hidden(FieldUDPPort, off+2, 2, dissect.U(uint64(dp)))
	d.field(FieldUDPLength, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[4:6]))))
	d.field(FieldUDPChecksum, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[6:8]))))
	c.Close()
}

// portsLine appends a transport layer's line: "<name>, Src Port: a, Dst
// Port: b".
func (d *dis) portsLine(b []byte, name string, sp, dp uint16) []byte {
	b = append(b, name...)
	b = append(b, ", Src Port: "...)
	b = dissect.AppendUint(b, uint64(sp))
	b = append(b, ", Dst Port: "...)
	return dissect.AppendUint(b, uint64(dp))
}

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

// Make makes p the tree of a frame's layers, with the nodes w asks for:
// head holds the frame's bytes from the link header to the end of the TCP
// or UDP header (or fewer, when the capture cut them; nothing for a frame
// whose bytes are not known). A tree made for w is the whole tree (All)
// less the nodes w does not ask for (Want); the frame's node, the expert
// items and the bytes no field explains are the same whatever w.
//
// The texts it makes (the layers' lines, the addresses, the exact times,
// frame.protocols) are written into t, and the nodes' texts and values
// view them: a tree's texts cost no allocation once t has grown. Lifetime
// rule: they are valid until t is next written (the next Make with it);
// whoever keeps a tree past that copies its texts (record.Record.Clone
// does).
func Make(p *dissect.PDU, t *Texts, head []byte, f *Frame, w Want) {
	p.Reset(head, len(head))
	t.b, t.protos, t.refs = t.b[:0], t.protos[:0], t.refs[:0]
	d := dis{p: p, f: f, w: w, t: t, stream: -1}
	d.parent = p.AddNode(-1, RegFrame.Root(), 0, len(head), dissect.Value{})
	d.frame()
	off, etype := d.link()
	switch etype {
	case 0x0800:
		d.ip4(off)
	case 0x86dd:
		d.ip6(off)
	}
	if d.w.wants(FieldFrameProtocols) {
		if !hasProto(t.protos, f.Protocols) {
			t.protos = append(t.protos, f.Protocols...)
		}
		lo := len(t.b)
		t.b = append(t.b, trimColon(t.protos)...)
		d.value(p.AddGenerated(0, FieldFrameProtocols, dissect.Value{}, ""), lo)
	}
	if r := len(head) - d.off; r > 0 {
		i := p.AddNode(0, dissect.FieldUndissected, d.off, r, dissect.B(head[d.off:]))
		p.AddExpert(i, dissect.ExpertUndissected, strconv.Itoa(r)+" bytes at offset "+strconv.Itoa(d.off)+" are not part of any field")
	}
	if d.w.wants(RegFrame.Root()) {
		d.frameLine()
	}
	d.settle()
}

// Dissect makes p the whole tree of a frame's layers (Make with All), its
// texts in a buffer of their own.
func Dissect(p *dissect.PDU, head []byte, f *Frame) { Make(p, new(Texts), head, f, All) }

// Texts is where Make writes a tree's texts, reused from tree to tree:
// the owner of a tree owns one (a record does).
type Texts struct {
	b      []byte
	protos []byte    // frame.protocols so far, each followed by ':' (when asked for)
	refs   []textRef // the nodes whose texts lie in b, given them once b no longer moves
}

// Bytes is the buffer the texts of the tree made last lie in.
func (t *Texts) Bytes() []byte { return t.b }

// textRef is a text of node Node: b[Lo:Hi] once the walk is done, its
// Text or (Value) its value.
type textRef struct {
	Node   int32
	Lo, Hi int32
	Value  bool
}

// dis is a walk over a frame's header bytes. It lives on Make's stack;
// the references to its texts are kept in Texts, whose slice is reused,
// so that a walk clears no array of them.
type dis struct {
	p         *dissect.PDU
	f         *Frame
	t         *Texts
	w         Want
	off       int   // the next byte no field has read
	parent    int32 // the layer the fields go under
	ip        netip.Addr
	from      netip.AddrPort // the frame's source
	transport string         // for the frame's line: "TCP", "UDP", "ICMP"
	stream    int            // with "TCP": its stream, -1 if none
	quoted    bool           // inside an ICMP error's quoted datagram
	ipLen     int            // the IPv4 payload's length by its header, -1 for IPv6
}

// text makes b[lo:] the text of node i; value makes it its value.
func (d *dis) text(i int32, lo int) { d.ref(textRef{Node: i, Lo: int32(lo), Hi: int32(len(d.t.b))}) }

func (d *dis) value(i int32, lo int) { d.valueOf(i, lo, len(d.t.b)) }

// valueOf makes b[lo:hi] the value of node i.
func (d *dis) valueOf(i int32, lo, hi int) {
	d.ref(textRef{Node: i, Lo: int32(lo), Hi: int32(hi), Value: true})
}

func (d *dis) ref(r textRef) {
	if r.Node >= 0 {
		d.t.refs = append(d.t.refs, r)
	}
}

// settle gives the nodes their texts in the buffer, now that it no longer
// moves. unsafe: a text is a string that views the buffer (see Make's
// lifetime rule); a value views its bytes, as dissect.S's do.
func (d *dis) settle() {
	b, nodes := d.t.b, d.p.Nodes
	for _, r := range d.t.refs {
		n := &nodes[r.Node]
		if r.Value {
			n.Value.B = b[r.Lo:r.Hi:r.Hi]
		} else if r.Hi > r.Lo {
			n.Text = unsafe.String(&b[r.Lo], r.Hi-r.Lo)
		}
	}
}

// open adds the node of a layer (its root field) of n bytes at the next
// byte, n < 0 for as long as what is read until close, when anything of
// the layer is asked for (-1 when not), and makes it the parent of the
// fields that follow; close ends it and gives back the parent it was
// under.
func (d *dis) open(b *dissect.Field, n int) (i, up int32) {
	up = d.parent
	if !d.w.anyIn(&layerOf[fieldBit(b)]) {
		return -1, up // nothing asked for of the layer
	}
	i = d.p.AddNode(up, b, d.off, max(n, 0), dissect.Value{})
	if n < 0 {
		d.p.Nodes[i].Length = -1
	}
	d.parent = i
	return i, up
}

func (d *dis) close(i, up int32) {
	if i >= 0 {
		if n := &d.p.Nodes[i]; n.Length < 0 {
			n.Length = int32(d.off) - n.Offset
		}
	}
	d.parent = up
}

// field adds the field of b over the next n bytes under the open layer,
// if asked for, and reads past them; it returns the node's index, or -1
// for none. A field not asked for costs a test, and a call: field, node
// and gen are over the inliner's budget (PGO inlines them where its
// profile has them hot), which is why runs of fields a set seldom asks
// for are skipped whole (ipHead, tcpHead...).
func (d *dis) field(b *dissect.Field, n int, v dissect.Value) int32 {
	off := d.off
	d.off += n
	if !d.w.wants(b) {
		return -1
	}
	return d.add(d.parent, b, off, n, v)
}

// node adds the field of b over [off, off+n) under parent, if asked for.
func (d *dis) node(parent int32, b *dissect.Field, off, n int, v dissect.Value) int32 {
	if !d.w.wants(b) {
		return -1
	}
	return d.add(parent, b, off, n, v)
}

func (d *dis) add(parent int32, b *dissect.Field, off, n int, v dissect.Value) int32 {
	return d.p.AddNode(parent, b, off, n, v)
}

// gen adds a generated field of b under parent, if asked for.
func (d *dis) gen(parent int32, b *dissect.Field, v dissect.Value) int32 {
	if !d.w.wants(b) {
		return -1
	}
	return d.addGen(parent, b, v)
}

func (d *dis) addGen(parent int32, b *dissect.Field, v dissect.Value) int32 {
	return d.p.AddGenerated(parent, b, v, "")
}

// lined reports whether the line of layer b is asked for.
func (d *dis) lined(b *dissect.Field) bool { return d.w.wants(b) }

// proto notes a layer in frame.protocols, when it is asked for.
func (d *dis) proto(name string) {
	if d.w.wants(FieldFrameProtocols) {
		d.t.protos = append(d.t.protos, name...)
	}
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

// frame adds the frame's own generated fields that are asked for.
func (d *dis) frame() {
	if !d.w.anyOf(RegFrame.Root()) {
		return
	}
	p, f := d.p, d.f
	d.gen(0, FieldFrameNumber, dissect.U(f.Number))
	if d.w.wants(FieldFrameTime) {
		p.AddGenerated(0, FieldFrameTime, dissect.Time(f.Time), "")
	}
	if d.w.wants(FieldFrameEpoch) {
		lo := len(d.t.b)
		d.t.b = AppendEpoch9(d.t.b, f.Time)
		d.value(p.AddGenerated(0, FieldFrameEpoch, dissect.F(float64(f.Time.UnixNano())/1e9), ""), lo)
	}
	if d.w.wants(FieldFrameDelta) {
		lo := len(d.t.b)
		d.t.b = AppendSeconds9(d.t.b, f.Delta)
		d.value(p.AddGenerated(0, FieldFrameDelta, dissect.F(f.Delta.Seconds()), ""), lo)
	}
	if d.w.wants(FieldFrameRelative) {
		lo := len(d.t.b)
		d.t.b = AppendSeconds9(d.t.b, f.Rel)
		d.value(p.AddGenerated(0, FieldFrameRelative, dissect.F(f.Rel.Seconds()), ""), lo)
	}
	if f.WireLen > 0 || f.CapLen > 0 {
		d.gen(0, FieldFrameLen, dissect.U(uint64(f.WireLen)))
		d.gen(0, FieldFrameCapLen, dissect.U(uint64(f.CapLen)))
	}
}

// frameLine writes the frame's line, once the layers have said which
// transport the frame carries and which way it went.
func (d *dis) frameLine() {
	f := d.f
	lo := len(d.t.b)
	b := append(d.t.b, "Frame "...)
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
	d.t.b = b
	d.text(0, lo)
}

// appendUTC appends t in UTC as "2006-01-02 15:04:05.000000000 UTC",
// the date worked out from the days since 1970 (the civil calendar's
// arithmetic) rather than by time.Time's Date and Clock, each of which
// works it out again, and the digits written in place: it is on every
// frame's line.
func appendUTC(b []byte, t time.Time) []byte {
	sec := t.Unix()
	days := sec / 86400
	if sec%86400 < 0 {
		days--
	}
	y, mo, day := civil(days)
	if y < 0 || y > 9999 {
		b = t.UTC().AppendFormat(b, "2006-01-02 15:04:05.")
		b = dissect.AppendUintPad(b, uint64(t.Nanosecond()), 9)
		return append(b, " UTC"...)
	}
	s := sec - days*86400
	var x [33]byte
	copy(x[:], "0000-00-00 00:00:00.000000000 UTC")
	put2 := func(i int, v int64) { x[i], x[i+1] = byte('0'+v/10), byte('0'+v%10) }
	put2(0, y/100)
	put2(2, y%100)
	put2(5, mo)
	put2(8, day)
	put2(11, s/3600)
	put2(14, s/60%60)
	put2(17, s%60)
	ns := int64(t.Nanosecond())
	for i := 28; i >= 20; i-- {
		x[i] = byte('0' + ns%10)
		ns /= 10
	}
	return append(b, x[:]...)
}

// civil is the proleptic Gregorian date of the day days after
// 1970-01-01, by eras of 400 years that start on March 1st.
func civil(days int64) (y, m, d int64) {
	z := days + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097                                  // [0, 146096]
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // [0, 399]
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // [0, 365]
	mp := (5*doy + 2) / 153                                // [0, 11], from March
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if mp >= 10 {
		m = mp - 9
	}
	y = yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

// link dissects the link layer and its VLAN tags, and returns where the
// network layer starts and its EtherType (0 when none is known).
func (d *dis) link() (int, uint16) {
	head := d.p.Data
	var etype uint16
	off := 0
	switch d.f.Link {
	case LinkEthernet:
		if len(head) < 14 {
			return d.cut(0, "Ethernet II")
		}
		d.proto("eth:ethertype:")
		i, up := d.open(RegEth.Root(), 14)
		if d.lined(RegEth.Root()) {
			lo := len(d.t.b)
			d.t.b = append(d.t.b, "Ethernet II, Src: "...)
			d.t.b = appendEther(d.t.b, head[6:12])
			d.t.b = append(d.t.b, ", Dst: "...)
			d.t.b = appendEther(d.t.b, head[0:6])
			d.text(i, lo)
		}
		etype = binary.BigEndian.Uint16(head[12:14])
		if d.w.anyOf(RegEth.Root()) {
			d.field(FieldEthDst, 6, dissect.B(head[0:6]))
			d.hidden(FieldEthAddr, 0, 6, dissect.B(head[0:6]))
			d.field(FieldEthSrc, 6, dissect.B(head[6:12]))
			d.hidden(FieldEthAddr, 6, 6, dissect.B(head[6:12]))
			d.field(FieldEthType, 2, dissect.U(uint64(etype)))
		} else {
			d.off += 14
		}
		d.close(i, up)
		off = 14
	case LinkSLL, LinkSLL2:
		n := 16
		if d.f.Link == LinkSLL2 {
			n = 20
		}
		if len(head) < n {
			return d.cut(0, "Linux cooked capture")
		}
		d.proto("sll:ethertype:")
		etype = binary.BigEndian.Uint16(head[14:16])
		line := "Linux cooked capture v1"
		if n == 20 {
			etype, line = binary.BigEndian.Uint16(head[0:2]), "Linux cooked capture v2"
		}
		i, up := d.open(RegSLL.Root(), n)
		d.line(i, RegSLL.Root(), line)
		switch {
		case !d.w.anyOf(RegSLL.Root()):
			d.off += n
		case n == 16:
			d.field(FieldSLLPktType, 2, dissect.U(uint64(binary.BigEndian.Uint16(head[0:2]))))
			d.field(FieldSLLOther, 12, dissect.B(head[2:14]))
			d.field(FieldSLLType, 2, dissect.U(uint64(etype)))
		default:
			d.field(FieldSLLType, 2, dissect.U(uint64(etype)))
			d.field(FieldSLLOther, 2, dissect.B(head[2:4]))
			d.field(FieldSLLIfIndex, 4, dissect.U(uint64(binary.BigEndian.Uint32(head[4:8]))))
			d.field(FieldSLLOther, 2, dissect.B(head[8:10]))
			d.field(FieldSLLPktType, 1, dissect.U(uint64(head[10])))
			d.field(FieldSLLOther, 9, dissect.B(head[11:20]))
		}
		d.close(i, up)
		off = n
	case LinkNull, LinkLoop:
		if len(head) < 4 {
			return d.cut(0, "Null/Loopback")
		}
		d.proto("null:")
		af := binary.LittleEndian.Uint32(head)
		if af > 0xffff {
			af = binary.BigEndian.Uint32(head)
		}
		i, up := d.open(RegNull.Root(), 4)
		d.line(i, RegNull.Root(), "Null/Loopback")
		d.field(FieldNullFamily, 4, dissect.U(uint64(af)))
		d.close(i, up)
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
		d.proto("raw:")
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
		d.proto("vlan:ethertype:")
		tci := binary.BigEndian.Uint16(head[off : off+2])
		i, up := d.open(RegVLAN.Root(), 4)
		if d.lined(RegVLAN.Root()) {
			lo := len(d.t.b)
			d.t.b = append(d.t.b, "802.1Q Virtual LAN, PRI: "...)
			d.t.b = dissect.AppendUint(d.t.b, uint64(tci>>13))
			d.t.b = append(d.t.b, ", ID: "...)
			d.t.b = dissect.AppendUint(d.t.b, uint64(tci&0x0fff))
			d.text(i, lo)
		}
		etype = binary.BigEndian.Uint16(head[off+2 : off+4])
		if d.w.anyOf(RegVLAN.Root()) {
			d.at(FieldVLANPriority, off, 1, dissect.U(uint64(tci>>13)))
			d.field(FieldVLANID, 2, dissect.U(uint64(tci&0x0fff)))
			d.field(FieldVLANType, 2, dissect.U(uint64(etype)))
		} else {
			d.off += 4
		}
		d.close(i, up)
		off += 4
	}
	return off, etype
}

// cut notes that the capture cut a header short at off.
func (d *dis) cut(off int, layer string) (int, uint16) {
	d.p.AddExpert(0, ExpertTruncated, "the "+layer+" header at offset "+strconv.Itoa(off)+" is cut short")
	return off, 0
}

// at adds the field of b over [off, off+n) under the open layer without
// reading past it: a field sharing bytes with the next one (ip.version
// and ip.hdr_len in one byte).
func (d *dis) at(b *dissect.Field, off, n int, v dissect.Value) int32 {
	return d.node(d.parent, b, off, n, v)
}

// hidden adds a hidden node (ip.addr, tcp.port) over [off, off+n).
func (d *dis) hidden(b *dissect.Field, off, n int, v dissect.Value) int32 {
	if !d.w.wants(b) {
		return -1
	}
	return d.addHidden(b, off, n, v)
}

func (d *dis) addHidden(b *dissect.Field, off, n int, v dissect.Value) int32 {
	i := d.add(d.parent, b, off, n, v)
	d.p.Nodes[i].Flags |= dissect.FlagHidden
	return i
}

// line makes text, a constant, the text of layer node i of b, when its
// line is asked for.
func (d *dis) line(i int32, b *dissect.Field, text string) {
	if d.lined(b) {
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

// addrs writes an IP layer's line, "<name>, Src: a, Dst: b", as the text
// of its node i when the line of b is asked for, or else the addresses
// whose fields (bsrc, bdst, or baddr for both) are, and returns where
// their texts lie in the buffer.
func (d *dis) addrs(i int32, b *dissect.Field, name string, src, dst netip.Addr, bsrc, bdst, baddr *dissect.Field) (s0, s1, t0, t1 int) {
	t := d.t
	if d.lined(b) {
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
		d.text(i, lo)
		return
	}
	both := d.w.wants(baddr)
	if both || d.w.wants(bsrc) {
		s0 = len(t.b)
		t.b = src.AppendTo(t.b)
		s1 = len(t.b)
	}
	if both || d.w.wants(bdst) {
		t0 = len(t.b)
		t.b = dst.AppendTo(t.b)
		t1 = len(t.b)
	}
	return
}

// ip4 dissects an IPv4 header at off, then its transport.
func (d *dis) ip4(off int) {
	head := d.p.Data
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
	src := netip.AddrFrom4([4]byte(h[12:16]))
	d.proto("ip:")
	i, up := d.open(RegIP.Root(), ihl)
	d.ip, d.ipLen = src, int(binary.BigEndian.Uint16(h[2:4]))-ihl
	s0, s1, t0, t1 := d.addrs(i, RegIP.Root(), "Internet Protocol Version 4", src, netip.AddrFrom4([4]byte(h[16:20])), FieldIPSrc, FieldIPDst, FieldIPAddr)
	ff := binary.BigEndian.Uint16(h[6:8])
	if d.w.anyOf(RegIP.Root()) {
		d.at(FieldIPVersion, off, 1, dissect.U(uint64(h[0]>>4)))
		d.field(FieldIPHdrLen, 1, dissect.U(uint64(ihl)))
		d.field(FieldIPDSField, 1, dissect.U(uint64(h[1])))
		d.field(FieldIPLen, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[2:4]))))
		d.field(FieldIPID, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[4:6]))))
		if fi := d.at(FieldIPFlags, off+6, 1, dissect.U(uint64(ff>>13))); fi >= 0 {
			d.node(fi, FieldIPFlagDF, off+6, 1, dissect.Bool(ff&0x4000 != 0))
			d.node(fi, FieldIPFlagMF, off+6, 1, dissect.Bool(ff&0x2000 != 0))
		}
		d.field(FieldIPFragOff, 2, dissect.U(uint64(ff&0x1fff)*8))
		d.field(FieldIPTTL, 1, dissect.U(uint64(h[8])))
		d.field(FieldIPProto, 1, dissect.U(uint64(h[9])))
		d.field(FieldIPChecksum, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[10:12]))))
		d.valueOf(d.field(FieldIPSrc, 4, dissect.Value{}), s0, s1)
		d.valueOf(d.hidden(FieldIPAddr, off+12, 4, dissect.Value{}), s0, s1)
		d.valueOf(d.field(FieldIPDst, 4, dissect.Value{}), t0, t1)
		d.valueOf(d.hidden(FieldIPAddr, off+16, 4, dissect.Value{}), t0, t1)
		if ihl > 20 {
			d.field(FieldIPOptions, ihl-20, dissect.B(h[20:ihl]))
		}
	} else {
		d.off += ihl
	}
	d.close(i, up)
	if ff&0x3fff != 0 && ff&0x1fff != 0 {
		return // a fragment past the first: no transport header
	}
	d.layer4(h[9], off+ihl)
}

// ip6 dissects an IPv6 header at off and its extension headers, then its
// transport.
func (d *dis) ip6(off int) {
	head := d.p.Data
	if len(head) < off+40 {
		d.cut(off, "IPv6")
		return
	}
	h := head[off:]
	src := netip.AddrFrom16([16]byte(h[8:24]))
	d.proto("ipv6:")
	i, up := d.open(RegIPv6.Root(), -1)
	d.ip, d.ipLen = src, -1
	s0, s1, t0, t1 := d.addrs(i, RegIPv6.Root(), "Internet Protocol Version 6", src, netip.AddrFrom16([16]byte(h[24:40])), FieldIPv6Src, FieldIPv6Dst, FieldIPv6Addr)
	next := h[6]
	if d.w.anyOf(RegIPv6.Root()) {
		w := binary.BigEndian.Uint32(h[0:4])
		d.at(FieldIPv6Version, off, 1, dissect.U(uint64(w>>28)))
		d.at(FieldIPv6TClass, off, 2, dissect.U(uint64(w>>20&0xff)))
		d.field(FieldIPv6Flow, 4, dissect.U(uint64(w&0xfffff)))
		d.field(FieldIPv6PLen, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[4:6]))))
		d.field(FieldIPv6Nxt, 1, dissect.U(uint64(next)))
		d.field(FieldIPv6HLim, 1, dissect.U(uint64(h[7])))
		d.valueOf(d.field(FieldIPv6Src, 16, dissect.Value{}), s0, s1)
		d.valueOf(d.hidden(FieldIPv6Addr, off+8, 16, dissect.Value{}), s0, s1)
		d.valueOf(d.field(FieldIPv6Dst, 16, dissect.Value{}), t0, t1)
		d.valueOf(d.hidden(FieldIPv6Addr, off+24, 16, dissect.Value{}), t0, t1)
	} else {
		d.off += 40
	}
	pos := off + 40
	for ext := 0; ext < 8; ext++ {
		switch next {
		case 0, 43, 60: // hop-by-hop, routing, destination options
			if len(head) < pos+2 {
				d.close(i, up)
				d.cut(pos, "IPv6 extension")
				return
			}
			n := (int(head[pos+1]) + 1) * 8
			if len(head) < pos+n {
				d.close(i, up)
				d.cut(pos, "IPv6 extension")
				return
			}
			d.field(FieldIPv6Ext, n, dissect.U(uint64(next)))
			next, pos = head[pos], pos+n
			continue
		case 44: // fragment
			if len(head) < pos+8 {
				d.close(i, up)
				d.cut(pos, "IPv6 fragment")
				return
			}
			d.field(FieldIPv6Ext, 8, dissect.U(uint64(next)))
			fo := binary.BigEndian.Uint16(head[pos+2 : pos+4])
			next, pos = head[pos], pos+8
			if fo>>3 != 0 {
				d.close(i, up)
				return // past the first fragment: no transport header
			}
			continue
		}
		break
	}
	d.close(i, up)
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
	head := d.p.Data
	if len(head) < off+8 {
		d.cut(off, "ICMP")
		return
	}
	h := head[off:]
	root, btype, bcode, bsum, brest, bdata := RegICMP.Root(), FieldICMPType, FieldICMPCode, FieldICMPChecksum, FieldICMPUnused, FieldICMPRest
	name, line := "icmp:", "Internet Control Message Protocol"
	typ, code := h[0], h[1]
	errMsg := typ == 3 || typ == 11 || typ == 12 || typ == 5
	unreach := typ == 3
	if v6 {
		root, btype, bcode, bsum, brest, bdata = RegICMP6.Root(), FieldICMP6Type, FieldICMP6Code, FieldICMP6Checksum, FieldICMP6Reserved, FieldICMP6Rest
		name, line = "icmpv6:", "Internet Control Message Protocol v6"
		errMsg, unreach = typ >= 1 && typ <= 4, typ == 1
	}
	d.proto(name)
	d.transport, d.stream = "ICMP", -1
	if v6 {
		d.transport = "ICMPv6"
	}
	i, up := d.open(root, -1)
	d.line(i, root, line)
	d.field(btype, 1, dissect.U(uint64(typ)))
	ci := d.field(bcode, 1, dissect.U(uint64(code)))
	if unreach && ci > 0 {
		lo := len(d.t.b)
		d.t.b = dissect.AppendUint(d.t.b, uint64(code))
		d.t.b = append(d.t.b, " ("...)
		d.t.b = append(d.t.b, ICMPUnreachable(v6, code)...)
		d.t.b = append(d.t.b, ')')
		d.text(ci, lo)
	}
	d.field(bsum, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[2:4]))))
	if !errMsg {
		if len(h) > 4 {
			d.field(bdata, len(h)-4, dissect.B(h[4:]))
		}
		d.close(i, up)
		return
	}
	d.field(brest, 4, dissect.B(h[4:8]))
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
	d.close(i, up)
}

func (d *dis) tcp(off int) {
	head, f := d.p.Data, d.f
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
	if d.ipLen >= 0 {
		payload = max(d.ipLen-hl, 0)
	}
	d.proto("tcp:")
	stream := f.Stream
	if d.quoted {
		stream = -1 // the quoted segment's connection is not the frame's
	}
	d.from, d.transport, d.stream = netip.AddrPortFrom(d.ip, sp), "TCP", stream
	i, up := d.open(RegTCP.Root(), hl)
	if d.lined(RegTCP.Root()) {
		lo := len(d.t.b)
		d.t.b = d.portsLine(d.t.b, "Transmission Control Protocol", sp, dp)
		d.t.b = append(d.t.b, ", Seq: "...)
		d.t.b = dissect.AppendUint(d.t.b, uint64(rseq))
		if flags&0x10 != 0 {
			d.t.b = append(d.t.b, ", Ack: "...)
			d.t.b = dissect.AppendUint(d.t.b, uint64(rack))
		}
		d.t.b = append(d.t.b, ", Len: "...)
		d.t.b = dissect.AppendInt(d.t.b, int64(payload))
		d.text(i, lo)
	}
	if d.w.anyOf(RegTCP.Root()) {
		d.ports(off, FieldTCPSrcPort, FieldTCPDstPort, FieldTCPPort, sp, dp)
		if stream >= 0 {
			d.gen(i, FieldTCPStream, dissect.U(uint64(stream)))
		}
		d.gen(i, FieldTCPLen, dissect.U(uint64(payload)))
		d.field(FieldTCPSeq, 4, dissect.U(uint64(rseq)))
		d.gen(i, FieldTCPSeqRaw, dissect.U(uint64(seq)))
		d.field(FieldTCPAck, 4, dissect.U(uint64(rack)))
		d.gen(i, FieldTCPAckRaw, dissect.U(uint64(ack)))
		d.at(FieldTCPHdrLen, off+12, 1, dissect.U(uint64(hl)))
		if fi := d.field(FieldTCPFlags, 2, dissect.U(uint64(flags))); fi >= 0 {
			for _, b := range [...]struct {
				b   *dissect.Field
				bit uint16
			}{{FieldTCPFlagCWR, 0x80}, {FieldTCPFlagECE, 0x40}, {FieldTCPFlagURG, 0x20}, {FieldTCPFlagACK, 0x10}, {FieldTCPFlagPSH, 0x08}, {FieldTCPFlagRST, 0x04}, {FieldTCPFlagSYN, 0x02}, {FieldTCPFlagFIN, 0x01}} {
				d.node(fi, b.b, off+12, 2, dissect.Bool(flags&b.bit != 0))
			}
		}
		d.field(FieldTCPWinRaw, 2, dissect.U(uint64(win)))
		scaled := uint64(win)
		if f.WScale > 0 && flags&0x02 == 0 {
			scaled <<= uint(f.WScale)
		}
		d.gen(i, FieldTCPWin, dissect.U(scaled))
		d.gen(i, FieldTCPWinScale, dissect.I(int64(scale(f.WScale))))
		d.field(FieldTCPChecksum, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[16:18]))))
		d.field(FieldTCPUrgent, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[18:20]))))
		if hl > 20 {
			d.field(FieldTCPOptions, hl-20, dissect.B(h[20:hl]))
		}
	} else {
		d.off += hl
	}
	d.close(i, up)
}

// quotedTCP shows what an ICMP error quotes of a TCP header when it is
// less than the whole header (RFC 792 asks for 8 bytes): the ports, and
// the sequence number when its 4 bytes are there.
func (d *dis) quotedTCP(off int) {
	head := d.p.Data
	h := head[min(off, len(head)):]
	if len(h) < 4 {
		return
	}
	d.proto("tcp:")
	sp, dp := binary.BigEndian.Uint16(h[0:2]), binary.BigEndian.Uint16(h[2:4])
	n := 4 // the ports; the sequence number too when it is whole
	if len(h) >= 8 {
		n = 8
	}
	i, up := d.open(RegTCP.Root(), n)
	if d.lined(RegTCP.Root()) {
		lo := len(d.t.b)
		d.t.b = d.portsLine(d.t.b, "Transmission Control Protocol", sp, dp)
		d.text(i, lo)
	}
	d.ports(off, FieldTCPSrcPort, FieldTCPDstPort, FieldTCPPort, sp, dp)
	if n == 8 {
		d.field(FieldTCPSeqRaw, 4, dissect.U(uint64(binary.BigEndian.Uint32(h[4:8]))))
	}
	d.close(i, up)
}

// scale is tcp.window_size_scalefactor: 2^shift, -1 when the shift is
// not known (no SYN captured), -2 when the ends use none.
func scale(shift int8) int {
	if shift < 0 {
		return -1
	}
	return 1 << shift
}

func (d *dis) udp(off int) {
	head := d.p.Data
	if len(head) < off+8 {
		d.cut(off, "UDP")
		return
	}
	h := head[off:]
	sp, dp := binary.BigEndian.Uint16(h[0:2]), binary.BigEndian.Uint16(h[2:4])
	d.proto("udp:")
	d.from, d.transport, d.stream = netip.AddrPortFrom(d.ip, sp), "UDP", -1
	i, up := d.open(RegUDP.Root(), 8)
	if d.lined(RegUDP.Root()) {
		lo := len(d.t.b)
		d.t.b = d.portsLine(d.t.b, "User Datagram Protocol", sp, dp)
		d.text(i, lo)
	}
	if d.w.anyOf(RegUDP.Root()) {
		d.ports(off, FieldUDPSrcPort, FieldUDPDstPort, FieldUDPPort, sp, dp)
		d.field(FieldUDPLength, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[4:6]))))
		d.field(FieldUDPChecksum, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[6:8]))))
	} else {
		d.off += 8
	}
	d.close(i, up)
}

// ports adds a transport header's source and destination ports at off,
// each with the hidden either-port field after it, as tshark has them.
func (d *dis) ports(off int, src, dst, either *dissect.Field, sp, dp uint16) {
	d.field(src, 2, dissect.U(uint64(sp)))
	d.hidden(either, off, 2, dissect.U(uint64(sp)))
	d.field(dst, 2, dissect.U(uint64(dp)))
	d.hidden(either, off+2, 2, dissect.U(uint64(dp)))
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

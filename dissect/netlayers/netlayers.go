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
	"strings"
	"time"

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
func Dissect(p *dissect.PDU, head []byte, f *Frame) {
	c := dissect.Begin(p, RegFrame.Root(), head, len(head))
	d := dis{p: p, c: &c, f: f, protos: make([]byte, 0, 48)}
	d.frame()
	off, etype := d.link()
	switch etype {
	case 0x0800:
		d.ip4(off)
	case 0x86dd:
		d.ip6(off)
	}
	if !hasProto(d.protos, f.Protocols) {
		d.protos = append(d.protos, f.Protocols...)
	}
	p.AddGenerated(0, FieldFrameProtocols, dissect.S(string(trimColon(d.protos))), "")
	c.Finish()
	if d.transport != "" {
		line := p.Nodes[0].Text + ", " + d.transport
		if f.Client.IsValid() {
			if d.from == f.Client {
				line += ", client → server"
			} else {
				line += ", server → client"
			}
		}
		p.Nodes[0].Text = line
	}
}

type dis struct {
	p         *dissect.PDU
	c         *dissect.Cursor
	f         *Frame
	protos    []byte // frame.protocols so far, each followed by ':'
	ip        netip.Addr
	from      netip.AddrPort // the frame's source
	transport string         // for the frame's line: "TCP stream 3", "UDP"
	quoted    bool           // inside an ICMP error's quoted datagram
}

// hasProto reports whether protos (each followed by ':') names proto
// already (an ICMP record's own layer).
func hasProto(protos []byte, proto string) bool {
	for _, p := range strings.Split(string(protos), ":") {
		if p == proto && p != "" {
			return true
		}
	}
	return false
}

func trimColon(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == ':' {
		return b[:n-1]
	}
	return b
}

// frame adds the frame's own generated fields and its line.
func (d *dis) frame() {
	p, f := d.p, d.f
	var b []byte
	b = append(b, "Frame "...)
	b = strconv.AppendUint(b, f.Number, 10)
	b = append(b, ": "...)
	if f.WireLen > 0 || f.CapLen > 0 {
		b = strconv.AppendInt(b, int64(f.WireLen), 10)
		b = append(b, " bytes on wire ("...)
		b = strconv.AppendInt(b, int64(f.WireLen)*8, 10)
		b = append(b, " bits), "...)
		b = strconv.AppendInt(b, int64(f.CapLen), 10)
		b = append(b, " bytes captured ("...)
		b = strconv.AppendInt(b, int64(f.CapLen)*8, 10)
		b = append(b, " bits), "...)
	}
	if f.Link == LinkNone {
		b = append(b, "bytes typed by hand"...)
	} else {
		t := f.Time.UTC()
		b = t.AppendFormat(b, "2006-01-02 15:04:05.")
		b = dissect.AppendUintPad(b, uint64(t.Nanosecond()), 9)
		b = append(b, " UTC"...)
	}
	p.Nodes[0].Text = string(b)
	p.AddGenerated(0, FieldFrameNumber, dissect.U(f.Number), "")
	p.AddGenerated(0, FieldFrameTime, dissect.Time(f.Time), "")
	p.AddGenerated(0, FieldFrameEpoch, dissect.FExact(float64(f.Time.UnixNano())/1e9, AppendEpoch9(nil, f.Time)), "")
	p.AddGenerated(0, FieldFrameDelta, dissect.FExact(f.Delta.Seconds(), AppendSeconds9(nil, f.Delta)), "")
	p.AddGenerated(0, FieldFrameRelative, dissect.FExact(f.Rel.Seconds(), AppendSeconds9(nil, f.Rel)), "")
	if f.WireLen > 0 || f.CapLen > 0 {
		p.AddGenerated(0, FieldFrameLen, dissect.U(uint64(f.WireLen)), "")
		p.AddGenerated(0, FieldFrameCapLen, dissect.U(uint64(f.CapLen)), "")
	}
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
		d.protos = append(d.protos, "eth:ethertype:"...)
		i := c.Open(RegEth.Root(), 14)
		d.p.Nodes[i].Text = "Ethernet II, Src: " + ether(head[6:12]) + ", Dst: " + ether(head[0:6])
		c.Field(FieldEthDst, 6, dissect.B(head[0:6]))
		d.hidden(FieldEthAddr, 0, 6, dissect.B(head[0:6]))
		c.Field(FieldEthSrc, 6, dissect.B(head[6:12]))
		d.hidden(FieldEthAddr, 6, 6, dissect.B(head[6:12]))
		etype = binary.BigEndian.Uint16(head[12:14])
		c.Field(FieldEthType, 2, dissect.U(uint64(etype)))
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
		d.protos = append(d.protos, "sll:ethertype:"...)
		i := c.Open(RegSLL.Root(), n)
		if n == 16 {
			d.p.Nodes[i].Text = "Linux cooked capture v1"
			c.Field(FieldSLLPktType, 2, dissect.U(uint64(binary.BigEndian.Uint16(head[0:2]))))
			c.Field(FieldSLLOther, 12, dissect.B(head[2:14]))
			etype = binary.BigEndian.Uint16(head[14:16])
			c.Field(FieldSLLType, 2, dissect.U(uint64(etype)))
		} else {
			d.p.Nodes[i].Text = "Linux cooked capture v2"
			etype = binary.BigEndian.Uint16(head[0:2])
			c.Field(FieldSLLType, 2, dissect.U(uint64(etype)))
			c.Field(FieldSLLOther, 2, dissect.B(head[2:4]))
			c.Field(FieldSLLIfIndex, 4, dissect.U(uint64(binary.BigEndian.Uint32(head[4:8]))))
			c.Field(FieldSLLOther, 2, dissect.B(head[8:10]))
			c.Field(FieldSLLPktType, 1, dissect.U(uint64(head[10])))
			c.Field(FieldSLLOther, 9, dissect.B(head[11:20]))
		}
		c.Close()
		off = n
	case LinkNull, LinkLoop:
		if len(head) < 4 {
			return d.cut(0, "Null/Loopback")
		}
		d.protos = append(d.protos, "null:"...)
		af := binary.LittleEndian.Uint32(head)
		if af > 0xffff {
			af = binary.BigEndian.Uint32(head)
		}
		i := c.Open(RegNull.Root(), 4)
		d.p.Nodes[i].Text = "Null/Loopback"
		c.Field(FieldNullFamily, 4, dissect.U(uint64(af)))
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
		d.protos = append(d.protos, "raw:"...)
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
		d.protos = append(d.protos, "vlan:ethertype:"...)
		tci := binary.BigEndian.Uint16(head[off : off+2])
		i := c.Open(RegVLAN.Root(), 4)
		d.p.Nodes[i].Text = "802.1Q Virtual LAN, PRI: " + strconv.Itoa(int(tci>>13)) + ", ID: " + strconv.Itoa(int(tci&0x0fff))
		d.at(FieldVLANPriority, off, 1, dissect.U(uint64(tci>>13)))
		c.Field(FieldVLANID, 2, dissect.U(uint64(tci&0x0fff)))
		etype = binary.BigEndian.Uint16(head[off+2 : off+4])
		c.Field(FieldVLANType, 2, dissect.U(uint64(etype)))
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
	return d.p.AddNode(d.c.Parent(), f, off, n, v)
}

// hidden adds a hidden node (ip.addr, tcp.port) over [off, off+n).
func (d *dis) hidden(f *dissect.Field, off, n int, v dissect.Value) {
	i := d.p.AddNode(d.c.Parent(), f, off, n, v)
	if int(i) > 0 {
		d.p.Nodes[i].Flags |= dissect.FlagHidden
	}
}

func ether(b []byte) string {
	const hex = "0123456789abcdef"
	out := make([]byte, 0, 17)
	for i, c := range b {
		if i > 0 {
			out = append(out, ':')
		}
		out = append(out, hex[c>>4], hex[c&15])
	}
	return string(out)
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
	d.protos = append(d.protos, "ip:"...)
	i := c.Open(RegIP.Root(), ihl)
	d.ip = src
	d.p.Nodes[i].Text = "Internet Protocol Version 4, Src: " + src.String() + ", Dst: " + dst.String()
	d.at(FieldIPVersion, off, 1, dissect.U(uint64(h[0]>>4)))
	c.Field(FieldIPHdrLen, 1, dissect.U(uint64(ihl)))
	c.Field(FieldIPDSField, 1, dissect.U(uint64(h[1])))
	c.Field(FieldIPLen, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[2:4]))))
	c.Field(FieldIPID, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[4:6]))))
	ff := binary.BigEndian.Uint16(h[6:8])
	fi := d.at(FieldIPFlags, off+6, 1, dissect.U(uint64(ff>>13)))
	d.p.AddNode(fi, FieldIPFlagDF, off+6, 1, dissect.Bool(ff&0x4000 != 0))
	d.p.AddNode(fi, FieldIPFlagMF, off+6, 1, dissect.Bool(ff&0x2000 != 0))
	c.Field(FieldIPFragOff, 2, dissect.U(uint64(ff&0x1fff)*8))
	c.Field(FieldIPTTL, 1, dissect.U(uint64(h[8])))
	c.Field(FieldIPProto, 1, dissect.U(uint64(h[9])))
	c.Field(FieldIPChecksum, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[10:12]))))
	s, t := src.String(), dst.String()
	c.Field(FieldIPSrc, 4, dissect.S(s))
	d.hidden(FieldIPAddr, off+12, 4, dissect.S(s))
	c.Field(FieldIPDst, 4, dissect.S(t))
	d.hidden(FieldIPAddr, off+16, 4, dissect.S(t))
	if ihl > 20 {
		c.Field(FieldIPOptions, ihl-20, dissect.B(h[20:ihl]))
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
	d.protos = append(d.protos, "ipv6:"...)
	i := c.Open(RegIPv6.Root(), -1)
	d.ip = src
	d.p.Nodes[i].Text = "Internet Protocol Version 6, Src: " + src.String() + ", Dst: " + dst.String()
	w := binary.BigEndian.Uint32(h[0:4])
	d.at(FieldIPv6Version, off, 1, dissect.U(uint64(w>>28)))
	d.at(FieldIPv6TClass, off, 2, dissect.U(uint64(w>>20&0xff)))
	c.Field(FieldIPv6Flow, 4, dissect.U(uint64(w&0xfffff)))
	c.Field(FieldIPv6PLen, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[4:6]))))
	next := h[6]
	c.Field(FieldIPv6Nxt, 1, dissect.U(uint64(next)))
	c.Field(FieldIPv6HLim, 1, dissect.U(uint64(h[7])))
	s, t := src.String(), dst.String()
	c.Field(FieldIPv6Src, 16, dissect.S(s))
	d.hidden(FieldIPv6Addr, off+8, 16, dissect.S(s))
	c.Field(FieldIPv6Dst, 16, dissect.S(t))
	d.hidden(FieldIPv6Addr, off+24, 16, dissect.S(t))
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
			c.Field(FieldIPv6Ext, n, dissect.U(uint64(next)))
			next, pos = head[pos], pos+n
			continue
		case 44: // fragment
			if len(head) < pos+8 {
				c.Close()
				d.cut(pos, "IPv6 fragment")
				return
			}
			c.Field(FieldIPv6Ext, 8, dissect.U(uint64(next)))
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
	d.protos = append(d.protos, name...)
	d.transport = "ICMP"
	if v6 {
		d.transport = "ICMPv6"
	}
	i := c.Open(reg.Root(), -1)
	d.p.Nodes[i].Text = line
	c.Field(ftype, 1, dissect.U(uint64(typ)))
	ci := c.Field(fcode, 1, dissect.U(uint64(code)))
	if unreach && ci > 0 {
		d.p.Nodes[ci].Text = strconv.Itoa(int(code)) + " (" + ICMPUnreachable(v6, code) + ")"
	}
	c.Field(fsum, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[2:4]))))
	if !errMsg {
		if len(h) > 4 {
			rest := FieldICMPRest
			if v6 {
				rest = FieldICMP6Rest
			}
			c.Field(rest, len(h)-4, dissect.B(h[4:]))
		}
		c.Close()
		return
	}
	c.Field(frest, 4, dissect.B(h[4:8]))
	// The quoted datagram: its addresses are not the frame's, which keeps
	// its own source and transport for the frame's line.
	from, transport, ip := d.from, d.transport, d.ip
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
	d.from, d.transport, d.ip = from, transport, ip
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
	d.protos = append(d.protos, "tcp:"...)
	d.from, d.transport = netip.AddrPortFrom(d.ip, sp), "TCP"
	stream := f.Stream
	if d.quoted {
		stream = -1 // the quoted segment's connection is not the frame's
	}
	if stream >= 0 {
		d.transport = "TCP stream " + strconv.Itoa(stream)
	}
	i := c.Open(RegTCP.Root(), hl)
	line := "Transmission Control Protocol, Src Port: " + strconv.Itoa(int(sp)) + ", Dst Port: " + strconv.Itoa(int(dp)) + ", Seq: " + strconv.FormatUint(uint64(rseq), 10)
	if flags&0x10 != 0 {
		line += ", Ack: " + strconv.FormatUint(uint64(rack), 10)
	}
	d.p.Nodes[i].Text = line + ", Len: " + strconv.Itoa(payload)
	c.Field(FieldTCPSrcPort, 2, dissect.U(uint64(sp)))
	d.hidden(FieldTCPPort, off, 2, dissect.U(uint64(sp)))
	c.Field(FieldTCPDstPort, 2, dissect.U(uint64(dp)))
	d.hidden(FieldTCPPort, off+2, 2, dissect.U(uint64(dp)))
	if stream >= 0 {
		d.p.AddGenerated(i, FieldTCPStream, dissect.U(uint64(stream)), "")
	}
	d.p.AddGenerated(i, FieldTCPLen, dissect.U(uint64(payload)), "")
	c.Field(FieldTCPSeq, 4, dissect.U(uint64(rseq)))
	d.p.AddGenerated(i, FieldTCPSeqRaw, dissect.U(uint64(seq)), "")
	c.Field(FieldTCPAck, 4, dissect.U(uint64(rack)))
	d.p.AddGenerated(i, FieldTCPAckRaw, dissect.U(uint64(ack)), "")
	d.at(FieldTCPHdrLen, off+12, 1, dissect.U(uint64(hl)))
	fi := c.Field(FieldTCPFlags, 2, dissect.U(uint64(flags)))
	for _, b := range [...]struct {
		f   *dissect.Field
		bit uint16
	}{{FieldTCPFlagCWR, 0x80}, {FieldTCPFlagECE, 0x40}, {FieldTCPFlagURG, 0x20}, {FieldTCPFlagACK, 0x10}, {FieldTCPFlagPSH, 0x08}, {FieldTCPFlagRST, 0x04}, {FieldTCPFlagSYN, 0x02}, {FieldTCPFlagFIN, 0x01}} {
		d.p.AddNode(fi, b.f, off+12, 2, dissect.Bool(flags&b.bit != 0))
	}
	c.Field(FieldTCPWinRaw, 2, dissect.U(uint64(win)))
	scaled := uint64(win)
	if f.WScale > 0 && flags&0x02 == 0 {
		scaled <<= uint(f.WScale)
	}
	d.p.AddGenerated(i, FieldTCPWin, dissect.U(scaled), "")
	d.p.AddGenerated(i, FieldTCPWinScale, dissect.I(int64(scale(f.WScale))), "")
	c.Field(FieldTCPChecksum, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[16:18]))))
	c.Field(FieldTCPUrgent, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[18:20]))))
	if hl > 20 {
		c.Field(FieldTCPOptions, hl-20, dissect.B(h[20:hl]))
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
	d.protos = append(d.protos, "tcp:"...)
	sp, dp := binary.BigEndian.Uint16(h[0:2]), binary.BigEndian.Uint16(h[2:4])
	i := c.Open(RegTCP.Root(), min(len(h), 8))
	d.p.Nodes[i].Text = "Transmission Control Protocol, Src Port: " + strconv.Itoa(int(sp)) + ", Dst Port: " + strconv.Itoa(int(dp))
	c.Field(FieldTCPSrcPort, 2, dissect.U(uint64(sp)))
	d.hidden(FieldTCPPort, off, 2, dissect.U(uint64(sp)))
	c.Field(FieldTCPDstPort, 2, dissect.U(uint64(dp)))
	d.hidden(FieldTCPPort, off+2, 2, dissect.U(uint64(dp)))
	if len(h) >= 8 {
		c.Field(FieldTCPSeqRaw, 4, dissect.U(uint64(binary.BigEndian.Uint32(h[4:8]))))
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
	d.protos = append(d.protos, "udp:"...)
	d.from, d.transport = netip.AddrPortFrom(d.ip, sp), "UDP"
	i := c.Open(RegUDP.Root(), 8)
	d.p.Nodes[i].Text = "User Datagram Protocol, Src Port: " + strconv.Itoa(int(sp)) + ", Dst Port: " + strconv.Itoa(int(dp))
	c.Field(FieldUDPSrcPort, 2, dissect.U(uint64(sp)))
	d.hidden(FieldUDPPort, off, 2, dissect.U(uint64(sp)))
	c.Field(FieldUDPDstPort, 2, dissect.U(uint64(dp)))
	d.hidden(FieldUDPPort, off+2, 2, dissect.U(uint64(dp)))
	c.Field(FieldUDPLength, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[4:6]))))
	c.Field(FieldUDPChecksum, 2, dissect.U(uint64(binary.BigEndian.Uint16(h[6:8]))))
	c.Close()
}

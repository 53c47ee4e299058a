package render

import (
	"bufio"
	"bytes"
	"slices"
	"unsafe"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/record"
)

// -T pdml and -T psml: tshark's XML, in the shape scripts read. PSML is
// the packet list, one <packet> of <section>s (No., Time, Source,
// Destination, Protocol, Length, Info) per record. PDML is the tree: per
// record a <packet> of <proto>s (geninfo, frame, eth, ip or ipv6, tcp or
// udp, then the Minecraft protocol), each of nested <field>s with tshark's
// attributes: name, showname (the tree line), size and pos (the bytes it
// spans: in the frame for the layers, in the PDU for Minecraft's), show
// (its value as -T fields prints it, booleans as 1 and 0) and value (its
// bytes in hex). Records are PDUs: a frame that completes two PDUs is two
// packets, as in the other outputs. Text from the wire is escaped as
// everywhere (dissect.AppendSafe), then for XML.

type psmlRenderer struct {
	batchWriter
	o Options
}

const xmlHead = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"

func (p *psmlRenderer) Begin() error {
	b := append(p.buf, xmlHead...)
	b = append(b, "<psml version=\"0\" creator=\"mcdissect\">\n<structure>\n"...)
	for _, t := range ColumnTitles {
		b = append(b, "<section>"...)
		b = appendXMLText(b, t)
		b = append(b, "</section>\n"...)
	}
	p.buf = append(b, "</structure>\n\n"...)
	return p.spill()
}

func (p *psmlRenderer) Append(b []byte, r *record.Record, _ bool) []byte {
	b = append(b, "<packet>\n"...)
	for c := colNo; c <= colInfo; c++ {
		b = append(b, "<section>"...)
		start := len(b)
		b = appendColumn(b, r, c, p.o.Time)
		b = escapeXMLTail(b, start)
		b = append(b, "</section>\n"...)
	}
	return append(b, "</packet>\n\n"...)
}

// Record formats r into the renderer's buffer (batchWriter): a packet of
// the list is small, so it is never cut.
func (p *psmlRenderer) Record(r *record.Record) error {
	return p.done(p.Append(p.begin(), r, false))
}

func (p *psmlRenderer) Raw(b []byte, _ int) error { return p.raw(b) }
func (p *psmlRenderer) End() error {
	p.buf = append(p.buf, "</psml>\n"...)
	return p.Flush()
}

type pdmlRenderer struct {
	batchWriter
	o     Options
	hider hider
	exps  expertsByNode
	open  []int32 // the nodes whose elements are open (appendTree)
	in    []bool  // by node: under the <proto> being written (appendTree)
	line  []byte  // scratch for a node's tree line (appendTree)
}

func newPDML(w *bufio.Writer, o Options) *pdmlRenderer {
	return &pdmlRenderer{batchWriter: batchWriter{w: w}, o: o}
}

func (p *pdmlRenderer) Begin() error {
	b := append(p.buf, xmlHead...)
	b = append(b, "<pdml version=\"0\" creator=\"mcdissect\""...)
	if p.o.Title != "" {
		b = append(b, " capture_file=\""...)
		b = appendXMLAttr(b, p.o.Title)
		b = append(b, '"')
	}
	p.buf = append(b, ">\n"...)
	return p.spill()
}

// Record formats r into the renderer's buffer, in pieces (batchWriter).
func (p *pdmlRenderer) Record(r *record.Record) error {
	return p.done(p.Append(p.begin(), r, false))
}

func (p *pdmlRenderer) Raw(b []byte, _ int) error { return p.raw(b) }
func (p *pdmlRenderer) End() error {
	p.buf = append(p.buf, "</pdml>\n"...)
	return p.Flush()
}

func (p *pdmlRenderer) Append(b []byte, r *record.Record, _ bool) []byte {
	size := len(r.PDU.Data)
	net := r.Layers()
	if i := net.Find("frame.cap_len"); i >= 0 {
		size = int(net.Nodes[i].Value.N)
	}
	b = append(b, "<packet>\n"...)
	// geninfo, as tshark writes it: the values of num, len and caplen in hex.
	b = append(b, "  <proto name=\"geninfo\" pos=\"0\" showname=\"General information\" size=\""...)
	b = dissect.AppendInt(b, int64(size))
	b = append(b, "\">\n"...)
	b = p.genField(b, "num", "Number", r.Frame, size)
	if i := net.Find("frame.len"); i >= 0 {
		b = p.genField(b, "len", "Frame Length", net.Nodes[i].Value.N, size)
		b = p.genField(b, "caplen", "Captured Length", uint64(size), size)
	}
	b = append(b, "    <field name=\"timestamp\" pos=\"0\" show=\""...)
	b = dissect.AppendAbsTime(b, r.Time)
	b = append(b, "\" showname=\"Captured Time\" value=\""...)
	b = netlayers.AppendEpoch9(b, r.Time)
	b = append(b, "\" size=\""...)
	b = dissect.AppendInt(b, int64(size))
	b = append(b, "\"/>\n  </proto>\n"...)

	// The frame and each layer under it are <proto>s side by side, as in
	// tshark's PDML, then the Minecraft protocol's.
	if len(net.Nodes) > 0 {
		b = p.appendTree(b, net, 0)
		for i := 1; i < len(net.Nodes); i++ {
			if n := &net.Nodes[i]; n.Field.Type == dissect.FTProtocol {
				b = p.appendTree(b, net, int32(i))
			}
		}
	}
	if len(r.PDU.Nodes) > 0 {
		b = p.appendTree(b, &r.PDU, 0)
	}
	return append(b, "</packet>\n\n"...)
}

// genField writes one of geninfo's fields.
func (p *pdmlRenderer) genField(b []byte, name, showname string, v uint64, size int) []byte {
	b = append(b, "    <field name=\""...)
	b = append(b, name...)
	b = append(b, "\" pos=\"0\" show=\""...)
	b = dissect.AppendUint(b, v)
	b = append(b, "\" showname=\""...)
	b = append(b, showname...)
	b = append(b, "\" value=\""...)
	b = appendHexDigits(b, v)
	b = append(b, "\" size=\""...)
	b = dissect.AppendInt(b, int64(size))
	return append(b, "\"/>\n"...)
}

func appendHexDigits(b []byte, v uint64) []byte {
	n := dissect.AppendHexNum(nil, v, 0)
	return append(b, n[2:]...)
}

// appendShow writes a field's show attribute: -T fields' text of its
// value, booleans as tshark's 1 and 0.
func (p *pdmlRenderer) appendShow(b []byte, n *dissect.Node) []byte {
	if redacted(&p.o, n) {
		return append(b, redactedText...)
	}
	if n.Field.Type == dissect.FTBool {
		if n.Value.Bool() {
			return append(b, '1')
		}
		return append(b, '0')
	}
	if n.Field.Type == dissect.FTBytes { // AppendRaw's hex, with nothing to escape
		return p.appendHex(b, n.Value.B, ':')
	}
	start := len(b)
	b = AppendRaw(b, n)
	return escapeXMLTail(b, start)
}

// appendTree writes the subtree of pdu at root as a <proto>, every node
// under it as a <field> nested under its parent, expert items as
// _ws.expert fields under the node they name. A protocol under root (the
// frame's Ethernet, IP, TCP) is left out: it is a <proto> of its own. It
// costs its nodes and expert items, with no allocation per node: which
// nodes are under root is found in one pass (p.in), expert items by node
// (p.exps), and a node's tree line is made in scratch space (p.line).
func (p *pdmlRenderer) appendTree(b []byte, pdu *dissect.PDU, root int32) []byte {
	masked := maskedRanges(&p.o, pdu)
	p.hider.index(&p.o, pdu, masked)
	p.exps.index(pdu)
	in := slices.Grow(p.in[:0], len(pdu.Nodes))[:len(pdu.Nodes)]
	p.in = in
	open := p.open[:0]
	closeTo := func(parent int32) {
		for len(open) > 0 && open[len(open)-1] != parent {
			k := open[len(open)-1]
			open = open[:len(open)-1]
			b = appendIndentXML(b, len(open)+1)
			if k == root {
				b = append(b, "</proto>\n"...)
			} else {
				b = append(b, "</field>\n"...)
			}
		}
	}
	for i := int(root); i < len(pdu.Nodes); i++ {
		n := &pdu.Nodes[i]
		// Root, or below it with no other protocol between: nodes come
		// in pre-order, so a parent's mark is made before its children's.
		in[i] = int32(i) == root || i > 0 && n.Field.Type != dissect.FTProtocol &&
			n.Parent >= root && int(n.Parent) < i && in[n.Parent]
		if !in[i] {
			continue
		}
		b = p.cut(b)
		closeTo(n.Parent)
		b = appendIndentXML(b, len(open)+1)
		secret := p.hider.hide[i]
		top := int32(i) == root
		if top {
			b = append(b, "<proto name=\""...)
		} else {
			b = append(b, "<field name=\""...)
		}
		b = appendXMLAttr(b, n.Field.Name) // n.Name(), without its string
		if n.Key != "" {
			b = append(b, '.')
			b = appendXMLAttr(b, n.Key)
		}
		b = append(b, "\" showname=\""...)
		switch {
		case top && n.Text != "":
			b = appendXMLAttr(b, n.Text)
		case top:
			b = appendXMLAttr(b, n.Field.Label)
		default:
			b = p.appendShowname(b, n, secret)
		}
		b = append(b, "\" size=\""...)
		if n.Flags&dissect.FlagGenerated != 0 {
			b = append(b, '0')
		} else {
			b = dissect.AppendInt(b, int64(n.Length))
		}
		b = append(b, "\" pos=\""...)
		b = dissect.AppendInt(b, int64(n.Offset))
		b = append(b, '"')
		if !top && hasValue(n) {
			b = append(b, " show=\""...)
			if secret {
				b = append(b, redactedText...)
			} else {
				b = p.appendShow(b, n)
			}
			b = append(b, '"')
		}
		if bs := dissect.NodeBytes(pdu, n); !top && len(bs) > 0 && n.Flags&dissect.FlagGenerated == 0 {
			b = append(b, " value=\""...)
			if secret {
				for range bs {
					b = append(b, '*', '*')
				}
			} else {
				b = p.appendHex(b, bs, 0)
			}
			b = append(b, '"')
		}
		if top || i+1 < len(pdu.Nodes) && pdu.Nodes[i+1].Parent == int32(i) || len(p.exps.at(i)) > 0 {
			b = append(b, ">\n"...)
			open = append(open, int32(i))
			b = p.experts(b, pdu, i, len(open)+1)
		} else {
			b = append(b, "/>\n"...)
		}
	}
	closeTo(-1)
	p.open = open[:0]
	return b
}

// appendShowname writes a field's showname: its -V tree line without the
// byte range PDML says in its own attributes, the value masked for a
// secret. The line is made in p.line, then escaped for XML into b.
func (p *pdmlRenderer) appendShowname(b []byte, n *dissect.Node, secret bool) []byte {
	line := appendNodeHead(p.line[:0], n)
	if secret && hasValue(n) {
		line = append(line, redactedText...)
	} else {
		line = appendNodeTail(line, n, &p.o)
		if n.Flags&dissect.FlagGenerated == 0 {
			// The range ends the line unless a flag follows it (then
			// it stays, as a tree line's text).
			var rng [48]byte
			line = bytes.TrimSuffix(line, appendRange(rng[:0], n.Offset, n.Length))
		}
	}
	p.line = line
	// unsafe: the string views p.line, which is not written during the
	// call and not kept by it.
	return appendXMLAttr(b, unsafe.String(unsafe.SliceData(line), len(line)))
}

// experts writes the expert items hung on node i, as tshark's _ws.expert:
// a field whose showname is the item's text, as AppendExpert's without the
// brackets, and under it the item's name, message and severity. Each part
// is escaped for the terminal on its own (dissect.AppendSafe): the same
// bytes as the text escaped whole, as what joins the parts is ASCII.
func (p *pdmlRenderer) experts(b []byte, pdu *dissect.PDU, i int, depth int) []byte {
	for _, k := range p.exps.at(i) {
		e := &pdu.Experts[k]
		sev := e.Info.Severity.String()
		b = appendIndentXML(b, depth)
		b = append(b, "<field name=\"_ws.expert\" showname=\"Expert Info ("...)
		start := len(b)
		if c := sev[0]; c >= 'a' && c <= 'z' {
			b = append(b, c-'a'+'A')
		} else {
			b = append(b, c)
		}
		b = dissect.AppendSafe(b, sev[1:])
		b = append(b, '/')
		b = dissect.AppendSafe(b, e.Info.Name)
		b = append(b, "): "...)
		b = dissect.AppendSafe(b, e.Msg)
		b = escapeXMLTail(b, start)
		b = append(b, "\" size=\"0\" pos=\"0\">\n"...)
		for _, f := range [3][2]string{{e.Info.Name, e.Msg}, {"_ws.expert.message", e.Msg}, {"_ws.expert.severity", sev}} {
			b = appendIndentXML(b, depth+1)
			b = append(b, "<field name=\""...)
			b = appendXMLAttr(b, f[0])
			b = append(b, "\" showname=\""...)
			b = appendXMLAttr(b, f[1])
			b = append(b, "\" size=\"0\" pos=\"0\" show=\""...)
			b = appendXMLAttr(b, f[1])
			b = append(b, "\"/>\n"...)
		}
		b = appendIndentXML(b, depth)
		b = append(b, "</field>\n"...)
	}
	return b
}

func appendIndentXML(b []byte, depth int) []byte {
	for ; depth > 0; depth-- {
		b = append(b, ' ', ' ')
	}
	return b
}

// appendXMLAttr appends s escaped for an XML attribute, after the escaping
// of wire text every output does (no control character is left).
func appendXMLAttr(b []byte, s string) []byte {
	start := len(b)
	b = dissect.AppendSafe(b, s)
	return escapeXMLTail(b, start)
}

func appendXMLText(b []byte, s string) []byte { return appendXMLAttr(b, s) }

// escapeXMLTail escapes b[start:] for XML in place: & < > " and '.
func escapeXMLTail(b []byte, start int) []byte { return escapeTail(b, start, &xmlEscapes) }

// xmlEscapes is each byte's escape in XML, "" for a byte that stands for
// itself.
var xmlEscapes = [256]string{'&': "&amp;", '<': "&lt;", '>': "&gt;", '"': "&quot;", '\'': "&#x27;"}

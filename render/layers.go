package render

import (
	"slices"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// The layers below Minecraft (record.Record.Layers: frame, Ethernet, IP, TCP
// or UDP) in the -V text: one line each, as tshark's -O shows the layers
// it does not expand; with -O naming a layer, its fields follow its line.

// layerNode reports whether node i of the layers' tree starts a layer: the
// frame (the root) or a protocol under it.
func layerNode(p *dissect.PDU, i int) bool {
	n := &p.Nodes[i]
	return i == 0 || n.Parent == 0 && n.Field.Type == dissect.FTProtocol
}

// appendHeader appends the record's layer lines, and for reassembled PDUs
// the frames they came from, without colour or -O's fields (the HTML page
// shows these lines too).
func appendHeader(dst []byte, r *record.Record) []byte {
	return appendLayerLines(dst, r, nil)
}

// appendLayers is appendHeader with the renderer's colour and -O.
func (t *textRenderer) appendLayers(dst []byte, r *record.Record) []byte {
	return appendLayerLines(dst, r, t)
}

// appendLayerLines appends the layer lines; t, if not nil, adds colour and
// -O's fields.
func appendLayerLines(dst []byte, r *record.Record, t *textRenderer) []byte {
	p := r.LayerLines()
	if t != nil && len(t.o.Only) > 0 && expandsLayer(p, t.o.Only) {
		p = r.Layers()
	}
	expand := false
	for i := range p.Nodes {
		n := &p.Nodes[i]
		if layerNode(p, i) {
			// netlayers writes its lines from numbers, addresses and words
			// of its own, never from the wire's text: nothing in them needs
			// escaping (TestLayerTextsSafe).
			dst = t.proto(dst)
			dst = append(dst, n.Text...)
			dst = t.endProto(dst)
			expand = t != nil && slices.Contains(t.o.Only, n.Field.Name)
			continue
		}
		if !expand || n.Flags&dissect.FlagHidden != 0 {
			continue
		}
		d := 1
		for q := n.Parent; q > 0 && !layerNode(p, int(q)); q = p.Nodes[q].Parent {
			d++
		}
		dst = appendIndent(dst, d)
		if n.Field.Type == dissect.FTProtocol && n.Text != "" {
			// a header inside a layer (what an ICMP error quotes): its line as is
			m := *n
			m.Text = ""
			dst = appendNodeTail(dissect.AppendSafe(dst, n.Text), &m, &t.o)
		} else {
			dst = appendNodeTail(appendNodeHead(dst, n), n, &t.o)
		}
		dst = append(dst, '\n')
	}
	return appendParts(dst, r)
}

// expandsLayer reports whether -O (only) names one of the layers of p,
// whose fields then follow its line.
func expandsLayer(p *dissect.PDU, only []string) bool {
	for i := range p.Nodes {
		if layerNode(p, i) && slices.Contains(only, p.Nodes[i].Field.Name) {
			return true
		}
	}
	return false
}

// proto starts a protocol's header line (bold, with colour); endProto ends
// it and the line.
func (t *textRenderer) proto(dst []byte) []byte {
	if t != nil && t.o.Colour {
		dst = append(dst, sgrBold...)
	}
	return dst
}

func (t *textRenderer) endProto(dst []byte) []byte {
	if t != nil && t.o.Colour {
		dst = append(dst, sgrReset...)
	}
	return append(dst, '\n')
}

// appendParts appends the frames a reassembled PDU came from.
func appendParts(dst []byte, r *record.Record) []byte {
	if !(len(r.Parts) > 1 || r.TCP && len(r.Parts) == 1 && r.Parts[0].Frame != r.Frame) {
		return dst
	}
	total := 0
	for _, p := range r.Parts {
		total += p.Bytes
	}
	dst = append(dst, '[')
	dst = dissect.AppendInt(dst, int64(len(r.Parts)))
	switch {
	case r.TCP:
		dst = append(dst, " reassembled TCP segment"...)
	case r.Src.Addr().Is6() && !r.Src.Addr().Is4In6():
		dst = append(dst, " IPv6 fragment"...)
	default:
		dst = append(dst, " IPv4 fragment"...)
	}
	if len(r.Parts) != 1 {
		dst = append(dst, 's')
	}
	dst = append(dst, " ("...)
	dst = dissect.AppendInt(dst, int64(total))
	dst = append(dst, " bytes): "...)
	for i, p := range r.Parts {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = append(dst, '#')
		dst = dissect.AppendUint(dst, p.Frame)
		dst = append(dst, '(')
		dst = dissect.AppendInt(dst, int64(p.Bytes))
		dst = append(dst, ')')
	}
	return append(dst, "]\n"...)
}

// treeShown reports whether -O lets the tree of the record's protocol be
// shown in full.
func (t *textRenderer) treeShown(r *record.Record) bool {
	if len(t.o.Only) == 0 {
		return true
	}
	p := r.Proto
	if len(r.PDU.Nodes) > 0 {
		p = r.PDU.Nodes[0].Field.Name
	}
	return slices.Contains(t.o.Only, p)
}

// TimeFormats are the -t values, as tshark's.
var TimeFormats = []string{"a", "ad", "adoy", "d", "dd", "e", "r", "u", "ud"}

// appendTimeColumn appends the summary line's time, as -t chose: tshark's
// formats, to the microsecond.
func appendTimeColumn(dst []byte, r *record.Record, format string) []byte {
	switch format {
	case "a", "ad", "adoy", "u", "ud":
		t := r.Time
		if format[0] == 'u' {
			t = t.UTC()
		} else {
			t = t.Local()
		}
		switch format {
		case "ad", "ud":
			dst = t.AppendFormat(dst, "2006-01-02 ")
		case "adoy":
			dst = t.AppendFormat(dst, "2006/002 ")
		}
		dst = t.AppendFormat(dst, "15:04:05.")
		return dissect.AppendUintPad(dst, uint64(t.Nanosecond()/1000), 6)
	case "e":
		us := r.Time.UnixMicro()
		if us < 0 {
			return appendSeconds(dst, time.Duration(us)*time.Microsecond)
		}
		dst = dissect.AppendInt(dst, us/1e6)
		dst = append(dst, '.')
		return dissect.AppendUintPad(dst, uint64(us%1e6), 6)
	case "d":
		net := r.LayersWith(wantDelta)
		if i := net.Find("frame.time_delta"); i >= 0 {
			return appendSeconds(dst, time.Duration(net.Nodes[i].Value.Float()*1e9+0.5))
		}
		return dst // no frame of its own (bytes typed by hand)
	case "dd":
		return appendSeconds(dst, r.DeltaShown)
	}
	return appendSeconds(dst, r.Rel)
}

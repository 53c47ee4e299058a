package render

import (
	"slices"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// The layers below Minecraft in the -V text: one line each, as tshark's
// Frame, Internet Protocol and Transmission Control Protocol lines, from
// the record's Layers (the headers of the frame that completed it). With
// -O naming a layer, its fields follow its line.

// layerRefs are the fields -O shows under each layer's line.
var layerRefs = map[string][]string{
	"frame": {"frame.number", "frame.time", "frame.time_epoch", "frame.time_delta", "frame.time_relative", "frame.len", "frame.cap_len"},
	"ip":    {"ip.id", "ip.ttl", "ip.proto", "ip.src", "ip.dst"},
	"ipv6":  {"ipv6.hlim", "ipv6.nxt", "ipv6.src", "ipv6.dst"},
	"tcp":   {"tcp.srcport", "tcp.dstport", "tcp.stream", "tcp.len", "tcp.seq", "tcp.ack", "tcp.flags", "tcp.flags.syn", "tcp.flags.ack", "tcp.flags.push", "tcp.flags.reset", "tcp.flags.fin", "tcp.window_size_value", "tcp.window_size"},
	"udp":   {"udp.srcport", "udp.dstport", "udp.length"},
}

// resolveLayerRefs resolves the fields of the layers -O names.
func resolveLayerRefs(only []string) map[string][]record.FieldRef {
	m := map[string][]record.FieldRef{}
	for _, p := range only {
		for _, name := range layerRefs[p] {
			if ref, err := record.ResolveField(name); err == nil {
				m[p] = append(m[p], ref)
			}
		}
	}
	return m
}

// appendHeader appends the record's frame line, its network and transport
// lines, and for reassembled PDUs the frames they came from, without
// colour or -O's fields (the HTML page shows these lines too).
func appendHeader(dst []byte, r *record.Record, clock *stampCache) []byte {
	return appendLayerLines(dst, r, clock, nil)
}

// appendLayers is appendHeader with the renderer's colour and -O.
func (t *textRenderer) appendLayers(dst []byte, r *record.Record) []byte {
	return appendLayerLines(dst, r, &t.clock, t)
}

// appendLayerLines appends the layer lines; t, if not nil, adds colour and
// -O's fields.
func appendLayerLines(dst []byte, r *record.Record, clock *stampCache, t *textRenderer) []byte {
	l := &r.Layers
	dst = t.proto(dst)
	dst = append(dst, "Frame "...)
	dst = dissect.AppendUint(dst, r.Frame)
	dst = append(dst, ": "...)
	if l.Has&record.HasFrame != 0 {
		dst = dissect.AppendUint(dst, uint64(l.WireLen))
		dst = append(dst, " bytes on wire ("...)
		dst = dissect.AppendUint(dst, uint64(l.WireLen)*8)
		dst = append(dst, " bits), "...)
		dst = dissect.AppendUint(dst, uint64(l.CapLen))
		dst = append(dst, " bytes captured ("...)
		dst = dissect.AppendUint(dst, uint64(l.CapLen)*8)
		dst = append(dst, " bits), "...)
	}
	dst = clock.appendStamp(dst, r.Time)
	dst = append(dst, " UTC"...)
	if r.TCP {
		dst = append(dst, ", TCP stream "...)
		dst = dissect.AppendInt(dst, int64(r.Stream))
	} else {
		dst = append(dst, ", UDP"...)
	}
	dst = append(dst, ", "...)
	switch r.PDU.Dir {
	case dissect.DirC2S:
		dst = append(dst, "client → server"...)
	case dissect.DirS2C:
		dst = append(dst, "server → client"...)
	default:
		dst = append(dst, "direction unknown"...)
	}
	dst = t.endProto(dst)
	dst = t.appendLayerFields(dst, r, "frame")
	if !r.Src.IsValid() {
		return appendParts(dst, r)
	}
	dst = t.proto(dst)
	ipName := "ip"
	if r.Src.Addr().Is4() || r.Src.Addr().Is4In6() {
		dst = append(dst, "Internet Protocol Version 4, Src: "...)
	} else {
		ipName = "ipv6"
		dst = append(dst, "Internet Protocol Version 6, Src: "...)
	}
	dst = appendAddr(dst, r.Src.Addr().Unmap())
	dst = append(dst, ", Dst: "...)
	dst = appendAddr(dst, r.Dst.Addr().Unmap())
	dst = t.endProto(dst)
	dst = t.appendLayerFields(dst, r, ipName)
	dst = t.proto(dst)
	if r.TCP {
		dst = append(dst, "Transmission Control Protocol, Src Port: "...)
	} else {
		dst = append(dst, "User Datagram Protocol, Src Port: "...)
	}
	dst = dissect.AppendUint(dst, uint64(r.Src.Port()))
	dst = append(dst, ", Dst Port: "...)
	dst = dissect.AppendUint(dst, uint64(r.Dst.Port()))
	if r.TCP && l.Has&record.HasTCP != 0 {
		dst = append(dst, ", Seq: "...)
		dst = dissect.AppendUint(dst, uint64(l.Seq))
		if l.TCPFlags&record.TCPFlagACK != 0 {
			dst = append(dst, ", Ack: "...)
			dst = dissect.AppendUint(dst, uint64(l.Ack))
		}
		dst = append(dst, ", Len: "...)
		dst = dissect.AppendUint(dst, uint64(l.TCPLen))
	}
	dst = t.endProto(dst)
	if r.TCP {
		dst = t.appendLayerFields(dst, r, "tcp")
	} else {
		dst = t.appendLayerFields(dst, r, "udp")
	}
	return appendParts(dst, r)
}

// appendLayerFields appends, when -O names the layer, its fields one
// level in.
func (t *textRenderer) appendLayerFields(dst []byte, r *record.Record, layer string) []byte {
	if t == nil || len(t.o.Only) == 0 {
		return dst
	}
	if t.layerRefs == nil {
		t.layerRefs = resolveLayerRefs(t.o.Only)
	}
	refs := t.layerRefs[layer]
	for i := range refs {
		refs[i].Each(r, func(n *dissect.Node) {
			dst = appendIndent(dst, 1)
			dst = appendNodeTail(appendNodeHead(dst, n), n, &t.o)
			dst = append(dst, '\n')
		})
	}
	return dst
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
	if r.TCP {
		dst = append(dst, " reassembled TCP segment"...)
	} else {
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
		if r.Layers.Has&record.HasFrame == 0 {
			return dst // released at a flush: no frame of its own was read
		}
		return appendSeconds(dst, r.Layers.Delta)
	case "dd":
		return appendSeconds(dst, r.DeltaShown)
	}
	return appendSeconds(dst, r.Rel)
}

// appendEKLayer appends to an -T ek layer object the header fields of the
// record's frame that tshark's ek output has, when they are known:
// frame (length, captured length, delta), ip or ipv6 (ttl, id, protocol),
// tcp (seq, ack, len, flags, windows) or udp (length).
func appendEKLayer(b []byte, r *record.Record, layer string) []byte {
	l := &r.Layers
	num := func(b []byte, name string, v uint64) []byte {
		b = append(b, `,"`...)
		b = append(b, name...)
		b = append(b, `":`...)
		return dissect.AppendUint(b, v)
	}
	switch layer {
	case "frame":
		if l.Has&record.HasFrame != 0 {
			b = append(b, `,"frame_frame_time_delta":`...)
			b = record.AppendSeconds9(b, l.Delta)
			b = num(b, "frame_frame_len", uint64(l.WireLen))
			b = num(b, "frame_frame_cap_len", uint64(l.CapLen))
		}
	case "ip":
		if l.Has&record.HasIPv4 != 0 {
			b = num(b, "ip_ip_ttl", uint64(l.TTL))
			b = append(b, `,"ip_ip_id":"0x`...)
			b = appendHex(b, uint64(l.IPID), 4)
			b = append(b, '"')
			b = num(b, "ip_ip_proto", uint64(l.IPProto))
		}
	case "ipv6":
		if l.Has&record.HasIPv6 != 0 {
			b = num(b, "ipv6_ipv6_hlim", uint64(l.TTL))
			b = num(b, "ipv6_ipv6_nxt", uint64(l.IPProto))
		}
	case "tcp":
		if l.Has&record.HasTCP != 0 {
			b = num(b, "tcp_tcp_len", uint64(l.TCPLen))
			b = num(b, "tcp_tcp_seq", uint64(l.Seq))
			b = num(b, "tcp_tcp_ack", uint64(l.Ack))
			b = append(b, `,"tcp_tcp_flags":"0x`...)
			b = appendHex(b, uint64(l.TCPFlags), 4)
			b = append(b, '"')
			b = num(b, "tcp_tcp_window_size_value", uint64(l.Window))
			b = num(b, "tcp_tcp_window_size", uint64(l.WindowSize()))
		}
	case "udp":
		if l.Has&record.HasUDP != 0 {
			b = num(b, "udp_udp_length", uint64(l.UDPLen))
		}
	}
	return b
}

// appendHex appends v in lower-case hex, at least digits digits, as
// tshark writes ip.id and tcp.flags.
func appendHex(b []byte, v uint64, digits int) []byte {
	var tmp [16]byte
	i := len(tmp)
	for v != 0 || len(tmp)-i < digits {
		i--
		tmp[i] = "0123456789abcdef"[v&15]
		v >>= 4
	}
	return append(b, tmp[i:]...)
}

// appendJSONLayers appends to a -T json record its frame's header fields,
// by field name, as numbers: "layers": {"frame.len": 82, ...}. Nothing
// when the record's frame is not known.
func appendJSONLayers(b []byte, r *record.Record) []byte {
	l := &r.Layers
	if l.Has&record.HasFrame == 0 {
		return b
	}
	num := func(b []byte, name string, v uint64) []byte {
		b = append(b, ", \""...)
		b = append(b, name...)
		b = append(b, "\": "...)
		return dissect.AppendUint(b, v)
	}
	b = append(b, ", \"layers\": {\"frame.len\": "...)
	b = dissect.AppendUint(b, uint64(l.WireLen))
	b = num(b, "frame.cap_len", uint64(l.CapLen))
	b = append(b, ", \"frame.time_delta\": "...)
	b = record.AppendSeconds9(b, l.Delta)
	switch {
	case l.Has&record.HasIPv4 != 0:
		b = num(b, "ip.ttl", uint64(l.TTL))
		b = num(b, "ip.id", uint64(l.IPID))
		b = num(b, "ip.proto", uint64(l.IPProto))
	case l.Has&record.HasIPv6 != 0:
		b = num(b, "ipv6.hlim", uint64(l.TTL))
		b = num(b, "ipv6.nxt", uint64(l.IPProto))
	}
	switch {
	case l.Has&record.HasTCP != 0:
		b = num(b, "tcp.seq", uint64(l.Seq))
		b = num(b, "tcp.ack", uint64(l.Ack))
		b = num(b, "tcp.len", uint64(l.TCPLen))
		b = num(b, "tcp.flags", uint64(l.TCPFlags))
		b = num(b, "tcp.window_size_value", uint64(l.Window))
		b = num(b, "tcp.window_size", uint64(l.WindowSize()))
	case l.Has&record.HasUDP != 0:
		b = num(b, "udp.length", uint64(l.UDPLen))
	}
	return append(b, '}')
}

package render

import (
	"slices"
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// ekRenderer writes -T ek: newline-delimited JSON for Elasticsearch's bulk
// API in tshark's shape. Each record is two lines: an index action
//
//	{"index":{"_index":"packets-2026-11-22","_type":"doc"}}
//
// and a document {"timestamp":"<ms since the epoch>","layers":{...}} whose
// layers are objects named by protocol ("frame", "ip", "tcp", "slp", "mc"),
// their members tshark's flattened names: the protocol, "_", then the
// field's filter name with dots as underscores ("frame_frame_number",
// "slp_slp_status_players_online"). Unlike tshark 4.0, which writes every
// value as a string, numbers are JSON numbers and booleans JSON booleans,
// so index templates can map them without scripts; a name that occurs
// more than once in a record holds an array of its values, in tree order.
// With -e, the layers are the named fields only, each an array, as
// tshark's -T ek -e.
type ekRenderer struct {
	batchWriter
	o     Options
	clock stampCache
	// By field ID: the last node of the field's name in the current record
	// (for most fields; in seen for keyed ones) and its member's name.
	fields []ekField
	g      uint32
	seen   map[ekName]int32 // keyed names -> index in extra
	extra  []int32
	order  []int32 // nodes of the layer, first occurrence of each name
	// next[i]: the next node of node i's name, 0 for none (the root is
	// never one): each name's occurrences are one linked walk, so a record
	// of many repeated names costs its nodes, not names × nodes.
	next []int32
	// limit is where a document bounded by Options.MaxDoc ends in the
	// buffer being appended to (0: unbounded), omitted the fields left
	// out past it
	limit   int
	omitted int
	lay     []int32 // by node: its layer (layers)
	key     []byte
}

func (e *ekRenderer) Begin() error { return nil }
func (e *ekRenderer) End() error   { return e.Flush() }

// Record formats r into the renderer's buffer, in pieces (batchWriter).
func (e *ekRenderer) Record(r *record.Record) error {
	return e.done(e.Append(e.begin(), r, false))
}

func (e *ekRenderer) Raw(b []byte, _ int) error { return e.raw(b) }

// Append appends r's two lines.
func (e *ekRenderer) Append(b []byte, r *record.Record, _ bool) []byte {
	b = append(b, `{"index":{"_index":"packets-`...)
	b = append(b, e.clock.date(r.Time)...) // formatted once a second
	b = append(b, `","_type":"doc"}}`+"\n"...)
	e.limit, e.omitted = 0, 0
	if e.o.MaxDoc > 0 && !e.cutting {
		e.limit = len(b) + max(e.o.MaxDoc-docReserve, docReserve)
	}
	b = append(b, `{"timestamp":"`...)
	b = dissect.AppendInt(b, r.Time.UnixMilli())
	b = append(b, `","layers":{`...)
	if len(e.o.Fields) > 0 {
		b = e.appendFields(b, r)
	} else {
		b = e.appendLayers(b, r)
	}
	if e.omitted > 0 {
		b = append(b, `,"mc_omitted":{"mc_omitted_fields":`...)
		b = dissect.AppendInt(b, int64(e.omitted))
		b = append(b, '}')
	}
	return append(b, "}}\n"...)
}

// docReserve is what a bounded document keeps for what follows the last
// field that fits: the brackets that close it and the count of the rest.
const docReserve = 128

// over reports whether b has passed the bounded document's end.
func (e *ekRenderer) over(b []byte) bool { return e.limit > 0 && len(b) > e.limit }

// appendFields writes the -e fields: "name_with_underscores":[values].
func (e *ekRenderer) appendFields(b []byte, r *record.Record) []byte {
	first := true
	for _, fr := range e.o.Fields {
		if c := columnOf(fr); c != 0 {
			if !first {
				b = append(b, ',')
			}
			first = false
			e.key = appendUnderscored(e.key[:0], fr.Name)
			b = appendJSONBytes(b, e.key)
			b = append(b, `:["`...)
			b = appendJSONEscaped(b, string(appendColumn(nil, r, c, e.o.Time)))
			b = append(b, `"]`...)
			continue
		}
		n := 0
		fr.Each(r, func(nd *dissect.Node) {
			if e.omitted > 0 {
				e.omitted++ // past a bounded document's end
				return
			}
			mark := len(b)
			if n == 0 {
				if !first {
					b = append(b, ',')
				}
				e.key = appendUnderscored(e.key[:0], fr.Name)
				b = appendJSONBytes(b, e.key)
				b = append(b, `:[`...)
			} else {
				b = e.cut(b)
				b = append(b, ',')
			}
			b = e.appendValue(b, nd)
			if e.over(b) {
				b = b[:mark]
				e.omitted++
				return
			}
			first = false
			n++
		})
		if n > 0 {
			b = append(b, ']')
		}
	}
	return b
}

// appendLayers writes the frame, link, network, transport, Minecraft and
// protocol layers of a record.
func (e *ekRenderer) appendLayers(b []byte, r *record.Record) []byte {
	first := true
	net := r.Layers()
	e.layers(net)
	for i := range net.Nodes {
		if e.lay[i] == isLayer {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = e.appendLayer(b, net, i)
		}
	}
	if first {
		b = append(b, `"frame":{"frame_frame_number":`...)
		b = dissect.AppendUint(b, r.Frame)
		b = append(b, '}')
	}
	b = append(b, `,"mc":{"mc_mc_protocol":`...)
	b = appendJSONString(b, r.Proto)
	b = append(b, `,"mc_mc_direction":"`...)
	b = append(b, r.PDU.Dir.String()...)
	b = append(b, `","mc_mc_message":`...)
	msg := r.PDU.Message
	switch r.Kind {
	case record.KindGap:
		msg = "[missing bytes]"
	case record.KindUndissected:
		msg = "[undissected bytes]"
	case record.KindConflict:
		msg = "[retransmission with different bytes]"
	}
	b = appendJSONString(b, msg)
	b = append(b, `,"mc_mc_info":`...)
	b = appendJSONString(b, r.PDU.Info)
	if r.GapLength > 0 {
		b = append(b, `,"mc_mc_gap_length":`...)
		b = dissect.AppendInt(b, int64(r.GapLength))
	}
	if len(r.Parts) > 0 {
		b = append(b, `,"mc_mc_reassembled_frames":[`...)
		for i, p := range r.Parts {
			if i > 0 {
				b = append(b, ',')
			}
			b = dissect.AppendUint(b, p.Frame)
		}
		b = append(b, ']')
	}
	if len(r.PDU.Experts) > 0 {
		b = append(b, `,"mc_mc_expert":[`...)
		for i, x := range r.PDU.Experts {
			if i > 0 {
				b = e.cut(b)
				b = append(b, ',')
			}
			b = appendJSONString(b, x.Info.Name)
		}
		b = append(b, `],"mc_mc_expert_message":[`...)
		for i, x := range r.PDU.Experts {
			if i > 0 {
				b = e.cut(b)
				b = append(b, ',')
			}
			b = appendJSONString(b, x.Msg)
		}
		b = append(b, ']')
	}
	b = append(b, '}')
	if len(r.PDU.Nodes) > 0 && r.Kind == record.KindPDU {
		b = append(b, ',')
		e.layers(&r.PDU)
		b = e.appendLayer(b, &r.PDU, 0)
	}
	return b
}

// appendLayer writes the subtree of node at, a protocol's, flattened: one
// member per filter name, arrays where a name repeats. A layer below it in
// the tree (the IP layer under the frame) is a layer of its own. e.lay is
// p's (layers).
func (e *ekRenderer) appendLayer(b []byte, p *dissect.PDU, at int) []byte {
	rootField := p.Nodes[at].Field
	root := rootField.Name
	e.g++
	if len(e.seen) > 0 {
		clear(e.seen) // keeps its buckets: no allocation per record
		e.extra = e.extra[:0]
	}
	e.order = e.order[:0]
	e.next = slices.Grow(e.next[:0], len(p.Nodes))[:len(p.Nodes)]
	for i := at + 1; i < len(p.Nodes); i++ {
		n := &p.Nodes[i]
		if at > 0 && n.Parent < int32(at) {
			break // past the layer's subtree
		}
		if e.lay[i] != int32(at) || !ekShown(n) {
			continue
		}
		last := e.last(n)
		if *last == 0 {
			e.order = append(e.order, int32(i))
		} else {
			e.next[*last] = int32(i)
		}
		e.next[i] = 0
		*last = int32(i)
	}
	b = append(b, '"')
	b = appendJSONEscaped(b, root)
	b = append(b, `":{`...)
	for k, i := range e.order {
		n := &p.Nodes[i]
		mark := len(b)
		if k > 0 {
			b = e.cut(b)
			b = append(b, ',')
		}
		b = e.appendName(b, rootField, n)
		if e.next[i] == 0 {
			b = e.appendValue(b, n)
			if e.over(b) {
				e.omit(i, e.order[k+1:])
				return append(b[:mark], '}')
			}
			continue
		}
		b = append(b, '[')
		for j := i; j != 0; j = e.next[j] {
			vmark := len(b)
			if j != i {
				b = e.cut(b)
				b = append(b, ',')
			}
			b = e.appendValue(b, &p.Nodes[j])
			if e.over(b) {
				e.omit(j, e.order[k+1:])
				if j == i {
					return append(b[:mark], '}')
				}
				return append(b[:vmark], "]}"...)
			}
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// omit counts in omitted the nodes a bounded document leaves out: those
// of the name being written from node j on, and every node of the names
// after it.
func (e *ekRenderer) omit(j int32, rest []int32) {
	for ; j != 0; j = e.next[j] {
		e.omitted++
	}
	for _, i := range rest {
		for j := i; j != 0; j = e.next[j] {
			e.omitted++
		}
	}
}

// isLayer marks a layer's own node in ekRenderer.lay.
const isLayer = -2

// layers sets e.lay for p: for each node, isLayer for a layer's own node
// (layerNode), else the layer it belongs to, its nearest ancestor that
// starts one (-1 for none: a second root). One pass in pre-order, each
// node from its parent's: a layer's nodes are found without walking up
// from each.
func (e *ekRenderer) layers(p *dissect.PDU) {
	lay := slices.Grow(e.lay[:0], len(p.Nodes))[:len(p.Nodes)]
	for i := range p.Nodes {
		if layerNode(p, i) {
			lay[i] = isLayer
			continue
		}
		q := p.Nodes[i].Parent
		switch {
		case q >= int32(i): // not in pre-order (Check rejects it)
			lay[i] = -1
		case q > 0 && lay[q] != isLayer:
			lay[i] = lay[q]
		default:
			lay[i] = max(q, -1)
		}
	}
	e.lay = lay
}

// ekField is what the renderer keeps of a field.
type ekField struct {
	// last is the last node of the field's name so far in the record of
	// generation gen, 0 for none: stamped so, nothing is cleared per record.
	gen  uint32
	last int32
	// name is the field's member name in the layer of root (the tree's
	// root field) and its colon, quoted and escaped
	// ("slp_slp_status_version_name":), made once.
	root *dissect.Field
	name []byte
}

// field returns what the renderer keeps of n's field, nil for a field
// without an ID.
func (e *ekRenderer) field(n *dissect.Node) *ekField {
	id := n.Field.ID()
	if id == 0 {
		return nil
	}
	if id >= len(e.fields) {
		e.fields = append(e.fields, make([]ekField, id+1-len(e.fields))...)
	}
	return &e.fields[id]
}

// appendName appends n's member name in the layer root and its colon:
// the root's name, '_', the field's filter name and its key, if any, with dots
// as underscores.
func (e *ekRenderer) appendName(b []byte, root *dissect.Field, n *dissect.Node) []byte {
	f := e.field(n)
	if f != nil && n.Key == "" && f.root == root {
		return append(b, f.name...)
	}
	e.key = append(e.key[:0], root.Name...)
	e.key = append(e.key, '_')
	e.key = appendUnderscored(e.key, n.Field.Name)
	if n.Key != "" {
		e.key = append(e.key, '_')
		e.key = appendUnderscored(e.key, n.Key)
	}
	if f == nil || n.Key != "" {
		b = appendJSONBytes(b, e.key)
		return append(b, ':')
	}
	f.root = root
	f.name = append(appendJSONBytes(f.name[:0], e.key), ':')
	return append(b, f.name...)
}

// last is where the last node of n's name in the current record so far is
// kept (0: none yet).
func (e *ekRenderer) last(n *dissect.Node) *int32 {
	if f := e.field(n); f != nil && n.Key == "" {
		if f.gen != e.g {
			f.gen, f.last = e.g, 0
		}
		return &f.last
	}
	if e.seen == nil {
		e.seen = map[ekName]int32{}
	}
	k := ekName{n.Field, n.Key}
	i, ok := e.seen[k]
	if !ok {
		i = int32(len(e.extra))
		e.seen[k] = i
		e.extra = append(e.extra, 0)
	}
	return &e.extra[i]
}

// ekName is a node's filter name as a map key, without building the
// string: its field and, for keyed fields, its key.
type ekName struct {
	f   *dissect.Field
	key string
}

// ekShown reports whether a node has a value for ek: labels without text
// (subtree headers) are left out, as tshark leaves out text-only items.
func ekShown(n *dissect.Node) bool {
	return n.Field.Type != dissect.FTNone && n.Field.Type != dissect.FTProtocol || n.Text != ""
}

// appendValue writes a node's value typed: numbers as JSON numbers,
// booleans, text as strings, bytes as tshark writes them (hex with
// colons); a label's text as a string.
func (e *ekRenderer) appendValue(b []byte, n *dissect.Node) []byte {
	if redacted(&e.o, n) {
		return appendJSONString(b, redactedText)
	}
	v := n.Value
	switch n.Field.Type {
	case dissect.FTUint, dissect.FTFrameNum:
		return dissect.AppendUint(b, v.N)
	case dissect.FTInt:
		return dissect.AppendInt(b, v.Int())
	case dissect.FTFloat:
		if len(v.B) > 0 { // dissect.FExact
			return append(b, v.B...)
		}
		return dissect.AppendFloat(b, v.Float(), 'g') // as strconv's 'g', -1
	case dissect.FTBool:
		return strconv.AppendBool(b, v.Bool())
	case dissect.FTString:
		return appendJSONBytes(b, v.B)
	case dissect.FTBytes:
		b = append(b, '"')
		b = e.appendHex(b, v.B, ':')
		return append(b, '"')
	case dissect.FTAbsTime:
		b = append(b, '"')
		b = e.clock.appendStamp(b, v.Time()) // dissect.AppendISOTime's, the date and time of day formatted once a second
		return append(b, "Z\""...)
	}
	return appendJSONString(b, n.Text)
}

// appendUnderscored appends a filter name with its dots as underscores,
// as tshark's ek names fields; the caller escapes the result for JSON.
func appendUnderscored(b []byte, name string) []byte {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '.' {
			c = '_'
		}
		b = append(b, c)
	}
	return b
}

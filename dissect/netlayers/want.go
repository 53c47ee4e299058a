package netlayers

import (
	"strings"

	"github.com/mcdissect/mcdissect/dissect"
)

// Want is a set of the layers' fields: the nodes a walk (Make) is asked
// for. As Wireshark makes only the items a filter, a column or a shown
// tree reads ("interesting fields"), a reader of two fields pays for two
// nodes, not fifty. A layer's node is made when the set asks for it (a
// filter testing "tcp"), for its line (the text -V shows), or for a field
// of it; the frame's node, the expert items and the bytes no field
// explains are made whatever the set. A tree made for a set is the whole
// tree (All) less the nodes the set does not ask for.
type Want struct{ bits [2]uint64 }

// All asks for the whole tree (-T json, the page); Lines for the layers'
// nodes and lines only, the outline -V shows.
var All, Lines Want

func init() {
	idBase = RegFrame.Root().ID()
	for _, r := range registries {
		roots = append(roots, r.Root())
		for _, f := range r.Fields() {
			b := f.ID() - idBase
			for len(fieldOf) <= b {
				fieldOf = append(fieldOf, nil)
			}
			fieldOf[b] = f
		}
	}
	nFields = bit(len(fieldOf))
	// fields.go registers one block: the roots, then every field, with no
	// other package's between (those come later, past the block)
	for _, f := range fieldOf {
		if f == nil || !own[f] {
			panic("netlayers: the layers' fields are not one block of IDs")
		}
	}
	for i, r := range roots {
		if fieldBit(r) != bit(i) {
			panic("netlayers: the layers' roots are not registered first")
		}
	}
	if int(nFields)+len(roots) > 128 {
		panic("netlayers: more fields than a Want holds")
	}
	fieldsOf = make([]Want, nFields)
	layerOf = make([]Want, nFields)
	rootOf = make([]bit, nFields)
	for b := range nFields + bit(len(roots)) {
		All.add(b)
	}
	for ri := range roots {
		r := bit(ri)
		Lines.add(r)
		Lines.add(nodeOf(r))
		for b, f := range fieldOf {
			if strings.HasPrefix(f.Name, roots[r].Name+".") {
				fieldsOf[r].add(bit(b))
				rootOf[b] = r
			}
		}
		layerOf[r] = fieldsOf[r]
		layerOf[r].add(r)
		layerOf[r].add(nodeOf(r))
	}
	// An ICMP error's node holds the datagram it quotes.
	for _, r := range [...]*dissect.Field{RegICMP.Root(), RegICMP6.Root()} {
		for _, q := range [...]*dissect.Field{RegIP.Root(), RegIPv6.Root(), RegTCP.Root(), RegUDP.Root()} {
			layerOf[fieldBit(r)] = layerOf[fieldBit(r)].Or(layerOf[fieldBit(q)])
		}
	}
}

// fieldsOf is, for a layer's own field, the set of its fields: a walk
// that is asked for none of them reads past the layer's header at once.
// layerOf is what makes the layer's node: its fields, its line, the node
// itself, and for ICMP what the quoted datagram holds. rootOf is the
// layer of each field.
var (
	fieldsOf, layerOf []Want
	rootOf            []bit
)

// anyIn reports whether w asks for anything of m.
func (w *Want) anyIn(m *Want) bool {
	return w.bits[0]&m.bits[0] != 0 || w.bits[1]&m.bits[1] != 0
}

// anyOf reports whether w asks for a field of the layer whose own field is
// root.
func (w *Want) anyOf(root *dissect.Field) bool { return w.anyIn(&fieldsOf[fieldBit(root)]) }

// wants reports whether w asks for f, a field of the layers.
func (w *Want) wants(f *dissect.Field) bool { return w.has(fieldBit(f)) }

// nodeOf is the bit that asks for the node of the layer whose own field is
// root, without its line: the node bits follow the fields'.
func nodeOf(root bit) bit { return nFields + root }

// WantField is the set that asks for f: empty for a field that is not the
// layers'. A layer's own field asks for its node (a filter testing "ip");
// a field of a layer, for the layer's node too, and a flag for its flags
// field (tcp.flags.syn for tcp.flags), under which the tree shows them.
func WantField(f *dissect.Field) Want {
	var w Want
	if !own[f] {
		return w
	}
	b := fieldBit(f)
	if int(b) < len(roots) {
		w.add(nodeOf(b))
		return w
	}
	w.add(b)
	w.add(nodeOf(rootOf[b]))
	switch f {
	case FieldIPFlagDF, FieldIPFlagMF:
		w.add(fieldBit(FieldIPFlags))
	case FieldTCPFlagCWR, FieldTCPFlagECE, FieldTCPFlagURG, FieldTCPFlagACK, FieldTCPFlagPSH, FieldTCPFlagRST, FieldTCPFlagSYN, FieldTCPFlagFIN:
		w.add(fieldBit(FieldTCPFlags))
	}
	return w
}

// Or is what w and o ask for together.
func (w Want) Or(o Want) Want {
	return Want{[2]uint64{w.bits[0] | o.bits[0], w.bits[1] | o.bits[1]}}
}

// Covers reports whether w asks for everything o asks for.
func (w Want) Covers(o Want) bool {
	return o.bits[0]&^w.bits[0] == 0 && o.bits[1]&^w.bits[1] == 0
}

// IsZero reports whether w asks for nothing.
func (w Want) IsZero() bool { return w.bits == [2]uint64{} }

func (w *Want) add(b bit)      { w.bits[b>>6] |= 1 << (b & 63) }
func (w *Want) has(b bit) bool { return w.bits[b>>6&1]>>(b&63)&1 != 0 }

// bit is a field's place in a Want. The layers' fields are registered in
// one block (fields.go: the registries, whose roots come first, then their
// fields), so a field's bit is its ID less the first root's; each layer's
// node bit follows the fields' (nodeOf).
type bit uint8

var (
	idBase  int              // the ID of the first root, frame's
	nFields bit              // how many fields the layers have, roots included
	roots   []*dissect.Field // the layers' own fields: their bits ask for their lines
	fieldOf []*dissect.Field // the field of each bit
)

// fieldBit is f's bit; f is one of the layers' fields.
func fieldBit(f *dissect.Field) bit { return bit(f.ID() - idBase) }

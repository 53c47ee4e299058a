package record

import (
	"fmt"
	"net/netip"
	"slices"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
)

// The record-level pseudo-fields, registered so that -e, -Y and -G fields
// know them. Their values come from the record, not from a tree.
var (
	PFProtocol  = dissect.Core.Str("mc.protocol", "Protocol")
	PFDirection = dissect.Core.Str("mc.direction", "Direction")
	PFMessage   = dissect.Core.Str("mc.message", "Message")
	PFExpert    = dissect.Core.Str("mc.expert", "Expert items")
	PFFrames    = dissect.Core.Uint("mc.reassembled.frames", "Reassembled from frames", dissect.BaseDec, nil)
	PFGapLength = dissect.Core.Uint("mc.gap.length", "Missing bytes", dissect.BaseDec, nil)

	// Tree fields the pipeline itself adds.
	FieldReassembled = dissect.Core.Label("mc.reassembled", "Reassembled TCP segments")
	FieldGap         = dissect.Core.Label("mc.gap", "Missing bytes (not captured)")
	FieldRetrans     = dissect.Core.Uint("mc.retransmission.differing", "Retransmitted bytes that differ from the first copy", dissect.BaseDec, nil)

	ExpertGap           = dissect.Core.Expert("mc.gap", dissect.SevWarn, "bytes of the stream were not captured; nothing is parsed across them")
	ExpertRetransDiffer = dissect.Core.Expert("mc.retransmission.differing", dissect.SevWarn, "a retransmitted segment carries bytes that differ from the first copy, which was used")
	ExpertPanic         = dissect.Core.Expert("mc.panic", dissect.SevError, "a decoder panicked on these bytes (a bug of mcdissect): the PDU is shown undissected and the run goes on")
	ExpertStreamLost    = dissect.Core.Expert("mc.stream.undissected", dissect.SevWarn, "stream bytes that no PDU explains")
)

// FieldRef is a field name resolved once (for -e, -Y and statistics): a
// record pseudo-field, a tree field (of the PDU's tree or of the layers
// below it), or one key of a keyed field.
type FieldRef struct {
	Name   string
	Field  *dissect.Field
	Key    string
	pseudo bool
	// layers is what the field asks of the layers' tree (LayersWith),
	// when resolved: layered tells whether it may be in it.
	layers   netlayers.Want
	layered  bool
	resolved bool
}

// ResolveField looks a filter name up in the registries.
func ResolveField(name string) (FieldRef, error) {
	f, key, ok := dissect.LookupField(name)
	if !ok {
		return FieldRef{}, fmt.Errorf("%q is not a field name; `mcdissect -G fields` lists them all", name)
	}
	return FieldRef{Name: name, Field: f, Key: key, pseudo: isPseudo(f), layers: netlayers.WantField(f),
		layered: f == dissect.FieldUndissected || netlayers.Owns(f), resolved: true}, nil
}

func isPseudo(f *dissect.Field) bool {
	switch f {
	case PFProtocol, PFDirection, PFMessage, PFExpert, PFFrames, PFGapLength, dissect.Core.Root():
		return true
	}
	return false
}

// NeedsTree reports whether the field's values come from the PDU's tree
// (or its expert items), so that decoding must not be Lite.
func (f FieldRef) NeedsTree() bool {
	return !f.pseudo && !f.InLayers() || f.Field == PFExpert
}

// InLayers reports whether the field is one of the layers below Minecraft
// (Record.Layers): frame, eth, ip, tcp...
func (f FieldRef) InLayers() bool { return netlayers.Owns(f.Field) }

// Layers is what the field reads of the layers below Minecraft: itself
// (a layer's own field, ip or tcp: the layer's node), when it is one of
// their fields; nothing otherwise. A reader of records says it in its
// Needs.
func (f FieldRef) Layers() netlayers.Want { return netlayers.WantField(f.Field) }

// Each calls fn with every occurrence of the field in r (and of its
// Alts, the fields it shares its name with), in tree order:
// the layers' tree first, then the PDU's. For pseudo-fields the node is
// made up for the call and must not be kept. Protocol roots match their
// protocol's records, as in Wireshark, where a protocol name alone is a
// filter. fn reads no other field of r: a field of the layers the tree
// was not made with makes it again (Record.LayersWith).
func (f *FieldRef) Each(r *Record, fn func(n *dissect.Node)) {
	if f.pseudo {
		f.eachPseudo(r, fn)
		return
	}
	var alts []*dissect.Field
	if f.Field != nil {
		alts = f.Field.Alts
	}
	for _, p := range [2]*dissect.PDU{f.layersOf(r), &r.PDU} {
		for i := range p.Nodes {
			n := &p.Nodes[i]
			if n.Field != f.Field && (alts == nil || !slices.Contains(alts, n.Field)) {
				continue
			}
			if f.Key != "" && n.Key != f.Key {
				continue
			}
			fn(n)
		}
	}
}

// layersOf is r's layers' tree, made with the field, when the field may
// be in it, else an empty tree: a field of a protocol's makes no layers.
func (f *FieldRef) layersOf(r *Record) *dissect.PDU {
	if !f.resolved { // a FieldRef made by hand
		if f.Field == dissect.FieldUndissected || f.InLayers() {
			return r.LayersWith(f.Layers())
		}
		return &noLayers
	}
	if f.layered {
		return r.LayersWith(f.layers)
	}
	return &noLayers
}

// noLayers is the empty tree layersOf gives; nothing writes it.
var noLayers dissect.PDU

func (f *FieldRef) eachPseudo(r *Record, fn func(n *dissect.Node)) {
	// The node lives in the record, not here: a local one passed to fn
	// would escape and cost an allocation per field per record.
	n := &r.pseudo
	*n = dissect.Node{Field: f.Field, Parent: -1, Flags: dissect.FlagGenerated}
	emit := func(v dissect.Value) { n.Value = v; fn(n) }
	switch f.Field {
	case dissect.Core.Root():
		emit(dissect.Value{})
	case PFProtocol:
		emit(dissect.S(r.Proto))
	case PFDirection:
		emit(dissect.S(r.PDU.Dir.String()))
	case PFMessage:
		if r.PDU.Message != "" {
			emit(dissect.S(r.PDU.Message))
		}
	case PFExpert:
		for _, e := range r.PDU.Experts {
			emit(dissect.S(e.Info.Name))
		}
	case PFFrames:
		for _, p := range r.Parts {
			emit(dissect.U(p.Frame))
		}
	case PFGapLength:
		if r.Kind == KindGap {
			emit(dissect.U(uint64(r.GapLength)))
		}
	}
}

// AddrFamily is 4 for the IPv4 address fields (ip.src, ip.dst, ip.addr), 6
// for the IPv6 ones, 0 for every other field. Their values show as text
// (-e, -T json); filters compare them as addresses, with CIDR prefixes,
// through EachAddr.
func (f FieldRef) AddrFamily() int { return int(f.Field.Addr) }

// EachAddr calls fn with every address an address field (AddrFamily != 0)
// has in r, in the order Each gives them.
func (f *FieldRef) EachAddr(r *Record, fn func(netip.Addr)) {
	f.Each(r, func(n *dissect.Node) {
		if a, err := netip.ParseAddr(n.Value.View()); err == nil {
			fn(a)
		}
	})
}

package analyze

import (
	"fmt"
	"strings"

	"github.com/mcdissect/mcdissect/dissect"
)

// FieldRef is a field name resolved once (for -e, -Y and statistics): a
// record pseudo-field, a tree field, or one key of a keyed field.
type FieldRef struct {
	Name   string
	Field  *dissect.Field
	Key    string
	pseudo bool
}

// ResolveField looks a filter name up in the registries.
func ResolveField(name string) (FieldRef, error) {
	f, key, ok := dissect.LookupField(name)
	if !ok {
		return FieldRef{}, fmt.Errorf("%q is not a field name; `mcdissect -G fields` lists them all", name)
	}
	return FieldRef{Name: name, Field: f, Key: key, pseudo: isPseudo(f)}, nil
}

func isPseudo(f *dissect.Field) bool {
	switch f {
	case PFFrameNumber, PFTimeRelative, PFTimeEpoch, PFIPSrc, PFIPDst, PFIPv6Src, PFIPv6Dst,
		PFUDPSrc, PFUDPDst, PFTCPSrc, PFTCPDst, PFTCPStream,
		PFProtocol, PFDirection, PFMessage, PFExpert, PFFrames, PFGapLength:
		return true
	}
	return isNetPseudo(f) || isLayerPseudo(f) || isEthPseudo(f)
}

// NeedsTree reports whether the field's values come from the dissection
// tree (or its expert items), so that decoding must not be Lite.
func (f FieldRef) NeedsTree() bool { return !f.pseudo || f.Field == PFExpert }

// Each calls fn with every occurrence of the field in r, in tree order. For
// pseudo-fields the node is made up for the call and must not be kept.
// Protocol roots match their protocol's records, as in Wireshark, where a
// protocol name alone is a filter.
func (f FieldRef) Each(r *Record, fn func(n *dissect.Node)) {
	if f.pseudo {
		f.eachPseudo(r, fn)
		return
	}
	for i := range r.PDU.Nodes {
		n := &r.PDU.Nodes[i]
		if n.Field != f.Field {
			continue
		}
		if f.Key != "" && n.Key != f.Key {
			continue
		}
		fn(n)
	}
}

func (f FieldRef) eachPseudo(r *Record, fn func(n *dissect.Node)) {
	// The node lives in the record, not here: a local one passed to fn
	// would escape and cost an allocation per field per record.
	n := &r.pseudo
	*n = dissect.Node{Field: f.Field, Parent: -1, Flags: dissect.FlagGenerated}
	emit := func(v dissect.Value) { n.Value = v; fn(n) }
	v4 := r.Src.Addr().Is4() || r.Src.Addr().Is4In6()
	switch f.Field {
	case PFFrameNumber:
		emit(dissect.U(r.Frame))
	case PFTimeRelative:
		emit(dissect.FExact(r.Rel.Seconds(), AppendSeconds9(r.pseudoText[:0], r.Rel)))
	case PFTimeEpoch:
		emit(dissect.FExact(float64(r.Time.UnixNano())/1e9, AppendEpoch9(r.pseudoText[:0], r.Time)))
	case PFIPSrc:
		if v4 {
			emit(dissect.B(r.Src.Addr().Unmap().AppendTo(r.pseudoText[:0])))
		}
	case PFIPDst:
		if v4 {
			emit(dissect.B(r.Dst.Addr().Unmap().AppendTo(r.pseudoText[:0])))
		}
	case PFIPv6Src:
		if !v4 {
			emit(dissect.B(r.Src.Addr().AppendTo(r.pseudoText[:0])))
		}
	case PFIPv6Dst:
		if !v4 {
			emit(dissect.B(r.Dst.Addr().AppendTo(r.pseudoText[:0])))
		}
	case PFUDPSrc:
		if !r.TCP {
			emit(dissect.U(uint64(r.Src.Port())))
		}
	case PFUDPDst:
		if !r.TCP {
			emit(dissect.U(uint64(r.Dst.Port())))
		}
	case PFTCPSrc:
		if r.TCP {
			emit(dissect.U(uint64(r.Src.Port())))
		}
	case PFTCPDst:
		if r.TCP {
			emit(dissect.U(uint64(r.Dst.Port())))
		}
	case PFTCPStream:
		if r.TCP {
			emit(dissect.U(uint64(r.Stream)))
		}
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
	default:
		if isLayerPseudo(f.Field) {
			eachLayer(r, f.Field, emit) // layers.go
			return
		}
		if isEthPseudo(f.Field) {
			eachEth(r, f.Field, emit) // pseudo_eth.go
			return
		}
		eachNet(r, f.Field, emit) // pseudo_net.go
	}
}

// Protocol names for the summary column.
var protoColumn = map[string]string{"query": "Query", "slp": "SLP", "classic": "Classic", "tcp": "TCP"}

// ProtoColumn is the protocol as the summary line shows it.
func (r *Record) ProtoColumn() string {
	if s, ok := protoColumn[r.Proto]; ok {
		return s
	}
	return strings.ToUpper(r.Proto)
}

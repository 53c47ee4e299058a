package render

import "github.com/mcdissect/mcdissect/dissect"

// lineHeads caches, per field (by ID), the start of its tree lines:
// indent, '[' if generated, label and ": ". That is most of a line's
// bytes and the same each time, as a field nearly always sits at one depth
// with one kind of node: one copy instead of a copy per part.
type lineHeads []lineHead

type lineHead struct {
	key  int // headKey of the nodes text is for; 0 for none yet
	text []byte
}

// headKey is what a line's head depends on besides the field: depth,
// generated, value shown. It is never 0.
func headKey(n *dissect.Node, depth int) int {
	k := depth<<3 | 4
	if n.Flags&dissect.FlagGenerated != 0 {
		k |= 2
	}
	if hasValue(n) {
		k |= 1
	}
	return k
}

// append appends the head of n's line at depth.
func (h *lineHeads) append(dst []byte, n *dissect.Node, depth int) []byte {
	id := n.Field.ID()
	if n.Key != "" || id == 0 { // keyed: the key varies; 0: no registry
		return appendNodeHead(appendIndent(dst, depth), n)
	}
	if id >= len(*h) {
		*h = append(*h, make([]lineHead, id+1-len(*h))...)
	}
	e := &(*h)[id]
	if k := headKey(n, depth); e.key != k {
		e.key = k
		e.text = appendNodeHead(appendIndent(e.text[:0], depth), n)
	}
	return append(dst, e.text...)
}

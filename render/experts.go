package render

import (
	"slices"

	"github.com/mcdissect/mcdissect/dissect"
)

// expertsByNode finds a record's expert items by the node they hang on, in
// their order within the record, without a look through all of them per
// node: a full stat that repeats a key 16,000 times has as many expert
// items, one per node, and a scan per node made its tree quadratic. index
// sorts them by node (a counting sort, linear in nodes and items); the
// scratch slices are kept for the next record.
type expertsByNode struct {
	end   []int32 // end[i]: where node i's items end in order (and node i+1's begin)
	order []int32 // indexes into Experts, by node
}

// index prepares at for p's expert items.
func (x *expertsByNode) index(p *dissect.PDU) {
	x.order = x.order[:0]
	if len(p.Experts) == 0 {
		x.end = x.end[:0]
		return
	}
	n := len(p.Nodes)
	end := slices.Grow(x.end[:0], n)[:n]
	clear(end)
	for k := range p.Experts {
		if i := p.Experts[k].Node; i >= 0 && int(i) < n {
			end[i]++
		}
	}
	sum := int32(0)
	for i := range end {
		sum, end[i] = sum+end[i], sum // end[i] holds node i's start while filling
	}
	order := slices.Grow(x.order, int(sum))[:sum]
	for k := range p.Experts {
		if i := p.Experts[k].Node; i >= 0 && int(i) < n {
			order[end[i]] = int32(k)
			end[i]++
		}
	}
	x.end, x.order = end, order
}

// at returns the indexes of node i's expert items, in record order.
func (x *expertsByNode) at(i int) []int32 {
	if len(x.order) == 0 || i >= len(x.end) {
		return nil
	}
	start := int32(0)
	if i > 0 {
		start = x.end[i-1]
	}
	return x.order[start:x.end[i]]
}

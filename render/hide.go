package render

import (
	"slices"

	"github.com/mcdissect/mcdissect/dissect"
)

// hider finds, once per record, the nodes whose value must not show under
// --redact: a secret, a node under a secret, a node whose bytes lie inside
// a secret's (a child showing it again), or text or bytes that overlap a
// secret's (a line holding it). One pass over the nodes, each looked up in
// the masked ranges merged and sorted: a scan of every range per node made
// a page of a heartbeat with thousands of secret parameters quadratic.
// Its slices are scratch space kept for the next record.
type hider struct {
	hide  []bool // by node: its value does not show
	under []bool // by node: a secret or under one
	union [][2]int
}

// index sets hide for p's nodes, masked being the byte ranges of its
// secrets (maskedRanges). Without --redact nothing is hidden.
func (h *hider) index(o *Options, p *dissect.PDU, masked [][2]int) {
	n := len(p.Nodes)
	h.hide = slices.Grow(h.hide[:0], n)[:n]
	clear(h.hide)
	if !o.Redact {
		return
	}
	// The union of the masked ranges, as sorted disjoint [lo, hi).
	u := h.union[:0]
	for _, m := range masked {
		u = append(u, [2]int{m[0], m[0] + m[1]})
	}
	slices.SortFunc(u, func(a, b [2]int) int { return a[0] - b[0] })
	k := 0
	for _, r := range u {
		if k > 0 && r[0] <= u[k-1][1] {
			u[k-1][1] = max(u[k-1][1], r[1])
			continue
		}
		u[k] = r
		k++
	}
	u = u[:k]
	h.union = u
	under := slices.Grow(h.under[:0], n)[:n]
	h.under = under
	for i := range p.Nodes {
		nd := &p.Nodes[i]
		under[i] = redacted(o, nd) || nd.Parent >= 0 && int(nd.Parent) < i && under[nd.Parent]
		if under[i] {
			h.hide[i] = true
			continue
		}
		if nd.Length <= 0 {
			continue
		}
		lo, hi := int(nd.Offset), int(nd.Offset+nd.Length)
		// The first range that ends after lo: the only one that may hold
		// the node, and the first that may overlap it.
		j, _ := slices.BinarySearchFunc(u, lo, func(r [2]int, lo int) int {
			if r[1] <= lo {
				return -1
			}
			return 1
		})
		if j == len(u) {
			continue
		}
		text := nd.Field.Type == dissect.FTString || nd.Field.Type == dissect.FTBytes
		if lo >= u[j][0] && hi <= u[j][1] || text && u[j][0] < hi {
			h.hide[i] = true
		}
	}
}

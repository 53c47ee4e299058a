package dissect

import "fmt"

// Check verifies the invariants every decoder's output must keep, for fuzz
// targets and tests: node 0 is the root and covers the whole PDU; every node
// lies inside its parent and inside the PDU (generated nodes have no bytes);
// the slice is in pre-order; every expert hangs on an existing node; and no
// byte of the PDU is left outside every leaf field.
func Check(p *PDU) error {
	if len(p.Nodes) == 0 {
		return fmt.Errorf("no nodes")
	}
	root := &p.Nodes[0]
	if root.Parent != -1 || root.Offset != 0 || int(root.Length) != len(p.Data) {
		return fmt.Errorf("root %s covers [%d,+%d) of %d bytes, parent %d", root.Name(), root.Offset, root.Length, len(p.Data), root.Parent)
	}
	// open holds the current ancestor chain, to check pre-order.
	open := []int32{0}
	covered := make([]bool, len(p.Data))
	hasChild := make([]bool, len(p.Nodes))
	for i := 1; i < len(p.Nodes); i++ {
		n := &p.Nodes[i]
		if n.Field == nil {
			return fmt.Errorf("node %d has no field", i)
		}
		par := n.Parent
		for len(open) > 0 && open[len(open)-1] != par {
			open = open[:len(open)-1]
		}
		if len(open) == 0 {
			return fmt.Errorf("node %d (%s): parent %d is not an open ancestor (pre-order broken)", i, n.Name(), par)
		}
		open = append(open, int32(i))
		if n.Flags&FlagGenerated != 0 {
			if n.Length != 0 {
				return fmt.Errorf("generated node %d (%s) has length %d", i, n.Name(), n.Length)
			}
			continue
		}
		hasChild[par] = true
		pn := &p.Nodes[par]
		if n.Offset < 0 || n.Length < 0 || n.Offset+n.Length > int32(len(p.Data)) {
			return fmt.Errorf("node %d (%s) [%d,+%d) outside the PDU of %d bytes", i, n.Name(), n.Offset, n.Length, len(p.Data))
		}
		if n.Offset < pn.Offset || n.Offset+n.Length > pn.Offset+pn.Length {
			return fmt.Errorf("node %d (%s) [%d,+%d) outside its parent %s [%d,+%d)", i, n.Name(), n.Offset, n.Length, pn.Name(), pn.Offset, pn.Length)
		}
	}
	for i := 1; i < len(p.Nodes); i++ {
		n := &p.Nodes[i]
		if !hasChild[i] && n.Flags&FlagGenerated == 0 {
			for j := n.Offset; j < n.Offset+n.Length; j++ {
				covered[j] = true
			}
		}
	}
	for j, c := range covered {
		if !c {
			return fmt.Errorf("byte %d is in no field", j)
		}
	}
	for _, e := range p.Experts {
		if e.Node < 0 || int(e.Node) >= len(p.Nodes) || e.Info == nil {
			return fmt.Errorf("expert %v hangs on no node", e)
		}
	}
	return nil
}

// CountFailures counts the truncated and malformed-length items the cursor
// added (mc.truncated and mc.malformed), for truncation sweeps.
func CountFailures(p *PDU) (n int, last *ExpertItem) {
	for i := range p.Experts {
		if e := &p.Experts[i]; e.Info == ExpertTruncated || e.Info == ExpertMalformed {
			n++
			last = e
		}
	}
	return n, last
}

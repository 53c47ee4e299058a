package dissect

import "slices"

// What a Lite PDU (PDU.Lite, Wireshark's NULL tree) leaves out is decided
// here, not in decoders: AddNode and AddGenerated add nothing, and the
// calls below do nothing to a node the PDU does not keep. The ones that
// take a func call it only for a kept node, so that a text, a value or a
// check made only for the tree is never worked out on the summary path:
//
//	p.SetTextFunc(i, func() string { return protocolText(v) })
//
// A decoder does not ask whether its PDU is Lite; it says which of its work
// only the tree shows, and dissect skips that work when there is no tree.

// keeps reports whether node i is one the PDU keeps: any node of a full
// tree; in a Lite PDU none, as AddNode answers each with the root's index
// 0, which is not the decoder's to write (negative indexes, a failed
// read's answer, are no node).
func (p *PDU) keeps(i int32) bool { return i > 0 || i == 0 && !p.Lite }

// SetText makes text what node i shows instead of its formatted value.
func (p *PDU) SetText(i int32, text string) {
	if p.keeps(i) {
		p.Nodes[i].Text = text
	}
}

// SetTextFunc is SetText with the text made by text, which is called only
// for a kept node.
func (p *PDU) SetTextFunc(i int32, text func() string) {
	if p.keeps(i) {
		p.Nodes[i].Text = text()
	}
}

// SetValue replaces node i's value.
func (p *PDU) SetValue(i int32, v Value) {
	if p.keeps(i) {
		p.Nodes[i].Value = v
	}
}

// Annotate calls fill when the PDU keeps node i, for what only the tree
// shows of it: its value made for display (a UUID's text, an unescaped
// string's copy), its key and text worked out together (through
// p.Nodes[i]), generated nodes and expert items under it. fill runs at
// once, before the decoder adds another node.
func (p *PDU) Annotate(i int32, fill func()) {
	if p.keeps(i) {
		fill()
	}
}

// SetKey sets node i's key (keyed fields: the last part of its filter
// name).
func (p *PDU) SetKey(i int32, key string) {
	if p.keeps(i) {
		p.Nodes[i].Key = key
	}
}

// AddGeneratedFunc is AddGenerated with the value and text made by gen,
// which is called only when the node is added: never in a Lite PDU. It
// returns the node's index (0 in a Lite PDU, as AddGenerated).
func (p *PDU) AddGeneratedFunc(parent int32, f *Field, gen func() (Value, string)) int32 {
	if p.Lite && len(p.Nodes) > 0 {
		return 0
	}
	v, text := gen()
	return p.AddGenerated(parent, f, v, text)
}

// ExpertFunc hangs e on node with the message msg makes, when there is a
// tree to show it: msg is called only then, and an empty message adds
// nothing, so that msg may hold the check itself (a scan for control
// characters, a UTF-8 validation) when the check only feeds the item. A
// Lite PDU's expert items may be fewer than a full one's (see Lite).
func (p *PDU) ExpertFunc(node int32, e *ExpertInfo, msg func() string) {
	if node < 0 || p.Lite {
		return
	}
	if m := msg(); m != "" {
		p.AddExpert(node, e, m)
	}
}

// Reserve makes room for n more nodes in one step, where a decoder knows
// its tree is large (a full stat's strings, a status JSON's values): grown
// node by node, the slice is reallocated several times. A Lite PDU keeps
// one node and reserves nothing.
func (p *PDU) Reserve(n int) {
	if !p.Lite && cap(p.Nodes)-len(p.Nodes) < n {
		p.Nodes = slices.Grow(p.Nodes, n)
	}
}

// Hold marks p Pending, so that the pipeline holds it (and those after
// it) until a conversation tracker clears the flag, and reports whether it
// did. A Lite PDU is never held: what a response adds to its request is in
// the tree only, so the tracker keeps no pointer to it (the pipeline may
// reuse it at once).
func (p *PDU) Hold() bool {
	if p.Lite {
		return false
	}
	p.Pending = true
	return true
}

package record

// Needs is what a consumer of a run's records reads of them besides what
// every record carries (its summary columns and record fields): a PDU's
// tree and expert items, and the layers below Minecraft (Layers). Outputs,
// filters and statistics each say what they read; the pipeline decodes
// what they read together and no more (Lite without trees, and without
// layers when nothing reads them either).
type Needs struct {
	Trees  bool // the PDUs' trees and expert items
	Layers bool // the fields of frame, eth, ip, ipv6, tcp, udp
}

// Or is what n and o read together.
func (n Needs) Or(o Needs) Needs {
	return Needs{Trees: n.Trees || o.Trees, Layers: n.Layers || o.Layers}
}

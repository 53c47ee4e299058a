package record

import "github.com/mcdissect/mcdissect/dissect/netlayers"

// Needs is what a consumer of a run's records reads of them besides what
// every record carries (its summary columns and record fields): a PDU's
// tree and expert items, and the layers below Minecraft (Layers).
// Outputs, filters and statistics each say what they read; the pipeline
// decodes what they read together and no more (Lite without trees, and
// without layers when nothing reads them either), and a record's layers'
// tree is made with the fields they read together (Record.WantLayers).
type Needs struct {
	Trees bool // the PDUs' trees and expert items
	// Layers is what is read of the layers below Minecraft (frame, eth,
	// ip, ipv6, tcp, udp): nothing, some of their fields (FieldRef.Layers),
	// their lines (netlayers.Lines: -V's outline), or all (netlayers.All).
	Layers netlayers.Want
}

// Or is what n and o read together.
func (n Needs) Or(o Needs) Needs {
	return Needs{Trees: n.Trees || o.Trees, Layers: n.Layers.Or(o.Layers)}
}

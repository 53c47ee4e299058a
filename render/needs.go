package render

import (
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/record"
)

// NeedsOf is what the renderer of format with o reads of a record: the
// tree for -V and -x, for the fields of -T fields that come from it, and
// in every format but the text summary and -T fields. Of the layers: their
// lines for -V (all of a layer -O names), the fields -e names (and the
// columns' frame.len and -t d's delta), -t d's delta in the text summary,
// and all of them in every other format.
func NeedsOf(format string, o Options) record.Needs {
	n := record.Needs{Trees: o.Verbose || o.Hex}
	switch format {
	case "text":
		if o.Verbose {
			n.Layers = netlayers.Lines
			if namesLayer(o.Only) {
				n.Layers = netlayers.All
			}
		}
		if o.Time == "d" {
			n.Layers = n.Layers.Or(wantDelta)
		}
	case "fields":
		for _, f := range o.Fields {
			n.Trees = n.Trees || f.NeedsTree()
			n.Layers = n.Layers.Or(f.Layers())
			switch columnOf(f) {
			case colLength:
				n.Layers = n.Layers.Or(wantLen)
			case colTime:
				if o.Time == "d" {
					n.Layers = n.Layers.Or(wantDelta)
				}
			}
		}
	default:
		n.Trees, n.Layers = true, netlayers.All
	}
	return n
}

// The layers' fields the columns read.
var (
	wantLen   = netlayers.WantField(netlayers.FieldFrameLen)
	wantDelta = netlayers.WantField(netlayers.FieldFrameDelta)
)

// namesLayer reports whether -O (only) names a layer below Minecraft,
// whose fields -V then shows.
func namesLayer(only []string) bool {
	for _, name := range only {
		if f, _, ok := dissect.LookupField(name); ok && netlayers.Owns(f) {
			return true
		}
	}
	return false
}

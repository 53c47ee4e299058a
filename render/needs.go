package render

import "github.com/mcdissect/mcdissect/record"

// NeedsOf is what the renderer of format with o reads of a record: the
// tree for -V and -x, for the fields of -T fields that come from it, and
// in every format but the text summary and -T fields; the layers in every
// format and mode but the text summary, whose only layer field is -t d's
// delta.
func NeedsOf(format string, o Options) record.Needs {
	n := record.Needs{Trees: o.Verbose || o.Hex, Layers: o.Verbose || o.Hex}
	switch format {
	case "text":
		n.Layers = n.Layers || o.Time == "d"
	case "fields":
		n.Layers = true
		for _, f := range o.Fields {
			n.Trees = n.Trees || f.NeedsTree()
		}
	default:
		n.Trees, n.Layers = true, true
	}
	return n
}

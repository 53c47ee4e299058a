package filter

import "github.com/mcdissect/mcdissect/record"

// Needs is what the filter reads of a record: the tree when a field it
// tests comes from it (NeedsTree), and the fields of the layers it tests.
func (f *Filter) Needs() record.Needs {
	return record.Needs{Trees: f.NeedsTree(), Layers: f.layers}
}

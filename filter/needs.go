package filter

import "github.com/mcdissect/mcdissect/record"

// Needs is what the filter reads of a record: the tree when a field it
// tests comes from it (NeedsTree), and the layers, which a filter is
// taken to test.
func (f *Filter) Needs() record.Needs {
	return record.Needs{Trees: f.NeedsTree(), Layers: true}
}

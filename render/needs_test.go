package render

import (
	"testing"

	"github.com/mcdissect/mcdissect/record"
)

// TestNeedsOf: the text summary reads neither trees nor layers (but -t
// d's delta); -V and -x read both; -T fields the layers, and the trees
// when a field comes from one; every other format both.
func TestNeedsOf(t *testing.T) {
	seq, _ := ResolveField("tcp.seq")
	motd, _ := ResolveField("query.motd")
	for _, tc := range []struct {
		name   string
		format string
		o      Options
		want   record.Needs
	}{
		{"summary", "text", Options{}, record.Needs{}},
		{"-t d", "text", Options{Time: "d"}, record.Needs{Layers: true}},
		{"-t dd", "text", Options{Time: "dd"}, record.Needs{}},
		{"-V", "text", Options{Verbose: true}, record.Needs{Trees: true, Layers: true}},
		{"-x", "text", Options{Hex: true}, record.Needs{Trees: true, Layers: true}},
		{"fields of layers", "fields", Options{Fields: []record.FieldRef{seq}}, record.Needs{Layers: true}},
		{"fields of a tree", "fields", Options{Fields: []record.FieldRef{seq, motd}}, record.Needs{Trees: true, Layers: true}},
		{"json", "json", Options{}, record.Needs{Trees: true, Layers: true}},
		{"psml", "psml", Options{}, record.Needs{Trees: true, Layers: true}},
	} {
		if got := NeedsOf(tc.format, tc.o); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

package render

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/record"
)

// TestNeedsOf: the text summary reads neither trees nor layers (but -t
// d's delta); -V the trees and the layers' lines (all of a layer -O
// names); -x the trees; -T fields the layers' fields it names (and the
// columns' frame.len), and the trees when a field comes from one; every
// other format both, whole.
func TestNeedsOf(t *testing.T) {
	seq, _ := ResolveField("tcp.seq")
	motd, _ := ResolveField("query.motd")
	length, _ := ResolveField("_ws.col.length")
	tcp, _ := ResolveField("tcp")
	wantSeq, delta := netlayers.WantField(netlayers.FieldTCPSeq), netlayers.WantField(netlayers.FieldFrameDelta)
	for _, tc := range []struct {
		name   string
		format string
		o      Options
		want   record.Needs
	}{
		{"summary", "text", Options{}, record.Needs{}},
		{"-t d", "text", Options{Time: "d"}, record.Needs{Layers: delta}},
		{"-t dd", "text", Options{Time: "dd"}, record.Needs{}},
		{"-V", "text", Options{Verbose: true}, record.Needs{Trees: true, Layers: netlayers.Lines}},
		{"-V -t d", "text", Options{Verbose: true, Time: "d"}, record.Needs{Trees: true, Layers: netlayers.Lines.Or(delta)}},
		{"-V -O slp", "text", Options{Verbose: true, Only: []string{"slp"}}, record.Needs{Trees: true, Layers: netlayers.Lines}},
		{"-V -O tcp", "text", Options{Verbose: true, Only: []string{"slp", "tcp"}}, record.Needs{Trees: true, Layers: netlayers.All}},
		{"-x", "text", Options{Hex: true}, record.Needs{Trees: true}},
		{"fields of layers", "fields", Options{Fields: []record.FieldRef{seq, tcp}}, record.Needs{Layers: wantSeq}},
		{"fields of a tree", "fields", Options{Fields: []record.FieldRef{seq, motd}}, record.Needs{Trees: true, Layers: wantSeq}},
		{"a column of layers", "fields", Options{Fields: []record.FieldRef{length}, Time: "d"}, record.Needs{Trees: true, Layers: netlayers.WantField(netlayers.FieldFrameLen)}},
		{"json", "json", Options{}, record.Needs{Trees: true, Layers: netlayers.All}},
		{"psml", "psml", Options{}, record.Needs{Trees: true, Layers: netlayers.All}},
	} {
		if got := NeedsOf(tc.format, tc.o); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

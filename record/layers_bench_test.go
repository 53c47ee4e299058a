package record

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
)

// BenchmarkLayerFields is what -T fields pays per record for three fields
// of its layers: the layers kept (SetLayers), declared (WantLayers), made
// at the first read and read.
func BenchmarkLayerFields(b *testing.B) {
	var refs []FieldRef
	var want netlayers.Want
	for _, name := range []string{"frame.number", "ip.src", "udp.srcport"} {
		f, err := ResolveField(name)
		if err != nil {
			b.Fatal(err)
		}
		refs = append(refs, f)
		want = want.Or(f.Layers())
	}
	r := &Record{}
	f := layersFrame()
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		r.Reset()
		r.SetLayers(rawIPv4UDP, f)
		r.WantLayers(want)
		for _, ref := range refs {
			ref.Each(r, func(*dissect.Node) { n++ })
		}
	}
	if n != 3*b.N {
		b.Fatalf("%d nodes read, want %d", n, 3*b.N)
	}
}

// BenchmarkLayerFieldsCold is BenchmarkLayerFields over 4096 records in
// turn, whose layers' memory is cold when read again, as a run's pooled
// records' is.
func BenchmarkLayerFieldsCold(b *testing.B) {
	var refs []FieldRef
	var want netlayers.Want
	for _, name := range []string{"frame.number", "ip.src", "udp.srcport"} {
		f, _ := ResolveField(name)
		refs = append(refs, f)
		want = want.Or(f.Layers())
	}
	rs := make([]Record, 4096)
	f := layersFrame()
	i := 0
	for b.Loop() {
		r := &rs[i%len(rs)]
		i++
		r.Reset()
		r.SetLayers(rawIPv4UDP, f)
		r.WantLayers(want)
		for _, ref := range refs {
			ref.Each(r, func(*dissect.Node) {})
		}
	}
}

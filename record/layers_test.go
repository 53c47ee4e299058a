package record

import (
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
)

// rawIPv4UDP is an IPv4 header and a UDP header, 10.0.0.2:25565 to
// 10.0.0.1:40000, on a raw IP link.
var rawIPv4UDP = []byte{
	0x45, 0, 0, 28, 0x12, 0x34, 0x40, 0, 64, 17, 0, 0, 10, 0, 0, 2, 10, 0, 0, 1,
	0x63, 0xdd, 0x9c, 0x40, 0, 8, 0, 0,
}

func layersFrame() *netlayers.Frame {
	return &netlayers.Frame{Number: 7, Time: time.Unix(1700000000, 5), WireLen: 28, CapLen: 28, Link: netlayers.LinkRaw, Protocols: "query", Stream: -1}
}

// dump is a tree's nodes, a name and a text or value each.
func dump(p *dissect.PDU) []string {
	var out []string
	for i := range p.Nodes {
		n := &p.Nodes[i]
		out = append(out, n.Name()+" "+n.Text+" "+string(dissect.AppendValue(nil, n)))
	}
	return out
}

// TestLayersLazy: the layers' tree is made when it is first read, the
// whole of it from an outline already made, the same as made at once; a
// record without layers has an empty tree; Reset forgets them; the
// frame's header bytes are the record's own copy.
func TestLayersLazy(t *testing.T) {
	var want dissect.PDU
	netlayers.Dissect(&want, rawIPv4UDP, layersFrame())
	head := append([]byte(nil), rawIPv4UDP...)
	r := &Record{}
	r.SetLayers(head, layersFrame())
	clear(head) // SetLayers copied them
	if r.own.made {
		t.Fatal("the tree was made before it was read")
	}
	lines := r.LayerLines()
	var outline []string
	for i, line := range dump(&want) {
		if want.Nodes[i].Field.Type == dissect.FTProtocol {
			outline = append(outline, line)
		}
	}
	if got := dump(lines); len(got) != len(outline) || got[0] != outline[0] || got[1] != outline[1] || got[2] != outline[2] {
		t.Fatalf("outline %q, want %q", got, outline)
	}
	if got, w := dump(r.Layers()), dump(&want); len(got) != len(w) {
		t.Fatalf("tree after the outline: %q, want %q", got, w)
	} else {
		for i := range w {
			if got[i] != w[i] {
				t.Errorf("node %d: %q, want %q", i, got[i], w[i])
			}
		}
	}
	if r.LayerLines() != r.Layers() || len(r.LayerLines().Nodes) != len(want.Nodes) {
		t.Error("the outline asked after the tree is not the tree")
	}
	r.Reset()
	if n := len(r.Layers().Nodes) + len(r.LayerLines().Nodes); n != 0 {
		t.Errorf("%d layer nodes after Reset", n)
	}
}

// TestCloneLayers: a clone's layers are made, and are its own: reusing
// the record for another frame leaves them as they were.
func TestCloneLayers(t *testing.T) {
	r := &Record{}
	r.SetLayers(rawIPv4UDP, layersFrame())
	c := r.Clone()
	if !c.own.made || c.own.has != netlayers.All {
		t.Fatal("a clone's layers are not made")
	}
	want := dump(c.Layers())
	r.Reset()
	f := layersFrame()
	f.Number = 8
	other := append([]byte(nil), rawIPv4UDP...)
	other[15] = 9 // 10.0.0.9
	r.SetLayers(other, f)
	r.Layers()
	got := dump(c.Layers())
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("clone's node %d: %q after the record was reused, want %q", i, got[i], want[i])
		}
	}
}

// TestLayerScratch: records that share a scratch each read their own
// layers, whichever made theirs there last; a clone of one keeps its tree
// when the scratch moves on; Reset and SetLayers forget a tree made there.
func TestLayerScratch(t *testing.T) {
	var s LayerScratch
	frame := func(n uint64, last byte) *Record {
		f := layersFrame()
		f.Number = n
		head := append([]byte(nil), rawIPv4UDP...)
		head[15] = last
		r := &Record{}
		r.SetLayers(head, f)
		r.UseScratch(&s)
		return r
	}
	own := ownLayers
	same := func(what string, got, want []string) { t.Helper(); sameNodes(t, what, got, want) }
	a, b := frame(1, 3), frame(2, 4)
	same("a", dump(a.Layers()), own(1, 3))
	c := a.Clone()
	same("b after a", dump(b.Layers()), own(2, 4))
	same("a after b", dump(a.Layers()), own(1, 3))
	same("a's clone after b", dump(c.Layers()), own(1, 3))
	if b.LayerLines(); s.owner != b {
		t.Error("b's outline was not made in the scratch")
	}
	b.Reset()
	if b.scratch != nil {
		t.Error("Reset left the record in the scratch")
	}
	if n := len(b.Layers().Nodes); n != 0 {
		t.Errorf("%d layer nodes after Reset", n)
	}
	// The scratch still holds b's old tree; b, reused and pointed at it
	// again, must not take it for its new frame's.
	f3 := layersFrame()
	f3.Number = 3
	head3 := append([]byte(nil), rawIPv4UDP...)
	head3[15] = 5
	b.SetLayers(head3, f3)
	b.UseScratch(&s)
	same("b reused", dump(b.Layers()), own(3, 5))
	a.Layers()
	a.SetLayers(rawIPv4UDP, layersFrame())
	if a.scratch != nil {
		t.Error("SetLayers left the record in the scratch")
	}
	a.UseScratch(&s)
	same("a's next frame", dump(a.Layers()), dump(func() *dissect.PDU {
		var p dissect.PDU
		netlayers.Dissect(&p, rawIPv4UDP, layersFrame())
		return &p
	}()))
	// A record whose own tree is made (a redacted one's is masked) keeps it.
	a.leaveScratch()
	mine := a.Layers()
	a.UseScratch(&s)
	if a.Layers() != mine {
		t.Error("UseScratch moved a record whose own tree is made to the scratch")
	}
}

// TestLayerScratchSameFrame: records of one frame, and a record reset and
// reused (the pool hands it out again), each read their own frame's
// layers from the scratch, with the fields their readers declared.
func TestLayerScratchSameFrame(t *testing.T) {
	var s LayerScratch
	mk := func(r *Record, n uint64, last byte, w netlayers.Want) *Record {
		f := layersFrame()
		f.Number = n
		head := append([]byte(nil), rawIPv4UDP...)
		head[15] = last
		r.Reset()
		r.SetLayers(head, f)
		r.UseScratch(&s)
		r.WantLayers(w)
		return r
	}
	a, b := &Record{}, &Record{}
	mk(a, 1, 3, netlayers.All)
	sameNodes(t, "a", dump(a.Layers()), ownLayers(1, 3))
	mk(b, 1, 3, netlayers.All)
	sameNodes(t, "b, the same frame", dump(b.Layers()), ownLayers(1, 3))
	// a, reset and given another frame's bytes, reads those.
	mk(a, 2, 4, netlayers.All)
	sameNodes(t, "a reused", dump(a.Layers()), ownLayers(2, 4))
	mk(b, 1, 3, netlayers.All)
	sameNodes(t, "b after a", dump(b.Layers()), ownLayers(1, 3))
	// The same frame read for more than the last tree was made with.
	mk(a, 3, 5, netlayers.Lines)
	if n := len(a.LayerLines().Nodes); n >= len(ownLayers(3, 5)) {
		t.Fatalf("the outline has %d nodes, as many as the whole tree", n)
	}
	mk(b, 3, 5, netlayers.All)
	sameNodes(t, "b, the whole tree after a's outline", dump(b.LayerLines()), ownLayers(3, 5))
}

// ownLayers is the layers' tree of frame n whose header's byte 15 is last,
// made in a PDU of its own.
func ownLayers(n uint64, last byte) []string {
	f := layersFrame()
	f.Number = n
	head := append([]byte(nil), rawIPv4UDP...)
	head[15] = last
	var p dissect.PDU
	netlayers.Dissect(&p, head, f)
	return dump(&p)
}

// sameNodes fails t where two dumped trees differ.
func sameNodes(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d nodes, want %d", what, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s: node %d %q, want %q", what, i, got[i], want[i])
		}
	}
}

package dissect

import "testing"

// TestExplain: Explain gives fields registered before and after it their
// explanation and worked value; an explanation given twice panics.
func TestExplain(t *testing.T) {
	r := NewRegistry("explaintest", "Explain test")
	before := r.Uint("explaintest.before", "Before", BaseDec, nil)
	w := func(dst []byte, p *PDU, n *Node) []byte { return append(dst, "worked"...) }
	r.Explain(map[string]string{
		"explaintest":        "The root.",
		"explaintest.before": "Registered before.",
		"explaintest.after":  "Registered after.",
	}, map[string]func([]byte, *PDU, *Node) []byte{"explaintest.after": w})
	after := r.Str("explaintest.after", "After")
	if r.Root().Desc != "The root." || before.Desc != "Registered before." || after.Desc != "Registered after." {
		t.Errorf("descs %q %q %q", r.Root().Desc, before.Desc, after.Desc)
	}
	if after.Worked == nil || string(after.Worked(nil, nil, nil)) != "worked" || before.Worked != nil {
		t.Error("worked values not applied as given")
	}
	defer func() {
		if recover() == nil {
			t.Error("a field explained both inline and in the table did not panic")
		}
	}()
	r.Add(Field{Name: "explaintest.after2", Label: "x", Desc: "Inline."})
	r.Explain(map[string]string{"explaintest.after2": "Table."}, nil)
}

func TestNodeBytes(t *testing.T) {
	p := &PDU{Data: []byte{1, 2, 3, 4}}
	for _, c := range []struct {
		n    Node
		want int
	}{
		{Node{Offset: 1, Length: 2}, 2},
		{Node{Offset: 2, Length: 9}, 2}, // cut by the capture
		{Node{Offset: 9, Length: 1}, 0},
		{Node{Offset: 0, Length: 4, Flags: FlagGenerated}, 0},
	} {
		if got := NodeBytes(p, &c.n); len(got) != c.want {
			t.Errorf("NodeBytes(%+v) = %v, want %d bytes", c.n, got, c.want)
		}
	}
}

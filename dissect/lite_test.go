package dissect

import "testing"

// liteWalk reads a u8 and a keyed subtree holding a string, and gives
// them what only a tree shows through the calls of lite.go; calls counts
// the funcs that ran.
func liteWalk(p *PDU, calls *int) {
	data := []byte{7, 'h', 'i', 0}
	c := Begin(p, testReg.Root(), data, len(data))
	_, a := c.Uint8(tA)
	p.SetText(a, "seven")
	kv := c.Open(tKeyed, -1)
	p.SetKey(kv, "greeting")
	p.SetValue(kv, S("hi"))
	s, si := c.CString(tS)
	p.SetTextFunc(si, func() string { *calls++; return "the text " + string(s) })
	p.Annotate(si, func() { *calls++; p.Nodes[si].Value = S("HI") })
	p.AddGeneratedFunc(si, tB, func() (Value, string) { *calls++; return U(2), "two bytes" })
	p.ExpertFunc(si, tExample, func() string { *calls++; return "a finding" })
	p.ExpertFunc(si, tExample, func() string { *calls++; return "" })
	c.Close()
	p.ExpertFunc(-1, tExample, func() string { *calls++; return "no node" })
	p.Reserve(100)
	c.Finish()
}

// TestLiteCalls: in a full PDU the calls of lite.go set what they say
// and call their funcs; in a Lite PDU they leave the root alone, call no
// func, reserve nothing and hold nothing.
func TestLiteCalls(t *testing.T) {
	var full PDU
	calls := 0
	liteWalk(&full, &calls)
	if err := Check(&full); err != nil {
		t.Fatal(err)
	}
	if calls != 5 {
		t.Errorf("full: %d funcs called, want 5 (not the one for no node)", calls)
	}
	n := full.Nodes
	if len(n) != 5 || n[1].Text != "seven" || n[2].Key != "greeting" || n[2].Value.View() != "hi" ||
		n[3].Text != "the text hi" || n[3].Value.View() != "HI" || n[4].Text != "two bytes" || n[4].Value.N != 2 {
		t.Errorf("full tree: %+v", n)
	}
	if len(full.Experts) != 1 || full.Experts[0].Msg != "a finding" || full.Experts[0].Node != 3 {
		t.Errorf("full experts: %+v", full.Experts)
	}
	if cap(full.Nodes)-len(full.Nodes) < 100 {
		t.Errorf("Reserve(100) left room for %d nodes", cap(full.Nodes)-len(full.Nodes))
	}
	if !full.Hold() || !full.Pending {
		t.Errorf("a full PDU is not held")
	}

	lite := PDU{Lite: true}
	calls = 0
	liteWalk(&lite, &calls)
	if calls != 0 {
		t.Errorf("Lite: %d funcs called", calls)
	}
	if len(lite.Nodes) != 1 || cap(lite.Nodes) >= 100 {
		t.Errorf("Lite: %d nodes, room for %d", len(lite.Nodes), cap(lite.Nodes))
	}
	if r := lite.Nodes[0]; r.Text != "" || r.Key != "" || len(r.Value.B) != 0 {
		t.Errorf("Lite root written: %+v", r)
	}
	if len(lite.Experts) != 0 {
		t.Errorf("Lite experts: %+v", lite.Experts)
	}
	if lite.Hold() || lite.Pending {
		t.Errorf("a Lite PDU is held")
	}
}

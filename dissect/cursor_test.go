package dissect

import (
	"strings"
	"testing"
)

var (
	testReg  = NewRegistry("dtest", "Dissect core test")
	tA       = testReg.Uint("dtest.a", "A", BaseDec, nil)
	tB       = testReg.Uint("dtest.b", "B", BaseHex, nil)
	tS       = testReg.Str("dtest.s", "S")
	tSub     = testReg.Label("dtest.sub", "Sub")
	tKeyed   = testReg.Add(Field{Name: "dtest.kv", Label: "KV", Type: FTString, Keyed: true})
	tExample = testReg.Expert("dtest.example", SevNote, "an example")
)

// decodeTest walks: a u8, a subtree with a BE u16 and a C string, a u32.
func decodeTest(p *PDU, data []byte, wire int) {
	c := Begin(p, testReg.Root(), data, wire)
	c.Uint8(tA)
	c.Open(tSub, -1)
	c.Uint16(tB)
	c.CString(tS)
	c.Close()
	c.Uint32(tB)
	c.Finish()
}

var testMsg = []byte{7, 0x12, 0x34, 'h', 'i', 0, 0xde, 0xad, 0xbe, 0xef}

func TestCursorWalk(t *testing.T) {
	var p PDU
	decodeTest(&p, testMsg, len(testMsg))
	if err := Check(&p); err != nil {
		t.Fatal(err)
	}
	want := []string{"dtest [0,+10)", "dtest.a [0,+1)", "dtest.sub [1,+5)", "dtest.b [1,+2)", "dtest.s [3,+3)", "dtest.b [6,+4)"}
	if len(p.Nodes) != len(want) {
		t.Fatalf("%d nodes, want %d", len(p.Nodes), len(want))
	}
	for i, w := range want {
		n := &p.Nodes[i]
		got := n.Name() + " [" + itoa(int(n.Offset)) + ",+" + itoa(int(n.Length)) + ")"
		if got != w {
			t.Errorf("node %d: %s, want %s", i, got, w)
		}
	}
	if v := p.Nodes[4].Value.Text(); v != "hi" {
		t.Errorf("C string value %q, want hi (without the NUL)", v)
	}
	if p.Nodes[5].Value.N != 0xdeadbeef {
		t.Errorf("u32 %x", p.Nodes[5].Value.N)
	}
	if len(p.Experts) != 0 {
		t.Errorf("experts on a good message: %v", p.Experts)
	}
}

// TestCursorSweep: every prefix, decoded as cut by the capture, gives one
// truncated item naming the field whose bytes ran out; decoded as a short
// PDU, one malformed item. Node trees stay valid.
func TestCursorSweep(t *testing.T) {
	fieldAt := []string{"dtest.a", "dtest.b", "dtest.b", "dtest.s", "dtest.s", "dtest.s", "dtest.b", "dtest.b", "dtest.b", "dtest.b"}
	for n := 0; n < len(testMsg); n++ {
		for _, cut := range []bool{true, false} {
			var p PDU
			wire := n
			if cut {
				wire = len(testMsg)
			}
			decodeTest(&p, testMsg[:n], wire)
			if err := Check(&p); err != nil {
				t.Fatalf("prefix %d: %v", n, err)
			}
			k, e := CountFailures(&p)
			if k != 1 {
				t.Fatalf("prefix %d: %d failure items", n, k)
			}
			if cut != (e.Info == ExpertTruncated) {
				t.Errorf("prefix %d cut=%v: %s", n, cut, e.Info.Name)
			}
			if !strings.HasPrefix(e.Msg, fieldAt[n]+" at offset ") {
				t.Errorf("prefix %d: %q does not name %s", n, e.Msg, fieldAt[n])
			}
		}
	}
}

func TestFinishAccountsForTrailingBytes(t *testing.T) {
	var p PDU
	data := append(append([]byte(nil), testMsg...), 1, 2, 3)
	decodeTest(&p, data, len(data))
	if err := Check(&p); err != nil {
		t.Fatal(err)
	}
	last := p.Nodes[len(p.Nodes)-1]
	if last.Field != FieldUndissected || last.Offset != 10 || last.Length != 3 {
		t.Errorf("last node %s [%d,+%d)", last.Name(), last.Offset, last.Length)
	}
	if len(p.Experts) != 1 || p.Experts[0].Info != ExpertUndissected {
		t.Errorf("experts %v", p.Experts)
	}
}

func TestCheckCatchesBrokenTrees(t *testing.T) {
	var p PDU
	decodeTest(&p, testMsg, len(testMsg))
	p.Nodes[3].Length = 9 // outside its parent
	if Check(&p) == nil {
		t.Error("a child outside its parent passed")
	}
	decodeTest(&p, testMsg, len(testMsg))
	p.Nodes = p.Nodes[:len(p.Nodes)-1] // the last 4 bytes in no field
	if err := Check(&p); err == nil || !strings.Contains(err.Error(), "byte 6") {
		t.Errorf("uncovered bytes: %v", err)
	}
}

func TestRegistry(t *testing.T) {
	mustPanic := func(name string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", name)
			}
		}()
		f()
	}
	mustPanic("duplicate field", func() { testReg.Uint("dtest.a", "again", BaseDec, nil) })
	mustPanic("foreign prefix", func() { testReg.Uint("other.a", "x", BaseDec, nil) })
	mustPanic("duplicate expert", func() { testReg.Expert("dtest.example", SevNote, "") })
	mustPanic("duplicate protocol", func() { NewRegistry("dtest", "again") })
	if f, key, ok := LookupField("dtest.kv.hostname"); !ok || f != tKeyed || key != "hostname" {
		t.Errorf("keyed lookup: %v %q %v", f, key, ok)
	}
	if _, _, ok := LookupField("dtest.a.b"); ok {
		t.Error("a name under a non-keyed field was found")
	}
	if (Names{1: "one"}).Name(2) != "Unknown (2)" {
		t.Error("Names fallback")
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// A Lite PDU keeps its root only, whatever the decoder adds, and every
// index handed out is the root's, so writes through it stay in bounds.
func TestLiteKeepsRootOnly(t *testing.T) {
	data := []byte{1, 2, 3, 4, 5}
	var p PDU
	p.Lite = true
	c := Begin(&p, Core.Root(), data, len(data))
	if _, i := c.Uint16(FieldUndissected); i != 0 {
		t.Fatalf("Lite field index %d, want 0", i)
	}
	c.Open(FieldUndissected, -1)
	c.Uint8(FieldUndissected)
	c.Close()
	if g := p.AddGenerated(0, FieldUndissected, U(1), "x"); g != 0 {
		t.Fatalf("Lite generated index %d, want 0", g)
	}
	c.Finish()
	if len(p.Nodes) != 1 || p.Nodes[0].Field != Core.Root() {
		t.Fatalf("Lite PDU has %d nodes (first %v), want the root only", len(p.Nodes), p.Nodes[0].Field)
	}
	p.Reset(data, len(data))
	if !p.Lite {
		t.Fatal("Reset dropped Lite")
	}
	// Without Lite the same walk builds the tree.
	p.Lite = false
	c = Begin(&p, Core.Root(), data, len(data))
	c.Uint16(FieldUndissected)
	c.Finish()
	if len(p.Nodes) < 3 {
		t.Fatalf("full PDU has %d nodes, want root, field and the undissected rest", len(p.Nodes))
	}
}

// Registered fields get distinct IDs from 1; a field made by hand has 0.
func TestFieldIDs(t *testing.T) {
	r := NewRegistry("idtest", "ID test")
	a, b := r.Uint("idtest.a", "A", BaseDec, nil), r.Str("idtest.b", "B")
	if a.ID() == 0 || b.ID() == 0 || a.ID() == b.ID() || Core.Root().ID() == 0 || Core.Root().ID() == a.ID() {
		t.Errorf("IDs %d, %d, core root %d: want distinct, non-zero", a.ID(), b.ID(), Core.Root().ID())
	}
	if f := (&Field{Name: "x"}); f.ID() != 0 {
		t.Errorf("unregistered field has ID %d", f.ID())
	}
}

// The cursor tells a PDU cut by the capture from one whose bytes are
// wrong: a short read is truncated only when the capture cut the PDU; an
// Invalid failure or a negative length is malformed either way.
func TestCursorTruncatedVersusMalformed(t *testing.T) {
	data := []byte{1, 2, 3}
	tests := []struct {
		name      string
		wire      int
		walk      func(c *Cursor)
		trunc     bool
		malformed bool
		expert    *ExpertInfo
		flag      uint16
	}{
		{"short read, cut", 10, func(c *Cursor) { c.Uint32(tA) }, true, false, ExpertTruncated, FlagTruncated},
		{"short read, whole", 3, func(c *Cursor) { c.Uint32(tA) }, false, true, ExpertMalformed, FlagMalformed},
		{"Fail, cut", 10, func(c *Cursor) { c.Uint8(tA); c.Fail(tS, "no terminator") }, true, false, ExpertTruncated, FlagTruncated},
		{"Invalid, cut", 10, func(c *Cursor) { c.Uint8(tA); c.Invalid(tS, "VarInt longer than 5 bytes") }, false, true, ExpertMalformed, FlagMalformed},
		{"Invalid, whole", 3, func(c *Cursor) { c.Invalid(tS, "bad") }, false, true, ExpertMalformed, FlagMalformed},
		{"negative length, cut", 10, func(c *Cursor) { c.Take(tS, -1) }, false, true, ExpertMalformed, FlagMalformed},
		{"CString without NUL, cut", 10, func(c *Cursor) { c.CString(tS) }, true, false, ExpertTruncated, FlagTruncated},
		{"Malformed mark, no stop", 3, func(c *Cursor) { _, i := c.Uint8(tA); c.Malformed(i, tExample, "odd"); c.Uint8(tA) }, false, true, nil, 0},
		{"complete", 3, func(c *Cursor) { c.Uint8(tA); c.Uint16(tB) }, false, false, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p PDU
			c := Begin(&p, testReg.Root(), data, tt.wire)
			tt.walk(&c)
			c.Finish()
			if err := Check(&p); err != nil {
				t.Fatal(err)
			}
			if c.IsTruncated() != tt.trunc || c.IsMalformed() != tt.malformed {
				t.Errorf("truncated %v malformed %v, want %v %v", c.IsTruncated(), c.IsMalformed(), tt.trunc, tt.malformed)
			}
			if tt.expert == nil {
				return
			}
			n, e := CountFailures(&p)
			if n != 1 || e.Info != tt.expert {
				t.Fatalf("%d failures, last %v; want one %s", n, e, tt.expert.Name)
			}
			if f := p.Nodes[e.Node].Flags & (FlagTruncated | FlagMalformed); f != tt.flag {
				t.Errorf("failed node flags %b, want %b", f, tt.flag)
			}
		})
	}
}

// Opening more subtrees than the cursor's stack holds must not unbalance
// Close: each Close past the stack pops nothing, so the subtrees inside
// the stack keep their parents and lengths, and the tree stays valid.
func TestCursorOpenPastStack(t *testing.T) {
	for _, depth := range []int{15, 16, 17, 40} {
		data := make([]byte, depth+2)
		var p PDU
		c := Begin(&p, testReg.Root(), data, len(data))
		var opened []int32
		for k := 0; k < depth; k++ {
			opened = append(opened, c.Open(tSub, -1))
			c.Uint8(tA)
		}
		for k := 0; k < depth; k++ {
			c.Close()
		}
		after := c.Parent()
		c.Uint8(tA)
		c.Finish()
		if err := Check(&p); err != nil {
			t.Fatalf("depth %d: %v", depth, err)
		}
		if after != 0 {
			t.Errorf("depth %d: after closing all, new nodes go under %d, want the root", depth, after)
		}
		if last := p.Nodes[len(p.Nodes)-2]; last.Parent != 0 || last.Field != tA {
			t.Errorf("depth %d: the read after the subtrees hangs under %d", depth, last.Parent)
		}
		// The outermost subtree spans every byte read inside it.
		if n := p.Nodes[opened[0]]; int(n.Length) != depth {
			t.Errorf("depth %d: outer subtree length %d, want %d", depth, n.Length, depth)
		}
		for _, i := range opened {
			if p.Nodes[i].Length < 0 {
				t.Errorf("depth %d: node %d left with length %d", depth, i, p.Nodes[i].Length)
			}
		}
	}
}

// In a Lite PDU every index handed out is the root's: the cursor's own
// writes (an open subtree's length, a failure's or a malformed mark's
// flag, a little-endian mark) never land on it, and SettleLite undoes a
// decoder's.
func TestLiteNeverAltersRoot(t *testing.T) {
	data := []byte{1, 2, 3, 4, 5}
	walks := map[string]func(c *Cursor){
		"open and close": func(c *Cursor) { c.Open(tSub, -1); c.Uint8(tA); c.Close() },
		"little-endian":  func(c *Cursor) { c.Uint16LE(tA) },
		"malformed mark": func(c *Cursor) { _, i := c.Uint8(tA); c.Malformed(i, tExample, "x") },
		"short read":     func(c *Cursor) { c.Uint64(tA) },
		"invalid":        func(c *Cursor) { c.Invalid(tA, "x") },
		"no NUL":         func(c *Cursor) { c.Uint8(tA); c.CString(tS) },
	}
	for name, walk := range walks {
		for _, wire := range []int{5, 9} {
			var p PDU
			p.Lite = true
			c := Begin(&p, testReg.Root(), data, wire)
			walk(&c)
			c.Finish()
			r := p.Nodes[0]
			if r.Flags != 0 || r.Length != 5 || r.Offset != 0 || r.Parent != -1 || r.Text != "" || r.Value.B != nil || r.Value.N != 0 {
				t.Errorf("%s (wire %d): root %+v", name, wire, r)
			}
		}
	}
	// What a decoder writes through index 0 is undone.
	var p PDU
	p.Lite = true
	c := Begin(&p, testReg.Root(), data, len(data))
	_, i := c.Uint8(tA)
	p.Nodes[i].Text, p.Nodes[i].Key, p.Nodes[i].Value = "child", "k", U(7)
	p.Nodes[i].Flags |= FlagSensitive
	c.Finish()
	p.SettleLite()
	if r := p.Nodes[0]; r.Flags != 0 || r.Text != "" || r.Key != "" || r.Value.N != 0 || r.Length != 5 || r.Field != testReg.Root() {
		t.Errorf("after SettleLite: root %+v", r)
	}
}

package dissect

import "testing"

func TestAppendValue(t *testing.T) {
	r := &Registry{Proto: "fmt"} // not registered: the fields are local to this test
	names := Names{9: "Handshake", 0: "Stat"}
	typ := &Field{Name: "fmt.type", Type: FTUint, Base: BaseDec, Names: names}
	hexF := &Field{Name: "fmt.id", Type: FTUint, Base: BaseHex}
	hexW := &Field{Name: "fmt.idw", Type: FTUint, Base: BaseHex, Width: 4}
	dh := &Field{Name: "fmt.dh", Type: FTUint, Base: BaseDecHex}
	str := &Field{Name: "fmt.s", Type: FTString}
	byt := &Field{Name: "fmt.b", Type: FTBytes}
	flt := &Field{Name: "fmt.f", Type: FTFloat, Unit: "s"}
	in := &Field{Name: "fmt.i", Type: FTInt}
	bl := &Field{Name: "fmt.bool", Type: FTBool}
	_ = r
	for _, c := range []struct {
		n    Node
		want string
	}{
		{Node{Field: typ, Length: 1, Value: U(9)}, "Handshake (9)"},
		{Node{Field: typ, Length: 1, Value: U(5)}, "Unknown (5)"},
		{Node{Field: hexF, Length: 4, Value: U(0x304)}, "0x00000304"},
		{Node{Field: hexW, Length: 0, Value: U(1)}, "0x00000001"},
		{Node{Field: dh, Length: 1, Value: U(11)}, "11 (0x0b)"},
		{Node{Field: str, Value: B([]byte("§fmsh\x1b[2J\x00"))}, `"§fmsh\x1b[2J\x00"`},
		{Node{Field: str, Value: S("a\"b\\c\u202e")}, `"a\"b\\c\u{202e}"`},
		{Node{Field: str, Value: B([]byte{0xff, 'a'})}, `"\xffa"`},
		{Node{Field: byt, Value: B([]byte{0xfe, 0xfd})}, "fefd"},
		{Node{Field: byt, Value: B(make([]byte, 40))}, "0000000000000000000000000000000000000000000000000000000000000000…"},
		{Node{Field: flt, Value: F(0.000109)}, "0.000109 s"},
		{Node{Field: in, Value: I(-1942601834)}, "-1942601834"},
		{Node{Field: bl, Value: Bool(true)}, "True"},
		{Node{Field: typ, Value: U(9), Text: "custom\x1b"}, `custom\x1b`},
	} {
		if got := Display(&c.n); got != c.want {
			t.Errorf("%s %v: got %q, want %q", c.n.Field.Name, c.n.Value, got, c.want)
		}
	}
}

func TestCustomDisplay(t *testing.T) {
	f := &Field{Name: "fmt.custom", Type: FTUint, Custom: func(dst []byte, n *Node) []byte {
		return append(append(dst, "custom "...), byte('0'+n.Value.N))
	}}
	if got := Display(&Node{Field: f, Value: U(7)}); got != "custom 7" {
		t.Errorf("got %q", got)
	}
	if got := Display(&Node{Field: f, Value: U(7), Text: "own text"}); got != "own text" {
		t.Errorf("a node's own text comes first: got %q", got)
	}
}

package render

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/mcdissect/mcdissect/dissect"
)

// generalMembers is what the general way writes for n's "show" and
// "value" members: AppendValue's display string escaped by a scan (but
// for a plain field's), and the typed value.
func generalMembers(j *jsonRenderer, n *dissect.Node) string {
	return string(j.appendValue(j.appendShow([]byte(`, "show": "`), n, plainField(n.Field)), n))
}

// kindStrings are strings with every kind of byte the escapers treat
// apart, for the string kind and appendShownJSON.
var kindStrings = []string{"", "mc.example.net", "a b ~ {}[]", `{"version":{"name":"1.21"}}`, `back\slash`,
	"é§Δ÷°", "\x1b[2J", "\x00\x7f\t\n", "\xff\xc3", "\ufffd", "\u2028\u2029", "\u202e\u00ad", "\U000e0001",
	"😀", "\u0085", "tail\xe2\x82", strings.Repeat("long plain text ", 8) + `"` + strings.Repeat("x", 20)}

// TestKindsAsGeneral: every node a field's kind writes directly is written
// as the general way writes it, for fields of every type, base, unit and
// name table, and values at the edges; and the kinds meant to be taken are.
func TestKindsAsGeneral(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	names := dissect.Names{0: "Zero", 6: "TCP"}
	fields := []*dissect.Field{
		{Type: dissect.FTUint},
		{Type: dissect.FTUint, Width: 4},
		{Type: dissect.FTUint, Unit: "bytes"},
		{Type: dissect.FTUint, Unit: "°C"},
		{Type: dissect.FTUint, Unit: `"q"`},
		{Type: dissect.FTUint, Base: dissect.BaseHex, Width: 2},
		{Type: dissect.FTUint, Base: dissect.BaseHex, Unit: "s"},
		{Type: dissect.FTUint, Base: dissect.BaseDecHex, Width: 1},
		{Type: dissect.FTUint, Base: dissect.BaseHexDec, Width: 2},
		{Type: dissect.FTUint, Names: names},
		{Type: dissect.FTFrameNum},
		{Type: dissect.FTInt},
		{Type: dissect.FTInt, Unit: "blocks"},
		{Type: dissect.FTInt, Names: names},
		{Type: dissect.FTFloat},
		{Type: dissect.FTFloat, Unit: "s"},
		{Type: dissect.FTBool},
		{Type: dissect.FTBytes},
		{Type: dissect.FTAbsTime},
		{Type: dissect.FTString},
		{Type: dissect.FTNone},
		{Type: dissect.FTProtocol},
		{Type: dissect.FTUint, Custom: func(dst []byte, n *dissect.Node) []byte { return append(dst, `c"`...) }},
	}
	nums := []uint64{0, 1, 9, 10, 99, 100, 255, 256, 65535, 1 << 31, 1<<32 - 1, 1 << 40, math.MaxUint64, 1 << 63}
	for range 200 {
		nums = append(nums, rng.Uint64()>>rng.IntN(64))
	}
	j := &jsonRenderer{}
	taken := map[jsonKind]int{}
	for _, f := range fields {
		jf := &jsonField{}
		jf.kind, jf.tail = kindOf(f)
		var nodes []dissect.Node
		for _, v := range nums {
			for _, length := range []int32{0, 1, 2, 8} {
				nodes = append(nodes, dissect.Node{Field: f, Length: length, Value: dissect.U(v)})
			}
		}
		for _, s := range kindStrings {
			nodes = append(nodes, dissect.Node{Field: f, Value: dissect.S(s)})
		}
		for _, k := range []int{0, 1, 6, 32, 33, 100} {
			nodes = append(nodes, dissect.Node{Field: f, Value: dissect.B(make([]byte, k))})
		}
		nodes = append(nodes, dissect.Node{Field: f, Value: dissect.FExact(1.5, []byte("1.500000000"))},
			dissect.Node{Field: f, Value: dissect.F(-0.25)})
		for _, ns := range []int64{0, -1, 1, 1723204800000429000, -1e9, -1e9 - 1, math.MinInt64, math.MaxInt64} {
			nodes = append(nodes, dissect.Node{Field: f, Value: dissect.I(ns)})
		}
		for i := range nodes {
			n := &nodes[i]
			got, ok := j.appendKnown(nil, n, jf)
			if !ok {
				if len(got) != 0 {
					t.Fatalf("%+v: declined after writing %s", n, got)
				}
				continue
			}
			taken[jf.kind]++
			want := ""
			if hasValue(n) {
				want = generalMembers(j, n)
			}
			if string(got) != want {
				t.Fatalf("field %+v, node %+v:\nkind %s\ngeneral %s", *f, n, got, want)
			}
		}
	}
	for k := kindNone; k <= kindString; k++ {
		if taken[k] == 0 {
			t.Errorf("kind %d never taken", k)
		}
	}
}

// TestAbsTimeCache: cached times are dissect.AppendAbsTime's, across
// seconds, backwards and before 1970.
func TestAbsTimeCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var c stampCache
	ns := []int64{0, -1, 1, 999_999_999, 1e9, -1e9, -1e9 - 1, 1723204800000429000, 1723204800999999999, 1723204801000000000,
		math.MinInt64, math.MaxInt64}
	for range 100000 {
		ns = append(ns, 1723204800e9+rng.Int64N(10e9)-5e9)
	}
	for range 1000 {
		ns = append(ns, rng.Int64())
	}
	for _, v := range ns {
		got := string(c.appendAbsTime(nil, v))
		if want := string(dissect.AppendAbsTime(nil, time.Unix(0, v))); got != want {
			t.Fatalf("%d: %s, want %s", v, got, want)
		}
	}
}

// shownRef is appendShownJSON's definition: the display string, escaped
// for JSON by the general escaper.
func shownRef(s string, quoted bool) string {
	var shown []byte
	if quoted {
		shown = dissect.AppendQuoted(nil, s)
		shown = shown[1 : len(shown)-1]
	} else {
		shown = dissect.AppendSafe(nil, s)
	}
	return string(appendJSONEscaped(nil, string(shown)))
}

func checkShown(t *testing.T, j *jsonRenderer, s string) {
	t.Helper()
	for _, q := range []bool{false, true} {
		if got, want := string(j.appendShownJSON(nil, s, q)), shownRef(s, q); got != want {
			t.Fatalf("%q quoted %v: got %s, want %s", s, q, got, want)
		}
	}
}

func TestShownJSONEveryRune(t *testing.T) {
	j := &jsonRenderer{}
	for r := rune(0); r <= unicode.MaxRune; r += 1 + r/4096 {
		c := string(r)
		checkShown(t, j, c)
		checkShown(t, j, "abcdefgh"+c+"ijklmnop"+c)
	}
	for r := rune(0); r < 0x3000; r++ {
		checkShown(t, j, "ab"+string(r))
	}
	for c := 0; c < 256; c++ {
		checkShown(t, j, "0123456789"+string(byte(c))+"x")
	}
}

func TestShownJSONRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := append([]string{"a", " ", "~"}, kindStrings...)
	j := &jsonRenderer{}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(20) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		checkShown(t, j, b.String())
	}
}

func FuzzShownJSON(f *testing.F) {
	for _, s := range kindStrings {
		f.Add(s)
	}
	j := &jsonRenderer{}
	f.Fuzz(func(t *testing.T, s string) { checkShown(t, j, s) })
}

// TestStampAsISOTime: -T ek's times through the stamp cache, with a Z,
// are dissect.AppendISOTime's.
func TestStampAsISOTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	c := stampCache{layout: isoLayout}
	ns := []int64{0, -1, 1, -1e9, -1e9 - 1, 1723204800000429000, math.MinInt64, math.MaxInt64}
	for range 100000 {
		ns = append(ns, 1723204800e9+rng.Int64N(10e9)-5e9)
	}
	for range 1000 {
		ns = append(ns, rng.Int64())
	}
	for _, v := range ns {
		tm := dissect.I(v).Time()
		got := string(append(c.appendStamp(nil, tm), 'Z'))
		if want := string(dissect.AppendISOTime(nil, tm)); got != want {
			t.Fatalf("%d: %s, want %s", v, got, want)
		}
	}
}

// TestEKLayers: the layer of every node, found in one pass, is the one
// a walk up its ancestors finds, in random trees.
func TestEKLayers(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	proto := &dissect.Field{Type: dissect.FTProtocol}
	plain := &dissect.Field{Type: dissect.FTUint}
	walk := func(p *dissect.PDU, i int) int32 {
		if layerNode(p, i) {
			return isLayer
		}
		q := int(p.Nodes[i].Parent)
		for q > 0 && !layerNode(p, q) {
			q = int(p.Nodes[q].Parent)
		}
		return int32(q)
	}
	e := &ekRenderer{}
	for range 2000 {
		p := &dissect.PDU{}
		p.AddNode(-1, proto, 0, 0, dissect.Value{})
		path := []int32{0} // the last node and its ancestors
		for range rng.IntN(60) {
			parent := path[rng.IntN(len(path))]
			f := plain
			if rng.IntN(3) == 0 {
				f = proto
			}
			i := p.AddNode(parent, f, 0, 0, dissect.Value{})
			for path[len(path)-1] != parent {
				path = path[:len(path)-1]
			}
			path = append(path, i)
		}
		e.layers(p)
		for i := range p.Nodes {
			if want := walk(p, i); e.lay[i] != want {
				t.Fatalf("node %d of %+v: layer %d, want %d", i, p.Nodes, e.lay[i], want)
			}
		}
	}
}

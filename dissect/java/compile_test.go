package java

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/java/mcdata"
)

// TestCompileAll compiles every version's configuration, play and login
// packets and fails on any reference the compiler could not resolve or
// type it does not know.
func TestCompileAll(t *testing.T) {
	b := loadParsed(t)
	seen := map[string]bool{}
	for _, v := range b.Versions {
		for st := State(0); st < nStates; st++ {
			dirs := v.States[stateKeys[st]]
			for _, dk := range []string{"toServer", "toClient"} {
				c := &compiler{defs: b.Defs, global: v.Types, local: dirs[dk], namer: func(p string, ft dissect.FieldType, _ int, l string) *dissect.Field {
					return &dissect.Field{Name: p, Type: ft}
				}, parsed: map[int]any{}}
				ids, types, err := packetMap(c)
				if err != nil {
					if dirs == nil {
						continue
					}
					t.Errorf("%s %s %s: %v", v.Path, stateKeys[st], dk, err)
					continue
				}
				for _, name := range ids {
					c.named(types[name], nil, statePaths[st]+"."+name, newScope(nil))
				}
				for _, e := range c.errs {
					k := v.Path + ": " + e
					if !seen[e] {
						seen[e] = true
						t.Error(k)
					}
				}
			}
		}
	}
}

// loadParsed is the data with every version's tables read.
func loadParsed(t *testing.T) *mcdata.Blob {
	b, err := mcdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range b.Versions {
		if err := v.Parse(); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// TestNativeTypes lists every type name the data uses and checks each is
// either compiled by this package or defined by the data.
func TestNativeTypes(t *testing.T) {
	b := loadParsed(t)
	names := typeNames(b)
	var missing []string
	for n := range names {
		if natives[n] || n == "native" || strings.HasPrefix(n, "packet") {
			continue
		}
		defined := false
		for _, v := range b.Versions {
			if _, ok := v.Types[n]; ok {
				defined = true
			}
			for _, st := range v.States {
				for _, d := range st {
					if _, ok := d[n]; ok {
						defined = true
					}
				}
			}
		}
		if !defined {
			missing = append(missing, n)
		}
	}
	// and every type the data calls native is one this package reads
	for _, v := range b.Versions {
		for n, i := range v.Types {
			if string(b.Defs[i]) == `"native"` && !natives[n] {
				missing = append(missing, n+" (native in "+v.Path+")")
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("type names neither native here nor defined: %v", missing)
	}
}

// TestInfoNames: every packet info's switch names is in infoNames, so
// that a summary reads its fields (and no other packet's).
func TestInfoNames(t *testing.T) {
	src, err := os.ReadFile("info.go")
	if err != nil {
		t.Fatal(err)
	}
	sw := string(src)[strings.Index(string(src), "switch pk.name {"):strings.Index(string(src), "// infoNames are")]
	n := 0
	for _, c := range regexp.MustCompile(`\tcase ((?:"[a-z_]+",? ?)+):`).FindAllStringSubmatch(sw, -1) {
		for _, m := range regexp.MustCompile(`"([a-z_]+)"`).FindAllStringSubmatch(c[1], -1) {
			n++
			if !infoNames[m[1]] {
				t.Errorf("%s is a case of info's switch, not in infoNames", m[1])
			}
		}
	}
	if n != len(infoNames) {
		t.Errorf("%d case names, %d in infoNames", n, len(infoNames))
	}
}

// TestLazyCompile: a packet is compiled at its first look-up, once, also
// when goroutines look it up together (go test -race), and a version's
// look-ups compile nothing but the packets asked for.
func TestLazyCompile(t *testing.T) {
	b, err := mcdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	if err := register(); err != nil {
		t.Fatal(err)
	}
	mv, _, _ := b.Lookup(767)
	c, err := packetTables(b, mv, runtimeNamer)
	if err != nil {
		t.Fatal(err)
	}
	v := &Version{Name: "1.21", Protocol: 767, Exact: true, Data: mv.Path, c: c}
	const keepAlive = "keep_alive"
	id := int32(-1)
	ps := v.packets(Play, dissect.DirS2C)
	for i, n := range ps.names {
		if n == keepAlive {
			id = int32(i)
		}
	}
	if id < 0 {
		t.Fatal("no keep_alive in play, server to client")
	}
	if v.PacketName(Play, dissect.DirS2C, id) != keepAlive || !v.Knows(Play, dissect.DirS2C, id) {
		t.Fatal("PacketName or Knows wrong")
	}
	for st := range c.dirs {
		for _, ps := range c.dirs[st] {
			for i := range ps.done {
				if ps.done[i].Load() != nil {
					t.Fatalf("%s packet %d compiled before its look-up", State(st), i)
				}
			}
		}
	}
	got := make(chan *packet, 8)
	for range cap(got) {
		go func() { got <- v.lookup(Play, dissect.DirS2C, id) }()
	}
	first := <-got
	for range cap(got) - 1 {
		if p := <-got; p != first {
			t.Fatal("two compilations of one packet")
		}
	}
	if first == nil || first.name != keepAlive || first.t == nil {
		t.Fatalf("look-up gave %+v", first)
	}
	n := 0
	for st := range c.dirs {
		for _, ps := range c.dirs[st] {
			for i := range ps.done {
				if ps.done[i].Load() != nil {
					n++
				}
			}
		}
	}
	if n != 1 {
		t.Errorf("%d packets compiled, want 1", n)
	}
	if v.lookup(Play, dissect.DirS2C, int32(len(ps.names))) != nil || v.lookup(Play, dissect.DirS2C, -1) != nil {
		t.Error("an ID past the table compiled to a packet")
	}
}

// TestInfoFields: every field name info reads (num, text, get and the
// position's x, y, z) is in infoFields, the only fields a packet's
// compiled infos list holds.
func TestInfoFields(t *testing.T) {
	src, err := os.ReadFile("info.go")
	if err != nil {
		t.Fatal(err)
	}
	body := string(src)[strings.Index(string(src), "func info("):strings.Index(string(src), "// infoNames are")]
	have := map[string]bool{}
	for _, n := range infoFields {
		have[n] = true
	}
	n := 0
	for _, call := range regexp.MustCompile(`(?:num|text|get)\(([^)]*)\)|\[\]string\{([^}]*)\}`).FindAllStringSubmatch(body, -1) {
		for _, m := range regexp.MustCompile(`"([A-Za-z]+)"`).FindAllStringSubmatch(call[1]+" "+call[2], -1) {
			n++
			if !have[m[1]] {
				t.Errorf("info reads %s, which is not in infoFields", m[1])
			}
		}
	}
	if n < 20 {
		t.Errorf("found %d field names in info, the pattern no longer matches it", n)
	}
}

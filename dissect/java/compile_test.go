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
	b, err := mcdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, v := range b.Versions {
		for st := State(0); st < nStates; st++ {
			dirs := v.States[stateKeys[st]]
			for _, dk := range []string{"toServer", "toClient"} {
				c := &compiler{defs: b.Defs, global: v.Types, local: dirs[dk], namer: func(p string, ft dissect.FieldType, l string) *dissect.Field {
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

// TestNativeTypes lists every type name the data uses and checks each is
// either compiled by this package or defined by the data.
func TestNativeTypes(t *testing.T) {
	b, err := mcdata.Load()
	if err != nil {
		t.Fatal(err)
	}
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

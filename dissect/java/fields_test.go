package java

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/java/mcdata"
)

// TestPlainNamesNewestRelease: every field's plain name has a type the
// newest release gives its path (the data file's table is made by
// FillFields; a snapshot, 21w07a, must not decide), and its other types
// are its Alts.
func TestPlainNamesNewestRelease(t *testing.T) {
	b, err := mcdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	if err := register(); err != nil {
		t.Fatal(err)
	}
	newest := b.NewestFirst()[0]
	if newest.Path != "pc/26.1" {
		t.Errorf("newest release's data %s, want pc/26.1", newest.Path)
	}
	types := map[string]map[dissect.FieldType]bool{}
	rec := func(path string, ft dissect.FieldType, lbl string) *dissect.Field {
		if types[path] == nil {
			types[path] = map[dissect.FieldType]bool{}
		}
		types[path][ft] = true
		return &dissect.Field{Name: path, Type: ft}
	}
	if _, err := compileVersion(b, newest, rec); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range b.Fields {
		if e.Path != "" { // not a plain name
			continue
		}
		path := e.Name[len("mc."):]
		ts, ok := types[path]
		if !ok {
			continue // not in the newest release
		}
		n++
		f, _, ok := dissect.LookupField(e.Name)
		if !ok {
			t.Fatalf("%s is not registered", e.Name)
		}
		if !ts[f.Type] {
			t.Errorf("%s is %s; the newest release gives it %v", e.Name, f.Type, ts)
		}
	}
	if n < 1000 {
		t.Errorf("only %d plain names checked", n)
	}
	f, _, _ := dissect.LookupField("mc.play.kick_disconnect.reason")
	alt, _, _ := dissect.LookupField("mc.play.kick_disconnect.reason_string")
	if f == nil || alt == nil || f.Type != dissect.FTNone || len(f.Alts) != 1 || f.Alts[0] != alt {
		t.Errorf("mc.play.kick_disconnect.reason: %+v, reason_string %+v", f, alt)
	}
	if alt != nil && alt.Desc != f.Desc {
		t.Errorf("reason_string's explanation %q, want the reason's", alt.Desc)
	}
}

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
	rec := func(path string, ft dissect.FieldType, _ int, lbl string) *dissect.Field {
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

// TestFieldWidths: a generated field has the width of its ProtoDef type in
// the newest release (keep-alive IDs, chat timestamps and salts are i64:
// FT_INT64; they were listed FT_INT32), floats are FT_FLOAT or FT_DOUBLE;
// and a version whose type is narrower or wider (1.8's keep-alive ID is a
// VarInt) shows its value whole: a width is a display type, not a bound.
func TestFieldWidths(t *testing.T) {
	if err := register(); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"mc.play.keep_alive.keep_alive_id":   "FT_INT64",
		"mc.config.keep_alive.keep_alive_id": "FT_INT64",
		"mc.play.chat_message.timestamp":     "FT_INT64",
		"mc.play.chat_message.salt":          "FT_INT64",
		"mc.play.position.x":                 "FT_DOUBLE",
		"mc.play.position.yaw":               "FT_FLOAT",
		"mc.play.map_chunk.x":                "FT_INT32",
		"mc.play.abilities.flags":            "FT_INT8",
		"mc.play.kick_disconnect.reason":     "FT_NONE",
	} {
		f, _, ok := dissect.LookupField(name)
		if !ok || f.FTName() != want {
			got := ""
			if ok {
				got = f.FTName()
			}
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	v, err := ForName("1.8")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		varint []byte
		want   string
	}{
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x07}, "2147483647"},
		{[]byte{0xfb, 0xff, 0xff, 0xff, 0x0f}, "-5"},
	} {
		id := int32(-1)
		for i := int32(0); i < 128; i++ {
			if v.PacketName(Play, dissect.DirS2C, i) == "keep_alive" {
				id = i
			}
		}
		p := &dissect.PDU{}
		data := append([]byte{byte(id)}, c.varint...)
		cur := dissect.Begin(p, RegPlay.Root(), data, len(data))
		idv, idi := varInt(&cur, anonField(dissect.FTInt))
		v.Decode(&cur, Play, dissect.DirS2C, idv, idi)
		cur.Finish()
		i := p.Find("mc.play.keep_alive.keep_alive_id")
		if i < 0 {
			t.Fatalf("no keep-alive ID:\n%s", dump(p))
		}
		if got := string(dissect.AppendValue(nil, &p.Nodes[i])); got != c.want {
			t.Errorf("1.8 keep-alive ID %q, want %s", got, c.want)
		}
	}
	// and the other way: a value wider than its field's width
	n := dissect.Node{Field: &dissect.Field{Type: dissect.FTInt, Width: 1}, Value: dissect.I(1 << 40)}
	if got := string(dissect.AppendValue(nil, &n)); got != "1099511627776" {
		t.Errorf("a 64-bit value in an 8-bit field shows %q", got)
	}
}

package java

import (
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

// testType compiles def (ProtoDef JSON) with the named types of types
// and walks data with it, returning the PDU (checked) and the walker.
func testType(t *testing.T, def string, types map[string]string, data []byte, lite bool) (*dissect.PDU, *walker) {
	t.Helper()
	var defs []json.RawMessage
	global := map[string]int{}
	for n, d := range types {
		global[n] = len(defs)
		defs = append(defs, json.RawMessage(d))
	}
	global["packet_test"] = len(defs)
	defs = append(defs, json.RawMessage(def))
	c := &compiler{defs: defs, global: global, namer: testNamer, parsed: map[int]any{}}
	typ := c.named("packet_test", nil, "play.test", newScope(nil))
	if len(c.errs) > 0 {
		t.Fatalf("compile: %v", c.errs)
	}
	p := &dissect.PDU{Lite: lite}
	cur := dissect.Begin(p, RegPlay.Root(), data, len(data))
	w := &walker{c: cur, next: growAt}
	w.walk(typ, nil)
	w.c.Finish()
	if !lite {
		if err := dissect.Check(p); err != nil {
			t.Fatalf("%v\n%s", err, dump(p))
		}
	}
	return p, w
}

// testNamer gives every path a field of its own, made on first use.
var testFields = map[string]*dissect.Field{}

func testNamer(path string, ft dissect.FieldType, _ int, label string) *dissect.Field {
	k := path + "/" + ftNames[ft]
	if f, ok := testFields[k]; ok {
		return f
	}
	f := &dissect.Field{Name: "mc." + path, Label: label, Type: ft}
	testFields[k] = f
	return f
}

func dump(p *dissect.PDU) string {
	var b strings.Builder
	for i := range p.Nodes {
		n := &p.Nodes[i]
		b.WriteString(strings.Repeat("  ", p.Depth(int32(i))) + n.Name() + " [" + itoa(int(n.Offset)) + "+" + itoa(int(n.Length)) + "] " + dissecttest.Display(n) + "\n")
	}
	for _, e := range p.Experts {
		b.WriteString("expert " + e.Info.Name + ": " + e.Msg + "\n")
	}
	return b.String()
}

func itoa(v int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(v)) }

func fmtInt(v int) string {
	if v == 0 {
		return "0"
	}
	s := ""
	neg := v < 0
	if neg {
		v = -v
	}
	for v > 0 {
		s = string(rune('0'+v%10)) + s
		v /= 10
	}
	if neg {
		s = "-" + s
	}
	return s
}

func hx(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(err)
	}
	return b
}

// find returns the display of the first node named name ("" if none).
func find(p *dissect.PDU, name string) string {
	if i := p.Find(name); i >= 0 {
		return dissecttest.Display(&p.Nodes[i])
	}
	return ""
}

var testTypes = map[string]string{
	"string":   `["pstring",{"countType":"varint"}]`,
	"position": `["bitfield",[{"name":"x","size":26,"signed":true},{"name":"z","size":26,"signed":true},{"name":"y","size":12,"signed":true}]]`,
	"pos18":    `["bitfield",[{"name":"x","size":26,"signed":true},{"name":"y","size":12,"signed":true},{"name":"z","size":26,"signed":true}]]`,
	"vec3f":    `["container",[{"name":"x","type":"f32"},{"name":"y","type":"f32"},{"name":"z","type":"f32"}]]`,
	"metaItem": `["switch",{"compareTo":"$compareTo","fields":{"0":"i8","1":"varint","3":"string"}}]`,
	"holder":   `["registryEntryHolder",{"baseName":"soundId","otherwise":{"name":"data","type":"string"}}]`,
	"idset":    `["registryEntryHolderSet",{"base":{"name":"name","type":"string"},"otherwise":{"name":"ids","type":"varint"}}]`,
}

// TestNatives reads each native type from byte vectors: values, node
// ranges, and that the walk ends where the bytes do (no expert item).
func TestNatives(t *testing.T) {
	for _, tc := range []struct {
		name, def, data string
		want            map[string]string // node name -> display
	}{
		{"varint", `["container",[{"name":"v","type":"varint"}]]`, "ff ff ff ff 07", map[string]string{"mc.play.test.v": "2147483647"}},
		{"varint negative", `["container",[{"name":"v","type":"varint"}]]`, "ff ff ff ff 0f", map[string]string{"mc.play.test.v": "-1"}},
		{"varlong", `["container",[{"name":"v","type":"varlong"}]]`, "80 80 80 80 80 80 80 80 80 01", map[string]string{"mc.play.test.v": "-9223372036854775808"}},
		{"ints", `["container",[{"name":"a","type":"i8"},{"name":"b","type":"u16"},{"name":"c","type":"i32"},{"name":"d","type":"i64"},{"name":"e","type":"u8"}]]`,
			"ff ff fe 80 00 00 00 ff ff ff ff ff ff ff fd 80", map[string]string{"mc.play.test.a": "-1", "mc.play.test.b": "65534", "mc.play.test.c": "-2147483648", "mc.play.test.d": "-3", "mc.play.test.e": "128"}},
		{"floats", `["container",[{"name":"f","type":"f32"},{"name":"d","type":"f64"}]]`, "3f c0 00 00 c0 24 00 00 00 00 00 00", map[string]string{"mc.play.test.f": "1.5", "mc.play.test.d": "-10"}},
		{"bool", `["container",[{"name":"b","type":"bool"}]]`, "01", map[string]string{"mc.play.test.b": "True"}},
		{"string", `["container",[{"name":"s","type":"string"}]]`, "05 68 65 6c 6c 6f", map[string]string{"mc.play.test.s": `"hello"`}},
		{"uuid", `["container",[{"name":"u","type":"UUID"}]]`, "03a0deb90a8f3d618135adbb712d0dd3", map[string]string{"mc.play.test.u": `"03a0deb9-0a8f-3d61-8135-adbb712d0dd3"`}},
		{"buffer countType", `["container",[{"name":"b","type":["buffer",{"countType":"varint"}]}]]`, "02 ab cd", map[string]string{"mc.play.test.b": "abcd"}},
		{"buffer fixed", `["container",[{"name":"b","type":["buffer",{"count":3}]}]]`, "01 02 03", map[string]string{"mc.play.test.b": "010203"}},
		{"restBuffer", `["container",[{"name":"a","type":"u8"},{"name":"r","type":"restBuffer"}]]`, "01 02 03", map[string]string{"mc.play.test.r": "0203"}},
		{"option absent", `["container",[{"name":"o","type":["option","varint"]}]]`, "00", map[string]string{"mc.java.present": "False"}},
		{"option present", `["container",[{"name":"o","type":["option","varint"]}]]`, "01 2a", map[string]string{"mc.java.present": "True", "mc.play.test.o": "42"}},
		{"array countType", `["container",[{"name":"a","type":["array",{"countType":"varint","type":"i16"}]}]]`, "02 00 01 ff ff", map[string]string{"mc.java.count": "2", "mc.play.test.a.entry": "1"}},
		{"array count field", `["container",[{"name":"n","type":"u8"},{"name":"a","type":["array",{"count":"n","type":"i16"}]}]]`, "02 00 07 00 08", map[string]string{"mc.play.test.a.entry": "7"}},
		{"array fixed", `["container",[{"name":"a","type":["array",{"count":2,"type":"i16"}]}]]`, "00 07 00 08", map[string]string{"mc.play.test.a.entry": "7"}},
		{"array of bytes is bytes", `["container",[{"name":"n","type":"u8"},{"name":"a","type":["array",{"count":"n","type":"u8"}]},{"name":"b","type":["array",{"countType":"varint","type":"i8"}]}]]`, "02 07 08 01 09", map[string]string{"mc.play.test.a": "0708", "mc.play.test.b": "09"}},
		{"position 1.14+", `["container",[{"name":"p","type":"position"}]]`, "00 00 00 40 00 00 30 46", map[string]string{"mc.java.position.x": "1", "mc.java.position.z": "3", "mc.java.position.y": "70"}},
		{"position 1.8", `["container",[{"name":"p","type":"pos18"}]]`, "ff ff ff c0 04 00 00 03", map[string]string{"mc.java.pos18.x": "-1", "mc.java.pos18.y": "1", "mc.java.pos18.z": "3"}},
		{"bitflags", `["container",[{"name":"f","type":["bitflags",{"type":"u8","flags":["a","b","c"]}]}]]`, "05", map[string]string{"mc.play.test.f": "5", "mc.play.test.f.c": "True", "mc.play.test.f.b": "False"}},
		{"mapper and switch on names", `["container",[{"name":"k","type":["mapper",{"type":"varint","mappings":{"0":"int","1":"text"}}]},{"name":"v","type":["switch",{"compareTo":"k","fields":{"int":"i32","text":"string"}}]}]]`,
			"01 02 68 69", map[string]string{"mc.play.test.k": "text", "mc.play.test.v": `"hi"`}},
		{"switch on ../ and flags", `["container",[{"name":"act","type":["bitflags",{"type":"u8","flags":["add","rm"]}]},{"name":"d","type":["array",{"countType":"varint","type":["container",[{"name":"x","type":["switch",{"compareTo":"../act/rm","fields":{"true":"varint"},"default":"void"}]}]]}]}]]`,
			"02 02 05 06", map[string]string{"mc.play.test.d.x": "5"}},
		{"switch bool default", `["container",[{"name":"has","type":"bool"},{"name":"v","type":["switch",{"compareTo":"has","fields":{"false":"void"},"default":"u8"}]}]]`, "01 09", map[string]string{"mc.play.test.v": "9"}},
		{"anonymous switch container", `["container",[{"name":"n","type":"varint"},{"anon":true,"type":["switch",{"compareTo":"n","fields":{"0":"void"},"default":["container",[{"name":"id","type":"varint"}]]}]}]]`, "01 07", map[string]string{"mc.play.test.id": "7"}},
		{"parametrised type", `["container",[{"name":"t","type":"varint"},{"name":"v","type":["metaItem",{"compareTo":"t"}]}]]`, "03 02 6f 6b", map[string]string{"mc.play.test.v": `"ok"`}},
		{"entity metadata loop", `["container",[{"name":"m","type":["entityMetadataLoop",{"endVal":255,"type":["container",[{"name":"key","type":"u8"},{"name":"type","type":"varint"},{"name":"value","type":["metaItem",{"compareTo":"type"}]}]]}]}]]`,
			"00 00 05 01 01 2a ff", map[string]string{"mc.java.metadata_end": "0xff", "mc.play.test.m.value": "5"}},
		{"top bit array", `["container",[{"name":"e","type":["topBitSetTerminatedArray",{"type":["container",[{"name":"slot","type":"i8"},{"name":"v","type":"u8"}]]}]}]]`,
			"80 01 05 02", map[string]string{"mc.play.test.e.v": "1"}},
		{"holder by id", `["container",[{"name":"s","type":"holder"}]]`, "05", map[string]string{"mc.java.holder.sound_id": "4"}},
		{"holder inline", `["container",[{"name":"s","type":"holder"}]]`, "00 02 61 62", map[string]string{"mc.java.inline": "0", "mc.java.holder.data": `"ab"`}},
		{"holder set tag", `["container",[{"name":"s","type":"idset"}]]`, "00 01 74", map[string]string{"mc.java.idset.name": `"t"`}},
		{"holder set ids", `["container",[{"name":"s","type":"idset"}]]`, "03 07 08", map[string]string{"mc.java.idset.ids": "7"}},
		{"nbt named", `["container",[{"name":"n","type":"nbt"}]]`, "0a 00 00 08 00 01 61 00 02 68 69 03 00 01 62 00 00 00 07 00", map[string]string{"mc.nbt.string.a": `"hi"`, "mc.nbt.int.b": "7"}},
		{"nbt anonymous", `["container",[{"name":"n","type":"anonymousNbt"}]]`, "0a 01 00 01 63 ff 00", map[string]string{"mc.nbt.byte.c": "-1"}},
		{"nbt optional absent", `["container",[{"name":"n","type":"optionalNbt"}]]`, "00", map[string]string{"mc.play.test.n": "none (TAG_End)"}},
		{"nbt list and arrays", `["container",[{"name":"n","type":"anonymousNbt"}]]`, "0a 09 00 01 6c 03 00 00 00 02 00 00 00 01 00 00 00 02 0b 00 01 69 00 00 00 01 00 00 00 05 00", map[string]string{"mc.nbt.list_header": "2 × Int", "mc.nbt.int_array.i": "00000005"}},
		{"lpVec3 zero", `["container",[{"name":"v","type":"lpVec3"}]]`, "00", nil},
		{"lpVec3", `["container",[{"name":"v","type":"lpVec3"}]]`, "01 00 00 00 00 00", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := hx(tc.data)
			p, _ := testType(t, tc.def, testTypes, data, false)
			if len(p.Experts) > 0 {
				t.Errorf("expert items:\n%s", dump(p))
			}
			for n, want := range tc.want {
				if got := find(p, n); got != want {
					t.Errorf("%s = %q, want %q\n%s", n, got, want, dump(p))
				}
			}
			// the same in a Lite PDU: no panic, no node
			lp, _ := testType(t, tc.def, testTypes, data, true)
			if len(lp.Nodes) != 1 {
				t.Errorf("lite PDU has %d nodes", len(lp.Nodes))
			}
		})
	}
}

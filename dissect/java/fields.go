package java

import (
	"sort"
	"strings"
	"sync"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/java/mcdata"
)

// Registries. The packets' own fields (mc.play.*, mc.config.*, and the
// named types' mc.java.<type>.*) come from the data file's field table,
// registered on first use (register); the fields below are the
// dissector's own.
var (
	RegJava   = dissect.NewRegistry("mc.java", "Minecraft Java Edition")
	RegNBT    = dissect.NewRegistry("mc.nbt", "Named Binary Tag")
	RegConfig = dissect.NewRegistry("mc.config", "Minecraft Java configuration state")
	RegPlay   = dissect.NewRegistry("mc.play", "Minecraft Java play state")

	FieldCount = RegJava.Int("mc.java.count", "Count")
	// FieldElements is the bytes left for elements a count says more of
	// than can be there: the count keeps its value, these bytes the error.
	FieldElements = RegJava.Bytes("mc.java.elements", "Elements")
	FieldPresent  = RegJava.Bool("mc.java.present", "Present")
	FieldArray    = RegJava.Label("mc.java.array", "Array")
	FieldInline   = RegJava.Uint("mc.java.inline", "Inline value follows", dissect.BaseDec, nil)
	FieldMetaEnd  = RegJava.Uint("mc.java.metadata_end", "End of metadata", dissect.BaseHex, nil)
	FieldTooDeep  = RegJava.Bytes("mc.java.too_deep", "Nested too deeply")
	// FieldChatText is the plain text of a chat component (JSON or NBT).
	FieldChatText = RegJava.Str("mc.java.chat_text", "Text")
	// FieldVersion is the data file a packet was read with, when the
	// protocol number has none of its own.
	FieldVersion = RegJava.Str("mc.java.version", "Protocol data")

	anonFields = map[dissect.FieldType]*dissect.Field{
		dissect.FTInt:    RegJava.Int("mc.java.anon.int", "Value"),
		dissect.FTUint:   RegJava.Uint("mc.java.anon.uint", "Value", dissect.BaseDec, nil),
		dissect.FTBool:   RegJava.Bool("mc.java.anon.bool", "Value"),
		dissect.FTFloat:  RegJava.Float("mc.java.anon.float", "Value", ""),
		dissect.FTString: RegJava.Str("mc.java.anon.string", "Value"),
		dissect.FTBytes:  RegJava.Bytes("mc.java.anon.bytes", "Value"),
		dissect.FTNone:   RegJava.Label("mc.java.anon.tree", "Value"),
	}

	FieldNBTHeader     = RegNBT.Str("mc.nbt.header", "Tag type and name")
	FieldNBTEnd        = RegNBT.Uint("mc.nbt.end", "End", dissect.BaseDec, nil)
	FieldNBTListHeader = RegNBT.Uint("mc.nbt.list_header", "Element type and count", dissect.BaseDec, nil)
	FieldNBTGzip       = RegNBT.Bytes("mc.nbt.gzip", "Gzip'd NBT")
	FieldNBTInflated   = RegNBT.Uint("mc.nbt.inflated_size", "Inflated size", dissect.BaseDec, nil)
	FieldNBTCompound   = RegNBT.Add(dissect.Field{Name: "mc.nbt.compound", Label: "Compound", Type: dissect.FTNone, Keyed: true})

	nbtFields = [...]*dissect.Field{
		nil,
		RegNBT.Add(dissect.Field{Name: "mc.nbt.byte", Label: "Byte", Type: dissect.FTInt, Keyed: true}),
		RegNBT.Add(dissect.Field{Name: "mc.nbt.short", Label: "Short", Type: dissect.FTInt, Keyed: true}),
		RegNBT.Add(dissect.Field{Name: "mc.nbt.int", Label: "Int", Type: dissect.FTInt, Keyed: true}),
		RegNBT.Add(dissect.Field{Name: "mc.nbt.long", Label: "Long", Type: dissect.FTInt, Keyed: true}),
		RegNBT.Add(dissect.Field{Name: "mc.nbt.float", Label: "Float", Type: dissect.FTFloat, Keyed: true}),
		RegNBT.Add(dissect.Field{Name: "mc.nbt.double", Label: "Double", Type: dissect.FTFloat, Keyed: true}),
		RegNBT.Add(dissect.Field{Name: "mc.nbt.byte_array", Label: "Byte array", Type: dissect.FTBytes, Keyed: true}),
		RegNBT.Add(dissect.Field{Name: "mc.nbt.string", Label: "String", Type: dissect.FTString, Keyed: true}),
		RegNBT.Add(dissect.Field{Name: "mc.nbt.list", Label: "List", Type: dissect.FTNone, Keyed: true}),
		FieldNBTCompound,
		RegNBT.Add(dissect.Field{Name: "mc.nbt.int_array", Label: "Int array", Type: dissect.FTBytes, Keyed: true}),
		RegNBT.Add(dissect.Field{Name: "mc.nbt.long_array", Label: "Long array", Type: dissect.FTBytes, Keyed: true}),
	}

	ExpertUnknownType = RegJava.Expert("mc.java.unknown_type", dissect.SevError, "the data names a native type this dissector does not implement: the rest of the packet is not dissected")
	ExpertNBTGzip     = RegJava.Expert("mc.java.nbt_gzip", dissect.SevWarn, "a 1.7 compressed NBT that does not inflate")
	ExpertApprox      = RegJava.Expert("mc.java.version_approximate", dissect.SevNote, "the protocol number has no data of its own: the closest version's is used")
	ExpertUnknownID   = RegJava.Expert("mc.java.unknown_packet", dissect.SevWarn, "a packet ID the version's data does not have in this state and direction")
	ExpertNoData      = RegJava.Expert("mc.java.no_data", dissect.SevWarn, "no protocol data could be loaded: the packet is not dissected")
	ExpertTooMany     = RegJava.Expert("mc.java.too_many_fields", dissect.SevWarn, "a packet with more fields than the dissector shows (65536): the rest of it is shown as bytes")
	ExpertLeftOver    = RegJava.Expert("mc.java.left_over", dissect.SevWarn, "bytes after the last field the version's data has for this packet")
)

func anonField(ft dissect.FieldType) *dissect.Field {
	if f, ok := anonFields[ft]; ok {
		return f
	}
	return anonFields[dissect.FTBytes]
}

var ftNames = map[dissect.FieldType]string{
	dissect.FTInt: "int", dissect.FTUint: "uint", dissect.FTBool: "bool", dissect.FTFloat: "float",
	dissect.FTString: "string", dissect.FTBytes: "bytes", dissect.FTNone: "none",
}

func ftByName(s string) dissect.FieldType {
	for ft, n := range ftNames {
		if n == s {
			return ft
		}
	}
	return dissect.FTBytes
}

// The field table, made at first use from the data file.
var (
	regOnce sync.Once
	regErr  error
	// fieldsByKey: path and type ("play.chat.message\x00string") -> field
	fieldsByKey map[string]*dissect.Field
)

func init() {
	RegJava.Roles(map[string]dissect.Role{"mc.java.chat_text": dissect.RoleText}) // a kick's reason, a chat line
	for _, p := range []string{"mc.play.", "mc.config.", "mc.java."} {
		dissect.Lazy(p, func() { register() })
	}
}

// register adds every field of the data file's table to its registry,
// once.
func register() error {
	regOnce.Do(func() {
		b, err := mcdata.Load()
		if err != nil {
			regErr = err
			return
		}
		fieldsByKey = make(map[string]*dissect.Field, len(b.Fields))
		plain := map[string]*dissect.Field{} // path -> the field of its plain name
		for _, e := range b.Fields {
			path := e.Path
			if path == "" {
				path = strings.TrimPrefix(e.Name, "mc.")
			}
			ft := ftByName(e.Type)
			reg := RegJava
			switch {
			case strings.HasPrefix(e.Name, "mc.play."):
				reg = RegPlay
			case strings.HasPrefix(e.Name, "mc.config."):
				reg = RegConfig
			}
			f := dissect.Field{Name: e.Name, Label: e.Label, Type: ft, Width: e.Width, Desc: describe("mc."+path, path, ft)}
			if ft == dissect.FTUint || ft == dissect.FTInt {
				f.Base = dissect.BaseDec
			}
			rf := reg.Add(f)
			fieldsByKey[path+"\x00"+e.Type] = rf
			// the table lists a path's plain name before its others
			if e.Path == "" {
				plain[path] = rf
			} else if p := plain[path]; p != nil {
				p.Alts = append(p.Alts, rf)
			}
		}
	})
	return regErr
}

// runtimeNamer finds the table's field for a node; a path the table does
// not have (data newer than the table: it should not happen) gets the
// generic field of its type.
func runtimeNamer(path string, ft dissect.FieldType, _ int, label string) *dissect.Field {
	if f, ok := fieldsByKey[path+"\x00"+ftNames[ft]]; ok {
		return f
	}
	return anonField(ft)
}

// FillFields makes the data file's field table: every version's packets
// (configuration and play, both directions) and named types are compiled,
// and each node's dotted path, type and width recorded. A path seen with one
// type is the field "mc." + path. A path seen with several types (a
// switch whose cases differ, a field whose type changed between versions)
// keeps the plain name for the type the newest release that has it gives
// it (mcdata.Blob.NewestFirst: releases first, newest first, then
// snapshots, which never decide a name a release has); its other types get
// the name plus "_" and the type ("_int", "_string", "_none", ...), and
// the plain name's filter matches them too (dissect.Field.Alts). The rule
// is deterministic, and a name changes only when the newest release
// changes its type.
func FillFields(b *mcdata.Blob) error {
	type seen struct {
		types  []string // in order of first sight, newest release first
		widths []int    // by types: the width the newest release gives it
		label  string
	}
	paths := map[string]*seen{}
	var order []string
	rec := func(path string, ft dissect.FieldType, width int, lbl string) *dissect.Field {
		s := paths[path]
		if s == nil {
			s = &seen{label: lbl}
			paths[path] = s
			order = append(order, path)
		}
		tn := ftNames[ft]
		found := false
		for _, t := range s.types {
			found = found || t == tn
		}
		if !found {
			s.types = append(s.types, tn)
			s.widths = append(s.widths, width)
		}
		return &dissect.Field{Name: path, Type: ft}
	}
	for _, v := range b.NewestFirst() {
		if _, err := compileVersion(b, v, rec); err != nil {
			return err
		}
	}
	sort.Strings(order)
	b.Fields = b.Fields[:0]
	for _, p := range order {
		s := paths[p]
		for k, t := range s.types {
			e := mcdata.FieldEntry{Name: "mc." + p, Type: t, Width: s.widths[k], Label: s.label}
			if k > 0 {
				e.Name += "_" + t
				e.Path = p
			}
			b.Fields = append(b.Fields, e)
		}
	}
	return nil
}

// describe is a generated field's explanation, unless a hand-written one
// exists (explain.go); name is the plain name, so that the fields of a
// name's other types ("_string") share its explanation.
func describe(name, path string, ft dissect.FieldType) string {
	if d, ok := handDesc[name]; ok {
		return d
	}
	state, rest, ok := strings.Cut(path, ".")
	if !ok {
		return ""
	}
	packet, field, _ := strings.Cut(rest, ".")
	where := ""
	switch state {
	case "play":
		where = "the play-state packet " + packet
	case "config":
		where = "the configuration-state packet " + packet
	case "java":
		where = "the protocol type " + packet + " (used by several packets)"
	}
	if field == "" {
		return "The packet " + packet + " of the " + state + " state, as minecraft-data names it; its fields follow."
	}
	return "Field " + field + " of " + where + ", as minecraft-data names it: " + typeWhat(ft) + ". Generated from the protocol data; its meaning is the name's."
}

// typeWhat is what a generated field's description calls its type.
func typeWhat(ft dissect.FieldType) string {
	switch ft {
	case dissect.FTInt:
		return "a signed integer"
	case dissect.FTUint:
		return "an unsigned integer"
	case dissect.FTBool:
		return "a boolean"
	case dissect.FTFloat:
		return "a floating-point number"
	case dissect.FTString:
		return "text"
	case dissect.FTBytes:
		return "raw bytes"
	case dissect.FTNone:
		return "a group of fields"
	}
	return ""
}

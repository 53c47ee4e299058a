package java

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/mcdissect/mcdissect/dissect"
)

// kind is what a compiled type reads.
type kind uint8

const (
	kVoid       kind = iota
	kInt             // fixed-size big-endian integer: size, signed
	kVarInt          // VarInt, at most 5 bytes
	kVarLong         // VarLong, at most 10 bytes
	kF32             // big-endian IEEE float
	kF64             // big-endian IEEE double
	kBool            // one byte, 0 or 1
	kString          // pstring: count (a prefix type or fixed) then UTF-8
	kBuffer          // count then bytes
	kRest            // restBuffer: the rest of the packet
	kUUID            // 16 bytes
	kContainer       // fields in order
	kSwitch          // one of cases, by a value read before
	kArray           // count then elements
	kOption          // a bool then the element, or nothing
	kBitfield        // parts of a big-endian integer of whole bytes
	kBitflags        // an integer whose bits are named flags
	kMapper          // an integer with names
	kNBT             // named NBT (type, name, payload)
	kAnonNBT         // NBT without the root's name (1.20.2+)
	kOptNBT          // named NBT, or a lone TAG_End byte
	kAnonOptNBT      // anonymous NBT, or a lone TAG_End byte
	kGzipNBT         // compressedNbt (1.7): i16 length, gzip'd named NBT
	kMetaLoop        // entityMetadataLoop: entries until a byte endVal
	kTopBit          // topBitSetTerminatedArray: elements while their first byte's top bit is set
	kHolder          // registryEntryHolder: VarInt id+1, or 0 and an inline value
	kHolderSet       // registryEntryHolderSet: VarInt n: 0 and a tag name, or n-1 ids
	kLpVec3          // lpVec3: a low-precision velocity (1.21.9+)
	kUnknown         // a native type this dissector does not know: an expert item
)

// typ is a compiled ProtoDef type: a tree (a graph, for recursive types)
// walked by the decoder without looking at JSON again.
type typ struct {
	k      kind
	size   uint8 // kInt: bytes; kBitfield: total bytes
	signed bool
	count  *typ // prefix type of a string, buffer or array
	fixed  int  // a fixed count, -1 when none
	ref    ref  // a count read before (array, buffer) or the switch's value
	elem   *typ // array, option, metadata loop, top-bit array, holder set ids
	fields []cfield
	// scope: a container with its own frame of values has n > 0 slots;
	// anonymous containers share their parent's.
	nslots int
	frame  bool // a container with a frame of its own (not anonymous)
	// kSwitch
	icases map[int64]*typ
	scases map[string]*typ
	def    *typ
	// kBitfield
	bits []bitPart
	// kBitflags: flag names by bit; kMapper: names by value
	flags  []string
	flagF  []*dissect.Field
	names  map[int64]string
	endVal byte   // kMetaLoop
	name   string // the ProtoDef name, for experts of unknown natives
	// kHolder, kHolderSet: the inline value's field and type
	other  *typ
	otherF *dissect.Field
	baseF  *dissect.Field
	// entry is the field of an array's elements
	entry *dissect.Field
	// sf: in a switch's case, the field of the named field the switch is
	// the type of, typed as this case is (cases differ in type)
	sf *dissect.Field
	// kString fields whose value is chat (JSON) or NBT chat: a plain
	// text node is added under them
	chat bool
}

// cfield is one field of a container.
type cfield struct {
	f    *dissect.Field // nil for anonymous fields
	t    *typ
	slot int    // where its value is kept, -1 when nothing refers to it
	name string // the ProtoDef name ("" for anonymous)
}

// bitPart is one part of a bitfield.
type bitPart struct {
	f      *dissect.Field
	size   uint8
	signed bool
	slot   int
}

// ref names a value read before: up frames up, its slot there; mask
// selects one flag of a bitflags value (0: the whole value).
type ref struct {
	ok   bool
	up   int
	slot int
	mask uint64
	str  bool // the value is text, compared with scases
}

// scope is what a container's fields can refer to while it is compiled.
type scope struct {
	parent *scope
	names  map[string]scopeEnt
	n      int
}

type scopeEnt struct {
	slot int
	t    *typ
}

func newScope(parent *scope) *scope { return &scope{parent: parent, names: map[string]scopeEnt{}} }

func (s *scope) add(name string, t *typ) int {
	slot := s.n
	s.n++
	s.names[name] = scopeEnt{slot: slot, t: t}
	return slot
}

// compiler compiles one version's types.
type compiler struct {
	defs   []json.RawMessage
	global map[string]int // global type name -> def index
	local  map[string]int // the state and direction's own types
	namer  namer
	// stack of named types being expanded (recursion is cut by pointing
	// back at the outer expansion)
	stack []expansion
	// parsed definitions, by index
	parsed map[int]any
	errs   []string
}

type expansion struct {
	name string
	t    *typ
}

// namer gives the field of a node: path is the dotted field path
// ("play.chat.message", "java.slot.item_id"), ft its type, width the bytes
// of the ProtoDef type it reads (fieldWidth).
type namer func(path string, ft dissect.FieldType, width int, label string) *dissect.Field

func (c *compiler) def(name string) (any, bool) {
	i, ok := c.local[name]
	if !ok {
		i, ok = c.global[name]
	}
	if !ok {
		return nil, false
	}
	if v, ok := c.parsed[i]; ok {
		return v, true
	}
	var v any
	if err := json.Unmarshal(c.defs[i], &v); err != nil {
		c.errs = append(c.errs, name+": "+err.Error())
		return nil, false
	}
	c.parsed[i] = v
	return v, true
}

// natives the compiler reads itself; a type whose definition is "native"
// and whose name is not here compiles to kUnknown.
var natives = map[string]bool{
	"varint": true, "varlong": true, "pstring": true, "buffer": true, "restBuffer": true, "void": true,
	"bool": true, "i8": true, "u8": true, "i16": true, "u16": true, "i32": true, "u32": true, "i64": true, "u64": true,
	"f32": true, "f64": true, "UUID": true, "option": true, "container": true, "switch": true, "array": true,
	"bitfield": true, "bitflags": true, "mapper": true, "count": true,
	"nbt": true, "anonymousNbt": true, "optionalNbt": true, "anonOptionalNbt": true, "compressedNbt": true,
	"entityMetadataLoop": true, "topBitSetTerminatedArray": true,
	"registryEntryHolder": true, "registryEntryHolderSet": true, "lpVec3": true,
}

// compile compiles type t (a name, or [name, options]) at path in scope
// sc. path is the dotted path of the node it makes (its field's name).
func (c *compiler) compile(t any, path string, sc *scope) *typ {
	switch v := t.(type) {
	case string:
		return c.named(v, nil, path, sc)
	case []any:
		if len(v) != 2 {
			return &typ{k: kUnknown, name: fmt.Sprint(v)}
		}
		name, _ := v[0].(string)
		return c.named(name, v[1], path, sc)
	}
	return &typ{k: kUnknown, name: fmt.Sprint(t)}
}

// named compiles the type called name with options opt.
func (c *compiler) named(name string, opt any, path string, sc *scope) *typ {
	switch name {
	case "void":
		return &typ{k: kVoid}
	case "varint":
		return &typ{k: kVarInt}
	case "varlong":
		return &typ{k: kVarLong}
	case "bool":
		return &typ{k: kBool}
	case "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64":
		n, _ := strconv.Atoi(name[1:])
		return &typ{k: kInt, size: uint8(n / 8), signed: name[0] == 'i'}
	case "f32":
		return &typ{k: kF32}
	case "f64":
		return &typ{k: kF64}
	case "UUID":
		return &typ{k: kUUID}
	case "restBuffer":
		return &typ{k: kRest}
	case "nbt":
		return &typ{k: kNBT}
	case "anonymousNbt":
		return &typ{k: kAnonNBT}
	case "optionalNbt":
		return &typ{k: kOptNBT}
	case "anonOptionalNbt":
		return &typ{k: kAnonOptNBT}
	case "compressedNbt":
		return &typ{k: kGzipNBT}
	case "lpVec3":
		return &typ{k: kLpVec3}
	case "pstring", "buffer":
		k := kString
		if name == "buffer" {
			k = kBuffer
		}
		t := &typ{k: k, fixed: -1}
		o, _ := opt.(map[string]any)
		if ct, ok := o["countType"]; ok {
			t.count = c.compile(ct, path, sc)
		} else if n, ok := o["count"].(float64); ok {
			t.fixed = int(n)
		} else if s, ok := o["count"].(string); ok {
			t.ref = c.resolve(s, sc)
		} else {
			t.count = &typ{k: kVarInt}
		}
		return t
	case "count":
		o, _ := opt.(map[string]any)
		return c.compile(o["type"], path, sc)
	case "option":
		return &typ{k: kOption, elem: c.compile(opt, path, sc)}
	case "container":
		return c.container(opt, path, sc, false)
	case "switch":
		return c.switchT(opt, path, sc)
	case "array":
		o, _ := opt.(map[string]any)
		t := &typ{k: kArray, fixed: -1}
		if ct, ok := o["countType"]; ok {
			t.count = c.compile(ct, path, sc)
		} else if n, ok := o["count"].(float64); ok {
			t.fixed = int(n)
		} else if s, ok := o["count"].(string); ok {
			t.ref = c.resolve(s, sc)
		}
		t.elem = c.compile(o["type"], path, sc)
		if t.elem.k == kInt && t.elem.size == 1 {
			// an array of bytes (light arrays, 2048 to a section) is
			// shown as the bytes it is: one node, not one per byte
			t.k = kBuffer
			return t
		}
		t.entry = c.entryField(path, t.elem)
		return t
	case "bitfield":
		parts, _ := opt.([]any)
		t := &typ{k: kBitfield}
		total := 0
		for _, p := range parts {
			m, _ := p.(map[string]any)
			pn, _ := m["name"].(string)
			sz, _ := m["size"].(float64)
			sg, _ := m["signed"].(bool)
			ft := dissect.FTUint
			if sg {
				ft = dissect.FTInt
			}
			t.bits = append(t.bits, bitPart{f: c.namer(path+"."+snake(pn), ft, bitsWidth(int(sz)), label(pn)), size: uint8(sz), signed: sg, slot: -1})
			total += int(sz)
		}
		t.size = uint8((total + 7) / 8)
		return t
	case "bitflags":
		o, _ := opt.(map[string]any)
		t := &typ{k: kBitflags}
		base := c.compile(o["type"], path, sc)
		t.size, t.signed = base.size, base.signed
		if base.k == kVarInt {
			t.size = 0 // a VarInt's flags
		}
		defer func() {
			for _, f := range t.flags {
				if f == "" {
					t.flagF = append(t.flagF, nil)
					continue
				}
				t.flagF = append(t.flagF, c.namer(path+"."+snake(f), dissect.FTBool, 0, label(f)))
			}
		}()
		switch fl := o["flags"].(type) {
		case []any:
			for _, f := range fl {
				s, _ := f.(string)
				t.flags = append(t.flags, s)
			}
		case map[string]any:
			keys := make([]string, 0, len(fl))
			for k := range fl {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				bit, _ := fl[k].(float64)
				for len(t.flags) <= int(bit) {
					t.flags = append(t.flags, "")
				}
				t.flags[int(bit)] = k
			}
		}
		return t
	case "mapper":
		o, _ := opt.(map[string]any)
		base := c.compile(o["type"], path, sc)
		t := &typ{k: kMapper, size: base.size, signed: base.signed, elem: base, names: map[int64]string{}}
		m, _ := o["mappings"].(map[string]any)
		for k, v := range m {
			n, err := strconv.ParseInt(k, 0, 64)
			if s, ok := v.(string); ok && err == nil {
				t.names[n] = s
			}
		}
		return t
	case "entityMetadataLoop":
		o, _ := opt.(map[string]any)
		ev, _ := o["endVal"].(float64)
		t := &typ{k: kMetaLoop, endVal: byte(ev)}
		t.elem = c.compile(o["type"], path, sc)
		t.entry = c.entryField(path, t.elem)
		return t
	case "topBitSetTerminatedArray":
		o, _ := opt.(map[string]any)
		t := &typ{k: kTopBit}
		t.elem = c.compile(o["type"], path, sc)
		t.entry = c.entryField(path, t.elem)
		return t
	case "registryEntryHolder":
		o, _ := opt.(map[string]any)
		t := &typ{k: kHolder}
		bn, _ := o["baseName"].(string)
		t.baseF = c.namer(path+"."+snake(bn), dissect.FTInt, 4, label(bn))
		if ot, ok := o["otherwise"].(map[string]any); ok {
			on, _ := ot["name"].(string)
			t.other = c.compile(ot["type"], path+"."+snake(on), sc)
			t.otherF = c.namer(path+"."+snake(on), fieldType(t.other), fieldWidth(t.other), label(on))
		}
		return t
	case "registryEntryHolderSet":
		o, _ := opt.(map[string]any)
		t := &typ{k: kHolderSet}
		if b, ok := o["base"].(map[string]any); ok {
			bn, _ := b["name"].(string)
			t.other = c.compile(b["type"], path+"."+snake(bn), sc)
			t.baseF = c.namer(path+"."+snake(bn), fieldType(t.other), fieldWidth(t.other), label(bn))
		}
		if ot, ok := o["otherwise"].(map[string]any); ok {
			on, _ := ot["name"].(string)
			t.elem = c.compile(ot["type"], path+"."+snake(on), sc)
			t.otherF = c.namer(path+"."+snake(on), fieldType(t.elem), fieldWidth(t.elem), label(on))
		}
		return t
	}
	// a named type of the data
	d, ok := c.def(name)
	if !ok {
		c.errs = append(c.errs, "unknown type "+name+" at "+path)
		return &typ{k: kUnknown, name: name}
	}
	if s, ok := d.(string); ok && s == "native" {
		return &typ{k: kUnknown, name: name}
	}
	if opt != nil {
		// a parametrised type: its "$param" strings take the options' values
		o, _ := opt.(map[string]any)
		d = substitute(d, o)
	}
	for i := len(c.stack) - 1; i >= 0; i-- {
		if c.stack[i].name == name && opt == nil {
			return c.stack[i].t // recursive: the outer expansion again
		}
	}
	// its fields are named after the type, not after where it is used
	tpath := path
	if !strings.HasPrefix(name, "packet_") {
		tpath = "java." + snake(name)
	}
	t := &typ{}
	c.stack = append(c.stack, expansion{name: name, t: t})
	*t = *c.compile(d, tpath, sc)
	c.stack = c.stack[:len(c.stack)-1]
	if t.k == kArray || t.k == kMetaLoop || t.k == kTopBit {
		// the elements of an array type are named after the use
		t.entry = c.entryField(path, t.elem)
	}
	return t
}

// entryField is the field of an array's elements.
func (c *compiler) entryField(path string, elem *typ) *dissect.Field {
	return c.namer(path+".entry", fieldType(elem), fieldWidth(elem), "Entry")
}

// substitute replaces "$name" strings in d by the options' values.
func substitute(d any, o map[string]any) any {
	switch v := d.(type) {
	case string:
		if strings.HasPrefix(v, "$") {
			if r, ok := o[v[1:]]; ok {
				return r
			}
		}
		return v
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = substitute(x, o)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = substitute(x, o)
		}
		return out
	}
	return d
}

// container compiles a container's fields in order. An anonymous
// container (anon) shares sc; a named one gets a scope of its own.
func (c *compiler) container(opt any, path string, sc *scope, anon bool) *typ {
	list, _ := opt.([]any)
	t := &typ{k: kContainer}
	own := sc
	if !anon {
		own = newScope(sc)
	}
	for _, e := range list {
		m, _ := e.(map[string]any)
		fname, _ := m["name"].(string)
		isAnon, _ := m["anon"].(bool)
		if isAnon || fname == "" {
			ft := c.anonField(m["type"], path, own)
			ft.slot = -1
			t.fields = append(t.fields, ft)
			continue
		}
		fp := path + "." + snake(fname)
		ft := c.compile(m["type"], fp, own)
		cf := cfield{t: ft, name: fname, slot: -1}
		cf.f = c.namer(fp, fieldType(ft), fieldWidth(ft), label(fname))
		c.caseFields(ft, fp, label(fname))
		if isChatName(fname) {
			switch {
			case ft.k == kString, ft.k == kAnonNBT, ft.k == kNBT:
				ft.chat = true
			case ft.k == kOption && (ft.elem.k == kString || ft.elem.k == kAnonNBT || ft.elem.k == kNBT):
				ft.elem.chat = true
			}
		}
		cf.slot = own.add(fname, ft)
		if ft.k == kBitfield {
			for i := range ft.bits {
				pn := ""
				if m2, ok := bitName(m["type"], i, c); ok {
					pn = m2
				}
				ft.bits[i].slot = own.add(fname+"/"+pn, nil)
			}
		}
		t.fields = append(t.fields, cf)
	}
	if !anon {
		t.nslots, t.frame = own.n, true
	}
	return t
}

// caseFields gives each case of a switch (through options and nested
// switches) the field of path typed as the case is.
func (c *compiler) caseFields(t *typ, path, lbl string) {
	switch t.k {
	case kSwitch:
		cases := make([]*typ, 0, len(t.icases)+len(t.scases)+1)
		for _, k := range sortedInts(t.icases) {
			cases = append(cases, t.icases[k])
		}
		for _, k := range sortedStrings(t.scases) {
			cases = append(cases, t.scases[k])
		}
		cases = append(cases, t.def)
		for _, ct := range cases {
			if ct == nil || ct.k == kVoid || ct.sf != nil {
				continue
			}
			if ct.k == kSwitch || ct.k == kOption {
				c.caseFields(ct, path, lbl)
			}
			ct.sf = c.namer(path, fieldType(ct), fieldWidth(ct), lbl)
		}
	case kOption:
		if t.elem.k == kSwitch {
			c.caseFields(t.elem, path, lbl)
		}
	}
}

func sortedInts(m map[int64]*typ) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func sortedStrings(m map[string]*typ) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// anonField compiles an anonymous field: a container or bitfield whose
// fields join the enclosing one's, or a switch choosing some.
func (c *compiler) anonField(tt any, path string, sc *scope) cfield {
	if v, ok := tt.([]any); ok && len(v) == 2 {
		switch v[0] {
		case "container":
			return cfield{t: c.container(v[1], path, sc, true)}
		case "bitfield":
			t := c.named("bitfield", v[1], path, sc)
			parts, _ := v[1].([]any)
			for i := range t.bits {
				m, _ := parts[i].(map[string]any)
				pn, _ := m["name"].(string)
				t.bits[i].slot = sc.add(pn, nil)
			}
			return cfield{t: t}
		case "switch":
			return cfield{t: c.switchAnon(v[1], path, sc)}
		}
	}
	return cfield{t: c.compile(tt, path, sc)}
}

// bitName is the name of part i of a bitfield type.
func bitName(tt any, i int, c *compiler) (string, bool) {
	for {
		switch v := tt.(type) {
		case string:
			d, ok := c.def(v)
			if !ok {
				return "", false
			}
			tt = d
			continue
		case []any:
			if len(v) == 2 && v[0] == "bitfield" {
				parts, _ := v[1].([]any)
				if i < len(parts) {
					m, _ := parts[i].(map[string]any)
					n, _ := m["name"].(string)
					return n, true
				}
			}
		}
		return "", false
	}
}

// switchT compiles a named switch: its cases are compiled at path, as
// the field's own type.
func (c *compiler) switchT(opt any, path string, sc *scope) *typ {
	return c.switchOf(opt, path, sc, false)
}

// switchAnon compiles an anonymous switch: container cases join the
// enclosing container.
func (c *compiler) switchAnon(opt any, path string, sc *scope) *typ {
	return c.switchOf(opt, path, sc, true)
}

func (c *compiler) switchOf(opt any, path string, sc *scope, anon bool) *typ {
	o, _ := opt.(map[string]any)
	ct, _ := o["compareTo"].(string)
	t := &typ{k: kSwitch, ref: c.resolve(ct, sc)}
	caseT := func(x any) *typ {
		if v, ok := x.([]any); anon && ok && len(v) == 2 && v[0] == "container" {
			return c.container(v[1], path, sc, true)
		}
		return c.compile(x, path, sc)
	}
	fields, _ := o["fields"].(map[string]any)
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	target := c.refType(ct, sc)
	for _, k := range keys {
		ctyp := caseT(fields[k])
		if t.ref.str {
			if t.scases == nil {
				t.scases = map[string]*typ{}
			}
			t.scases[k] = ctyp
			continue
		}
		if t.icases == nil {
			t.icases = map[int64]*typ{}
		}
		switch {
		case k == "true":
			t.icases[1] = ctyp
		case k == "false":
			t.icases[0] = ctyp
		default:
			if n, err := strconv.ParseInt(k, 0, 64); err == nil {
				t.icases[n] = ctyp
				continue
			}
			if target != nil && target.k == kMapper {
				found := false
				for v, name := range target.names {
					if name == k {
						t.icases[v] = ctyp
						found = true
					}
				}
				if found {
					continue
				}
			}
			// a name the value cannot take: kept under its text
			if t.scases == nil {
				t.scases = map[string]*typ{}
			}
			t.scases[k] = ctyp
		}
	}
	if d, ok := o["default"]; ok {
		t.def = caseT(d)
	} else {
		t.def = &typ{k: kVoid}
	}
	return t
}

// resolve finds the value path p ("x", "../x", "flags/has_y",
// "../action/add_player") names, from scope sc.
func (c *compiler) resolve(p string, sc *scope) ref {
	up := 0
	for strings.HasPrefix(p, "../") {
		p = p[3:]
		up++
	}
	s := sc
	for i := 0; i < up && s != nil; i++ {
		s = s.parent
	}
	// frames count named containers only: walk up counting them
	if s == nil {
		c.errs = append(c.errs, "unresolved reference ../"+p)
		return ref{}
	}
	if e, ok := s.names[p]; ok {
		r := ref{ok: true, up: up, slot: e.slot}
		r.str = e.t != nil && e.t.k == kString
		return r
	}
	// a bitflags flag: "action/add_player"
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		if e, ok := s.names[p[:i]]; ok && e.t != nil && e.t.k == kBitflags {
			for bit, f := range e.t.flags {
				if f == p[i+1:] {
					return ref{ok: true, up: up, slot: e.slot, mask: 1 << uint(bit)}
				}
			}
		}
	}
	c.errs = append(c.errs, "unresolved reference "+p)
	return ref{}
}

// refType is the type of the value a switch compares to, when known.
func (c *compiler) refType(p string, sc *scope) *typ {
	for strings.HasPrefix(p, "../") {
		p = p[3:]
		if sc != nil {
			sc = sc.parent
		}
	}
	if sc == nil {
		return nil
	}
	if e, ok := sc.names[p]; ok {
		return e.t
	}
	return nil
}

// fieldType is the dissect type of the node a compiled type adds.
func fieldType(t *typ) dissect.FieldType {
	switch t.k {
	case kInt:
		if t.signed {
			return dissect.FTInt
		}
		return dissect.FTUint
	case kVarInt, kVarLong, kHolder:
		return dissect.FTInt
	case kMapper, kBitflags:
		return dissect.FTUint
	case kBool:
		return dissect.FTBool
	case kF32, kF64:
		return dissect.FTFloat
	case kString, kUUID:
		return dissect.FTString
	case kBuffer, kRest, kUnknown:
		return dissect.FTBytes
	case kOption:
		return fieldType(t.elem)
	}
	return dissect.FTNone
}

// fieldWidth is the width in bytes of the value a compiled type reads, as
// its ProtoDef type declares it: i8/u8 1, i16 2, i32 and VarInt 4, i64 and
// VarLong 8, f32 4, f64 8; 0 for the others. It is the field's display
// type (FT_INT64, FT_FLOAT), not a bound on the value.
func fieldWidth(t *typ) int {
	switch t.k {
	case kInt:
		return int(t.size)
	case kVarInt, kHolder:
		return 4
	case kVarLong:
		return 8
	case kF32:
		return 4
	case kF64:
		return 8
	case kMapper:
		return fieldWidth(t.elem)
	case kBitflags:
		if t.size == 0 {
			return 4 // a VarInt's flags
		}
		return int(t.size)
	case kOption:
		return fieldWidth(t.elem)
	}
	return 0
}

// bitsWidth is the width in bytes of the smallest of 8, 16, 32 and 64 bits
// that holds a bitfield part of n bits.
func bitsWidth(n int) int {
	for _, w := range []int{1, 2, 4} {
		if n <= 8*w {
			return w
		}
	}
	return 8
}

// isChatName says whether a string field of this name holds a chat
// component (JSON before 1.20.3).
func isChatName(n string) bool {
	switch n {
	case "reason", "message", "content", "text", "title", "subtitle", "header", "footer", "displayName", "unsignedChatContent", "formattedMessage", "plainMessage":
		return true
	}
	return false
}

// snake turns minecraft-data's camelCase names into filter style:
// keepAliveId -> keep_alive_id.
func snake(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch >= 'A' && ch <= 'Z':
			if i > 0 && s[i-1] != '_' && (s[i-1] < 'A' || s[i-1] > 'Z' || i+1 < len(s) && s[i+1] >= 'a' && s[i+1] <= 'z') {
				b.WriteByte('_')
			}
			b.WriteByte(ch + 'a' - 'A')
		case ch >= 'a' && ch <= 'z', ch >= '0' && ch <= '9', ch == '_':
			b.WriteByte(ch)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// label turns a name into a tree label: keepAliveId -> "Keep alive ID".
func label(s string) string {
	words := strings.Split(snake(s), "_")
	out := words[:0]
	for _, w := range words {
		if w == "" {
			continue
		}
		switch w {
		case "id", "uuid", "nbt", "url", "ui", "xp", "ai":
			w = strings.ToUpper(w)
		}
		out = append(out, w)
	}
	if len(out) == 0 {
		return s
	}
	if out[0] == strings.ToLower(out[0]) {
		out[0] = strings.ToUpper(out[0][:1]) + out[0][1:]
	}
	return strings.Join(out, " ")
}

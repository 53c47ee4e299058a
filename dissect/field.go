package dissect

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// FieldType says how a field's value is stored and shown.
type FieldType uint8

const (
	FTNone     FieldType = iota // a label or subtree header with no value of its own
	FTProtocol                  // the root of a protocol's tree
	FTUint                      // unsigned integer (Value.N)
	FTInt                       // signed integer (Value.Int)
	FTBool                      // 0 or 1 in Value.N
	FTFloat                     // Value.Float
	FTString                    // text: the bytes in Value.B
	FTBytes                     // raw bytes in Value.B
	FTFrameNum                  // a frame number (a link to another packet), Value.N
	FTAbsTime                   // an instant, nanoseconds since 1970 UTC in Value.N (Time, AbsTime)
)

var fieldTypeNames = [...]string{"none", "protocol", "uint", "int", "bool", "float", "string", "bytes", "framenum", "abstime"}

func (t FieldType) String() string {
	if int(t) < len(fieldTypeNames) {
		return fieldTypeNames[t]
	}
	return fmt.Sprintf("Unknown (%d)", uint8(t))
}

// FTName is the field's type as Wireshark names it (tshark -G fields):
// FT_UINT8 to FT_UINT64 and FT_INT8 to FT_INT64 by the field's Width when
// it declares one, else FT_UINT32 and FT_INT32, the types Wireshark
// declares for variable-length integers (VarInts); FT_FLOAT for a float
// of Width 4, FT_DOUBLE for the others.
func (f *Field) FTName() string {
	switch f.Type {
	case FTUint, FTInt:
		t := "FT_UINT"
		if f.Type == FTInt {
			t = "FT_INT"
		}
		switch f.Width {
		case 1, 2, 3, 4, 5, 6, 7, 8:
			return t + strconv.Itoa(8*f.Width)
		}
		return t + "32"
	case FTBool:
		return "FT_BOOLEAN"
	case FTFloat:
		if f.Width == 4 {
			return "FT_FLOAT"
		}
		return "FT_DOUBLE"
	case FTString:
		return "FT_STRING"
	case FTBytes:
		return "FT_BYTES"
	case FTFrameNum:
		return "FT_FRAMENUM"
	case FTAbsTime:
		return "FT_ABSOLUTE_TIME"
	case FTProtocol:
		return "FT_PROTOCOL"
	}
	return "FT_NONE"
}

// BaseName is the field's display base as Wireshark names it (tshark -G
// fields): BASE_DEC, BASE_HEX, BASE_DEC_HEX or BASE_HEX_DEC for integers, "" otherwise.
func (f *Field) BaseName() string {
	switch f.Type {
	case FTUint, FTInt:
		switch f.Base {
		case BaseHex:
			return "BASE_HEX"
		case BaseDecHex:
			return "BASE_DEC_HEX"
		case BaseHexDec:
			return "BASE_HEX_DEC"
		}
		return "BASE_DEC"
	case FTFrameNum:
		return "BASE_NONE"
	}
	return ""
}

// Base is the display base of an integer field.
type Base uint8

const (
	BaseDec    Base = iota // 11
	BaseHex                // 0x0b, zero-padded to the field's width on the wire
	BaseDecHex             // 11 (0x0b)
	BaseHexDec             // 0x0b (11), -T fields printing the hex
)

// Names maps integer values to their names. Lookups of values not in the
// table show as "Unknown (N)".
type Names map[uint64]string

// Name returns the name of v, or "Unknown (v)".
func (n Names) Name(v uint64) string {
	if s, ok := n[v]; ok {
		return s
	}
	return "Unknown (" + fmt.Sprint(v) + ")"
}

// Field describes one kind of item a decoder can add to a tree.
type Field struct {
	Name  string // dotted filter name, unique across all protocols
	Label string // what the tree shows before the colon
	Type  FieldType
	Base  Base
	Names Names  // optional value-name table for integer fields
	Unit  string // optional unit appended to the value ("s", "bytes", "blocks")
	// Custom, when set, formats the value for display (Wireshark's
	// BASE_CUSTOM). It is called by renderers only, so a decoder pays
	// nothing for a rich display on the summary path. It gets the node, so
	// that it can use the field's length on the wire as well as its value;
	// it must append to dst and may keep neither.
	Custom func(dst []byte, n *Node) []byte
	// Width is the width in bytes hex values are padded to when the node
	// has no bytes of its own (generated values); 0 pads nothing.
	Width int
	Desc  string // a sentence for the field reference
	// Worked, when set, appends the arithmetic that turns the node's bytes
	// into its value, for learners ("ff 05: 0x7f + 0x05×128 = 767"); it
	// appends nothing when it has nothing to show. Like Custom it is called
	// by renderers only (-V --explain, the HTML page), so decoding never
	// pays for it; it reads the node's bytes through the PDU (NodeBytes),
	// must append to dst and may keep nothing.
	Worked func(dst []byte, p *PDU, n *Node) []byte
	// Keyed fields stand for a family of names: a node of the field "query.kv"
	// with Key "hostname" filters as "query.kv.hostname".
	Keyed bool
	// Sensitive fields hold secrets (a heartbeat salt, a verification
	// key): PDU.Redact masks every node of them, the decoder's flag or not
	// (the node of a field the capture cut short included).
	Sensitive bool
	// Opaque fields hold bytes shown without being understood (undissected
	// bytes, an unknown packet's body, trailing bytes): --redact masks them
	// whole in every protocol (PDU.MaskMarked), as they may hold a secret
	// no decoder could mark.
	Opaque bool
	// Role says what the field tells of a server, for statistics that
	// read fields by meaning rather than by name (Registry.Roles).
	Role Role
	// Addr is 4 or 6 when a string field's value is the text of an IPv4
	// or IPv6 address (ip.src): filters compare it as an address, with
	// CIDR prefixes.
	Addr uint8
	// Hidden fields are in the tree for filters and -e (ip.addr,
	// tcp.port), as Wireshark's hidden items, and not shown in it.
	Hidden bool
	// Alts are the fields this one's filter name stands for as well: a
	// name a protocol's data gives several types in different versions
	// is registered once per type (the others with a suffix, "_string"),
	// and the plain name matches the nodes of all of them, as
	// Wireshark's fields that share a name do: -e shows each node's own
	// value, a presence test finds any, and a comparison reads the nodes
	// whose type compares as the plain field's.
	Alts []*Field

	id int // 1 + its registration order; 0 for a field no registry holds
}

// ID is a small number unique to each registered field, from 1 up (0 for a
// field made outside a registry, as tests do): renderers index their
// per-field caches by it instead of hashing the pointer.
func (f *Field) ID() int { return f.id }

// Registry holds one protocol's fields and expert items.
type Registry struct {
	Proto   string // filter prefix, e.g. "query"
	Long    string // e.g. "Minecraft Query"
	root    *Field
	fields  []*Field
	experts []*ExpertInfo
	// explain and worked: by filter name, given by Explain, applied to a
	// field as it is registered.
	explain map[string]string
	worked  map[string]func(dst []byte, p *PDU, n *Node) []byte
}

var global = struct {
	sync.Mutex
	fields  map[string]*Field
	experts map[string]*ExpertInfo
	regs    []*Registry
	lazies  []*lazyFields
}{fields: map[string]*Field{}, experts: map[string]*ExpertInfo{}}

type lazyFields struct {
	prefix string
	once   sync.Once
	load   func()
}

// Lazy registers load, which adds fields whose names start with prefix,
// to run once: before a look-up of such a name (LookupField) finds it
// missing, and before Registries lists them all (-G, a misspelt filter
// name). A protocol whose thousands of fields come from data (Java's
// play packets) registers them only when they are asked for, not at
// every start-up. Decoders that use such fields call load themselves
// (through their own sync.Once) before their first use.
func Lazy(prefix string, load func()) {
	global.Lock()
	global.lazies = append(global.lazies, &lazyFields{prefix: prefix, load: load})
	global.Unlock()
}

// runLazy runs the lazy loaders whose prefix matches name ("" for all).
func runLazy(name string) bool {
	global.Lock()
	ls := append([]*lazyFields(nil), global.lazies...)
	global.Unlock()
	ran := false
	for _, l := range ls {
		if name == "" || strings.HasPrefix(name, l.prefix) {
			l.once.Do(l.load)
			ran = true
		}
	}
	return ran
}

// NewRegistry creates the registry of protocol proto and registers its root
// field. A protocol name registered twice panics: registries are built in
// package variables, so the clash shows at start-up, never mid-capture.
func NewRegistry(proto, long string) *Registry {
	r := &Registry{Proto: proto, Long: long}
	global.Lock()
	for _, o := range global.regs {
		if o.Proto == proto {
			global.Unlock()
			panic("dissect: protocol registered twice: " + proto)
		}
	}
	global.regs = append(global.regs, r)
	global.Unlock()
	r.root = r.Add(Field{Name: proto, Label: long, Type: FTProtocol})
	return r
}

// Root is the protocol's own field, the root of each of its trees.
func (r *Registry) Root() *Field { return r.root }

// Add registers f. Its name must be the protocol name or start with it and a
// dot; a name registered twice panics at start-up.
func (r *Registry) Add(f Field) *Field {
	if f.Name != r.Proto && !strings.HasPrefix(f.Name, r.Proto+".") {
		panic("dissect: field " + f.Name + " outside protocol " + r.Proto)
	}
	p := &f
	global.Lock()
	defer global.Unlock()
	if _, dup := global.fields[f.Name]; dup {
		panic("dissect: field registered twice: " + f.Name)
	}
	p.id = len(global.fields) + 1
	r.applyExplain(p)
	global.fields[f.Name] = p
	r.fields = append(r.fields, p)
	return p
}

// Explain gives the registry's fields their descriptions (Desc) and worked
// values (Worked) from tables keyed by filter name, so that a protocol
// keeps its teaching text in one place apart from its registration code:
// fields registered already get theirs now, later ones as Add registers
// them, so the call's place among a package's initialisers does not
// matter. A field given a Desc both in its registration and in the table
// panics at start-up; a Worked set at registration is kept. It returns r.
func (r *Registry) Explain(desc map[string]string, worked map[string]func(dst []byte, p *PDU, n *Node) []byte) *Registry {
	global.Lock()
	defer global.Unlock()
	if r.explain == nil {
		r.explain = map[string]string{}
		r.worked = map[string]func(dst []byte, p *PDU, n *Node) []byte{}
	}
	for k, v := range desc {
		r.explain[k] = v
	}
	for k, v := range worked {
		r.worked[k] = v
	}
	for _, f := range r.fields {
		r.applyExplain(f)
	}
	return r
}

func (r *Registry) applyExplain(f *Field) {
	if d, ok := r.explain[f.Name]; ok && f.Desc != d {
		if f.Desc != "" {
			panic("dissect: field explained twice: " + f.Name)
		}
		f.Desc = d
	}
	if w, ok := r.worked[f.Name]; ok && f.Worked == nil {
		f.Worked = w
	}
}

// Role is what a field tells of a server or a player: the census (-z
// mc,servers) reads fields by role, whatever protocol they belong to.
type Role uint8

const (
	RoleNone            Role = iota
	RoleMOTD                 // the server's message of the day, as text
	RoleServerName           // a server's name, shown before its MOTD
	RoleVersion              // the server's version name ("1.21.1")
	RoleProtocolVersion      // the protocol number, where the server says it (server to client only)
	RolePlayersOnline        // players online, a number
	RolePlayersMax           // the most players the server takes, a number
	RoleFavicon              // the server's icon: its presence is what counts
	RoleMod                  // one mod or plugin's name
	RoleModList              // plugins in Query's "Software: A 1.0; B 2.0" form
	RolePlayerName           // a player's name
	RoleLegacy               // a PDU of the legacy ping variant (server to client)
	RoleNotServer            // a PDU that is not traffic with a Minecraft server (a heartbeat to a list service)
	RoleResponseTime         // a response's time since its request, in seconds
	RoleRoundTrip            // a ping's round trip, in seconds
	RolePlayerJoined         // a player who joined the game (not one who only tried to log in)
	RoleRequestIn            // a response's link to the frame of its request
	RoleReason               // why a server refused or ended a session, as text
	RoleText                 // what a message says, shown whole in a transcript (a chat line, a status JSON)
	RolePlayerID             // the UUID of the player RolePlayerJoined names, in the same PDU
	RoleBrand                // the brand of the server (server to client) or of its client (client to server)
)

// Roles gives the registry's fields their roles, from a table keyed by
// filter name; a name that is not one of the registry's fields panics at
// start-up. It returns r.
func (r *Registry) Roles(roles map[string]Role) *Registry {
	global.Lock()
	defer global.Unlock()
	for name, role := range roles {
		f, ok := global.fields[name]
		if !ok || !slices.Contains(r.fields, f) {
			panic("dissect: role for " + name + ", which is not a field of " + r.Proto)
		}
		f.Role = role
	}
	return r
}

// NodeBytes returns the bytes of n in p, clipped to what was captured: none
// for a generated node.
func NodeBytes(p *PDU, n *Node) []byte {
	if n.Flags&FlagGenerated != 0 || n.Offset < 0 || n.Length <= 0 || int(n.Offset) >= len(p.Data) {
		return nil
	}
	end := int(n.Offset) + int(n.Length)
	if end > len(p.Data) {
		end = len(p.Data)
	}
	return p.Data[n.Offset:end]
}

// Uint, Int, Str, Bytes, Bool, Float, FrameNum, AbsTime and Label are
// shorthands for Add.
func (r *Registry) Uint(name, label string, base Base, names Names) *Field {
	return r.Add(Field{Name: name, Label: label, Type: FTUint, Base: base, Names: names})
}
func (r *Registry) Int(name, label string) *Field {
	return r.Add(Field{Name: name, Label: label, Type: FTInt})
}
func (r *Registry) Str(name, label string) *Field {
	return r.Add(Field{Name: name, Label: label, Type: FTString})
}
func (r *Registry) Bytes(name, label string) *Field {
	return r.Add(Field{Name: name, Label: label, Type: FTBytes})
}
func (r *Registry) Bool(name, label string) *Field {
	return r.Add(Field{Name: name, Label: label, Type: FTBool})
}
func (r *Registry) Float(name, label, unit string) *Field {
	return r.Add(Field{Name: name, Label: label, Type: FTFloat, Unit: unit})
}
func (r *Registry) FrameNum(name, label string) *Field {
	return r.Add(Field{Name: name, Label: label, Type: FTFrameNum})
}
func (r *Registry) AbsTime(name, label string) *Field {
	return r.Add(Field{Name: name, Label: label, Type: FTAbsTime})
}
func (r *Registry) Label(name, label string) *Field {
	return r.Add(Field{Name: name, Label: label, Type: FTNone})
}

// Fields returns the registry's fields in registration order.
func (r *Registry) Fields() []*Field { return r.fields }

// Experts returns the registry's expert items in registration order.
func (r *Registry) Experts() []*ExpertInfo { return r.experts }

// HasSecrets reports whether any of the registry's fields is Sensitive:
// bytes of its protocol that no tree locates (a PDU cut short, misframed,
// undissected) may hold a secret.
func (r *Registry) HasSecrets() bool {
	global.Lock()
	defer global.Unlock()
	for _, f := range r.fields {
		if f.Sensitive {
			return true
		}
	}
	return false
}

// LookupRegistry finds the registry of protocol proto, or nil.
func LookupRegistry(proto string) *Registry {
	global.Lock()
	defer global.Unlock()
	for _, r := range global.regs {
		if r.Proto == proto {
			return r
		}
	}
	return nil
}

// Registries returns every registry, sorted by protocol name.
func Registries() []*Registry {
	runLazy("")
	global.Lock()
	defer global.Unlock()
	out := append([]*Registry(nil), global.regs...)
	sort.Slice(out, func(i, j int) bool { return out[i].Proto < out[j].Proto })
	return out
}

// LookupField finds a field by filter name. A name under a keyed field
// ("query.kv.hostname") returns the keyed field and the key.
func LookupField(name string) (f *Field, key string, ok bool) {
	if f, key, ok = lookupField(name); !ok && runLazy(name) {
		f, key, ok = lookupField(name)
	}
	return f, key, ok
}

func lookupField(name string) (f *Field, key string, ok bool) {
	global.Lock()
	defer global.Unlock()
	if f, ok := global.fields[name]; ok {
		return f, "", true
	}
	for i := strings.LastIndexByte(name, '.'); i > 0; i = strings.LastIndexByte(name[:i], '.') {
		if f, ok := global.fields[name[:i]]; ok && f.Keyed {
			return f, name[i+1:], true
		}
	}
	return nil, "", false
}

// Dump lists the registry for documentation and golden tests: one line a
// field (filter name, keyed ones as "name.<key>", type, label, [unit]),
// a blank line, then one line an expert item (name, severity, summary).
func (r *Registry) Dump() []byte {
	var b strings.Builder
	for _, f := range r.fields {
		b.WriteString(f.Name)
		if f.Keyed {
			b.WriteString(".<key>")
		}
		b.WriteString("\t" + f.Type.String() + "\t" + f.Label)
		if f.Unit != "" {
			b.WriteString(" [" + f.Unit + "]")
		}
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	for _, e := range r.experts {
		b.WriteString(e.Name + "\t" + e.Severity.String() + "\t" + e.Summary + "\n")
	}
	return []byte(b.String())
}

package dissect

import (
	"math"
	"slices"
	"time"
	"unsafe"
)

// Dir is the direction of a PDU within its conversation.
type Dir uint8

const (
	DirUnknown Dir = iota
	DirC2S         // client to server
	DirS2C         // server to client
)

func (d Dir) String() string {
	switch d {
	case DirC2S:
		return "c2s"
	case DirS2C:
		return "s2c"
	}
	return "unknown"
}

// Value is a node's typed value. Which member holds it depends on the
// field's type: integers, booleans and frame numbers in N (signed ones as
// their two's complement bits, floats as their IEEE bits), text and bytes
// in B. B points into the PDU's data whenever the value is the wire bytes
// themselves, so decoding copies nothing; text a decoder made (S) is held
// in B too, as a view of the string's bytes, which nothing ever writes.
// One slice instead of a string and a slice keeps a Node to 88 bytes:
// trees are written on one core and read on another, so every byte of a
// node is memory traffic.
type Value struct {
	N uint64
	B []byte
}

func U(v uint64) Value  { return Value{N: v} }
func I(v int64) Value   { return Value{N: uint64(v)} }
func F(v float64) Value { return Value{N: math.Float64bits(v)} }

// S is text a decoder made. unsafe: B views the string's bytes, which
// must never be written; the garbage collector keeps the string alive as
// long as the view. Not a fast path, the representation: a string beside B
// would make a Node 104 bytes instead of 88 (see Value). Redaction, the
// only writer of values' bytes, writes only within PDU.Data (aliases):
// TestRedact faults on a string literal if it ever writes through S.
func S(v string) Value { return Value{B: unsafe.Slice(unsafe.StringData(v), len(v))} }
func B(v []byte) Value { return Value{B: v} }

// FExact is a float whose exact decimal text is known (a time to the
// nanosecond, which a float64 cannot hold): renderers print the text,
// filters compare the float.
func FExact(v float64, text []byte) Value { return Value{N: math.Float64bits(v), B: text} }

// Time is an instant (FTAbsTime): nanoseconds since 1970 UTC, exact. An
// instant outside the years 1678 to 2262, which a capture's time stamps
// never reach, is clamped to that range (time.Time.UnixNano's).
func Time(t time.Time) Value {
	switch {
	case t.Before(minTime):
		t = minTime
	case t.After(maxTime):
		t = maxTime
	}
	return Value{N: uint64(t.UnixNano())}
}

var (
	minTime = time.Unix(0, math.MinInt64)
	maxTime = time.Unix(0, math.MaxInt64)
)

// Time is an FTAbsTime value as a time in UTC.
func (v Value) Time() time.Time { return time.Unix(0, int64(v.N)).UTC() }

func Bool(v bool) Value        { return Value{N: b2u(v)} }
func (v Value) Int() int64     { return int64(v.N) }
func (v Value) Float() float64 { return math.Float64frombits(v.N) }
func (v Value) Bool() bool     { return v.N != 0 }

// Text is the value's text, a copy the caller may keep.
func (v Value) Text() string { return string(v.B) }

// View is the value's text without a copy, for use before the PDU is
// reused: it aliases the PDU's bytes. unsafe: lifetime rule, the string
// must not be kept past the call that reads it: every caller appends it,
// compares it or parses it; what is kept is Text's copy. No benchmark of
// its own: a string(B) per value shown is an allocation per node rendered.
// TestValueViewText shows a kept View changing with the bytes, and Text not.
func (v Value) View() string { return unsafe.String(unsafe.SliceData(v.B), len(v.B)) }

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// Node flags.
const (
	FlagGenerated    uint16 = 1 << iota // derived, not on the wire: shown [in brackets], Length 0
	FlagTruncated                       // the capture cut this field short
	FlagMalformed                       // the bytes are present but wrong
	FlagLittleEndian                    // an integer read little-endian (shown so learners notice)
	FlagSensitive                       // a secret (salt, verification key): masked by --redact
	FlagHidden                          // in the tree for filters and -e, not shown in it (ip.addr, tcp.port)
)

// Node is one item of a tree. Trees are flat slices in pre-order: a node's
// parent comes before it, and a node's subtree is the run of nodes after it
// whose ancestor chain reaches it. Flat slices keep a PDU to a handful of
// allocations and let a PDU be reused for the next one.
type Node struct {
	Field  *Field
	Key    string // for keyed fields: the last part of the filter name
	Parent int32  // index of the parent node, -1 for the root
	Offset int32  // within PDU.Data
	Length int32
	Flags  uint16
	Value  Value
	Text   string // optional: shown instead of the formatted value
}

// Name is the node's filter name.
func (n *Node) Name() string {
	if n.Key != "" {
		return n.Field.Name + "." + n.Key
	}
	return n.Field.Name
}

// PDU is one protocol data unit, dissected: its bytes and its tree.
type PDU struct {
	Data    []byte // the PDU's bytes as captured; node offsets index into it
	WireLen int    // its length on the wire (> len(Data) when the capture cut it)
	Nodes   []Node // Nodes[0] is the protocol root
	Experts []ExpertItem
	Objects []Object // files carried by the PDU, for --export-objects (only when Export)
	Message string   // the message's name, e.g. "Full Stat Response" (mc.message)
	Info    string   // the one-line summary (tshark's Info column)
	Dir     Dir

	// Derived is how many bytes at the end of Data are not the PDU's wire
	// bytes but bytes its decoder derived from them (a decrypted or
	// inflated packet, Cursor.Derive), laid after them so that nodes can
	// point into them; WireLen counts them too. The PDU's own bytes are
	// Data[:len(Data)-Derived], WireLen-Derived of them on the wire.
	// Reset clears it.
	Derived int

	// Pending is set by a conversation tracker on a request whose response
	// may still come: the pipeline holds the PDU (and those after it) until
	// the tracker clears it, so that "Response in frame N" can be added.
	Pending bool

	// Lite is set by the pipeline before decoding when no tree will be
	// read (summary output, statistics): Wireshark's NULL tree. The PDU
	// keeps its root node only: AddNode and AddGenerated return the root's
	// index 0 and add nothing, so writes through a returned index land on
	// the root harmlessly. Work only the tree shows (a node's text, a
	// check that only adds an expert item, a favicon's analysis) is given
	// to the calls of lite.go, which skip it: decoders do not test the
	// flag, but for a measured fast path. Message, Info and Dir must be
	// the same as without Lite; expert items may be fewer. A Lite PDU is
	// never Pending (Hold): what a response adds to its request is in the
	// tree only, so it is not held back. Reset keeps the flag.
	Lite bool

	// Export is set by the pipeline before decoding when the files PDUs
	// carry will be saved (--export-objects): decoders attach Objects only
	// then, and may otherwise reuse the buffers they would have filled.
	// Reset keeps the flag.
	Export bool

	infoBuf []byte // SetInfo's, in a Lite PDU
}

// Reset empties p for reuse with new data, keeping its slices' capacity.
func (p *PDU) Reset(data []byte, wireLen int) {
	if wireLen < len(data) {
		wireLen = len(data)
	}
	// Field by field: a whole-struct assignment costs write barriers on
	// every pointer, once per PDU.
	p.Data, p.WireLen = data, wireLen
	p.Nodes, p.Experts = p.Nodes[:0], p.Experts[:0]
	if len(p.Objects) > 0 {
		clear(p.Objects) // let go of the exported files' bytes
		p.Objects = p.Objects[:0]
	}
	p.Message, p.Info = "", ""
	p.Dir, p.Pending, p.Derived = DirUnknown, false, 0
}

// OwnBytes returns the PDU's wire bytes as captured: Data without the
// bytes a decoder derived (Derived).
func (p *PDU) OwnBytes() []byte { return p.Data[:len(p.Data)-p.Derived] }

// SetInfo sets Info to the text of b. A Lite PDU's Info views a buffer
// the PDU keeps for the purpose, valid until SetInfo is next called on it
// (after a Reset: the Lite contract, see Lite), so that a stateless
// decoder's summary costs no allocation; otherwise Info is a string of its
// own.
func (p *PDU) SetInfo(b []byte) {
	if !p.Lite {
		p.Info = string(b)
		return
	}
	p.infoBuf = append(p.infoBuf[:0], b...)
	p.Info = unsafe.String(unsafe.SliceData(p.infoBuf), len(p.infoBuf))
}

// SettleLite undoes, in a Lite PDU, what a decoder wrote through the
// root's index, AddNode's answer for every node it does not keep (a
// child's flags, text, key or value): the root keeps its field and its
// range over the whole PDU and nothing else. The pipeline calls it after
// decoding; the cursor itself never writes there.
func (p *PDU) SettleLite() {
	if !p.Lite || len(p.Nodes) == 0 {
		return
	}
	n := &p.Nodes[0]
	n.Key, n.Text, n.Flags, n.Value = "", "", 0, Value{}
	n.Parent, n.Offset, n.Length = -1, 0, int32(len(p.Data))
	p.Nodes = p.Nodes[:1]
}

// Cut reports whether the capture cut this PDU short.
func (p *PDU) Cut() bool { return p.WireLen > len(p.Data) }

// Grow makes room for n more nodes, so that a decoder that learns it will
// add many (a packet of 200,000 fields) grows the tree once, not by
// appends that copy it a dozen times. A Lite PDU, which adds no node,
// does not grow.
func (p *PDU) Grow(n int) {
	if !p.Lite {
		p.Nodes = slices.Grow(p.Nodes, n)
	}
}

// AddNode appends a node and returns its index. The parent must be the
// last node or one of its ancestors, so the slice stays in pre-order.
func (p *PDU) AddNode(parent int32, f *Field, off, length int, v Value) int32 {
	if p.Lite && len(p.Nodes) > 0 {
		return 0
	}
	n := len(p.Nodes)
	if n < cap(p.Nodes) {
		p.Nodes = p.Nodes[:n+1]
	} else {
		p.Nodes = append(p.Nodes, Node{})
	}
	// Field by field, and the field, key and text pointers only when they
	// change: the slot is most often a recycled record's, and storing a
	// whole Node puts every pointer in it through the write barrier. (The
	// value's bytes were also stored only when their pointer changed, with
	// unsafe: that bought nothing end to end, -V on the project mix 2.6 %
	// faster without it, issue 12, and went.)
	nd := &p.Nodes[n]
	if nd.Field != f {
		nd.Field = f
	}
	if len(nd.Key) != 0 {
		nd.Key = ""
	}
	if len(nd.Text) != 0 {
		nd.Text = ""
	}
	nd.Parent, nd.Offset, nd.Length, nd.Flags = parent, int32(off), int32(length), 0
	nd.Value.N = v.N
	nd.Value.B = v.B
	return int32(n)
}

// AddGenerated appends a generated node (no bytes of its own) under parent.
func (p *PDU) AddGenerated(parent int32, f *Field, v Value, text string) int32 {
	if p.Lite && len(p.Nodes) > 0 {
		return 0
	}
	var off int32
	if parent >= 0 && int(parent) < len(p.Nodes) {
		off = p.Nodes[parent].Offset
	}
	// Through AddNode, which writes only the pointers that change.
	i := p.AddNode(parent, f, int(off), 0, v)
	nd := &p.Nodes[i]
	nd.Flags = FlagGenerated
	if text != "" {
		nd.Text = text
	}
	return i
}

// AddExpert hangs an expert item on node.
func (p *PDU) AddExpert(node int32, e *ExpertInfo, msg string) {
	p.Experts = append(p.Experts, ExpertItem{Node: node, Info: e, Msg: msg})
}

// Depth returns the depth of node i (the root is 0).
func (p *PDU) Depth(i int32) int {
	d := 0
	for i = p.Nodes[i].Parent; i >= 0; i = p.Nodes[i].Parent {
		d++
	}
	return d
}

// Find returns the index of the first node with the filter name, or -1.
func (p *PDU) Find(name string) int32 {
	for i := range p.Nodes {
		n := &p.Nodes[i]
		if n.Field.Name == name && n.Key == "" || n.Key != "" && n.Name() == name {
			return int32(i)
		}
	}
	return -1
}

// MaxSeverity is the highest severity among the PDU's expert items, 0 if none.
func (p *PDU) MaxSeverity() Severity {
	var s Severity
	for _, e := range p.Experts {
		if e.Info.Severity > s {
			s = e.Info.Severity
		}
	}
	return s
}

// Meta is what a conversation tracker knows of a PDU besides its bytes:
// frame number and capture time come from the capture, never from a clock.
type Meta struct {
	Frame  uint64
	Time   time.Time
	Client string // "ip:port" of the client side
	Server string // "ip:port" of the server side
	Dir    Dir
}

package java

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/java/mcdata"
)

// State is a Java connection state this package dissects.
type State uint8

const (
	Config State = iota // configuration (1.20.2+)
	Play
	nStates
)

var stateKeys = [nStates]string{"configuration", "play"}
var statePaths = [nStates]string{"config", "play"}

func (s State) String() string {
	switch s {
	case Config:
		return "configuration"
	case Play:
		return "play"
	}
	return "Unknown (" + strconv.Itoa(int(s)) + ")"
}

// Version is one version's packets, compiled.
type Version struct {
	// Name is the version the protocol number names ("1.20.4",
	// "26.4-snapshot-6"), or, when minecraft-data does not know it, the
	// version whose data stands in
	Name     string
	Protocol int
	Exact    bool   // false: the data of the closest version stands in
	Data     string // the minecraft-data file: "pc/1.20.3"
	c        *compiled
}

// compiled is one version's packet tables. A packet is compiled when it is
// first looked up: a session uses a few dozen of a version's hundreds, and
// compiling them all took more time and memory than dissecting a 100 MB
// capture of play traffic's packets.
type compiled struct {
	dirs [nStates][2]*packets // by state, direction (0 c2s, 1 s2c)
	mu   sync.Mutex           // held while a packet is compiled
}

// packets is one state and direction's packets by ID: their names, the
// compiled ones, and the compiler that compiles the others.
type packets struct {
	names []string // minecraft-data's packet names by ID, "" where none
	types []string // the packets' type names
	done  []atomic.Pointer[packet]
	st    State
	c     *compiler // guarded by compiled.mu
}

// packet is one packet type of a state and direction.
type packet struct {
	name  string // minecraft-data's name: "keep_alive"
	msg   string // PDU.Message: "Keep alive"
	f     *dissect.Field
	t     *typ
	slots map[string]int // top-level field name -> slot, for Info
	types map[string]*typ
	// need: a summary's walk stops after this many top-level slots, the
	// last field Info may read (infoFields); 0 walks everything
	need int
	// infos are its top-level fields of infoFields, which info reads: a
	// few, looked up by name in a short list rather than a map
	infos []infoSlot
	// shows: its Info line shows fields (infoNames), or its threshold is
	// read (set_compression); a summary's walk of any other is the tree's
	shows bool
}

// infoSlot is a top-level field info may read.
type infoSlot struct {
	name string
	slot int
	t    *typ
}

var (
	cmu      sync.Mutex
	compiles = map[*mcdata.Version]*compiled{}
)

// ForProtocol returns the data for protocol number proto (the handshake's):
// the version that has it, or the nearest at or below it in release order
// (Exact false; mcdata.Blob.Lookup).
func ForProtocol(proto int) (*Version, error) {
	b, err := mcdata.Load()
	if err != nil {
		return nil, err
	}
	mv, name, exact := b.Lookup(proto)
	if mv == nil {
		return nil, errors.New("no protocol data")
	}
	return version(b, mv, name, proto, exact)
}

// ForName returns the data for a release named like "1.20.4", for
// sessions whose handshake was not captured.
func ForName(name string) (*Version, error) {
	b, err := mcdata.Load()
	if err != nil {
		return nil, err
	}
	mv, vn, ok := b.ByName(name)
	if !ok {
		return nil, errors.New("no protocol data for Minecraft " + name)
	}
	return version(b, mv, vn.Name, vn.Protocol, true)
}

// ProtocolName is the version minecraft-data's list names protocol
// number proto ("26.4-snapshot-6"), "" when it has none or the data does
// not load.
func ProtocolName(proto int) string {
	b, err := mcdata.Load()
	if err != nil {
		return ""
	}
	return b.ProtocolName(proto)
}

// ReleaseProtocol is the protocol number of the release at or before
// proto (mcdata.Blob.ReleaseAtOrBelow): proto for a release, the release
// before it for a snapshot, whose own number (2^30 and up) compares with
// no release's.
func ReleaseProtocol(proto int) int {
	b, err := mcdata.Load()
	if err != nil {
		return proto
	}
	return b.ReleaseAtOrBelow(proto)
}

// Releases lists the version names the data has, oldest first.
func Releases() []string {
	b, err := mcdata.Load()
	if err != nil {
		return nil
	}
	var out []string
	for _, n := range b.Names() {
		out = append(out, n.Name)
	}
	return out
}

func version(b *mcdata.Blob, mv *mcdata.Version, name string, proto int, exact bool) (*Version, error) {
	if err := register(); err != nil {
		return nil, err
	}
	cmu.Lock()
	defer cmu.Unlock()
	c, ok := compiles[mv]
	if !ok {
		var err error
		if c, err = packetTables(b, mv, runtimeNamer); err != nil {
			return nil, err
		}
		compiles[mv] = c
	}
	return &Version{Name: name, Protocol: proto, Exact: exact, Data: mv.Path, c: c}, nil
}

// packetTables reads the packet IDs and names of the configuration and
// play states of mv (handshake, status and login are dissect/slp's own),
// and makes the compilers of their packets.
func packetTables(b *mcdata.Blob, mv *mcdata.Version, nm namer) (*compiled, error) {
	if err := mv.Parse(); err != nil {
		return nil, err
	}
	out := &compiled{}
	for st := State(0); st < nStates; st++ {
		dirs, ok := mv.States[stateKeys[st]]
		if !ok {
			continue
		}
		for di, dk := range []string{"toServer", "toClient"} {
			local := dirs[dk]
			c := &compiler{defs: b.Defs, global: mv.Types, local: local, namer: nm, parsed: map[int]any{}}
			ids, types, err := packetMap(c)
			if err != nil {
				return nil, errors.New(mv.Path + " " + stateKeys[st] + " " + dk + ": " + err.Error())
			}
			ps := &packets{st: st, c: c}
			for id, name := range ids {
				if id < 0 || id > 1024 || types[name] == "" {
					continue
				}
				for len(ps.names) <= id {
					ps.names = append(ps.names, "")
					ps.types = append(ps.types, "")
				}
				ps.names[id], ps.types[id] = name, types[name]
			}
			ps.done = make([]atomic.Pointer[packet], len(ps.names))
			out.dirs[st][di] = ps
		}
	}
	return out, nil
}

// compileVersion compiles every packet of the configuration and play
// states of mv, in ID order (FillFields' table records the types it sees
// first).
func compileVersion(b *mcdata.Blob, mv *mcdata.Version, nm namer) (*compiled, error) {
	out, err := packetTables(b, mv, nm)
	if err != nil {
		return nil, err
	}
	for st := range out.dirs {
		for _, ps := range out.dirs[st] {
			if ps == nil {
				continue
			}
			for id := range ps.names {
				out.packet(ps, id)
			}
		}
	}
	return out, nil
}

// packet is packet id of ps, compiled at its first use; nil when the data
// has no such packet.
func (c *compiled) packet(ps *packets, id int) *packet {
	if id < 0 || id >= len(ps.names) || ps.names[id] == "" {
		return nil
	}
	if p := ps.done[id].Load(); p != nil {
		return p
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := ps.done[id].Load(); p != nil {
		return p
	}
	p := ps.compile(id)
	ps.done[id].Store(p)
	return p
}

// compile compiles packet id of ps.
func (ps *packets) compile(id int) *packet {
	c, name, tn := ps.c, ps.names[id], ps.types[id]
	path := statePaths[ps.st] + "." + snake(name)
	t := c.named(tn, nil, path, newScope(nil))
	p := &packet{name: name, msg: message(name), f: c.namer(path, dissect.FTNone, 0, label(name)), t: t}
	p.slots, p.types = topSlots(c, tn, t)
	p.shows = infoNames[name] || name == "set_compression" || name == "compress"
	for _, n := range infoFields {
		if s, ok := p.slots[n]; ok {
			p.infos = append(p.infos, infoSlot{name: n, slot: s, t: p.types[n]})
			p.need = max(p.need, s+1)
			if b := p.types[n]; b != nil {
				for _, part := range b.bits {
					p.need = max(p.need, part.slot+1)
				}
			}
		}
	}
	return p
}

// topSlots maps a packet container's top-level field names to slots.
func topSlots(c *compiler, tn string, t *typ) (map[string]int, map[string]*typ) {
	slots, types := map[string]int{}, map[string]*typ{}
	if t.k != kContainer {
		return slots, types
	}
	var walk func(t *typ)
	walk = func(t *typ) {
		for _, f := range t.fields {
			if f.name != "" && f.slot >= 0 {
				slots[f.name] = f.slot
				types[f.name] = f.t
			} else if f.t.k == kContainer && !f.t.frame {
				walk(f.t)
			}
		}
	}
	walk(t)
	return slots, types
}

// packetMap reads a state and direction's "packet" type: the packet ID
// mapper and the switch from names to packet types.
func packetMap(c *compiler) (map[int]string, map[string]string, error) {
	d, ok := c.def("packet")
	if !ok {
		return nil, nil, errors.New("no packet type")
	}
	arr, _ := d.([]any)
	if len(arr) != 2 {
		return nil, nil, errors.New("packet type is not a container")
	}
	fields, _ := arr[1].([]any)
	ids := map[int]string{}
	types := map[string]string{}
	for _, f := range fields {
		m, _ := f.(map[string]any)
		t, _ := m["type"].([]any)
		if len(t) != 2 {
			continue
		}
		o, _ := t[1].(map[string]any)
		switch t[0] {
		case "mapper":
			mp, _ := o["mappings"].(map[string]any)
			for k, v := range mp {
				n, err := strconv.ParseInt(k, 0, 32)
				s, _ := v.(string)
				if err == nil {
					ids[int(n)] = s
				}
			}
		case "switch":
			fs, _ := o["fields"].(map[string]any)
			for k, v := range fs {
				if s, ok := v.(string); ok {
					types[k] = s
				}
			}
		}
	}
	return ids, types, nil
}

// packets is state st's packets in direction dir, nil when the data has
// none.
func (v *Version) packets(st State, dir dissect.Dir) *packets {
	if dir == dissect.DirC2S {
		return v.c.dirs[st][0]
	}
	return v.c.dirs[st][1]
}

// lookup finds packet id of state st in direction dir.
func (v *Version) lookup(st State, dir dissect.Dir, id int32) *packet {
	ps := v.packets(st, dir)
	if ps == nil {
		return nil
	}
	return v.c.packet(ps, int(id))
}

// PacketName is minecraft-data's name of packet id ("" if none).
func (v *Version) PacketName(st State, dir dissect.Dir, id int32) string {
	if ps := v.packets(st, dir); ps != nil && id >= 0 && int(id) < len(ps.names) {
		return ps.names[id]
	}
	return ""
}

// Has reports whether the version's data has state st at all.
func (v *Version) Has(st State) bool {
	for _, ps := range v.c.dirs[st] {
		if ps != nil && len(ps.names) > 0 {
			return true
		}
	}
	return false
}

// Result is what Decode learnt of a packet.
type Result struct {
	Name string // minecraft-data's name, "" when the ID is unknown
	// Ints are the packet's top-level integer fields by name, for the
	// caller's state machine (set_compression's threshold).
	Threshold int64
	Known     bool
	// InfoShort: the walk stopped before a field the Info line shows
	InfoShort bool
	// Brand is the brand a plugin message on the brand channel carries
	// (the server's or the client's, by direction), viewing the packet's
	// bytes; nil for any other packet.
	Brand []byte
}

// Decode dissects the body of packet id (the bytes after the packet ID,
// at the cursor, to the end of its data) of state st in direction dir,
// sets p.Message and p.Info, and returns what a state machine needs.
// idNode is the packet ID's node (its text becomes the name).
func (v *Version) Decode(cur *dissect.Cursor, st State, dir dissect.Dir, id int32, idNode int32) Result {
	p := cur.P
	pk := v.lookup(st, dir, id)
	if pk == nil {
		p.Message = "Unknown " + st.String() + " packet"
		p.SetInfo([]byte("Unknown " + st.String() + " packet 0x" + strconv.FormatInt(int64(id), 16)))
		cur.Malformed(idNode, ExpertUnknownID, "packet ID "+strconv.FormatInt(int64(id), 10)+" is not a "+dir.String()+" packet of the "+st.String()+" state in "+v.Data)
		if r := cur.Remaining(); r > 0 {
			cur.Take(anonField(dissect.FTBytes), r)
		}
		return Result{}
	}
	p.SetTextFunc(idNode, func() string { return hexID(id) + " (" + pk.name + ")" })
	p.Message = pk.msg
	bufs := walkBufs.Get().(*walkBuf)
	defer bufs.release()
	w := &walker{c: *cur, walkBuf: bufs.take(), stopAt: pk.need, base: len(cur.P.Nodes), next: growAt}
	defer bufs.keep(w)
	// from here the cursor is the walker's copy, given back at the end
	outer := cur
	cur = &w.c
	// the fields of a packet whose Info line shows none (and whose
	// threshold the state machine does not read) are all the tree's
	w.stopped = !pk.shows
	w.pkt = cur.Open(pk.f, -1)
	if !v.Exact {
		p.AddGenerated(cur.Parent(), FieldVersion, dissect.S(v.Data), "")
		p.ExpertFunc(cur.Parent(), ExpertApprox, func() string {
			return "protocol " + strconv.Itoa(v.Protocol) + " (" + v.Name + ") has no data of its own in minecraft-data; read with " + v.Data
		})
	}
	w.walk(pk.t, nil)
	if r := cur.Remaining(); r > 0 && !cur.Failed() && w.capped {
		off := cur.Off()
		_, i := cur.Take(dissect.FieldUndissected, r)
		p.ExpertFunc(i, ExpertTooMany, func() string {
			return "more than " + strconv.Itoa(maxNodes) + " fields in " + pk.name + ": the " + strconv.Itoa(r) + " bytes from offset " + strconv.Itoa(off) + " on are not dissected"
		})
	} else if r > 0 && !cur.Failed() {
		// left over after the last field; in a Lite PDU also what only
		// the tree reads (fields), which is no finding
		off := cur.Off()
		_, i := cur.Take(dissect.FieldUndissected, r)
		p.ExpertFunc(i, ExpertLeftOver, func() string {
			return strconv.Itoa(r) + " bytes at offset " + strconv.Itoa(off) + " after the last field of " + pk.name + " in " + v.Data
		})
	}
	cur.Close()
	res := Result{Name: pk.name, Known: true}
	res.Threshold = -1
	if pk.name == "set_compression" || pk.name == "compress" {
		if s, ok := pk.slots["threshold"]; ok && s < len(w.top) {
			res.Threshold = w.top[s].i
		}
	}
	p.SetInfo(info(pk, w, st, dir))
	res.Brand = w.brand
	res.InfoShort = w.short
	*outer = w.c
	return res
}

// walkBufs are a walker's buffers, reused from packet to packet. The
// walker itself lives on its caller's stack, so that the cursor it holds
// (a decoder's, on its stack too) does not move to the heap.
var walkBufs = sync.Pool{New: func() any { return new(walkBuf) }}

// take hands b's buffers out, emptied, to a walker.
func (b *walkBuf) take() walkBuf {
	return walkBuf{vals: b.vals[:0], bases: b.bases[:0], top: b.top[:0], pos: b.pos[:0], info: b.info[:0]}
}

// keep takes back the buffers w grew.
func (b *walkBuf) keep(w *walker) { *b = w.walkBuf }

// release gives b back, dropping what it points at.
func (b *walkBuf) release() {
	clear(b.vals)
	clear(b.top)
	clear(b.pos)
	walkBufs.Put(b)
}

// Knows reports whether packet id exists in state st, direction dir.
func (v *Version) Knows(st State, dir dissect.Dir, id int32) bool {
	return v.PacketName(st, dir, id) != ""
}

// Reads reports whether packet (its ID and body) is a packet of state st
// in direction dir that the data reads to its last byte, without a
// failure: the proof a resynchronisation looks for at an offset.
func (v *Version) Reads(st State, dir dissect.Dir, packet []byte) bool {
	p := scratch.Get().(*dissect.PDU)
	defer scratch.Put(p)
	cur := dissect.Begin(p, RegJava.Root(), packet, len(packet))
	id, _ := varInt(&cur, anonField(dissect.FTInt))
	pk := v.lookup(st, dir, id)
	if cur.Failed() || pk == nil {
		return false
	}
	bufs := walkBufs.Get().(*walkBuf)
	defer bufs.release()
	w := &walker{c: cur, walkBuf: bufs.take(), next: growAt}
	defer bufs.keep(w)
	w.walk(pk.t, nil)
	return !w.c.Failed() && w.c.Remaining() == 0
}

var scratch = sync.Pool{New: func() any { return &dissect.PDU{Lite: true} }}

// InfoFits reports whether the first bytes of a packet (its ID and body,
// cut anywhere) hold every field its Info line shows: a summary that
// reads only what it shows may then inflate no more of a compressed
// packet than head, and say the same as a tree of the whole.
func (v *Version) InfoFits(st State, dir dissect.Dir, head []byte) bool {
	p := scratch.Get().(*dissect.PDU)
	defer scratch.Put(p)
	cur := dissect.Begin(p, RegJava.Root(), head, len(head)+1)
	id, idi := varInt(&cur, anonField(dissect.FTInt))
	if cur.Failed() {
		return false
	}
	res := v.Decode(&cur, st, dir, id, idi)
	return !res.InfoShort
}

// message is a packet's PDU.Message: its name as a label, but for the
// few whose minecraft-data name misleads.
func message(name string) string {
	switch name {
	case "login":
		return "Join game"
	case "kick_disconnect":
		return "Disconnect"
	case "map_chunk":
		return "Chunk data"
	case "flying":
		return "Player on ground"
	case "custom_payload":
		return "Plugin message"
	}
	return label(name)
}

func hexID(id int32) string {
	const digits = "0123456789abcdef"
	if id >= 0 && id < 256 {
		return "0x" + string([]byte{digits[id>>4], digits[id&15]})
	}
	return strconv.FormatInt(int64(id), 10)
}

// Transition says what a packet does to the connection's state: the
// state the direction goes to after it, or st itself.
func Transition(st State, name string) State {
	switch {
	case st == Config && name == "finish_configuration":
		return Play
	case st == Play && (name == "start_configuration" || name == "configuration_acknowledged"):
		return Config
	}
	return st
}

// typeNames lists every type name a version's definitions refer to, for
// tests of the natives.
func typeNames(b *mcdata.Blob) map[string]bool {
	out := map[string]bool{}
	var walk func(any)
	walk = func(t any) {
		switch v := t.(type) {
		case string:
			if !strings.HasPrefix(v, "$") {
				out[v] = true
			}
		case []any:
			if len(v) == 2 {
				if s, ok := v[0].(string); ok {
					out[s] = true
				}
				walkOpts(v[1], walk)
			}
		}
	}
	for _, raw := range b.Defs {
		var v any
		if json.Unmarshal(raw, &v) == nil {
			walk(v)
		}
	}
	return out
}

func walkOpts(o any, walk func(any)) {
	switch v := o.(type) {
	case []any: // container fields, bitfield parts
		for _, e := range v {
			if m, ok := e.(map[string]any); ok {
				if t, ok := m["type"]; ok {
					walk(t)
				}
			} else {
				walk(e)
			}
		}
	case map[string]any:
		for k, x := range v {
			switch k {
			case "type", "countType", "default":
				walk(x)
			case "fields":
				if m, ok := x.(map[string]any); ok {
					for _, y := range m {
						walk(y)
					}
				}
			case "otherwise", "base":
				if m, ok := x.(map[string]any); ok {
					walk(m["type"])
				}
			}
		}
	case string:
		walk(v)
	}
}

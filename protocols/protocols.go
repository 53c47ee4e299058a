// Package protocols is where every protocol mcdissect dissects registers
// itself, as Wireshark's proto_register or packetbeat's protos.Register: a
// Protocol says how the pipeline finds, frames and decodes it and what its
// fields mean, and every surface of the tool (routing, -d, -O, decode
// --proto, the summary's column and colour, the page's pictures, the
// census, redaction, -G protocols, --version) reads the registrations,
// never a list of names of its own.
//
// Adding a protocol is one new package under dissect/ that imports this
// one and registers itself in an init function, and one import line in
// protocols/all. TestSurfaces (cmd/mcdissect) walks every registration
// through every surface.
package protocols

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcdissect/mcdissect/budget"
	"github.com/mcdissect/mcdissect/dissect"
)

// Transport is the transport a protocol runs on.
type Transport uint8

const (
	TCP Transport = iota + 1
	UDP
)

func (t Transport) String() string {
	if t == UDP {
		return "udp"
	}
	return "tcp"
}

// Protocol is one protocol's registration.
type Protocol struct {
	// Name is what -d, decode --proto and the routing call it. Several
	// registrations may share a Registry (Classic's heartbeat is Classic's
	// HTTP side): their records are the registry's protocol (mc.protocol).
	Name string
	// Registry holds its fields and expert items; its root's name is the
	// records' mc.protocol and what -O takes.
	Registry *dissect.Registry
	// Column is the summary line's Protocol column ("SLP").
	Column string
	// Colour is the SGR sequence of its column with --color.
	Colour string
	// Summary is one line for -G protocols and --version.
	Summary string
	// Example is what a client sends first, whole PDUs: for decode
	// --proto's help and the test that walks every surface with every
	// protocol.
	Example []byte

	Transport Transport
	// Ports are the server ports it is known on by default.
	Ports []uint16
	// Prefs are the preferences (-o NAME:VALUE) it takes, with a
	// sentence each.
	Prefs []Pref
	// Shared: its ports carry other traffic too (the heartbeat's HTTP
	// port 80, a web server's): a stream there that no protocol claims is
	// not reported as a Minecraft port's, and a live capture's kernel
	// filter passes only the connections whose client starts as Shared
	// says, not the whole port.
	Shared *Shared

	// TCP.

	// Detect decides from the client's first bytes of a connection.
	Detect func(first []byte) dissect.Detection
	// DetectServer decides from the server's first bytes when the
	// client's were not captured: a form only this protocol's server
	// sends. Nil: the server's bytes never decide.
	DetectServer func(first []byte) dissect.Detection
	// DetectPair decides, for a stream picked up mid-way where neither
	// direction alone proves a boundary, from both: the client's bytes
	// waiting (a few) and the server's.
	DetectPair func(client, server []byte) dissect.Detection
	// NewConn makes the state of one connection: the pipeline makes two,
	// one to frame and one to decode.
	NewConn func(r *Run) Conn
	// DecodesCut: Conn.DecodeCut shows a PDU the capture cut as far as
	// its bytes go (otherwise they are undissected bytes).
	DecodesCut bool
	// MidwayHint, when set, is what the reason for the bytes of a
	// stream on its port picked up mid-way, with no PDU boundary found,
	// adds: what would still decode them ("" when nothing would).
	MidwayHint func(r *Run) string

	// UDP.

	// Looks is the heuristic on any port: whether payload is one of its
	// datagrams, and which way it goes.
	Looks func(payload []byte) (dissect.Dir, bool)
	// Proof: Looks matches only by a long constant (RakNet's 16-byte
	// magic), so a match wins over another protocol's port.
	Proof bool
	// Learn: a heuristic match teaches the server's address, as its
	// replies have weaker shapes (Query).
	Learn bool
	// Decode dissects one datagram of wire bytes on the wire, of which
	// data were captured.
	Decode func(p *dissect.PDU, data []byte, wire int, dir dissect.Dir)
	// NewTracker makes the state that links its datagrams across a run
	// (nil: none).
	NewTracker func(r *Run) Tracker
	// Window is how long, in packet time, its tracker waits for a
	// response.
	Window time.Duration
	// BigResponse: a response longer than this most likely needs a big
	// tree (a Query full stat).
	BigResponse int

	// Pictures, when set, adds the pictures the page shows beside a PDU's
	// tree: data URIs (PNG) with the node they belong to and a caption.
	Pictures func(p *dissect.PDU, add func(node int32, uri, caption string))
	// Objects are the kinds of files its PDUs carry (dissect.Object.Kind),
	// which --export-objects writes.
	Objects []ObjectKind
}

// ObjectKind is a kind of file a protocol's PDUs carry.
type ObjectKind struct {
	Kind string // "favicon"
	Desc string
}

// ObjectKinds is every kind of file the protocols' PDUs carry.
func ObjectKinds() []ObjectKind {
	var out []ObjectKind
	for _, p := range All() {
		out = append(out, p.Objects...)
	}
	return out
}

// Shared tells a protocol's connections from the other traffic of its
// ports: the client's first bytes are one of Starts, then a byte of Then.
type Shared struct {
	Starts []string
	Then   string
}

// Pref is a preference a protocol takes (-o NAME:VALUE, or a flag of its
// own). The edge checks and parses each value given once, before the run
// (ParsePref), and the protocol's connections read what Parse made
// (Run.Pref): a mistake is one clear line before any packet is read, and
// no file is read below the edge.
type Pref struct {
	Name string // "classic.salt"
	Desc string
	// File: the value names a file, which the edge reads; Parse gets its
	// bytes.
	File bool
	// Parse checks the value (or the file's bytes) and makes what the
	// connections read; nil keeps the value as a string.
	Parse func(v []byte) (any, error)
}

// ParsePref parses the value of the preference name, whose file (for a
// File preference) read gave. It reports false for a preference no
// protocol takes.
func ParsePref(name string, v []byte) (any, bool, error) {
	for _, p := range All() {
		for _, pr := range p.Prefs {
			if pr.Name != name {
				continue
			}
			if pr.Parse == nil {
				return string(v), true, nil
			}
			x, err := pr.Parse(v)
			return x, true, err
		}
	}
	return nil, false, nil
}

// PrefOf is the preference called name, if a protocol takes it.
func PrefOf(name string) (Pref, bool) {
	for _, p := range All() {
		for _, pr := range p.Prefs {
			if pr.Name == name {
				return pr, true
			}
		}
	}
	return Pref{}, false
}

// Conn is one TCP connection of a protocol, as its framer or its decoder.
// Embed Defaults for what a protocol does not do.
type Conn interface {
	// Frame tells how long the PDU at the front of buf is (the
	// reassembler's question); afterGap: bytes before buf are missing, or
	// the stream was picked up mid-way, so a boundary must be proved.
	Frame(dir dissect.Dir, buf []byte, afterGap bool) dissect.Frame
	// FrameAtEnd frames the bytes left when a direction ended, for a PDU
	// that ends only with the connection (an HTTP body without a length).
	FrameAtEnd(dir dissect.Dir, buf []byte) dissect.Frame
	// Decode dissects one PDU Frame found.
	Decode(p *dissect.PDU, data []byte, m dissect.Meta)
	// DecodeCut dissects the start of a PDU of wireLen bytes the capture
	// cut (Protocol.DecodesCut).
	DecodeCut(p *dissect.PDU, data []byte, wireLen int, m dissect.Meta)
	// Gap tells the decoder that bytes of a direction are missing.
	Gap(dir dissect.Dir)
	// GiveUp lets go of p, a request held for its response, which the
	// pipeline must output first, for the reason r: the response still
	// links back to it.
	GiveUp(p *dissect.PDU, r dissect.Release)
	// Close tells the decoder that the connection ended, and how (the
	// first FIN, a RST, idle, or still open at the capture's end):
	// requests still waiting for a response end with it (dissect.ConnEnd.Request).
	Close(e dissect.ConnEnd)
}

// Defaults is what a Conn does not do: embed it.
type Defaults struct{}

func (Defaults) FrameAtEnd(dissect.Dir, []byte) dissect.Frame {
	return dissect.Frame{Status: dissect.FrameLost}
}
func (Defaults) DecodeCut(*dissect.PDU, []byte, int, dissect.Meta) {}
func (Defaults) Gap(dissect.Dir)                                   {}
func (Defaults) GiveUp(*dissect.PDU, dissect.Release)              {}
func (Defaults) Close(dissect.ConnEnd)                             {}

// Tracker follows a UDP protocol's conversations across datagrams, at
// packet time: it links each request to its response, and holds requests
// (PDU.Pending) until then.
type Tracker interface {
	Observe(m dissect.Meta, p *dissect.PDU)
	// Expire gives up on requests whose window has passed at now.
	Expire(now time.Time)
	// GiveUp gives up on the request p, for the reason r (too much
	// waits behind it, or it was held as long as the hold allows).
	GiveUp(p *dissect.PDU, r dissect.Release)
	// Close gives up on every request: the input ended.
	Close()
}

// Run is what a protocol's connections and trackers share in one run of
// the pipeline: its two-pass state, the preferences, and state made once
// and shared by every connection (Shared).
type Run struct {
	// Later is the two-pass state (-2), or nil.
	Later *dissect.Later
	// Prefs are the preferences given, by name, as their Parse made them
	// (ParsePref).
	Prefs map[string]any
	// Budget is the run's memory budget, the stage of it that decoding
	// charges: a protocol whose connections hold bytes across PDUs
	// (Classic's levels) opens an account of it and charges it from
	// Decode only, never from Frame, which runs on another goroutine
	// (nil: no budget).
	Budget *budget.Budget
	shared map[string]any
}

// Shared is the state under key, made by mk the first time it is asked
// for: what connections of a protocol, or of protocols sharing a
// registry (Classic and its heartbeat: the heartbeat salts), share.
func (r *Run) Shared(key string, mk func() any) any {
	if v, ok := r.shared[key]; ok {
		return v
	}
	if r.shared == nil {
		r.shared = map[string]any{}
	}
	v := mk()
	r.shared[key] = v
	return v
}

// reg is every registration. Register runs in init functions, before
// anything reads it: reads take no lock.
var reg struct {
	sync.Mutex
	all []*Protocol
}

// Register adds p; call it from an init function. A name registered twice,
// or a registration that lacks what its transport needs, panics at
// start-up.
func Register(p *Protocol) {
	reg.Lock()
	defer reg.Unlock()
	for _, o := range reg.all {
		if o.Name == p.Name {
			panic("protocols: " + p.Name + " registered twice")
		}
	}
	switch {
	case p.Name == "" || p.Registry == nil || p.Column == "":
		panic(fmt.Sprintf("protocols: %q lacks a name, registry or column", p.Name))
	case p.Transport == TCP && (p.NewConn == nil || p.Detect == nil):
		panic("protocols: TCP protocol " + p.Name + " lacks NewConn or Detect")
	case p.Transport == UDP && (p.Decode == nil || p.Looks == nil):
		panic("protocols: UDP protocol " + p.Name + " lacks Decode or Looks")
	case p.Transport != TCP && p.Transport != UDP:
		panic("protocols: " + p.Name + " has no transport")
	}
	all := append(slices.Clone(reg.all), p)
	// The order of init functions is the import order: sort, so that the
	// routing tries heuristics in an order of the registrations' own.
	slices.SortStableFunc(all, func(a, b *Protocol) int { return strings.Compare(a.Name, b.Name) })
	reg.all = all
}

// All is every registered protocol, by name. The slice is shared: do not
// modify it.
func All() []*Protocol { return reg.all }

// Of is the protocols of transport t, by name.
func Of(t Transport) []*Protocol {
	var out []*Protocol
	for _, p := range All() {
		if p.Transport == t {
			out = append(out, p)
		}
	}
	return out
}

// ByName is the protocol registered as name, or nil.
func ByName(name string) *Protocol {
	for _, p := range All() {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Names is every registered name, sorted.
func Names() []string {
	var out []string
	for _, p := range All() {
		out = append(out, p.Name)
	}
	return out
}

// OfRecord is the first protocol whose registry is proto (a record's
// mc.protocol), or nil.
func OfRecord(proto string) *Protocol {
	for _, p := range All() {
		if p.Registry.Proto == proto {
			return p
		}
	}
	return nil
}

// Column is the summary's Protocol column for a record's mc.protocol:
// the registration's, or the name in capitals (TCP, IP), as tshark writes
// it (ICMPv6).
func Column(proto string) string {
	if p := OfRecord(proto); p != nil {
		return p.Column
	}
	if proto == "icmpv6" {
		return "ICMPv6"
	}
	return strings.ToUpper(proto)
}

// MaxWindow is the longest response window of the UDP protocols.
func MaxWindow() time.Duration {
	var w time.Duration
	for _, p := range All() {
		w = max(w, p.Window)
	}
	return w
}

// Prefs is every preference the protocols take, by name.
func Prefs() []Pref {
	var out []Pref
	for _, p := range All() {
		out = append(out, p.Prefs...)
	}
	slices.SortFunc(out, func(a, b Pref) int { return strings.Compare(a.Name, b.Name) })
	return out
}

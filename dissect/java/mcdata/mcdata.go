// Package mcdata holds the Java Edition protocol definitions of
// minecraft-data (PrismarineJS, MIT licence; see LICENSE and VERSION beside
// this file): every Java version's protocol.json, in ProtoDef form,
// deduplicated across versions and gzip'd into one file,
// minecraft-data.gz, that `go generate` rebuilds from a pinned release on
// the npm registry (gen/). Adding a version is rerunning it with a newer
// release.
//
// Nothing is read at start-up: the file is embedded, and Load inflates it
// once, on first use (the first Java session that reaches the
// configuration or play state, or a look-up of one of its fields). A
// version's definitions are compiled by dissect/java, also once, on first
// use.
//
// # The file
//
// Lines of text, each ending in a newline, so that Load reads only what
// is asked for (JSON is slow to parse: all of it at once took 20 ms, a
// tenth of a summary of 100 MB of play traffic):
//
//	{"release":…,"versions":[{"path":…,"names":[…]},…],"protocols":[…],"fields":F,"defs":D}
//	{"types":{…},"states":{…}}       one line per version, in the header's order
//	name TAB type TAB width TAB label TAB path  F lines: the field table (Blob.Fields)
//	["container",[…]]                D lines: the type definitions (Blob.Defs)
//
// The first lines are compact JSON (which has no raw newline); a
// version's line is parsed when Version.Parse first asks for it, and a
// definition is handed out as the JSON text it is.
package mcdata

//go:generate go run ./gen -release 3.119.0 -out minecraft-data.gz

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"
	"sync"
)

//go:embed minecraft-data.gz
var blobGz []byte

// Blob is the data file's content.
type Blob struct {
	Release string `json:"release"` // the minecraft-data release it was made from
	// Defs are the distinct type definitions (ProtoDef JSON) of every
	// version; versions name theirs by index.
	Defs     []json.RawMessage `json:"-"`
	Versions []*Version        `json:"versions"` // by protocol number, oldest first
	// Protocols names every Netty-era protocol number minecraft-data
	// knows (protocolVersions.json), newest first, including those
	// without a protocol.json of their own.
	Protocols []VersionName `json:"protocols"`
	// Fields are the filter fields of every version's packets, made by
	// the generator (dissect/java.FillFields) so that names and types
	// are known without compiling any version.
	Fields []FieldEntry `json:"-"`

	ageOnce sync.Once
	age     map[string]int // version name -> place in release order (ages)
}

// Version is one protocol.json and the versions that share it.
type Version struct {
	Path  string        `json:"path"`  // "pc/1.21.4"
	Names []VersionName `json:"names"` // the versions that use it, oldest first
	// Types are the global types, name -> index in Blob.Defs.
	Types map[string]int `json:"-"`
	// States are state -> direction ("toClient", "toServer") -> type
	// name -> index in Blob.Defs.
	States map[string]map[string]map[string]int `json:"-"`

	raw  []byte // its line of the file, until Parse reads it
	once sync.Once
	err  error
}

// scopes is a version's line of the file.
type scopes struct {
	Types  map[string]int                       `json:"types"`
	States map[string]map[string]map[string]int `json:"states"`
}

// Parse fills Types and States from the data file, at its first call; a
// Version made otherwise (by the generator) has them already.
func (v *Version) Parse() error {
	v.once.Do(func() {
		if v.raw == nil {
			return
		}
		var s scopes
		if v.err = json.Unmarshal(v.raw, &s); v.err != nil {
			v.err = errors.New("mcdata: " + v.Path + ": " + v.err.Error())
			return
		}
		v.Types, v.States, v.raw = s.Types, s.States, nil
	})
	return v.err
}

// VersionName is a release name and its protocol number.
type VersionName struct {
	Name     string `json:"n"`
	Protocol int    `json:"p"`
}

// FieldEntry is one filter field: name, type ("int", "uint", "bool",
// "float", "string", "bytes", "none"), width in bytes (of the integer or
// float its ProtoDef type reads, 0 for the others), label, and the node
// path it is for ("play.chat.message") when that is not the name without
// "mc.".
type FieldEntry struct {
	Name  string
	Type  string
	Width int
	Label string
	Path  string // the node path, when not Name without "mc."
}

// header is the file's first line.
type header struct {
	*Blob
	NFields int `json:"fields"`
	NDefs   int `json:"defs"`
}

var (
	once sync.Once
	blob *Blob
	err  error
)

// Load returns the data, inflating it and reading its header on the
// first call.
func Load() (*Blob, error) {
	once.Do(func() {
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(bytes.NewReader(blobGz)); err != nil {
			return
		}
		// the gzip trailer's size, to read into one buffer of that size
		// (ReadAll grows one step by step: 3 MB for 1.2)
		var size uint32
		if len(blobGz) >= 4 {
			size = binary.LittleEndian.Uint32(blobGz[len(blobGz)-4:])
		}
		buf := bytes.NewBuffer(make([]byte, 0, min(size, 64<<20)+bytes.MinRead))
		if _, err = buf.ReadFrom(zr); err != nil {
			return
		}
		blob, err = Decode(buf.Bytes())
	})
	return blob, err
}

// Decode reads a data file's text (inflated). The Blob keeps slices of
// raw.
func Decode(raw []byte) (*Blob, error) {
	next := func() ([]byte, bool) {
		i := bytes.IndexByte(raw, '\n')
		if i < 0 {
			return nil, false
		}
		line := raw[:i:i]
		raw = raw[i+1:]
		return line, true
	}
	bad := func(what string) (*Blob, error) {
		return nil, errors.New("mcdata: the data file is cut or damaged: " + what)
	}
	line, ok := next()
	if !ok {
		return bad("no header")
	}
	h := header{Blob: new(Blob)}
	if err := json.Unmarshal(line, &h); err != nil {
		return nil, errors.New("mcdata: header: " + err.Error())
	}
	b := h.Blob
	for _, v := range b.Versions {
		if v.raw, ok = next(); !ok {
			return bad("versions")
		}
	}
	if h.NFields < 0 || h.NDefs < 0 {
		return bad("header")
	}
	// the field table's text, as one string its entries are slices of
	end := 0
	for range h.NFields {
		i := bytes.IndexByte(raw[end:], '\n')
		if i < 0 {
			return bad("fields")
		}
		end += i + 1
	}
	text := string(raw[:end])
	raw = raw[end:]
	b.Fields = make([]FieldEntry, 0, h.NFields)
	for text != "" {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		var e FieldEntry
		var ok1, ok2, ok3 bool
		var width string
		e.Name, line, ok1 = strings.Cut(line, "\t")
		e.Type, line, ok2 = strings.Cut(line, "\t")
		width, line, ok3 = strings.Cut(line, "\t")
		e.Label, e.Path, ok = strings.Cut(line, "\t")
		var err error
		if e.Width, err = strconv.Atoi(width); err != nil || e.Width < 0 || e.Width > 8 || !ok1 || !ok2 || !ok3 || !ok {
			return bad("field " + strconv.Itoa(len(b.Fields)))
		}
		b.Fields = append(b.Fields, e)
	}
	b.Defs = make([]json.RawMessage, h.NDefs)
	for i := range b.Defs {
		if b.Defs[i], ok = next(); !ok {
			return bad("definitions")
		}
	}
	if len(raw) > 0 {
		return bad("bytes after the last definition")
	}
	return b, nil
}

// Encode writes b as a data file's text (Decode reads it back).
func Encode(b *Blob) ([]byte, error) {
	var out bytes.Buffer
	line := func(v any) error {
		j, err := json.Marshal(v)
		if err != nil {
			return err
		}
		out.Write(j)
		out.WriteByte('\n')
		return nil
	}
	if err := line(header{Blob: b, NFields: len(b.Fields), NDefs: len(b.Defs)}); err != nil {
		return nil, err
	}
	for _, v := range b.Versions {
		if err := v.Parse(); err != nil {
			return nil, err
		}
		if err := line(scopes{Types: v.Types, States: v.States}); err != nil {
			return nil, err
		}
	}
	for _, e := range b.Fields {
		for _, s := range []string{e.Name, e.Type, e.Label, e.Path} {
			if strings.ContainsAny(s, "\t\n") {
				return nil, errors.New("mcdata: field " + strconv.Quote(e.Name) + " has a tab or a newline")
			}
		}
		out.WriteString(e.Name + "\t" + e.Type + "\t" + strconv.Itoa(e.Width) + "\t" + e.Label + "\t" + e.Path + "\n")
	}
	for i, d := range b.Defs {
		var c bytes.Buffer
		if err := json.Compact(&c, d); err != nil {
			return nil, errors.New("mcdata: definition " + strconv.Itoa(i) + ": " + err.Error())
		}
		out.Write(c.Bytes())
		out.WriteByte('\n')
	}
	return out.Bytes(), nil
}

// Lookup finds the data for protocol number proto: the version that has
// it, exact; else the nearest version at or below it that the data has,
// in release order, not exact: for a release's number the data with the
// highest number below it (the oldest release when proto is older than
// every version); for a snapshot's (2^30 and up) the first version the
// data has after it in minecraft-data's list of versions, which is in
// release order (a 26.4 snapshot is read with 26.1's data, never with the
// 2021 snapshot 21w07a's). name is the version proto names
// (ProtocolName), or the data's when the list does not know it.
func (b *Blob) Lookup(proto int) (v *Version, name string, exact bool) {
	if v, n := b.exact(proto); v != nil {
		return v, n.Name, true
	}
	if proto >= snapshotBit {
		for _, p := range b.fromSnapshot(proto) {
			if v, n := b.exact(p.Protocol); v != nil {
				return v, b.nameOr(proto, n.Name), false
			}
		}
		v, n := b.newestRelease()
		return v, b.nameOr(proto, n.Name), false
	}
	var best *Version
	var bestName VersionName
	for _, ver := range b.Versions {
		for _, n := range ver.Names {
			if n.Protocol < snapshotBit && n.Protocol <= proto && (best == nil || n.Protocol > bestName.Protocol) {
				best, bestName = ver, n
			}
		}
	}
	if best == nil { // older than everything: the oldest release
		for _, ver := range b.Versions {
			for _, n := range ver.Names {
				if n.Protocol < snapshotBit && (best == nil || n.Protocol < bestName.Protocol) {
					best, bestName = ver, n
				}
			}
		}
	}
	return best, b.nameOr(proto, bestName.Name), false
}

// exact is the version whose data is for protocol number proto.
func (b *Blob) exact(proto int) (*Version, VersionName) {
	for _, ver := range b.Versions {
		for _, n := range ver.Names {
			if n.Protocol == proto {
				return ver, n
			}
		}
	}
	return nil, VersionName{}
}

// newestRelease is the data of the newest release.
func (b *Blob) newestRelease() (*Version, VersionName) {
	vs := b.NewestFirst()
	if len(vs) == 0 {
		return nil, VersionName{}
	}
	n, _ := b.newestName(vs[0], true)
	return vs[0], n
}

func (b *Blob) nameOr(proto int, data string) string {
	if n := b.ProtocolName(proto); n != "" {
		return n
	}
	return data
}

// ProtocolName is the version protocol number proto names in
// minecraft-data's list ("26.4-snapshot-6"; the newest of the releases
// that share a number), "" when the list does not have it.
func (b *Blob) ProtocolName(proto int) string {
	for _, p := range b.Protocols {
		if p.Protocol == proto {
			return p.Name
		}
	}
	return ""
}

// ByName finds the data of a release by its name ("1.20.4").
func (b *Blob) ByName(name string) (*Version, VersionName, bool) {
	for _, ver := range b.Versions {
		for _, n := range ver.Names {
			if n.Name == name {
				return ver, n, true
			}
		}
	}
	return nil, VersionName{}, false
}

// Names lists every version the data has, oldest first, in release order
// (21w07a between 1.16.5 and 1.17).
func (b *Blob) Names() []VersionName {
	var out []VersionName
	for _, ver := range b.Versions {
		out = append(out, ver.Names...)
	}
	sort.SliceStable(out, func(i, j int) bool { return b.newer(out[j], out[i]) })
	return out
}

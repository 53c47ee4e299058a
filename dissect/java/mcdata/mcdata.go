// Package mcdata holds the Java Edition protocol definitions of
// minecraft-data (PrismarineJS, MIT licence; see LICENSE and VERSION beside
// this file): every Java version's protocol.json, in ProtoDef form,
// deduplicated across versions and gzip'd into one file,
// minecraft-data.json.gz, that `go generate` rebuilds from a pinned release
// on the npm registry (gen/). Adding a version is rerunning it with a newer
// release.
//
// Nothing is read at start-up: the file is embedded, and Load inflates and
// parses it once, on first use (the first Java session that reaches the
// configuration or play state, or a look-up of one of its fields). A
// version's definitions are compiled by dissect/java, also once, on first
// use.
package mcdata

//go:generate go run ./gen -release 3.119.0 -out minecraft-data.json.gz

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"io"
	"sort"
	"sync"
)

//go:embed minecraft-data.json.gz
var blobGz []byte

// Blob is the data file's content.
type Blob struct {
	Release string `json:"release"` // the minecraft-data release it was made from
	// Defs are the distinct type definitions (ProtoDef JSON) of every
	// version; versions name theirs by index.
	Defs     []json.RawMessage `json:"defs"`
	Versions []*Version        `json:"versions"` // by protocol number, oldest first
	// Protocols names every Netty-era protocol number minecraft-data
	// knows (protocolVersions.json), newest first, including those
	// without a protocol.json of their own.
	Protocols []VersionName `json:"protocols"`
	// Fields are the filter fields of every version's packets, made by
	// the generator (dissect/java.FillFields) so that names and types
	// are known without compiling any version.
	Fields []FieldEntry `json:"fields"`
}

// Version is one protocol.json and the versions that share it.
type Version struct {
	Path  string        `json:"path"`  // "pc/1.21.4"
	Names []VersionName `json:"names"` // the versions that use it, oldest first
	// Types are the global types, name -> index in Blob.Defs.
	Types map[string]int `json:"types"`
	// States are state -> direction ("toClient", "toServer") -> type
	// name -> index in Blob.Defs.
	States map[string]map[string]map[string]int `json:"states"`
}

// VersionName is a release name and its protocol number.
type VersionName struct {
	Name     string `json:"n"`
	Protocol int    `json:"p"`
}

// FieldEntry is one filter field: name, type ("int", "uint", "bool",
// "float", "string", "bytes", "none"), label, and the node path it is
// for ("play.chat.message") when that is not the name without "mc.".
type FieldEntry struct {
	Name  string `json:"n"`
	Type  string `json:"t"`
	Label string `json:"l"`
	Path  string `json:"p,omitempty"` // the node path, when not Name without "mc."
}

var (
	once sync.Once
	blob *Blob
	err  error
)

// Load returns the data, inflating and parsing it on the first call.
func Load() (*Blob, error) {
	once.Do(func() {
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(bytes.NewReader(blobGz)); err != nil {
			return
		}
		var raw []byte
		if raw, err = io.ReadAll(zr); err != nil {
			return
		}
		b := new(Blob)
		if err = json.Unmarshal(raw, b); err != nil {
			return
		}
		blob = b
	})
	return blob, err
}

// Lookup finds the data for protocol number proto: the version that has
// it, exact; else the closest one below it (the closest above when proto
// is older than every version), not exact. Snapshot numbers (2^30 and up)
// are matched among snapshots first. It returns the release name the
// data is for.
func (b *Blob) Lookup(proto int) (v *Version, name string, exact bool) {
	var best *Version
	var bestName VersionName
	for _, ver := range b.Versions {
		for _, n := range ver.Names {
			if n.Protocol == proto {
				return ver, n.Name, true
			}
			if n.Protocol <= proto && (proto >= 1<<30) == (n.Protocol >= 1<<30) && (best == nil || n.Protocol > bestName.Protocol) {
				best, bestName = ver, n
			}
		}
	}
	if best == nil {
		// older than everything: the oldest release; a snapshot newer than
		// every snapshot: the newest release
		for _, ver := range b.Versions {
			for _, n := range ver.Names {
				if n.Protocol >= 1<<30 {
					continue
				}
				if best == nil || (proto < 1<<30) == (n.Protocol < bestName.Protocol) {
					best, bestName = ver, n
				}
			}
		}
	}
	return best, bestName.Name, false
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

// Names lists every release the data has, oldest first.
func (b *Blob) Names() []VersionName {
	var out []VersionName
	for _, ver := range b.Versions {
		out = append(out, ver.Names...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Protocol < out[j].Protocol })
	return out
}

// Package export writes the files PDUs carry (dissect.Object) to a
// directory, for --export-objects KIND,DIR, as Wireshark's File > Export
// Objects: the kinds are those the protocols register
// (protocols.ObjectKinds), each distinct file is written once.
package export

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"
)

// Exporter writes the objects of one kind.
type Exporter struct {
	kind, dir string
	made      bool
	seen      map[[32]byte]bool // files already written: each distinct one once
}

// New makes the exporter of spec, "KIND,DIR".
func New(spec string) (*Exporter, error) {
	kind, dir, ok := strings.Cut(spec, ",")
	var kinds []string
	for _, k := range protocols.ObjectKinds() {
		if k.Kind == kind && ok && dir != "" {
			return &Exporter{kind: kind, dir: dir, seen: map[[32]byte]bool{}}, nil
		}
		kinds = append(kinds, k.Kind+",DIR")
	}
	return nil, fmt.Errorf("--export-objects %q: want %s", spec, strings.Join(kinds, " or "))
}

// Help is a line per kind of object: its name and what it is.
func Help() []string {
	var out []string
	for _, k := range protocols.ObjectKinds() {
		out = append(out, k.Kind+": "+k.Desc)
	}
	return out
}

// Record writes r's objects of the exporter's kind, named after the
// decoder's name for them, the server and the frame:
// favicon-127.0.0.1_25565-frame12.png.
func (e *Exporter) Record(r *record.Record) error {
	for _, o := range r.PDU.Objects {
		if o.Kind != e.kind {
			continue
		}
		h := sha256.Sum256(o.Data)
		if e.seen[h] {
			continue
		}
		e.seen[h] = true
		if !e.made {
			if err := os.MkdirAll(e.dir, 0o755); err != nil {
				return fmt.Errorf("--export-objects: %v", err)
			}
			e.made = true
		}
		server := r.Src
		if r.PDU.Dir == dissect.DirC2S {
			server = r.Dst
		}
		base := filepath.Base(strings.ReplaceAll(o.Name, "\\", "/"))
		if base == "." || base == "/" || base == ".." {
			base = o.Kind
		}
		ext := filepath.Ext(base)
		name := fmt.Sprintf("%s-%s-frame%d%s", strings.TrimSuffix(base, ext), server, r.Frame, ext)
		if err := os.WriteFile(filepath.Join(e.dir, fileSafe(name)), o.Data, 0o644); err != nil {
			return fmt.Errorf("--export-objects: %v", err)
		}
	}
	return nil
}

// fileSafe replaces what a file name must not hold (an IPv6 address's
// colons and brackets among them).
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ':', '/', '\\', '[', ']', ' ':
			return '_'
		}
		return r
	}, s)
}

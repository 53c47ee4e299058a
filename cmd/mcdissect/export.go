package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/classic"
	"github.com/mcdissect/mcdissect/record"
)

// exportKinds are what --export-objects KIND,DIR writes.
var exportKinds = map[string]string{
	"level":   "each Classic level's blocks (.bin) and a top-down map of it (.png)",
	"favicon": "each distinct SLP server favicon, as the PNG it is",
}

// exporter implements --export-objects KIND,DIR: each object of that kind
// a PDU carries is written to DIR, under a name made safe to be a file
// name.
type exporter struct {
	kind, dir string
	made      bool
	seen      map[[32]byte]bool // favicons already written: each distinct one once
}

func newExporter(spec string) *exporter {
	kind, dir, _ := strings.Cut(spec, ",")
	return &exporter{kind: kind, dir: dir, seen: map[[32]byte]bool{}}
}

func (e *exporter) add(r *record.Record) error {
	for _, o := range r.PDU.Objects {
		if o.Kind != e.kind {
			continue
		}
		if !e.made {
			if err := os.MkdirAll(e.dir, 0o755); err != nil {
				return fmt.Errorf("--export-objects: %v", err)
			}
			e.made = true
		}
		switch o.Kind {
		case "favicon":
			h := sha256.Sum256(o.Data)
			if e.seen[h] {
				continue
			}
			e.seen[h] = true
			server := r.Src
			if r.PDU.Dir == dissect.DirC2S {
				server = r.Dst
			}
			name := fmt.Sprintf("favicon-%s-frame%d.png", fileSafe(server.String()), r.Frame)
			if err := e.write(name, o.Data); err != nil {
				return err
			}
		case "level":
			name := filepath.Base(strings.ReplaceAll(o.Name, "\\", "/"))
			if name == "." || name == "/" || name == ".." {
				name = fmt.Sprintf("%s-%d.bin", o.Kind, r.Frame)
			}
			if err := e.write(name, o.Data); err != nil {
				return err
			}
			if o.Dims[0] > 0 && o.Dims[2] > 0 {
				var b bytes.Buffer
				if err := png.Encode(&b, classic.LevelMap(o.Data, o.Dims[0], o.Dims[1], o.Dims[2], 0)); err != nil {
					return fmt.Errorf("--export-objects: %v", err)
				}
				if err := e.write(strings.TrimSuffix(name, ".bin")+".png", b.Bytes()); err != nil {
					return err
				}
			}
		default:
			if err := e.write(fmt.Sprintf("%s-%d.bin", o.Kind, r.Frame), o.Data); err != nil {
				return err
			}
		}
	}
	return nil
}

func (e *exporter) write(name string, data []byte) error {
	if err := os.WriteFile(filepath.Join(e.dir, name), data, 0o644); err != nil {
		return fmt.Errorf("--export-objects: %v", err)
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

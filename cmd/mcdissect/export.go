package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcdissect/mcdissect/analyze"
)

// exporter implements --export-objects level,DIR: each object a PDU carries
// is written to DIR under its own name, made safe to be a file name.
type exporter struct {
	kind, dir string
	made      bool
}

func newExporter(spec string) *exporter {
	kind, dir, _ := strings.Cut(spec, ",")
	return &exporter{kind: kind, dir: dir}
}

func (e *exporter) add(r *analyze.Record) error {
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
		name := filepath.Base(strings.ReplaceAll(o.Name, "\\", "/"))
		if name == "." || name == "/" || name == ".." {
			name = fmt.Sprintf("%s-%d.bin", o.Kind, r.Frame)
		}
		if err := os.WriteFile(filepath.Join(e.dir, name), o.Data, 0o644); err != nil {
			return fmt.Errorf("--export-objects: %v", err)
		}
	}
	return nil
}

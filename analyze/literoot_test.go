package analyze

import (
	"path/filepath"
	"testing"

	"github.com/mcdissect/mcdissect/record"
)

// In Lite mode decoders write through the index AddNode answers, the
// root's (a child's flags, text, key or value): the pipeline settles the
// root, so no Lite record's root carries any of it. Every sample is run.
func TestLiteRootsUntouched(t *testing.T) {
	files, _ := filepath.Glob("../samples/*.pcap")
	if len(files) == 0 {
		t.Fatal("no samples")
	}
	for _, path := range files {
		a := New(Options{Lite: true}, SinkFunc(func(r *record.Record) error {
			if len(r.PDU.Nodes) != 1 {
				t.Errorf("%s frame %d: %d nodes", path, r.Frame, len(r.PDU.Nodes))
				return nil
			}
			n := &r.PDU.Nodes[0]
			if n.Flags != 0 || n.Text != "" || n.Key != "" || n.Value.N != 0 || len(n.Value.B) != 0 || n.Parent != -1 || n.Offset != 0 || int(n.Length) != len(r.PDU.Data) {
				t.Errorf("%s frame %d (%s): root %s flags %b text %q key %q value %d/%q at %d+%d of %d", path, r.Frame, r.PDU.Message,
					n.Field.Name, n.Flags, n.Text, n.Key, n.Value.N, n.Value.B, n.Offset, n.Length, len(r.PDU.Data))
			}
			return nil
		}))
		if _, err := Run(fileSource(t, path), a); err != nil {
			t.Fatal(err)
		}
	}
}

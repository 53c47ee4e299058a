package save

import (
	"bytes"
	"io"
	"path/filepath"
	"testing"

	"github.com/mcdissect/mcdissect/capture"
	"github.com/mcdissect/mcdissect/capture/ringbuf"
	"github.com/mcdissect/mcdissect/record"
)

const sample = "../../samples/query-full.pcap"

// packets reads every packet of a capture file.
func packets(t *testing.T, path string) [][]byte {
	t.Helper()
	src, err := capture.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var out [][]byte
	for {
		p, err := src.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, append([]byte(nil), p.Data...))
	}
}

// TestTee: without -Y every packet read is written, in order.
func TestTee(t *testing.T) {
	out := filepath.Join(t.TempDir(), "all.pcapng")
	w, err := Open(out, false, sample, ringbuf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	src, err := capture.OpenFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	in := w.Tee(src)
	for {
		if _, err := in.Next(); err != nil {
			break
		}
	}
	src.Close()
	w.Record(&record.Record{Frame: 1}) // not filtered: nothing more is written
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want, got := packets(t, sample), packets(t, out)
	if len(got) != len(want) {
		t.Fatalf("%d packets written of %d", len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("packet %d differs", i+1)
		}
	}
}

// TestRecord: with -Y the frames of the records kept, and of their parts,
// are copied from the input, once each and in the input's order.
func TestRecord(t *testing.T) {
	out := filepath.Join(t.TempDir(), "kept.pcapng")
	w, err := Open(out, true, sample, ringbuf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	src, err := capture.OpenFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	if w.Tee(src) != src {
		t.Error("with -Y the source writes what it reads")
	}
	src.Close()
	w.Record(&record.Record{Frame: 4, Parts: []record.Part{{Frame: 2}, {Frame: 4}}})
	w.Record(&record.Record{Frame: 1})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	all, got := packets(t, sample), packets(t, out)
	if len(got) != 3 || !bytes.Equal(got[0], all[0]) || !bytes.Equal(got[1], all[1]) || !bytes.Equal(got[2], all[3]) {
		t.Errorf("%d packets kept, want frames 1, 2 and 4", len(got))
	}
}

// TestErrors: a file that cannot be made, and an input that cannot be
// read again, are errors naming -w.
func TestErrors(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "no", "x.pcapng"), false, "", ringbuf.Options{}); err == nil || err.Error()[:4] != "-w: " {
		t.Errorf("Open: %v", err)
	}
	out := filepath.Join(t.TempDir(), "x.pcapng")
	w, err := Open(out, true, filepath.Join(t.TempDir(), "gone.pcap"), ringbuf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err == nil || err.Error()[:len("-w "+out)] != "-w "+out {
		t.Errorf("Close: %v", err)
	}
}

package mcdata

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

func inflated(t *testing.T) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(blobGz))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestRoundTrip: the data file decodes, every version's line parses, and
// encoding what was decoded gives the file's text back.
func TestRoundTrip(t *testing.T) {
	raw := inflated(t)
	b, err := Decode(bytes.Clone(raw))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Versions) == 0 || len(b.Defs) == 0 || len(b.Fields) == 0 || len(b.Protocols) == 0 || b.Release == "" {
		t.Fatalf("release %q, %d versions, %d definitions, %d fields, %d protocols", b.Release, len(b.Versions), len(b.Defs), len(b.Fields), len(b.Protocols))
	}
	for _, v := range b.Versions {
		if err := v.Parse(); err != nil {
			t.Fatal(err)
		}
		if len(v.Types) == 0 || len(v.Names) == 0 {
			t.Errorf("%s: %d types, %d names", v.Path, len(v.Types), len(v.Names))
		}
	}
	again, err := Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, raw) {
		t.Error("Encode(Decode(file)) differs from the file")
	}
}

// TestDecodeCut: a data file cut at any line, or with a line too many, is
// an error, not a panic or a short table.
func TestDecodeCut(t *testing.T) {
	raw := inflated(t)
	n := 0
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\n' {
			continue
		}
		n++
		// every 50th line, and the first ten: a cut there (the
		// newline kept or not) must fail
		if n > 10 && n%50 != 0 {
			continue
		}
		for _, cut := range [][]byte{raw[:i], raw[:i+1]} {
			if i+1 == len(raw) && len(cut) == len(raw) {
				continue
			}
			if _, err := Decode(bytes.Clone(cut)); err == nil {
				t.Fatalf("cut after %d bytes (line %d): no error", len(cut), n)
			}
		}
	}
	if _, err := Decode(append(bytes.Clone(raw), "[]\n"...)); err == nil {
		t.Error("a line after the last definition: no error")
	}
}

// TestEncodeRefusesTabs: a field whose text has a tab or a newline would
// break the table's lines.
func TestEncodeRefusesTabs(t *testing.T) {
	for _, e := range []FieldEntry{{Name: "mc.a\tb", Type: "int"}, {Name: "mc.a", Type: "int", Label: "x\ny"}} {
		if _, err := Encode(&Blob{Fields: []FieldEntry{e}}); err == nil {
			t.Errorf("%q: no error", e)
		}
	}
}

// BenchmarkDecode: what Load costs but for the inflation, and a version's
// tables.
func BenchmarkDecode(b *testing.B) {
	zr, _ := gzip.NewReader(bytes.NewReader(blobGz))
	raw, _ := io.ReadAll(zr)
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		d, err := Decode(raw)
		if err != nil {
			b.Fatal(err)
		}
		v, _, _ := d.Lookup(767)
		if err := v.Parse(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInflate: the rest of what Load costs.
func BenchmarkInflate(b *testing.B) {
	for b.Loop() {
		zr, _ := gzip.NewReader(bytes.NewReader(blobGz))
		if _, err := io.ReadAll(zr); err != nil {
			b.Fatal(err)
		}
	}
}

// TestNewestFirst: releases first, newest first (26.1, then 1.21.11),
// the snapshots' and pre-releases' data after every release's.
func TestNewestFirst(t *testing.T) {
	b, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	vs := b.NewestFirst()
	if len(vs) != len(b.Versions) || vs[0].Path != "pc/26.1" || vs[1].Path != "pc/1.21.11" {
		t.Fatalf("%d versions, first %s, %s", len(vs), vs[0].Path, vs[1].Path)
	}
	release := true
	for _, v := range vs {
		rel := false
		for _, n := range v.Names {
			rel = rel || IsRelease(n.Name)
		}
		if rel && !release {
			t.Errorf("%s (a release's data) after a snapshot's", v.Path)
		}
		release = rel
	}
	for name, want := range map[string]bool{"1.20.4": true, "26.1": true, "26.1.2": true, "21w07a": false, "1.16-rc1": false, "26.4-snapshot-6": false, "1.9.1-pre2": false, "1.": false, "": false} {
		if IsRelease(name) != want {
			t.Errorf("IsRelease(%q) = %v", name, !want)
		}
	}
}

// TestLookup: a number the data has is read with its own data; a
// snapshot's the data lacks with the nearest version at or below it in
// release order (never 21w07a for a 2026 snapshot); a release's with the
// highest below it.
func TestLookup(t *testing.T) {
	b, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		proto      int
		path, name string
		exact      bool
	}{
		{765, "pc/1.20.3", "1.20.3", true},
		{775, "pc/26.1", "26.1", true},
		{0x40000000 + 15, "pc/21w07a", "21w07a", true},
		{0x40000158, "pc/26.1", "26.4-snapshot-6", false}, // 26.4-snapshot-6
		{0x40000200, "pc/26.1", "26.1", false},            // newer than the list
		{0x40000000 + 16, "pc/21w07a", "21w08a", false},   // a week after 21w07a
		{1073742097, "pc/1.21.9", "25w41a", false},        // after 1.21.10 (773)
		{1073741988, "pc/1.20.2", "1.20.3-pre1", false},   // before 1.20.3
		{777, "pc/26.1", "26.3", false},
		{485, "pc/1.14.1", "1.14.2", false},
		{3, "pc/1.7", "1.7.1-pre", false}, // older than every version
	} {
		v, name, exact := b.Lookup(c.proto)
		if v == nil || v.Path != c.path || exact != c.exact || name != c.name {
			path := ""
			if v != nil {
				path = v.Path
			}
			t.Errorf("Lookup(%d) = %s %q %v, want %s %q %v", c.proto, path, name, exact, c.path, c.name, c.exact)
		}
	}
	names := b.Names()
	for i, n := range names {
		if n.Name == "21w07a" && (i == 0 || i == len(names)-1 || names[i-1].Name != "1.16.5" || names[i+1].Name != "1.17") {
			t.Errorf("Names puts 21w07a at %d of %d, want between 1.16.5 and 1.17", i, len(names))
		}
	}
	if last := names[len(names)-1].Name; last != "26.1" {
		t.Errorf("Names ends with %s, want 26.1", last)
	}
}

// TestReleaseAtOrBelow: a snapshot's number stands for the release before
// it in release order, so that what changed with releases (1.20.2's
// configuration state) is decided as for that release.
func TestReleaseAtOrBelow(t *testing.T) {
	b, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for proto, want := range map[int]int{
		765:             765,
		47:              47,
		0x40000000 + 15: 754, // 21w07a, a 1.17 snapshot: 1.16.5
		0x40000000 + 16: 754, // 21w08a
		0x40000158:      777, // 26.4-snapshot-6: 26.3, the list's release before it
		0x40000200:      777, // newer than the list: its newest release
		1073741988:      764, // 1.20.3-pre1: 1.20.2
	} {
		if got := b.ReleaseAtOrBelow(proto); got != want {
			t.Errorf("ReleaseAtOrBelow(%#x) = %d, want %d", proto, got, want)
		}
	}
}

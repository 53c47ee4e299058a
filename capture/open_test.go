package capture

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenSize: the size Open reports, which decides huge pages and
// whether output may wait, is a capture file's, named or on standard
// input, and -1 for a stream.
func TestOpenSize(t *testing.T) {
	const sample = "../samples/query-full.pcap"
	fi, err := os.Stat(sample)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(sample)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases := []struct {
		name, read string
		stdin      io.Reader
		want       int64
	}{
		{"file", sample, nil, fi.Size()},
		{"stdin file", "-", f, fi.Size()},
		{"stdin stream", "-", bytes.NewReader(data), -1},
	}
	for _, tc := range cases {
		src, size, err := Open(tc.read, tc.stdin)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		src.Close()
		if size != tc.want {
			t.Errorf("%s: size %d, want %d", tc.name, size, tc.want)
		}
	}
}

// TestOpenErrors: each error names the input.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		stdin io.Reader
		want  string
	}{
		{dir, nil, "is a directory (folder), not a file"},
		{filepath.Join(dir, "none.pcap"), nil, "cannot read " + filepath.Join(dir, "none.pcap") + ": no such file or directory"},
		{"-", strings.NewReader("not a capture, not at all"), "standard input: not a pcap or pcapng capture"},
	} {
		if _, size, err := Open(tc.name, tc.stdin); err == nil || !strings.Contains(err.Error(), tc.want) || size != -1 {
			t.Errorf("%s: %v (size %d), want %q", tc.name, err, size, tc.want)
		}
	}
}

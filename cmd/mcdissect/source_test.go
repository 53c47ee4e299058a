package main

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// TestOpenSourceSize: the size openSource reports, which decides huge
// pages (memory.ForFile) and whether output may wait, is a capture file's,
// named or on standard input, and -1 for a stream.
func TestOpenSourceSize(t *testing.T) {
	const sample = "../../samples/query-full.pcap"
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
		name  string
		c     config
		stdin io.Reader
		want  int64
	}{
		{"file", config{read: sample}, nil, fi.Size()},
		{"stdin file", config{read: "-"}, f, fi.Size()},
		{"stdin stream", config{read: "-"}, bytes.NewReader(data), -1},
	}
	for _, tc := range cases {
		_, closeSrc, size, err := tc.c.openSource(tc.stdin, io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		closeSrc()
		if size != tc.want {
			t.Errorf("%s: size %d, want %d", tc.name, size, tc.want)
		}
	}
}

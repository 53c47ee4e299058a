package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInputBytes: only a capture file's size counts towards huge pages; a
// live interface, a pipe or a missing file count as 0.
func TestInputBytes(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.pcap")
	if err := os.WriteFile(big, make([]byte, hugePagesFrom), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(big)
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
		{"file", config{read: big}, nil, hugePagesFrom},
		{"sample", config{read: "../../samples/query-full.pcap"}, nil, -1},
		{"stdin file", config{read: "-"}, f, hugePagesFrom},
		{"stdin reader", config{read: "-"}, strings.NewReader("x"), 0},
		{"live", config{iface: "lo", read: big}, nil, 0},
		{"missing", config{read: filepath.Join(dir, "none")}, nil, 0},
	}
	for _, tc := range cases {
		got := tc.c.inputBytes(tc.stdin)
		if tc.want < 0 {
			if got <= 0 || got >= hugePagesFrom {
				t.Errorf("%s: %d bytes, want a small size", tc.name, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("%s: %d bytes, want %d", tc.name, got, tc.want)
		}
	}
}

package capture

import (
	"fmt"
	"strings"
	"testing"
)

// TestWriteInterfaces: a line per interface, numbered from 1, with its
// description in parentheses when it has one.
func TestWriteInterfaces(t *testing.T) {
	list, err := Interfaces()
	if err != nil {
		t.Skip(err)
	}
	var b strings.Builder
	if err := WriteInterfaces(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != len(list) {
		t.Fatalf("%d lines for %d interfaces:\n%s", len(lines), len(list), b.String())
	}
	for i, it := range list {
		want := fmt.Sprintf("%d. %s", i+1, it.Name)
		if it.Description != "" {
			want += " (" + it.Description + ")"
		}
		if lines[i] != want {
			t.Errorf("line %d: %q, want %q", i+1, lines[i], want)
		}
	}
}

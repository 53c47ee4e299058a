// Package dissecttest holds what the protocol packages' tests share: the
// golden-file comparison behind `go test ./... -update`.
package dissecttest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Golden compares got with the file at path, or rewrites the file when
// update is set (the -update flag of the calling package). A difference
// is reported at its first differing line, where a reader of the diff
// should start.
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("%s differs at line %d (go test -update rewrites it; read the diff first):\n got: %s\nwant: %s", path, i+1, g, w)
		}
	}
}

// Package dissecttest holds what the protocol packages' tests share: the
// golden-file comparison behind `MCDISSECT_UPDATE=1 go test ./...`.
package dissecttest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// UpdateEnv, set to 1, rewrites every golden file of every package:
// `MCDISSECT_UPDATE=1 go test ./...`. A flag cannot do that, as go test
// hands it to every test binary and the packages without goldens do not
// define it; the packages with goldens keep their -update flag too.
const UpdateEnv = "MCDISSECT_UPDATE"

// Golden compares got with the file at path, or rewrites the file when
// update is set (the -update flag of the calling package) or UpdateEnv is. A difference
// is reported at its first differing line, where a reader of the diff
// should start.
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update || os.Getenv(UpdateEnv) == "1" {
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
		t.Fatalf("%v (MCDISSECT_UPDATE=1 go test creates it)", err)
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
			t.Fatalf("%s differs at line %d (MCDISSECT_UPDATE=1 go test rewrites it; read the diff first):\n got: %s\nwant: %s", path, i+1, g, w)
		}
	}
}

package term

import (
	"bytes"
	"os"
	"runtime"
	"testing"
)

// TestNotTerminal: a regular file, a character device that is no terminal
// (/dev/null, on Linux) and a buffer are not terminals.
func TestNotTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if Is(f) {
		t.Error("a regular file taken for a terminal")
	}
	if Is(&bytes.Buffer{}) {
		t.Error("a buffer taken for a terminal")
	}
	if null, err := os.Open(os.DevNull); err == nil {
		defer null.Close()
		if Is(null) && runtime.GOOS == "linux" {
			t.Error("/dev/null taken for a terminal")
		}
	}
}

// TestColour: always and never whatever NO_COLOR says; auto on a file
// (no terminal) is off.
func TestColour(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, c := range []struct {
		when, noColor string
		want          bool
	}{
		{"always", "", true}, {"always", "1", true}, {"never", "", false}, {"auto", "", false}, {"auto", "1", false},
	} {
		t.Setenv("NO_COLOR", c.noColor)
		if got := Colour(c.when, f); got != c.want {
			t.Errorf("--color=%s NO_COLOR=%q on a file: %v", c.when, c.noColor, got)
		}
	}
}

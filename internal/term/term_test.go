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

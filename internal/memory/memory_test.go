package memory

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSamplesBelowHugePages: the sample captures the tests run on are
// below HugePagesFrom, so that a test run does not ask for huge pages.
func TestSamplesBelowHugePages(t *testing.T) {
	files, _ := filepath.Glob("../../samples/*.pcap*")
	if len(files) == 0 {
		t.Skip("no samples")
	}
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.Size() >= HugePagesFrom {
			t.Errorf("%s is %d bytes: a run on it asks for huge pages", f, fi.Size())
		}
	}
}

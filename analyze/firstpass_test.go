package analyze

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/record"
)

// TestFirstPass: FirstPass's Later gives the second pass what the test's
// own two passes give (twopass_test.go), on a sample where requests are
// given up on (a single pass shows otherwise); a file that cannot be read
// gives a sealed, empty Later.
func TestFirstPass(t *testing.T) {
	const path = "../samples/slp-status-concurrent.pcap"
	opts := Options{MaxHeld: 1}
	want, _ := twoPass(t, path, opts, true)
	single := runLines(t, path, opts, true)
	opts.OnFrame = func(record.FrameInfo) { t.Error("the first pass calls OnFrame") }
	opts.Later = FirstPass(path, opts)
	opts.OnFrame = nil
	got := runLines(t, path, opts, true)
	diffLines(t, "second pass", got, want)
	if slices.Equal(got, single) {
		t.Error("the second pass shows what a single pass shows: nothing to test")
	}

	later := FirstPass(filepath.Join(t.TempDir(), "none.pcap"), opts)
	if _, ok := later.LookupEnd(1, 0, time.Time{}); ok {
		t.Error("a Later from nothing finds something")
	}
}

package memory

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
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

// TestLimitFollowsLiveHeap: a live heap the budget is not charged raises
// the soft limit after the next collection, so that the collector keeps
// liveRoom to work in, and its going lowers the limit again.
func TestLimitFollowsLiveHeap(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOMEMLIMIT is set: the user's limit wins")
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	Init(false)
	live := make([]byte, 48<<20)
	want := min(int64(len(live))+liveRoom, liveMax)
	for i := range live {
		live[i] = byte(i)
	}
	waitLimit := func(ok func(int64) bool) int64 {
		var l int64
		for range 100 {
			runtime.GC()
			time.Sleep(10 * time.Millisecond) // the cleanup runs on a goroutine of its own
			if l = debug.SetMemoryLimit(-1); ok(l) {
				break
			}
		}
		return l
	}
	if l := waitLimit(func(l int64) bool { return l >= want }); l < want || l > liveMax {
		t.Fatalf("soft limit %d MB with %d MB live: want %d to %d MB", l>>20, len(live)>>20, want>>20, liveMax>>20)
	}
	runtime.KeepAlive(live)
	live = nil
	if l := waitLimit(func(l int64) bool { return l < softLimit+liveRoom }); l >= softLimit+liveRoom {
		t.Fatalf("soft limit %d MB once the live heap went: want it back under %d MB", l>>20, (softLimit+liveRoom)>>20)
	}
}

package analyze

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/budget"
	"github.com/mcdissect/mcdissect/dissect"
)

// twoPass runs path twice with opts, the first pass noting in a Later how
// the requests given up on ended, the second showing it (-2).
func twoPass(t *testing.T, path string, opts Options, tree bool) ([]string, *dissect.Later) {
	t.Helper()
	later := new(dissect.Later)
	opts.Later = later
	runLines(t, path, opts, tree)
	later.Seal()
	return runLines(t, path, opts, tree), later
}

// TestTwoPassIsAsIfItWaited: with -2, a run that must give up on requests
// (MaxHeld of 1 and 2: every request with anything between it and its
// response) shows each of them as a run that holds everything back does:
// the same trees, "Response in frame" and "no response" items included,
// and no "unlinked" note. A single pass with the same bound says
// "unlinked" instead, so the comparison has something to find. Every
// sample; the records come out in the same order, unsorted.
func TestTwoPassIsAsIfItWaited(t *testing.T) {
	paths, _ := filepath.Glob("../samples/*.pcap")
	if len(paths) == 0 {
		t.Fatal("no sample captures")
	}
	unlinked := 0 // notes of the single passes: the test must have cases
	recorded := 0
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			waited := runLines(t, path, Options{MaxHeld: 1 << 30, Budget: budget.New(1 << 40)}, true)
			for _, held := range []int{1, 2} {
				what := fmt.Sprintf("MaxHeld %d", held)
				o := Options{MaxHeld: held}
				one := runLines(t, path, o, true)
				for _, l := range one {
					unlinked += strings.Count(l, ".response.unlinked")
				}
				two, later := twoPass(t, path, o, true)
				recorded += later.Len()
				for _, l := range two {
					if strings.Contains(l, ".response.unlinked") {
						t.Errorf("%s: a note that the second pass should have resolved:\n%s", what, l)
						break
					}
				}
				diffLines(t, what, two, waited)
			}
		})
	}
	if unlinked == 0 || recorded == 0 {
		t.Fatalf("no sample gave a request up (%d unlinked notes, %d recorded): the test tests nothing", unlinked, recorded)
	}
}

func TestLaterLookup(t *testing.T) {
	var l dissect.Later
	l.Record(7, 0, 12)
	if _, ok := l.Lookup(7, 0); ok {
		t.Error("Lookup answered before Seal")
	}
	l.Record(3, 1, dissect.NoResponse)
	l.Record(3, 3, 9)
	l.Record(5, 3, 10)
	l.Record(5, 3, 11) // two pings in one frame: not told apart
	l.Seal()
	l.Record(8, 0, 1) // after Seal: ignored
	for _, c := range []struct {
		frame uint64
		kind  uint8
		resp  uint64
		ok    bool
	}{{7, 0, 12, true}, {3, 1, dissect.NoResponse, true}, {3, 3, 9, true}, {5, 3, 0, false}, {8, 0, 0, false}, {3, 2, 0, false}} {
		resp, ok := l.Lookup(c.frame, c.kind)
		if resp != c.resp || ok != c.ok {
			t.Errorf("Lookup(%d, %d) = %d, %v; want %d, %v", c.frame, c.kind, resp, ok, c.resp, c.ok)
		}
	}
	var none *dissect.Later
	none.Record(1, 0, 2)
	if _, ok := none.Lookup(1, 0); ok || none.Len() != 0 {
		t.Error("a nil Later answered")
	}
}

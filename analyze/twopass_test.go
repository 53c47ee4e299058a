package analyze

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
			waited := runLines(t, path, Options{MaxHeld: 1 << 30, Budget: budget.New(1 << 40), HoldWindow: 1 << 62}, true)
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

// TestLaterLookup: what RecordEnd notes, LookupEnd gives back once
// sealed, whole: outcome, frame, who, texts and the time from the request.
func TestLaterLookup(t *testing.T) {
	var l dissect.Later
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	answered := dissect.End{Outcome: dissect.Answered, Frame: 12, Time: at(5)}
	l.RecordEnd(7, 0, answered, t0)
	if _, ok := l.LookupEnd(7, 0, t0); ok {
		t.Error("LookupEnd answered before Seal")
	}
	missing := dissect.End{Outcome: dissect.Unanswered, Why: "no response seen within 5s"}
	closed := dissect.End{Outcome: dissect.Closed, Frame: 9, Time: at(1), By: dissect.DirS2C, Via: "FIN"}
	l.RecordEnd(3, 1, missing, t0)
	l.RecordEnd(3, 3, closed, t0)
	l.RecordEnd(5, 3, answered, t0)
	l.RecordEnd(5, 3, answered, t0) // two pings in one frame: not told apart
	l.Seal()
	l.RecordEnd(8, 0, answered, t0) // after Seal: ignored
	for _, c := range []struct {
		frame uint64
		kind  uint8
		want  dissect.End
		ok    bool
	}{{7, 0, answered, true}, {3, 1, missing, true}, {3, 3, closed, true}, {5, 3, dissect.End{}, false}, {8, 0, dissect.End{}, false}, {3, 2, dissect.End{}, false}} {
		got, ok := l.LookupEnd(c.frame, c.kind, t0)
		if ok != c.ok || got.Outcome != c.want.Outcome || got.Frame != c.want.Frame || !got.Time.Equal(c.want.Time) || got.By != c.want.By || got.Via != c.want.Via || got.Why != c.want.Why {
			t.Errorf("LookupEnd(%d, %d) = %+v, %v; want %+v, %v", c.frame, c.kind, got, ok, c.want, c.ok)
		}
	}
	var none *dissect.Later
	none.RecordEnd(1, 0, answered, t0)
	if _, ok := none.LookupEnd(1, 0, t0); ok || none.Len() != 0 {
		t.Error("a nil Later answered")
	}
}

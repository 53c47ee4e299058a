package analyze

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// A panic in a decoder becomes a malformed record naming the frame, the
// protocol and the panic, and the run goes on.
func TestPanicBoundary(t *testing.T) {
	path := mixedCapture(t, 3)
	want := runLines(t, path, Options{}, true)
	// Panic on the decoding of a record of each protocol, halfway through.
	victims := map[string]uint64{}
	for _, l := range want {
		f := strings.Fields(l)
		if len(f) < 5 {
			continue
		}
		if proto := f[4]; victims[proto] == 0 && len(victims) < 3 && proto != "tcp" {
			victims[proto] = 0
		}
	}
	seen := map[string]int{}
	for _, l := range want[len(want)/2:] {
		f := strings.Fields(l)
		if len(f) < 5 {
			continue
		}
		if _, ok := victims[f[4]]; ok && seen[f[4]] == 0 && strings.Contains(l, "kind=0") {
			seen[f[4]]++
			var fr uint64
			for _, c := range f[0] {
				fr = fr*10 + uint64(c-'0')
			}
			victims[f[4]] = fr
		}
	}
	if len(victims) < 2 {
		t.Fatalf("want records of two protocols at least, got %v", victims)
	}
	testPanic = func(r *record.Record) {
		if fr, ok := victims[r.Proto]; ok && r.Frame == fr && r.Kind == record.KindPDU {
			panic("injected in " + r.Proto)
		}
	}
	defer func() { testPanic = nil }()

	check := func(t *testing.T, got []string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%d records, want %d: the run did not go on", len(got), len(want))
		}
		panics := 0
		for i, l := range got {
			if !strings.Contains(l, "mc.panic") {
				continue
			}
			panics++
			f := strings.Fields(l)
			proto := f[4]
			if fr := victims[proto]; !strings.HasPrefix(l, itoa64(int64(fr))+" ") {
				t.Errorf("a panic record on the wrong frame: %s", l)
			}
			for _, s := range []string{"frame " + strings.Fields(l)[0] + ": the " + proto + " decoder panicked (injected in " + proto + ")", "Malformed", "[malformed]"} {
				if s != "[malformed]" && !strings.Contains(l, s) {
					t.Errorf("panic record lacks %q: %s", s, l)
				}
			}
			if !strings.Contains(l, "mc.undissected") {
				t.Errorf("panic record does not show its bytes: %s", l)
			}
			if !strings.Contains(want[i], "kind=0") || strings.Fields(want[i])[0] != f[0] {
				t.Errorf("record %d: %s in place of %s", i, l, want[i])
			}
		}
		if panics != len(victims) {
			t.Errorf("%d panic records, want %d (%v)", panics, len(victims), victims)
		}
		// Every record but the victims is as without the panic (its
		// summary: a response's tree lacks the link to a request lost).
		for i := range got {
			g, _, _ := strings.Cut(got[i], "\n")
			w, _, _ := strings.Cut(want[i], "\n")
			if !strings.Contains(got[i], "mc.panic") && g != w {
				t.Errorf("record %d differs:\n got %s\nwant %s", i, got[i], want[i])
				break
			}
		}
	}
	t.Run("records", func(t *testing.T) { check(t, runLines(t, path, Options{}, true)) })
	t.Run("counted", func(t *testing.T) {
		a := New(Options{}, SinkFunc(func(*record.Record) error { return nil }))
		if _, err := Run(fileSource(t, path), a); err != nil {
			t.Fatal(err)
		}
		if got := a.Stats().Panics; got != uint64(len(victims)) {
			t.Errorf("Stats().Panics = %d, want %d", got, len(victims))
		}
	})
	// The panic's expert item is an error.
	a := New(Options{}, SinkFunc(func(r *record.Record) error {
		for _, e := range r.PDU.Experts {
			if e.Info == record.ExpertPanic && e.Info.Severity != dissect.SevError {
				t.Errorf("mc.panic is %v, want error", e.Info.Severity)
			}
		}
		return nil
	}))
	if _, err := Run(fileSource(t, filepath.Clean(path)), a); err != nil {
		t.Fatal(err)
	}
}

// Housekeeping that makes no record (a connection's close, a tracker's
// expiry) runs behind the boundary too: a panic is counted, not fatal.
func TestSafelyCounts(t *testing.T) {
	a := &backEnd{}
	ran := false
	a.safely(func() { panic("in Close") })
	a.safely(func() { ran = true })
	if a.panics != 1 || !ran {
		t.Errorf("panics %d, second call ran %v; want 1, true", a.panics, ran)
	}
}

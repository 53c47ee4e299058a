package analyze

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/internal/capgen"
	"github.com/mcdissect/mcdissect/record"
)

// hostileCapture writes a capture with write and returns its path.
func hostileCapture(t *testing.T, write func(w *capgen.Writer)) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := capgen.New(&buf)
	if err != nil {
		t.Fatal(err)
	}
	write(w)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "hostile.pcap")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// everything is all a record holds that an output may show, lower case.
func everything(r *record.Record) string {
	var b strings.Builder
	for _, p := range []*dissect.PDU{r.Layers(), &r.PDU} {
		b.Write(p.Data)
		for i := range p.Nodes {
			n := &p.Nodes[i]
			fmt.Fprintf(&b, "\n%s %s %s", n.Value.B, n.Text, n.Key)
		}
		fmt.Fprintf(&b, "\n%s %s", p.Info, p.Message)
		for _, e := range p.Experts {
			b.WriteString("\n" + e.Msg)
		}
		for _, o := range p.Objects {
			b.WriteString("\n" + o.Name + " ")
			b.Write(o.Data)
		}
	}
	b.WriteString("\n" + r.Reason)
	return strings.ToLower(b.String())
}

// redactRun runs path with --redact and the set secrets (a new one when
// nil) and returns each record's everything, and the analyzer.
func redactRun(t *testing.T, path string, secrets *dissect.Secrets) ([]string, *Analyzer) {
	t.Helper()
	var recs []string
	a := New(Options{Redact: true, Secrets: secrets}, SinkFunc(func(r *record.Record) error {
		recs = append(recs, everything(r))
		return nil
	}))
	if _, err := Run(fileSource(t, path), a); err != nil {
		t.Fatal(err)
	}
	return recs, a
}

var (
	lowSalt = strings.ToLower(capgen.HostileSalt)
	lowKey  = capgen.HostileKey("alex")
)

// A decoder's panic makes its record undissected bytes, masked whole: the
// key of the identification it panicked on does not show.
func TestRedactPanicRecord(t *testing.T) {
	path := hostileCapture(t, (*capgen.Writer).SecretCopies)
	testPanic = func(r *record.Record) {
		if r.Proto == "classic" && bytes.Contains(r.Data(), []byte(lowKey)) && r.Data()[0] == 0 {
			panic("injected")
		}
	}
	defer func() { testPanic = nil }()
	recs, a := redactRun(t, path, nil)
	if a.Stats().Panics != 1 {
		t.Fatalf("%d panics, want 1", a.Stats().Panics)
	}
	seen := false
	for _, r := range recs {
		if strings.Contains(r, "injected") {
			seen = true
			if strings.Contains(r, lowKey[:8]) {
				t.Errorf("the panic record shows the key:\n%s", r)
			}
		}
		if strings.Contains(r, lowSalt[:8]) {
			t.Errorf("the salt shows:\n%s", r)
		}
	}
	if !seen {
		t.Fatal("no panic record")
	}
}

// A record held back (behind a request awaiting its response) leaves
// after the salt is learned, and is masked; without holding, a copy that
// left before the salt was learned keeps it, unless the set comes from a
// first pass (-2).
func TestRedactLate(t *testing.T) {
	check := func(t *testing.T, recs []string, wantLeak bool) {
		t.Helper()
		leaks := 0
		for _, r := range recs {
			if strings.Contains(r, lowSalt[:8]) {
				leaks++
			}
		}
		if wantLeak != (leaks > 0) {
			t.Errorf("%d records show the salt, want leaks: %v", leaks, wantLeak)
		}
	}
	t.Run("held", func(t *testing.T) {
		recs, _ := redactRun(t, hostileCapture(t, func(w *capgen.Writer) { w.SecretLate(true) }), nil)
		check(t, recs, false)
	})
	path := hostileCapture(t, func(w *capgen.Writer) { w.SecretLate(false) })
	t.Run("one pass", func(t *testing.T) {
		recs, _ := redactRun(t, path, nil)
		check(t, recs, true)
	})
	t.Run("two passes", func(t *testing.T) {
		set := dissect.NewSecrets()
		redactRun(t, path, set)
		recs, _ := redactRun(t, path, set)
		check(t, recs, false)
	})
}

// Past its bound the set learns no more keys: each is masked in its own
// record, not in the chat that repeats it; the first such record says so,
// and Stats counts them all.
func TestRedactBound(t *testing.T) {
	const n = 6
	path := hostileCapture(t, func(w *capgen.Writer) { w.ManyKeys(n) })
	set := dissect.NewSecretsLimit(7) // the salt (1 piece) and its parameter (2), alex's key (2), p0's key (2)
	var full int
	var refusedIdents []string
	a := New(Options{Redact: true, Secrets: set}, SinkFunc(func(r *record.Record) error {
		all := everything(r)
		for _, e := range r.PDU.Experts {
			if e.Info == record.ExpertSecretsFull {
				full++
			}
		}
		for i := range n {
			key := capgen.HostileKey(fmt.Sprintf("p%d", i))
			if strings.Contains(all, key[:8]) {
				if i < 1 {
					t.Errorf("p%d's key was learned, and shows:\n%s", i, all)
				}
				if !strings.Contains(all, "my key is") {
					t.Errorf("p%d's key shows in its own record:\n%s", i, all)
				}
				refusedIdents = append(refusedIdents, key)
			}
		}
		return nil
	}))
	if _, err := Run(fileSource(t, path), a); err != nil {
		t.Fatal(err)
	}
	if got := a.Stats().SecretsRefused; got != n-1 || set.Refused() == 0 {
		t.Errorf("Stats().SecretsRefused = %d, want %d (the set refused %d)", got, n-1, set.Refused())
	}
	if full != 1 {
		t.Errorf("%d records say the set is full, want 1", full)
	}
	if len(refusedIdents) != n-1 {
		t.Errorf("%d chat messages show a key the set refused, want %d: the bound is not where the test thinks", len(refusedIdents), n-1)
	}
}

package filter

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SharedFilter is a line of testdata/shared.txt: a filter, and for one
// that must not compile the part of it its error is about.
type SharedFilter struct {
	Expr string
	Bad  string // "" for a filter that compiles
}

// ReadShared reads testdata/shared.txt, the filters -Y and the -T html
// page's filter box must treat alike (render's TestHTMLFilterAgrees reads
// it too).
func ReadShared(tb testing.TB, path string) []SharedFilter {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var out []SharedFilter
	for _, l := range strings.Split(string(b), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(l, "error\t"); ok {
			bad, expr, ok := strings.Cut(rest, "\t")
			if !ok {
				tb.Fatalf("%s: %q: want error<TAB>bad part<TAB>filter", path, l)
			}
			out = append(out, SharedFilter{Expr: expr, Bad: bad})
			continue
		}
		out = append(out, SharedFilter{Expr: l})
	}
	return out
}

// TestSharedList: every filter of the shared list compiles, or fails with
// the caret under the part the list names; and each one that compiles
// keeps some records and drops others on the samples (a filter that
// keeps all or nothing everywhere tests little in the page).
func TestSharedList(t *testing.T) {
	list := ReadShared(t, "testdata/shared.txt")
	files, _ := filepath.Glob("../samples/*.pcap")
	for _, c := range list {
		t.Run(c.Expr, func(t *testing.T) {
			f, err := Compile(c.Expr)
			if c.Bad != "" {
				var fe *Error
				if !errors.As(err, &fe) {
					t.Fatalf("compiles (err %v), want an error about %q", err, c.Bad)
				}
				got := c.Expr[fe.Pos:fe.End]
				if fe.Pos == len(c.Expr) {
					got = "<end>"
				}
				if got != c.Bad {
					t.Errorf("error about %q, want %q\n%v", got, c.Bad, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			some, notAll := false, false
			for _, file := range files {
				recs := sample(t, filepath.Base(file))
				n := 0
				for _, r := range recs {
					if f.Match(r) {
						n++
					}
				}
				some = some || n > 0
				notAll = notAll || n < len(recs)
			}
			if len(files) > 0 && !(some && notAll) {
				t.Logf("%s keeps all or nothing on every sample (some %v, not all %v)", c.Expr, some, notAll)
			}
		})
	}
}

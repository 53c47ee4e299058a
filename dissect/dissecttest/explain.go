package dissecttest

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/mcdissect/mcdissect/dissect"
)

// ExplanationProblem says what is wrong with f's explanation (its Desc) for
// the field reference, or "" when it is at least one full sentence: a
// capital letter first, a full stop last, six words or more, more than the
// label repeated, and on one line (it is a column of -G fields).
func ExplanationProblem(f *dissect.Field) string {
	d := f.Desc
	switch {
	case d == "":
		return "no explanation"
	case strings.ContainsAny(d, "\t\n\r"):
		return "a tab or line break (it is a column of -G fields)"
	case len(d) > 700:
		return "longer than three sentences should be"
	}
	if r, _ := utf8.DecodeRuneInString(d); !unicode.IsUpper(r) && !unicode.IsDigit(r) {
		return "does not start with a capital letter"
	}
	if !strings.HasSuffix(d, ".") {
		return "does not end with a full stop"
	}
	words := strings.Fields(d)
	if len(words) < 6 {
		return "fewer than six words"
	}
	rest := strings.Fields(strings.ReplaceAll(strings.ToLower(d), strings.ToLower(f.Label), " "))
	if len(rest) < 5 {
		return "little more than the label"
	}
	return ""
}

// CheckExplained fails t for every field of regs without a full-sentence
// explanation, and for every name of tables (a protocol's explanation
// tables, keyed by filter name) that no field of regs has: a stale entry
// is text nobody reads.
func CheckExplained(t *testing.T, regs []*dissect.Registry, tables ...map[string]string) {
	t.Helper()
	names := map[string]bool{}
	for _, r := range regs {
		for _, f := range r.Fields() {
			names[f.Name] = true
			if p := ExplanationProblem(f); p != "" {
				t.Errorf("%s: %s: %q", f.Name, p, f.Desc)
			}
		}
	}
	for _, m := range tables {
		for name := range m {
			if !names[name] {
				t.Errorf("explanation for %s, which is not a registered field", name)
			}
		}
	}
}

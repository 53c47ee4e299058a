package dissecttest

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

func TestExplanationProblem(t *testing.T) {
	for _, c := range []struct {
		label, desc string
		ok          bool
	}{
		{"Session ID", "A 32-bit number the client picks to match responses to its requests.", true},
		{"Session ID", "", false},
		{"Session ID", "a number the client picks to match its requests.", false},
		{"Session ID", "A number the client picks to match its requests", false},
		{"Session ID", "A session ID, the number.", false},
		{"Session ID", "The Session ID of the session ID.", false},
		{"Session ID", "A number the client picks\tto match its requests.", false},
	} {
		f := &dissect.Field{Name: "x", Label: c.label, Desc: c.desc}
		if p := ExplanationProblem(f); (p == "") != c.ok {
			t.Errorf("%q: problem %q, want ok %v", c.desc, p, c.ok)
		}
	}
}

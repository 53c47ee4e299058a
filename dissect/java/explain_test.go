package java

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

// TestExplained: every field, the data table's included, has a sentence
// for the field reference, and no hand-written text is stale.
func TestExplained(t *testing.T) {
	if err := register(); err != nil {
		t.Fatal(err)
	}
	dissecttest.CheckExplained(t, []*dissect.Registry{RegJava, RegNBT, RegPlay, RegConfig}, handDesc, ownDesc)
}

package analyze

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
	"github.com/mcdissect/mcdissect/record"
)

// TestExplained: every pseudo-field and every field of the shared mc
// registry has an explanation, and no entry names a field that is gone.
func TestExplained(t *testing.T) {
	dissecttest.CheckExplained(t, []*dissect.Registry{record.RegFrame, record.RegIP, record.RegIPv6, record.RegUDP, record.RegTCP, dissect.Core}, pseudoExplanations)
}

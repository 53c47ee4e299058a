package analyze

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
)

// TestExplained: every pseudo-field and every field of the shared mc
// registry has an explanation, and no entry names a field that is gone.
func TestExplained(t *testing.T) {
	dissecttest.CheckExplained(t, []*dissect.Registry{netlayers.RegFrame, netlayers.RegIP, netlayers.RegIPv6, netlayers.RegUDP, netlayers.RegTCP, dissect.Core}, pseudoExplanations)
}

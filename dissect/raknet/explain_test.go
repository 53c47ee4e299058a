package raknet

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

func TestExplained(t *testing.T) {
	dissecttest.CheckExplained(t, []*dissect.Registry{Registry}, explanations)
}

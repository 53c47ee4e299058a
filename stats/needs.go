package stats

import (
	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/record"
)

// Needs is what s reads of a record: the trees when its Reads says so, and
// the layers, which a statistic is taken to read.
func Needs(s Stat) record.Needs {
	return record.Needs{Trees: s.Reads().Trees, Layers: netlayers.All}
}

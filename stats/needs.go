package stats

import (
	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/record"
)

// Needs is what s reads of a record: nothing when it reads no records
// (only frames: conv,tcp, endpoints, phs, follow), else the trees when its
// Reads says so, and the layers, which a statistic of records is taken to
// read whole.
func Needs(s Stat) record.Needs {
	r := s.Reads()
	if !r.Records {
		return record.Needs{}
	}
	return record.Needs{Trees: r.Trees, Layers: netlayers.All}
}

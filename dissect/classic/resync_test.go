package classic

import (
	"math/rand"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// TestResyncFalseBoundaries: on random bytes (what the tail of lost level
// data or chat looks like), the resync finds no run of resyncRun plausible
// packets in a row: the measurement resyncRun's choice rests on.
func TestResyncFalseBoundaries(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	buf := make([]byte, 1<<20)
	rng.Read(buf)
	for _, dir := range []dissect.Dir{dissect.DirC2S, dissect.DirS2C} {
		c := NewConn(nil)
		hits := 0
		for off := 0; off+resyncWindow < len(buf); off++ {
			// off > 0 is never the gap's exact end: no one-packet run
			if c.chainOK(dir, buf[off:off+resyncWindow], false) {
				hits++
			}
		}
		if hits > 0 {
			t.Errorf("%v: %d false resync points in 1 MiB of random bytes", dir, hits)
		}
	}
}

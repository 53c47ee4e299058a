package netlayers

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// The cost of a record's layers: the whole tree (-T json, filters on
// layer fields) and its outline (-V).
func BenchmarkDissect(b *testing.B) { benchLayers(b, Dissect) }
func BenchmarkLines(b *testing.B)   { benchLayers(b, Lines) }

func benchLayers(b *testing.B, fn func(*dissect.PDU, []byte, *Frame)) {
	c := heads()["eth-ip4-tcp"]
	var p dissect.PDU
	b.ReportAllocs()
	for b.Loop() {
		fn(&p, c.head, &c.f)
	}
}

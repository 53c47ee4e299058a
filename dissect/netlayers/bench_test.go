package netlayers

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// The cost of a record's layers: the whole tree (-T json), its outline
// (-V), and the few fields -T fields or a filter reads.
func BenchmarkDissect(b *testing.B) { benchLayers(b, All) }
func BenchmarkLines(b *testing.B)   { benchLayers(b, Lines) }
func BenchmarkFields(b *testing.B) {
	benchLayers(b, WantField(FieldFrameNumber).Or(WantField(FieldIPSrc)).Or(WantField(FieldTCPStream)))
}

func benchLayers(b *testing.B, w Want) {
	c := heads()["eth-ip4-tcp"]
	var p dissect.PDU
	var text Texts
	b.ReportAllocs()
	for b.Loop() {
		Make(&p, &text, c.head, &c.f, w)
	}
}

package dissect

import (
	"strings"
	"testing"
)

// TestMadeBytes: what a PDU's decoder made is counted, views of its own
// bytes are not.
func TestMadeBytes(t *testing.T) {
	data := []byte(strings.Repeat("x", 1000))
	var p PDU
	p.Reset(data, len(data))
	p.Nodes = append(p.Nodes, Node{Field: testReg.Root(), Parent: -1, Length: int32(len(data))})
	base := p.MadeBytes()
	p.AddNode(0, tS, 0, 1000, B(data))                       // a view of Data: nothing made
	p.AddGenerated(0, tS, S(strings.Repeat("y", 300)), "")   // a made value
	p.AddGenerated(0, tS, Value{}, strings.Repeat("z", 200)) // a made text
	p.Info = strings.Repeat("i", 50)
	if got := p.MadeBytes() - base; got != 550 {
		t.Errorf("MadeBytes grew by %d, want 550 (300 value + 200 text + 50 info)", got)
	}
}

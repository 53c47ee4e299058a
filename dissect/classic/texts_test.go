package classic

import (
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// TestTextsStay: the Info and node texts of a packet, made over the
// connection's text blocks (text), are unchanged after the connection
// decodes enough packets to fill many blocks: a block is never written
// over. Lite and full trees alike (a Lite PDU's Info is in the PDU's own
// buffer, PDU.SetInfo, and each packet here has a PDU of its own).
func TestTextsStay(t *testing.T) {
	for _, lite := range []bool{true, false} {
		c := NewConn(nil)
		type kept struct{ got, want string }
		var keep []kept
		for round := range 200 {
			for _, m := range mixedStream {
				var p dissect.PDU
				p.Lite = lite
				c.Decode(&p, m.data, meta(m.dir))
				if round < 2 {
					keep = append(keep, kept{p.Info, strings.Clone(p.Info)})
					for i := range p.Nodes {
						if n := &p.Nodes[i]; n.Text != "" {
							keep = append(keep, kept{n.Text, strings.Clone(n.Text)})
						}
					}
				}
			}
		}
		if len(keep) < len(mixedStream) {
			t.Fatalf("lite %v: kept %d texts", lite, len(keep))
		}
		for i, k := range keep {
			if k.got != k.want {
				t.Errorf("lite %v: text %d is now %q, was %q", lite, i, k.got, k.want)
			}
		}
	}
}

// TestLiteInfoAllocatesNothing: a Lite PDU reused packet after packet, as
// the pipeline reuses its records, gets each packet's Info (the same as a
// full decode's) without an allocation: the Info goes to the PDU's own
// buffer (PDU.SetInfo), not to text blocks that become garbage.
func TestLiteInfoAllocatesNothing(t *testing.T) {
	lite, full := NewConn(nil), NewConn(nil)
	var p, q dissect.PDU
	p.Lite = true
	for _, m := range mixedStream {
		lite.Decode(&p, m.data, meta(m.dir))
		full.Decode(&q, m.data, meta(m.dir))
		if p.Info != q.Info {
			t.Errorf("Lite Info %q, full %q", p.Info, q.Info)
		}
	}
	allocs := testing.AllocsPerRun(20, func() {
		for range 10 {
			for _, m := range mixedStream {
				lite.Decode(&p, m.data, meta(m.dir))
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per %d Lite packets", allocs, 10*len(mixedStream))
	}
}

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
	for _, conns := range []bool{false, true} {
		for _, lite := range []bool{true, false} {
			textsStay(t, lite, conns)
		}
	}
}

// textsStay decodes mixedStream 200 times, on one connection or (conns)
// on a new one each time, the last closed first: its decoding state and
// text block go on to the next (decs).
func textsStay(t *testing.T, lite, conns bool) {
	c := NewConn(nil)
	type kept struct{ got, want string }
	var keep []kept
	for round := range 200 {
		if conns && round > 0 {
			c.Close(dissect.ConnEnd{})
			c = NewConn(nil)
		}
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
		t.Fatalf("lite %v, conns %v: kept %d texts", lite, conns, len(keep))
	}
	for i, k := range keep {
		if k.got != k.want {
			t.Errorf("lite %v, conns %v: text %d is now %q, was %q", lite, conns, i, k.got, k.want)
		}
	}
}

// TestDecReuseKeepsTexts: a closed connection's decoding state goes on to
// the next connection with its text block, which the next one appends to
// and never writes over (strings of the first connection's records view
// it).
func TestDecReuseKeepsTexts(t *testing.T) {
	c := NewConn(nil)
	for _, m := range mixedStream {
		c.Decode(&dissect.PDU{}, m.data, meta(m.dir))
	}
	d, n := c.d, len(c.d.texts)
	if n == 0 {
		t.Fatal("mixedStream made no text in the block")
	}
	block := &d.texts[0]
	c.Close(dissect.ConnEnd{})
	if c.d != nil {
		t.Fatal("Close kept the decoding state")
	}
	c = NewConn(nil)
	for _, m := range mixedStream {
		c.Decode(&dissect.PDU{}, m.data, meta(m.dir))
	}
	if c.d != d {
		t.Skip("the pool gave another decoding state")
	}
	if &c.d.texts[0] == block && len(c.d.texts) <= n {
		t.Errorf("the block holds %d bytes after the second connection, %d after the first: written over", len(c.d.texts), n)
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

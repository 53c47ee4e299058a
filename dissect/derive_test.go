package dissect

import (
	"bytes"
	"testing"
)

// TestDerive lays derived bytes after the wire bytes: the tree keeps its
// invariants, nodes point into the new data, values read before the
// derivation view the new buffer, and a Lite PDU reads the derived bytes
// without changing its data.
func TestDerive(t *testing.T) {
	wire := []byte{2, 'z', 'z'}
	derived := []byte{0xab, 0xcd, 'h', 'i', 0, 9}
	for _, lite := range []bool{false, true} {
		p := &PDU{Lite: lite}
		c := Begin(p, testReg.Root(), wire, len(wire))
		c.Uint8(tA)
		_, zi := c.Take(tS, 2)
		c.Derive(tSub, derived)
		v, _ := c.Uint16(tB)
		s, _ := c.CString(tS)
		c.Close()
		c.Finish()
		if v != 0xabcd || string(s) != "hi" {
			t.Fatalf("lite %v: read %x %q", lite, v, s)
		}
		if lite {
			if !bytes.Equal(p.Data, wire) || p.Derived != 0 || len(p.Nodes) != 1 {
				t.Fatalf("lite PDU changed: %x derived %d nodes %d", p.Data, p.Derived, len(p.Nodes))
			}
			continue
		}
		if err := Check(p); err != nil {
			t.Fatal(err)
		}
		if p.Derived != len(derived) || !bytes.Equal(p.OwnBytes(), wire) || p.WireLen != len(wire)+len(derived) || p.Cut() {
			t.Fatalf("data %x derived %d wirelen %d", p.Data, p.Derived, p.WireLen)
		}
		// the 2-byte string read before Derive views the new buffer
		if b := p.Nodes[zi].Value.B; &b[0] != &p.Data[1] {
			t.Errorf("value read before Derive does not view the new data")
		}
		// the last byte (9) is undissected, inside the derived subtree
		u := p.Find("mc.undissected")
		if u < 0 || p.Nodes[u].Offset != int32(len(wire)+5) {
			t.Errorf("undissected node %d", u)
		}
	}
}

// TestDeriveAfterFailure: a failed cursor derives nothing.
func TestDeriveAfterFailure(t *testing.T) {
	p := &PDU{}
	c := Begin(p, testReg.Root(), []byte{1}, 1)
	c.Uint16(tB)
	if i := c.Derive(tSub, []byte{1, 2}); i != -1 || p.Derived != 0 {
		t.Fatalf("derived after a failure: %d %d", i, p.Derived)
	}
	c.Finish()
	if err := Check(p); err != nil {
		t.Fatal(err)
	}
}

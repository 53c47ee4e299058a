package reassembly

import "testing"

// closeCounter is a recorder that also counts Closed calls.
type closeCounter struct {
	recorder
	closed int
}

func (c *closeCounter) Closed(*ConnInfo) { c.closed++ }

// TestCloserCalledOnce: a handler that implements Closer hears of the end of
// its connection once, after the FIN from both sides, and not again at Close.
func TestCloserCalledOnce(t *testing.T) {
	var log []string
	h := &closeCounter{}
	h.frame = func(_ Dir, b []byte, _ bool) FrameResult { return prefixFrame(b) }
	h.log = &log
	r := New(func(*ConnInfo) ConnHandler { return h }, Limits{})
	script := append(append([]pkt(nil), handshake...),
		c2s(0, 2, 'h', 'i'),
		c2s(3).with("FA"),
		s2c(0).with("FA"),
		c2s(4).with("A"),
	)
	feed(r, 1, script)
	if h.closed != 1 {
		t.Fatalf("Closed called %d times after FIN both ways, want 1", h.closed)
	}
	r.Close()
	if h.closed != 1 {
		t.Fatalf("Closed called %d times after Close, want 1", h.closed)
	}
	if len(log) != 1 || log[0] != "s0 c2s pdu @0+3 #4 [#4(3)]" {
		t.Errorf("units %q", log)
	}
}

package reassembly

import (
	"testing"
	"time"
)

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

// TestClosedConnectionsAreForgotten: a connection closed by FIN both ways
// is dropped from the table ClosedLinger of packet time after its last
// segment (its handler right away), so a capture of a busy server does
// not keep every connection of the last IdleTimeout.
func TestClosedConnectionsAreForgotten(t *testing.T) {
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
	if r.Stats().Open != 1 {
		t.Fatalf("%d connections open right after close, want 1 (lingering)", r.Stats().Open)
	}
	// Another connection's segment, after the linger time.
	later := int(ClosedLinger/time.Millisecond) + 10000
	feed(r, 100, []pkt{{seq: cISN, flags: "S", conn: 1, at: later}})
	if r.Stats().Open != 1 {
		t.Fatalf("%d connections open after the linger time, want only the new one", r.Stats().Open)
	}
}

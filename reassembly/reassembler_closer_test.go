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

// endRecorder is a recorder that notes each connection's frame at Closed.
type endRecorder struct {
	recorder
	ends map[int]uint64
}

func (e *endRecorder) Closed(c *ConnInfo) { e.ends[c.Stream] = c.Frame }

// TestEndFrameIsTheConnections: a connection ended by the idle sweep, or
// by the end of the capture, is closed at its own last frame, not at the
// last frame fed, which may be another connection's (whose headers the
// report of a stream no protocol claims would carry).
func TestEndFrameIsTheConnections(t *testing.T) {
	h := &endRecorder{ends: map[int]uint64{}}
	h.frame = func(_ Dir, b []byte, _ bool) FrameResult { return prefixFrame(b) }
	r := New(func(*ConnInfo) ConnHandler { return h }, Limits{IdleTimeout: time.Second, GapTimeout: 500 * time.Millisecond})
	on := func(n int, ps ...pkt) []pkt {
		for i := range ps {
			ps[i].conn = n
		}
		return ps
	}
	var script []pkt
	script = append(script, on(0, append(append([]pkt(nil), handshake...), c2s(0, 2, 'h', 'i'))...)...) // 1-4, stream 0 goes idle
	script = append(script, on(1, append(append([]pkt(nil), handshake...), c2s(0, 2, 'h', 'i'))...)...) // 5-8
	script = append(script, on(2, append(append([]pkt(nil), handshake...),                              // 9-13
		c2s(0, 2, 'h', 'i'), c2s(3).with("FA"))...)...)
	for i := 8; i < len(script); i++ {
		script[i].at = 2000 // frame 9 on: past stream 0's IdleTimeout, and stream 1's
	}
	script[len(script)-1].at = 2001
	feed(r, 1, script)
	r.Close() // stream 2, half closed, ends here
	want := map[int]uint64{0: 4, 1: 8, 2: 13}
	for s, f := range want {
		if h.ends[s] != f {
			t.Errorf("stream %d: closed at frame %d, want %d (all: %v)", s, h.ends[s], f, h.ends)
		}
	}
}

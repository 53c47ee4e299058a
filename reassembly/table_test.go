package reassembly

import (
	"fmt"
	"testing"
	"time"
)

// noteRecorder records notes and evictions as lines, besides units.
type noteRecorder struct {
	recorder
	notes *[]string
}

func (n *noteRecorder) Noted(c *ConnInfo, nt Note) {
	k := "retrans"
	if nt.Kind == NoteOutOfOrder {
		k = "ooo"
	}
	*n.notes = append(*n.notes, fmt.Sprintf("s%d %s #%d @%d+%d seen %d", c.Stream, k, nt.Frame, nt.Offset, nt.Length, nt.Seen))
}

func (n *noteRecorder) Evicted(c *ConnInfo, _ time.Time) {
	*n.notes = append(*n.notes, fmt.Sprintf("s%d evicted #%d", c.Stream, c.Frame))
}

func noteFactory(notes *[]string, made *int) Factory {
	return func(*ConnInfo) ConnHandler {
		*made++
		return &noteRecorder{recorder: recorder{frame: func(_ Dir, b []byte, _ bool) FrameResult { return prefixFrame(b) }}, notes: notes}
	}
}

// TestNotes: a duplicate segment is a retransmission, a segment that fills
// a hole is out of order, a segment partly seen is a retransmission.
func TestNotes(t *testing.T) {
	var notes []string
	made := 0
	r := New(noteFactory(&notes, &made), Limits{})
	script := append(append([]pkt(nil), handshake...),
		c2s(0, 3, 1, 2, 3), // frame 4
		c2s(0, 3, 1, 2, 3), // 5: duplicate
		c2s(8, 1, 9),       // 6: ahead of a hole
		c2s(4, 3, 1, 2, 3), // 7: fills it: out of order
		c2s(6, 2, 3, 1, 9), // 8: partly seen
	)
	feed(r, 1, script)
	want := []string{"s0 retrans #5 @0+4 seen 4", "s0 ooo #7 @4+4 seen 0", "s0 retrans #8 @6+4 seen 4"}
	if fmt.Sprint(notes) != fmt.Sprint(want) {
		t.Errorf("notes %q, want %q", notes, want)
	}
	if s := r.Stats(); s.RetransSegments != 2 || s.OutOfOrderSegments != 1 {
		t.Errorf("stats %+v", s)
	}
}

// TestSYNFloodIsCheap: connections without a payload byte get no handler,
// and the table never holds more than MaxConns; the evicted are counted.
func TestSYNFloodIsCheap(t *testing.T) {
	var notes []string
	made := 0
	r := New(noteFactory(&notes, &made), Limits{MaxConns: 64})
	for i := range 1000 {
		feedOne(r, uint64(i+1), pkt{seq: cISN, flags: "S", conn: i})
		if r.open > 64 {
			t.Fatalf("after %d SYNs, %d connections open", i+1, r.open)
		}
	}
	if made != 0 {
		t.Errorf("%d handlers made for bare SYNs", made)
	}
	if s := r.Stats(); s.Evicted == 0 || s.Handlers != 0 || s.Conns != 1000 {
		t.Errorf("stats %+v", s)
	}
	if len(notes) != 0 {
		t.Errorf("notes %q", notes)
	}
	if len(r.order) > 64 {
		t.Errorf("order holds %d", len(r.order))
	}
}

// TestEvictionTellsHandler: a connection with data, evicted for a newer
// one, is told so, at its own last frame, and its idle neighbours go
// first.
func TestEvictionTellsHandler(t *testing.T) {
	var notes []string
	made := 0
	r := New(noteFactory(&notes, &made), Limits{MaxConns: 8})
	frame := uint64(1)
	for i := range 8 {
		feedOne(r, frame, c2s(0, 2, 1).onConn(i).atMs(i))
		frame++
	}
	feedOne(r, frame, c2s(0, 2, 1).onConn(100).atMs(100))
	if len(notes) != 1 || notes[0] != "s0 evicted #1" {
		t.Errorf("notes %q, want s0 evicted #1", notes)
	}
	if made != 9 {
		t.Errorf("%d handlers", made)
	}
}

// TestOneByteSegmentsBounded: a PDU sent a byte per segment keeps a bounded
// list of frame ranges, and its unit's parts still add up to its length.
func TestOneByteSegmentsBounded(t *testing.T) {
	var units []Unit
	r := New(func(*ConnInfo) ConnHandler {
		return &recorder{frame: func(_ Dir, b []byte, _ bool) FrameResult { return bigFrame(b) }, units: &units}
	}, Limits{})
	const n = 20000
	body := make([]byte, 4+n)
	body[1], body[2], body[3] = byte(n>>16), byte((n>>8)&0xff), byte(n&0xff)
	feed(r, 1, handshake)
	for i := range body {
		feedOne(r, uint64(4+i), c2s(i, body[i]))
		c := r.order[0]
		if live := len(c.half[0].segs) - c.half[0].sh; live > 2*maxLiveSegs {
			t.Fatalf("after %d bytes, %d ranges kept", i+1, live)
		}
	}
	if len(units) != 1 || units[0].Length != len(body) {
		t.Fatalf("%d units", len(units))
	}
	sum := 0
	for _, p := range units[0].Parts {
		sum += p.Bytes
	}
	if sum != len(body) || len(units[0].Parts) > 2*maxLiveSegs {
		t.Errorf("parts: %d adding to %d", len(units[0].Parts), sum)
	}
	if last := units[0].Parts[len(units[0].Parts)-1]; last.Frame != uint64(3+len(body)) {
		t.Errorf("last part %+v", last)
	}
}

// TestLazyHandlerRoles: a handler made at the first payload byte may swap
// the roles; the halves follow, so a server that spoke first is still the
// server.
func TestLazyHandlerRoles(t *testing.T) {
	var log []string
	r := New(func(c *ConnInfo) ConnHandler {
		c.Client, c.Server = c.Server, c.Client
		return &recorder{frame: func(_ Dir, b []byte, _ bool) FrameResult { return prefixFrame(b) }, log: &log}
	}, Limits{})
	feed(r, 1, []pkt{handshake[0], handshake[1], handshake[2], c2s(0, 1, 7), s2c(0, 1, 8)})
	r.Close()
	want := []string{"s0 s2c pdu @0+2 #4 [#4(2)]", "s0 c2s pdu @0+2 #5 [#5(2)]"}
	if fmt.Sprint(log) != fmt.Sprint(want) {
		t.Errorf("log %q, want %q", log, want)
	}
}

// TestPendGrowsInFewStepsNearLimit: a PDU announced bigger than the memory
// left grows its buffer a few times, not once per segment (each growth
// copies the buffer: per segment, that was quadratic).
func TestPendGrowsInFewStepsNearLimit(t *testing.T) {
	r := New(func(*ConnInfo) ConnHandler {
		return &recorder{frame: func(_ Dir, b []byte, _ bool) FrameResult { return bigFrame(b) }}
	}, Limits{MaxBufferedTotal: 100000, MaxBufferedPerConn: 4 << 20, HistoryBytes: -1})
	feed(r, 1, handshake)
	const n = 1 << 20 // announced; only 100000 bytes of memory
	body := make([]byte, 90000)
	body[1], body[2], body[3] = byte(n>>16), byte((n>>8)&0xff), byte(n&0xff)
	growths, last := 0, 0
	for off := 0; off < len(body); off += 100 {
		feedOne(r, uint64(4+off/100), c2s(off, body[off:off+100]...))
		if c := cap(r.order[0].half[0].pend); c != last {
			growths, last = growths+1, c
		}
	}
	if growths > 20 {
		t.Errorf("the PDU buffer grew %d times", growths)
	}
	if last < len(body) {
		t.Errorf("buffer of %d bytes for %d", last, len(body))
	}
}

package reassembly

import (
	"bytes"
	"slices"
	"testing"
)

// TestHistoryRingsReused: the history rings of an ended connection serve the
// next one, and their old bytes never count as the new stream's.
func TestHistoryRingsReused(t *testing.T) {
	var log []string
	r := New(func(*ConnInfo) ConnHandler {
		return &recorder{log: &log, frame: func(_ Dir, b []byte, _ bool) FrameResult { return prefixFrame(b) }}
	}, Limits{})
	ones := bytes.Repeat([]byte{1}, 100) // PDUs [1 x]
	zeros := bytes.Repeat([]byte{0}, 100)
	onConn := func(n int, p ...pkt) []pkt {
		for i := range p {
			p[i] = p[i].onConn(n)
		}
		return p
	}

	script := onConn(0, slices.Clone(handshake)...)
	for off := 0; off < 2000; off += 100 {
		script = append(script, c2s(off, ones...).onConn(0))
	}
	script = append(script, onConn(0, c2s(2000).with("AF"), s2c(0).with("AF"))...)
	feed(r, 1, script)
	if !r.order[0].closed {
		t.Fatal("first connection not closed")
	}
	pooled := r.rings.bytes
	if pooled == 0 {
		t.Fatal("no ring kept for reuse")
	}

	script = onConn(1, slices.Clone(handshake)...)
	for off := 0; off < 600; off += 100 {
		script = append(script, c2s(off, zeros...).onConn(1))
	}
	changed := slices.Clone(zeros[:10])
	changed[5] = 9
	script = append(script,
		c2s(100, cat(zeros, zeros, zeros, zeros, zeros)...).onConn(1), // the same bytes again
		c2s(200, changed...).onConn(1),
	)
	log = log[:0]
	feed(r, 100, script)
	if r.rings.bytes >= pooled {
		t.Errorf("pool holds %d bytes, had %d: no ring reused", r.rings.bytes, pooled)
	}
	var conflicts []string
	for _, l := range log {
		if bytes.Contains([]byte(l), []byte("conflict")) {
			conflicts = append(conflicts, l)
		}
	}
	want := []string{"s1 c2s conflict @205+1 #110 [#110(1)] \"retransmitted bytes differ from the bytes already used\""}
	if !slices.Equal(conflicts, want) {
		t.Errorf("conflicts %q, want %q", conflicts, want)
	}
	if s := r.Stats(); s.Conflicts != 1 || s.Unverified != 0 || s.Retransmitted != 510 {
		t.Errorf("stats %+v", s)
	}
	r.Close()
	if s := r.Stats(); s.Buffered != 0 {
		t.Errorf("buffered %d after Close", s.Buffered)
	}
	if r.rings.bytes > ringPoolBytes {
		t.Errorf("pool holds %d bytes, over its bound", r.rings.bytes)
	}
}

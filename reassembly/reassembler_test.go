package reassembly

import (
	"slices"
	"strings"
	"testing"
	"time"
)

type framerKind int

const (
	markResync framerKind = iota
	markLost
	fixed4
	big
)

func newTestReassembler(fk framerKind, l Limits, log *[]string) *Reassembler {
	return New(func(c *ConnInfo) ConnHandler {
		rc := &recorder{log: log}
		switch fk {
		case markResync, markLost:
			f := markFramer{lost: fk == markLost}
			rc.frame = func(_ Dir, b []byte, g bool) FrameResult { return f.frame(b, g) }
		case fixed4:
			ff := fixedFrame(4)
			rc.frame = func(_ Dir, b []byte, _ bool) FrameResult { return ff(b) }
		case big:
			rc.frame = func(_ Dir, b []byte, _ bool) FrameResult { return bigFrame(b) }
		}
		return rc
	}, l)
}

// withHandshake prefixes a script with the three-way handshake (frames 1-3).
func withHandshake(p ...pkt) []pkt { return append(slices.Clone(handshake), p...) }

func TestReassembler(t *testing.T) {
	p300 := pdu(250, 'x') // 252 bytes
	wrapISN := uint32(0xFFFFFFF0)
	tests := []struct {
		name   string
		framer framerKind
		limits Limits
		script []pkt
		flush  bool // FlushIdle at the time of the last packet + 1h instead of Close
		want   []string
		check  func(t *testing.T, r *Reassembler)
	}{
		{
			name:   "several PDUs in one segment",
			script: withHandshake(c2s(0, cat(pdu(1, 'a'), pdu(2, 'b'), pdu(0, 0))...)),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 c2s pdu @3+4 #4 [#4(4)]",
				"s0 c2s pdu @7+2 #4 [#4(2)]",
			},
		},
		{
			name:   "one PDU across many segments",
			script: withHandshake(c2s(0, p300[:100]...), c2s(100, p300[100:200]...), c2s(200, p300[200:]...)),
			want:   []string{"s0 c2s pdu @0+252 #6 [#4(100) #5(100) #6(52)]"},
		},
		{
			name: "segment ends inside the next PDU's header",
			script: withHandshake(
				c2s(0, cat(pdu(1, 'a'), []byte{0xAA})...),
				c2s(4, cat([]byte{3}, []byte("xyz"), pdu(0, 0)[:1])...),
				c2s(9, 0),
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 c2s pdu @3+5 #5 [#4(1) #5(4)]",
				"s0 c2s pdu @8+2 #6 [#5(1) #6(1)]",
			},
		},
		{
			name: "out of order",
			script: withHandshake(
				c2s(100, p300[100:200]...),
				c2s(200, p300[200:]...),
				c2s(0, p300[:100]...),
			),
			want: []string{"s0 c2s pdu @0+252 #6 [#6(100) #4(100) #5(52)]"},
		},
		{
			name: "identical duplicates are silent",
			script: withHandshake(
				c2s(0, pdu(2, 'a')...),
				c2s(0, pdu(2, 'a')...),
				c2s(4, pdu(1, 'b')...),
				c2s(2, cat(pdu(2, 'a')[2:], pdu(1, 'b'))...),
			),
			want: []string{
				"s0 c2s pdu @0+4 #4 [#4(4)]",
				"s0 c2s pdu @4+3 #6 [#6(3)]",
			},
			check: func(t *testing.T, r *Reassembler) {
				if s := r.Stats(); s.Retransmitted != 9 || s.Conflicts != 0 || s.Unverified != 0 {
					t.Errorf("stats = %+v", s)
				}
			},
		},
		{
			name: "retransmission of used bytes differs",
			script: withHandshake(
				c2s(0, pdu(3, 'a')...),
				c2s(1, 3, 'a', 'X', 'a', 0xAA, 0), // overlaps used bytes, adds a PDU
			),
			want: []string{
				"s0 c2s pdu @0+5 #4 [#4(5)]",
				"s0 c2s conflict @3+1 #5 [#5(1)] \"retransmitted bytes differ from the bytes already used\"",
				"s0 c2s pdu @5+2 #5 [#5(2)]",
			},
		},
		{
			name: "retransmission of queued bytes differs, first copy wins",
			script: withHandshake(
				c2s(5, pdu(3, 'b')...),         // queued
				c2s(4, 'a', 0xAA, 3, 'Z', 'b'), // overlaps the queued copy
				c2s(0, pdu(3, 'a')[:4]...),     // fills the hole
			),
			want: []string{
				"s0 c2s conflict @7+1 #6 [#5(1)] \"retransmitted bytes differ from the bytes already used\"",
				"s0 c2s pdu @0+5 #6 [#6(4) #5(1)]",
				"s0 c2s pdu @5+5 #6 [#4(5)]",
			},
			check: func(t *testing.T, r *Reassembler) {
				if s := r.Stats(); s.Conflicts != 1 {
					t.Errorf("conflicts = %d, want 1", s.Conflicts)
				}
			},
		},
		{
			name:   "gap, resync at the next boundary",
			script: withHandshake(c2s(0, p300[:100]...), c2s(200, cat(p300[200:], pdu(1, 'z'))...)),
			want: []string{
				"s0 c2s undissected @0+100 #5 [#4(100)] \"segment not captured\"",
				"s0 c2s gap @100+100 #5 \"segment not captured\"",
				"s0 c2s undissected @200+52 #5 [#5(52)] \"framing lost\"",
				"s0 c2s pdu @252+3 #5 [#5(3)]",
			},
		},
		{
			name:   "gap, framing lost",
			framer: markLost,
			script: withHandshake(c2s(0, pdu(1, 'a')...), c2s(10, 'x', 'y', 0xAA, 0), c2s(14, pdu(1, 'c')...)),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				// Given up at Close: at the connection's last frame.
				"s0 c2s gap @3+7 #6 \"segment not captured\"",
				"s0 c2s undissected @10+7 #6 [#5(4) #6(3)] \"framing lost\"",
			},
		},
		{
			name: "capture starts mid-stream",
			script: []pkt{
				{seq: 77, flags: "A", payload: cat([]byte("tail"), pdu(1, 'a'))},
				{seq: 84, flags: "A", payload: pdu(2, 'b')},
			},
			want: []string{
				"s0 c2s undissected @0+4 #1 [#1(4)] \"capture started mid-stream\"",
				"s0 c2s pdu @4+3 #1 [#1(3)]",
				"s0 c2s pdu @7+4 #2 [#2(4)]",
			},
		},
		{
			name:   "FIN with an incomplete PDU",
			script: withHandshake(c2s(0, p300[:50]...).with("AF"), s2c(0).with("AF"), c2s(51)),
			want:   []string{"s0 c2s undissected @0+50 #4 [#4(50)] \"connection closed with incomplete PDU\""},
			check: func(t *testing.T, r *Reassembler) {
				if s := r.Stats(); s.Conns != 1 || s.Open != 1 {
					t.Errorf("conns=%d open=%d, want 1 1 (closed but remembered)", s.Conns, s.Open)
				}
				if s := r.Stats(); s.Queued != 0 {
					t.Errorf("%d bytes still held out of order", s.Queued)
				}
			},
		},
		{
			name: "FIN before the data it ends",
			script: withHandshake(
				c2s(3, pdu(1, 'b')...).with("AF"),
				c2s(0, pdu(1, 'a')...),
			),
			want: []string{
				"s0 c2s pdu @0+3 #5 [#5(3)]",
				"s0 c2s pdu @3+3 #5 [#4(3)]",
			},
			check: func(t *testing.T, r *Reassembler) {
				if !r.order[0].half[0].done {
					t.Error("direction not ended by the early FIN")
				}
			},
		},
		{
			name: "RST flushes queued data and closes both ways",
			script: withHandshake(
				c2s(0, p300[:50]...),
				c2s(100, pdu(1, 'q')...),
				s2c(0, pdu(1, 's')[:2]...),
				s2c(2).with("R"),
			),
			want: []string{
				"s0 c2s undissected @0+50 #7 [#4(50)] \"segment not captured\"", // all at the RST
				"s0 c2s gap @50+50 #7 \"segment not captured\"",
				"s0 c2s pdu @100+3 #7 [#5(3)]",
				"s0 s2c undissected @0+2 #7 [#6(2)] \"connection closed with incomplete PDU\"",
			},
		},
		{
			name: "idle connection flushed by packet time",
			script: withHandshake(
				c2s(0, p300[:50]...).atMs(1000),
				pkt{seq: 1, flags: "S", conn: 1, at: 1000 + int(DefaultIdleTimeout/time.Millisecond) + 2000},
			),
			want: []string{"s0 c2s undissected @0+50 #4 [#4(50)] \"connection closed with incomplete PDU\""},
			check: func(t *testing.T, r *Reassembler) {
				if s := r.Stats(); s.Open != 1 || s.Conns != 2 {
					t.Errorf("open=%d conns=%d, want 1 2", s.Open, s.Conns)
				}
			},
		},
		{
			name: "hole given up after the gap timeout",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				c2s(5, pdu(1, 'b')...).atMs(10),
				s2c(0, pdu(1, 'c')...).atMs(10+int(DefaultGapTimeout/time.Millisecond)+int(DefaultGapTimeout/4/time.Millisecond)),
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 c2s gap @3+2 #5 \"segment not captured\"",
				"s0 c2s pdu @5+3 #5 [#5(3)]",
				"s0 s2c pdu @0+3 #6 [#6(3)]",
			},
		},
		{
			name: "ACK after FIN does not open a connection",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				c2s(3).with("AF"),
				s2c(0).with("AF"),
				c2s(4),
				s2c(1),
			),
			want: []string{"s0 c2s pdu @0+3 #4 [#4(3)]"},
			check: func(t *testing.T, r *Reassembler) {
				if s := r.Stats(); s.Conns != 1 {
					t.Errorf("conns = %d, want 1", s.Conns)
				}
				if s := r.Stats(); s.Queued != 0 {
					t.Errorf("%d bytes still held out of order", s.Queued)
				}
			},
		},
		{
			name: "port reuse opens a new stream",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				pkt{seq: 90000, flags: "S"},
				pkt{seq: 90001, flags: "A", payload: pdu(1, 'b')},
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s1 c2s pdu @0+3 #6 [#6(3)]",
			},
		},
		{
			name: "sequence numbers wrap",
			script: []pkt{
				{seq: wrapISN, flags: "S"},
				{seq: wrapISN + 1 + 100, flags: "A", payload: p300[100:200]},
				{seq: wrapISN + 1, flags: "A", payload: p300[:100]},
				{seq: wrapISN + 1 + 200, flags: "A", payload: p300[200:]},
				{seq: wrapISN + 1 + 252, flags: "A", payload: pdu(1, 'w')},
			},
			want: []string{
				"s0 c2s pdu @0+252 #4 [#3(100) #2(100) #4(52)]",
				"s0 c2s pdu @252+3 #5 [#5(3)]",
			},
		},
		{
			name:   "hostile length is not buffered",
			framer: big,
			script: withHandshake(
				c2s(0, 0, 0, 0, 2, 'o', 'k'),
				c2s(6, 0x7F, 0xFF, 0xFF, 0xFF, 1, 2, 3),
				c2s(13, 4, 5, 6),
			),
			want: []string{
				"s0 c2s pdu @0+6 #4 [#4(6)]",
				"s0 c2s undissected @6+7 #5 [#5(7)] \"buffer limit\"",
				"s0 c2s undissected @13+3 #6 [#6(3)] \"buffer limit\"",
			},
			check: func(t *testing.T, r *Reassembler) {
				if s := r.Stats(); s.PeakBuffered > 1024 || s.BufferLimitHits != 1 {
					t.Errorf("peak buffered %d, limit hits %d", s.PeakBuffered, s.BufferLimitHits)
				}
			},
		},
		{
			name:   "PDU over the per-connection limit",
			framer: big,
			limits: Limits{MaxBufferedPerConn: 100},
			script: withHandshake(
				c2s(0, cat([]byte{0, 0, 0, 96}, make([]byte, 40))...),
				c2s(44, make([]byte, 56)...),
				c2s(100, cat([]byte{0, 0, 0, 97}, make([]byte, 40))...),
				c2s(144, make([]byte, 57)...),
			),
			want: []string{
				"s0 c2s pdu @0+100 #5 [#4(44) #5(56)]",
				"s0 c2s undissected @100+44 #6 [#6(44)] \"buffer limit\"",
				"s0 c2s undissected @144+57 #7 [#7(57)] \"buffer limit\"",
			},
		},
		{
			name:   "fixed-size framer and both directions",
			framer: fixed4,
			script: withHandshake(
				c2s(0, 1, 2, 3, 4, 5, 6),
				s2c(0, 9, 9),
				c2s(6, 7, 8),
				s2c(2, 9, 9, 9, 9, 9, 9).with("AF"),
			),
			want: []string{
				"s0 c2s pdu @0+4 #4 [#4(4)]",
				"s0 c2s pdu @4+4 #6 [#4(2) #6(2)]",
				"s0 s2c pdu @0+4 #7 [#5(2) #7(2)]",
				"s0 s2c pdu @4+4 #7 [#7(4)]",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var log []string
			r := newTestReassembler(tc.framer, tc.limits, &log)
			feed(r, 1, tc.script)
			if tc.check != nil {
				tc.check(t, r)
			}
			r.Close()
			if !slices.Equal(log, tc.want) {
				t.Errorf("units:\n%s\nwant:\n%s", strings.Join(log, "\n"), strings.Join(tc.want, "\n"))
			}
			if r.internalErrors != 0 {
				t.Errorf("%d internal errors", r.internalErrors)
			}
			if s := r.Stats(); s.Buffered != 0 || s.Queued != 0 || s.Open != 0 {
				t.Errorf("after Close: buffered %d, queued %d, open %d", s.Buffered, s.Queued, s.Open)
			}
			// With every byte through the out-of-order store, the same units.
			var ref []string
			rr := newTestReassembler(tc.framer, tc.limits, &ref)
			rr.viaStore = true
			feed(rr, 1, tc.script)
			rr.Close()
			if !slices.Equal(ref, log) {
				t.Errorf("via the store:\n%s", strings.Join(ref, "\n"))
			}
			if !sameStats(rr.Stats(), r.Stats()) {
				t.Errorf("stats via the store %+v, in order %+v", rr.Stats(), r.Stats())
			}
		})
	}
}

package reassembly

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTailHoles: bytes missing at the end of a direction, with nothing
// after them (revealed by a bare segment or a FIN whose sequence number
// lies past them), are given up at the frame that decides it: the FIN once
// the peer acknowledged them, the peer's ACK past them after the FIN
// (ackedTail), or, GapTimeout after they were revealed or at the close,
// the connection's own last frame; a segment captured after the ACK of its
// bytes makes no gap.
func TestTailHoles(t *testing.T) {
	acked := func(p pkt, ack int) pkt { p.ack = uint32(cISN + 1 + ack); return p }
	ackedS := func(p pkt, ack int) pkt { p.ack = uint32(sISN + 1 + ack); return p } // the client's ACK of the server's bytes
	for _, tc := range []struct {
		name   string
		script []pkt
		lim    Limits
		want   []string // units, Close included
	}{
		{
			name: "the peer acknowledges the lost tail: the gap is at the direction's own FIN",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				acked(s2c(0, pdu(1, 'x')...), 10), // bytes 3..9 not captured
				acked(s2c(3, pdu(1, 'y')...), 10),
				acked(c2s(10).with("AF"), 0),
				acked(s2c(6).with("AF"), 11),
			),
			want: []string{ // acknowledged already: given up at the FIN (ackedTail)
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 s2c pdu @0+3 #5 [#5(3)]",
				"s0 s2c pdu @3+3 #6 [#6(3)]",
				"s0 c2s gap @3+7 #7 \"segment not captured\"",
			},
		},
		{
			name: "a bare ACK of the direction past the bytes seen reveals the lost tail",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				acked(s2c(0, pdu(1, 'x')...), 3),
				acked(c2s(10), 3), // bytes 3..9 not captured
				acked(s2c(3, pdu(1, 'y')...), 10),
				acked(c2s(10).with("AF"), 6),
				acked(s2c(6).with("AF"), 11),
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 s2c pdu @0+3 #5 [#5(3)]",
				"s0 s2c pdu @3+3 #7 [#7(3)]",
				"s0 c2s gap @3+7 #8 \"segment not captured\"", // the FIN, acknowledged
			},
		},
		{
			name: "only the FIN reveals the lost tail",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				acked(s2c(0, pdu(1, 'x')...), 3),
				acked(c2s(10).with("AF"), 0), // bytes 3..9 not captured
				acked(s2c(3, pdu(1, 'y')...), 3),
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 s2c pdu @0+3 #5 [#5(3)]",
				"s0 s2c pdu @3+3 #7 [#7(3)]",
				"s0 c2s gap @3+7 #7 \"segment not captured\"", // at the close, the connection's last frame
			},
		},
		{
			name: "the peer acknowledges the lost tail after the FIN: given up at its ACK",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				acked(s2c(0, pdu(1, 'x')...), 3),
				acked(c2s(10).with("AF"), 3), // bytes 3..9 not captured
				acked(s2c(3, pdu(1, 'y')...), 11),
				acked(s2c(6, pdu(1, 'z')...), 11),
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 s2c pdu @0+3 #5 [#5(3)]",
				"s0 c2s gap @3+7 #7 \"segment not captured\"",
				"s0 s2c pdu @3+3 #7 [#7(3)]",
				"s0 s2c pdu @6+3 #8 [#8(3)]",
			},
		},
		{
			// Before bareTail such bytes were never reported.
			name: "a bare segment reveals a lost tail and the capture ends: the gap at the close",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				acked(s2c(0, pdu(1, 'x')...), 3),
				acked(c2s(10), 3), // bytes 3..9 not captured
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 s2c pdu @0+3 #5 [#5(3)]",
				"s0 c2s gap @3+7 #6 \"segment not captured\"",
			},
		},
		{
			name: "a bare segment past lost bytes before any payload: the gap where it is given up",
			script: withHandshake(
				c2s(10), // bytes 0..9 not captured
				c2s(10, pdu(1, 'b')...),
				acked(s2c(0, pdu(1, 'x')...), 13),
			),
			want: []string{
				"s0 c2s gap @0+10 #6 \"segment not captured\"", // given up at the ACK
				"s0 c2s pdu @10+3 #6 [#5(3)]",
				"s0 s2c pdu @0+3 #6 [#6(3)]",
			},
		},
		{
			name: "the client's FIN is lost: its sequence number is no missing byte (finLost)",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				acked(s2c(0, pdu(1, 'x')...), 3),
				acked(s2c(3).with("AF"), 4), // the server acknowledges the client's FIN, at 3
				ackedS(c2s(4), 4),           // and the client the server's
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 s2c pdu @0+3 #5 [#5(3)]",
			},
		},
		{
			name: "a ping and the FIN after it are lost: the gap is the ping's bytes",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				acked(s2c(0, pdu(1, 'x')...), 3),
				acked(s2c(3).with("AF"), 7), // bytes 3..5 and the FIN at 6 not captured
				ackedS(c2s(7), 4),
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 s2c pdu @0+3 #5 [#5(3)]",
				"s0 c2s gap @3+3 #7 \"segment not captured\"",
			},
		},
		{
			name: "the data comes after the ACK that acknowledges it",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				acked(s2c(0, pdu(1, 'x')...), 6),
				c2s(3, pdu(1, 'b')...),
				acked(c2s(6).with("AF"), 0),
				acked(s2c(3, pdu(1, 'y')...), 7),
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 s2c pdu @0+3 #5 [#5(3)]",
				"s0 c2s pdu @3+3 #6 [#6(3)]",
				"s0 s2c pdu @3+3 #8 [#8(3)]",
			},
		},
		{
			name: "a mark older than GapTimeout: the hole is given up by the sweep, at the connection's last frame (bareTail)",
			lim:  Limits{GapTimeout: 400 * time.Millisecond, IdleTimeout: time.Minute},
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				acked(s2c(0, pdu(1, 'x')...), 3),
				acked(c2s(10), 3), // bytes 3..9 not captured
				acked(s2c(3, pdu(1, 'y')...), 10).atMs(1000),
				acked(c2s(10).with("AF"), 6).atMs(1001),
				acked(s2c(6).with("AF"), 11).atMs(1002),
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 s2c pdu @0+3 #5 [#5(3)]",
				"s0 c2s gap @3+7 #6 \"segment not captured\"",
				"s0 s2c pdu @3+3 #7 [#7(3)]",
			},
		},
		{
			name: "a FIN past lost bytes, the peer silent past GapTimeout: the gap is given up by the sweep (finTail)",
			lim:  Limits{GapTimeout: 400 * time.Millisecond, IdleTimeout: time.Minute},
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				acked(s2c(0, pdu(1, 'x')...), 3),
				acked(c2s(10).with("AF"), 3), // bytes 3..9 not captured
				acked(s2c(3, pdu(1, 'y')...), 3).atMs(1000),
				acked(s2c(6, pdu(1, 'z')...), 3).atMs(1001),
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 s2c pdu @0+3 #5 [#5(3)]",
				"s0 c2s gap @3+7 #6 \"segment not captured\"",
				"s0 s2c pdu @3+3 #7 [#7(3)]",
				"s0 s2c pdu @6+3 #8 [#8(3)]",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, only := range []bool{false, true} {
				var log []string
				r := New(func(c *ConnInfo) ConnHandler {
					f := markFramer{}
					return &recorder{log: &log, frame: func(_ Dir, b []byte, g bool) FrameResult { return f.frame(b, g) }}
				}, tc.lim)
				r.viaStore = only
				feed(r, 1, tc.script)
				r.Close()
				if !slices.Equal(log, tc.want) {
					t.Errorf("via the store %v: units:\n%s\nwant:\n%s", only, strings.Join(log, "\n"), strings.Join(tc.want, "\n"))
				}
				if r.internalErrors != 0 {
					t.Errorf("%d internal errors", r.internalErrors)
				}
			}
		})
	}
}

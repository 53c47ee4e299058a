package reassembly

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestInOrderFastPath covers the segments that bypass gopacket (inOrder)
// mixed with those that go through it. Each script is also played with the
// fast path off: the units and Stats must be the same.
func TestInOrderFastPath(t *testing.T) {
	gapWait := int((DefaultGapTimeout + DefaultGapTimeout/4) / time.Millisecond)
	tests := []struct {
		name   string
		framer framerKind
		script []pkt
		want   []string
		// live is how many connections gopacket must hold after the
		// script, before Close.
		live  int
		check func(t *testing.T, r *Reassembler)
	}{
		{
			name: "in order only: gopacket never sees the connection",
			script: withHandshake(
				c2s(0, cat(pdu(1, 'a'), pdu(3, 'b')[:2])...),
				s2c(0, pdu(0, 's')...),
				c2s(5, pdu(3, 'b')[2:]...),
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 s2c pdu @0+2 #5 [#5(2)]",
				"s0 c2s pdu @3+5 #6 [#4(2) #6(3)]",
			},
		},
		{
			name: "out of order after the fast path, then the fast path again",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),  // fast
				c2s(6, pdu(1, 'c')...),  // queued in gopacket, which never saw 0-3
				c2s(3, pdu(1, 'b')...),  // fills: gopacket starts at 3
				c2s(9, pdu(1, 'd')...),  // fast again: gopacket left at 9
				c2s(15, pdu(1, 'f')...), // queued: gopacket's numbers move on to 12
				c2s(12, pdu(1, 'e')...), // fills
				c2s(18, pdu(1, 'g')...), // fast
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 c2s pdu @3+3 #6 [#6(3)]",
				"s0 c2s pdu @6+3 #6 [#5(3)]",
				"s0 c2s pdu @9+3 #7 [#7(3)]",
				"s0 c2s pdu @12+3 #9 [#9(3)]",
				"s0 c2s pdu @15+3 #9 [#8(3)]",
				"s0 c2s pdu @18+3 #10 [#10(3)]",
			},
			live: 1,
			check: func(t *testing.T, r *Reassembler) {
				h := &r.order[0].half[ClientToServer]
				if h.fed != 21 || h.gpNext != 18 {
					t.Errorf("fed %d gpNext %d, want 21 18 (gopacket left behind by the last segment)", h.fed, h.gpNext)
				}
			},
		},
		{
			name: "a PDU across a fast segment and a queued one",
			script: withHandshake(
				c2s(0, pdu(6, 'a')[:4]...),  // fast, partial PDU kept
				c2s(6, pdu(6, 'a')[6:]...),  // queued
				c2s(4, pdu(6, 'a')[4:6]...), // fills the hole in the middle
			),
			want: []string{"s0 c2s pdu @0+8 #6 [#4(4) #6(2) #5(2)]"},
			live: 1,
		},
		{
			name: "retransmission of bytes the fast path used",
			script: withHandshake(
				c2s(0, pdu(2, 'a')...),
				c2s(0, pdu(2, 'a')...),          // identical: silent
				c2s(2, 'a', 'X', 0xAA, 0),       // one byte differs, then new bytes
				c2s(0, 0xAA, 2, 'a', 'X', 0xAA), // all used: 'X' differs again
			),
			want: []string{
				"s0 c2s pdu @0+4 #4 [#4(4)]",
				"s0 c2s conflict @3+1 #6 [#6(1)] \"retransmitted bytes differ from the bytes already used\"",
				"s0 c2s pdu @4+2 #6 [#6(2)]",
				"s0 c2s conflict @3+1 #7 [#7(1)] \"retransmitted bytes differ from the bytes already used\"",
			},
			check: func(t *testing.T, r *Reassembler) {
				if s := r.Stats(); s.Retransmitted != 11 || s.Conflicts != 2 || s.Unverified != 0 {
					t.Errorf("stats = %+v", s)
				}
			},
		},
		{
			name: "retransmission overlapping a partial PDU",
			script: withHandshake(
				c2s(0, cat(pdu(1, 'a'), pdu(4, 'b')[:3])...),        // PDU, then 3 bytes of the next
				c2s(3, cat([]byte{0xAA, 4, 'Z'}, []byte("bbb"))...), // resends the partial bytes ('Z' differs) and completes it
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 c2s conflict @5+1 #5 [#5(1)] \"retransmitted bytes differ from the bytes already used\"",
				// The first copy of the partial bytes wins.
				"s0 c2s pdu @3+6 #5 [#4(3) #5(3)]",
			},
		},
		{
			name: "hole after the fast path given up by the gap timeout",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),                // fast
				c2s(5, pdu(1, 'b')...).atMs(10),       // queued, gopacket never started
				s2c(0, pdu(1, 'c')...).atMs(gapWait),  // time passes: the hole is a gap
				c2s(8, pdu(1, 'd')...).atMs(gapWait),  // fast again after the gap
				c2s(14, pdu(1, 'f')...).atMs(gapWait), // queued
				c2s(11, pdu(1, 'e')...).atMs(gapWait), // fills
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				// Released by the sweep before frame 6 is handled: reported
				// at the frame after the hole.
				"s0 c2s gap @3+2 #5 \"segment not captured\"",
				"s0 c2s pdu @5+3 #5 [#5(3)]",
				"s0 s2c pdu @0+3 #6 [#6(3)]",
				"s0 c2s pdu @8+3 #7 [#7(3)]",
				"s0 c2s pdu @11+3 #9 [#9(3)]",
				"s0 c2s pdu @14+3 #9 [#8(3)]",
			},
			live: 1,
		},
		{
			name: "FIN in order after the fast path, the other way through gopacket",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				s2c(3, pdu(1, 'd')...), // queued
				c2s(3, pdu(1, 'b')...).with("AF"),
				s2c(0, pdu(1, 'c')...).with("AF"),
				c2s(7), // the last ACK
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 c2s pdu @3+3 #6 [#6(3)]",
				"s0 s2c pdu @0+3 #7 [#7(3)]",
				"s0 s2c pdu @3+3 #7 [#5(3)]",
			},
			check: func(t *testing.T, r *Reassembler) {
				if !r.order[0].closed {
					t.Error("connection not closed by the FINs")
				}
			},
		},
		{
			name:   "data and FIN in one segment, queued data behind a fast segment",
			framer: fixed4,
			script: withHandshake(
				c2s(6, 7, 8).with("AF"),
				c2s(0, 1, 2, 3, 4),
				c2s(4, 5, 6),
			),
			want: []string{
				"s0 c2s pdu @0+4 #5 [#5(4)]",
				"s0 c2s pdu @4+4 #6 [#6(2) #4(2)]",
			},
			live: 1,
		},
		{
			name: "RST after the fast path",
			script: withHandshake(
				c2s(0, pdu(3, 'a')[:4]...),
				c2s(4).with("R"),
			),
			want: []string{"s0 c2s undissected @0+4 #5 [#4(4)] \"connection closed with incomplete PDU\""}, // at the RST
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := func(gopacketOnly bool) ([]string, Stats) {
				var log []string
				r := newTestReassembler(tc.framer, Limits{}, &log)
				r.gopacketOnly = gopacketOnly
				feed(r, 1, tc.script)
				if !gopacketOnly {
					if r.glue.live != tc.live {
						t.Errorf("gopacket holds %d connections, want %d", r.glue.live, tc.live)
					}
					if tc.check != nil {
						tc.check(t, r)
					}
				}
				r.Close()
				if r.internalErrors != 0 {
					t.Errorf("%d internal errors", r.internalErrors)
				}
				if s := r.Stats(); s.Buffered != 0 || s.Open != 0 || r.glue.live != 0 {
					t.Errorf("after Close: buffered %d, open %d, gopacket %d", s.Buffered, s.Open, r.glue.live)
				}
				return log, r.Stats()
			}
			log, st := run(false)
			if !slices.Equal(log, tc.want) {
				t.Errorf("units:\n%s\nwant:\n%s", strings.Join(log, "\n"), strings.Join(tc.want, "\n"))
			}
			ref, refSt := run(true)
			if !slices.Equal(ref, log) {
				t.Errorf("through gopacket only:\n%s", strings.Join(ref, "\n"))
			}
			if refSt != st {
				t.Errorf("stats through gopacket only %+v, with the fast path %+v", refSt, st)
			}
		})
	}
}

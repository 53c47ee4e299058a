package reassembly

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestInOrderFastPath covers segments that come in order (inOrder) mixed
// with those the out-of-order store holds. Each script is also played with
// every byte through the store (viaStore): the units and Stats must be the
// same.
func TestInOrderFastPath(t *testing.T) {
	gapWait := int((DefaultGapTimeout + DefaultGapTimeout/4) / time.Millisecond)
	tests := []struct {
		name   string
		framer framerKind
		script []pkt
		want   []string
		check  func(t *testing.T, r *Reassembler)
	}{
		{
			name: "in order only: nothing is held",
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
			name: "out of order after in-order bytes, then in order again",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),  // in order
				c2s(6, pdu(1, 'c')...),  // held
				c2s(3, pdu(1, 'b')...),  // fills: delivered with the held bytes
				c2s(9, pdu(1, 'd')...),  // in order again
				c2s(15, pdu(1, 'f')...), // held
				c2s(12, pdu(1, 'e')...), // fills
				c2s(18, pdu(1, 'g')...), // in order
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
			check: func(t *testing.T, r *Reassembler) {
				h := &r.order[0].half[ClientToServer]
				if h.fed != 21 || len(h.q) != 0 {
					t.Errorf("fed %d, %d ranges held, want 21 0", h.fed, len(h.q))
				}
			},
		},
		{
			name: "a PDU across an in-order segment and a held one",
			script: withHandshake(
				c2s(0, pdu(6, 'a')[:4]...),  // in order, partial PDU kept
				c2s(6, pdu(6, 'a')[6:]...),  // held
				c2s(4, pdu(6, 'a')[4:6]...), // fills the hole in the middle
			),
			want: []string{"s0 c2s pdu @0+8 #6 [#4(4) #6(2) #5(2)]"},
		},
		{
			name: "retransmission of bytes used in order",
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
			name: "hole after in-order bytes given up by the gap timeout",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),                // in order
				c2s(5, pdu(1, 'b')...).atMs(10),       // held
				s2c(0, pdu(1, 'c')...).atMs(gapWait),  // time passes: the hole is a gap
				c2s(8, pdu(1, 'd')...).atMs(gapWait),  // in order again after the gap
				c2s(14, pdu(1, 'f')...).atMs(gapWait), // held
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
		},
		{
			name: "FIN in order one way, the other way held",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				s2c(3, pdu(1, 'd')...), // held
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
			name:   "data and FIN in one segment, held data behind an in-order segment",
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
		},
		{
			name: "RST after in-order bytes",
			script: withHandshake(
				c2s(0, pdu(3, 'a')[:4]...),
				c2s(4).with("R"),
			),
			want: []string{"s0 c2s undissected @0+4 #5 [#4(4)] \"connection closed with incomplete PDU\""}, // at the RST
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := func(viaStore bool) ([]string, Stats) {
				var log []string
				r := newTestReassembler(tc.framer, Limits{}, &log)
				r.viaStore = viaStore
				feed(r, 1, tc.script)
				// Every hole was filled or given up: nothing is held.
				if s := r.Stats(); s.Queued != 0 {
					t.Errorf("via the store %v: %d bytes held after the script", viaStore, s.Queued)
				}
				if !viaStore && tc.check != nil {
					tc.check(t, r)
				}
				r.Close()
				if r.internalErrors != 0 {
					t.Errorf("%d internal errors", r.internalErrors)
				}
				if s := r.Stats(); s.Buffered != 0 || s.Queued != 0 || s.Open != 0 {
					t.Errorf("after Close: buffered %d, queued %d, open %d", s.Buffered, s.Queued, s.Open)
				}
				return log, r.Stats()
			}
			log, st := run(false)
			if !slices.Equal(log, tc.want) {
				t.Errorf("units:\n%s\nwant:\n%s", strings.Join(log, "\n"), strings.Join(tc.want, "\n"))
			}
			ref, refSt := run(true)
			if !slices.Equal(ref, log) {
				t.Errorf("via the store:\n%s", strings.Join(ref, "\n"))
			}
			if !sameStats(refSt, st) {
				t.Errorf("stats via the store %+v, in order %+v", refSt, st)
			}
		})
	}
}

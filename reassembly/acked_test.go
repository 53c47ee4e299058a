package reassembly

import (
	"slices"
	"strings"
	"testing"
)

// TestAckedHoles: a hole the peer has acknowledged was lost by the capture
// only; the bytes after it are delivered at once, reported at the frames
// that carried them, and not after GapTimeout or at Close.
func TestAckedHoles(t *testing.T) {
	acked := func(p pkt, ack int) pkt { p.ack = uint32(cISN + 1 + ack); return p }
	for _, tc := range []struct {
		name   string
		script []pkt
		want   []string // units before Close
	}{
		{
			name: "the peer acknowledges the hole after the data behind it came",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				c2s(10, pdu(1, 'c')...), // bytes 3..9 not captured
				acked(s2c(0, pdu(1, 'x')...), 13),
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 c2s gap @3+7 #6 \"segment not captured\"", // at the ACK that gives it up
				"s0 c2s pdu @10+3 #6 [#5(3)]",
				"s0 s2c pdu @0+3 #6 [#6(3)]",
			},
		},
		{
			// The ACK revealed the hole first, but nothing was queued
			// after it: the segment after the hole gives it up.
			name: "the acknowledgement came first",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				acked(s2c(0, pdu(1, 'x')...), 10),
				c2s(10, pdu(1, 'c')...),
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 s2c pdu @0+3 #5 [#5(3)]",
				"s0 c2s gap @3+7 #6 \"segment not captured\"",
				"s0 c2s pdu @10+3 #6 [#6(3)]",
			},
		},
		{
			name: "an acknowledgement short of the queued bytes does not give the hole up",
			script: withHandshake(
				c2s(0, pdu(1, 'a')...),
				c2s(10, pdu(1, 'c')...),
				acked(s2c(0, pdu(1, 'x')...), 8),
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 s2c pdu @0+3 #6 [#6(3)]",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, only := range []bool{false, true} {
				var log []string
				r := newTestReassembler(0, Limits{}, &log)
				r.viaStore = only
				feed(r, 1, tc.script)
				if !slices.Equal(log, tc.want) {
					t.Errorf("via the store %v: units:\n%s\nwant:\n%s", only, strings.Join(log, "\n"), strings.Join(tc.want, "\n"))
				}
				r.Close()
				if r.internalErrors != 0 {
					t.Errorf("%d internal errors", r.internalErrors)
				}
			}
		})
	}
}

package reassembly

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// onConn moves a script to another 4-tuple (client port 50000+n).
func onConn(n int, script []pkt) []pkt {
	out := slices.Clone(script)
	for i := range out {
		out[i].conn = n
	}
	return out
}

// TestStoreLimits: out-of-order bytes are held within the limits, each
// range costing its buffer (at least 64 bytes) and its record; when a range
// would not fit, the oldest holes of the direction being fed are given up
// as gaps, at that frame, and the bytes behind them delivered.
func TestStoreLimits(t *testing.T) {
	// Every range below holds 3 bytes: it costs 64 + qsegBytes.
	rangeCost := minQueueBuf + qsegBytes
	var held []pkt
	for k := 0; k < 8; k++ {
		held = append(held, c2s(6+3*k, pdu(1, byte('b'+k))...))
	}
	tests := []struct {
		name       string
		limits     Limits
		script     []pkt
		want       []string
		peakQueued int
		dropped    uint64
	}{
		{
			name:   "the direction's limit gives up its oldest hole",
			limits: Limits{MaxBufferedPerConn: 7*rangeCost + rangeCost/2, HistoryBytes: -1},
			// Bytes 3-5 never come; 7 ranges behind them fit, the 8th
			// (frame 12) does not.
			script: withHandshake(append([]pkt{c2s(0, pdu(1, 'a')...)}, held...)...),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 c2s gap @3+3 #12 \"segment not captured\"",
				"s0 c2s pdu @6+3 #12 [#5(3)]",
				"s0 c2s pdu @9+3 #12 [#6(3)]",
				"s0 c2s pdu @12+3 #12 [#7(3)]",
				"s0 c2s pdu @15+3 #12 [#8(3)]",
				"s0 c2s pdu @18+3 #12 [#9(3)]",
				"s0 c2s pdu @21+3 #12 [#10(3)]",
				"s0 c2s pdu @24+3 #12 [#11(3)]",
				"s0 c2s pdu @27+3 #12 [#12(3)]", // in order once the hole is given up
			},
			peakQueued: 7 * rangeCost,
		},
		{
			name:   "a range over the limit on its own goes in order",
			limits: Limits{MaxBufferedPerConn: 100, HistoryBytes: -1},
			script: withHandshake(c2s(10, pdu(48, 'x')...)),
			want: []string{
				"s0 c2s gap @0+10 #4 \"segment not captured\"",
				"s0 c2s pdu @10+50 #4 [#4(50)]",
			},
		},
		{
			name:   "the total limit: the connection being fed gives up its own hole",
			limits: Limits{MaxBufferedTotal: 2*rangeCost + rangeCost/2, HistoryBytes: -1},
			script: slices.Concat(
				withHandshake(c2s(0, pdu(1, 'a')...), c2s(6, pdu(1, 'c')...), c2s(9, pdu(1, 'd')...)), // frames 1-6: two ranges held
				onConn(1, withHandshake(c2s(0, pdu(1, 'x')...), c2s(6, pdu(1, 'z')...))),              // frames 7-11: no room for frame 11
				[]pkt{c2s(3, pdu(1, 'b')...)}, // frame 12 fills the first connection's hole
			),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s1 c2s pdu @0+3 #10 [#10(3)]",
				"s1 c2s gap @3+3 #11 \"segment not captured\"",
				"s1 c2s pdu @6+3 #11 [#11(3)]",
				"s0 c2s pdu @3+3 #12 [#12(3)]",
				"s0 c2s pdu @6+3 #12 [#5(3)]",
				"s0 c2s pdu @9+3 #12 [#6(3)]",
			},
			peakQueued: 2 * rangeCost,
		},
		{
			name:   "a segment a gigabyte ahead is dropped, not held",
			script: withHandshake(c2s(0, pdu(1, 'a')...), c2s(1<<30+10, pdu(1, 'z')...), c2s(3, pdu(1, 'b')...)),
			want: []string{
				"s0 c2s pdu @0+3 #4 [#4(3)]",
				"s0 c2s pdu @3+3 #6 [#6(3)]",
			},
			dropped: 3,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var log []string
			r := newTestReassembler(markResync, tc.limits, &log)
			feed(r, 1, tc.script)
			r.Close()
			if !slices.Equal(log, tc.want) {
				t.Errorf("units:\n%s\nwant:\n%s", strings.Join(log, "\n"), strings.Join(tc.want, "\n"))
			}
			s := r.Stats()
			if s.PeakQueued != tc.peakQueued || s.Dropped != tc.dropped {
				t.Errorf("peak queued %d, dropped %d; want %d, %d", s.PeakQueued, s.Dropped, tc.peakQueued, tc.dropped)
			}
			if s.Queued != 0 || s.Buffered != 0 || r.internalErrors != 0 {
				t.Errorf("after Close: queued %d, buffered %d, %d internal errors", s.Queued, s.Buffered, r.internalErrors)
			}
		})
	}
}

// TestStoreAllocations: a segment in order allocates nothing, and neither
// does one held and released once the store's buffers exist (they come
// back to the pool).
func TestStoreAllocations(t *testing.T) {
	r := New(func(*ConnInfo) ConnHandler { return &benchHandler{} }, Limits{})
	a, b := clientIP.As4(), serverIP.As4()
	flow := gopacket.NewFlow(layers.EndpointIPv4, a[:], b[:])
	tcp := &layers.TCP{SrcPort: 50000, DstPort: serverPort, ACK: true}
	tcp.Payload = make([]byte, 1448)
	var frame uint64
	send := func(off int) {
		frame++
		tcp.Seq = uint32(cISN + 1 + off)
		r.Feed(frame, gopacket.CaptureInfo{Timestamp: t0.Add(time.Duration(frame) * time.Millisecond)}, flow, tcp)
	}
	off := 0
	inOrder := func() { send(off); off += 1448 }
	swapped := func() { send(off + 1448); send(off); off += 2 * 1448 }
	for range 100 { // warm up: the connection, its lists, the pool
		inOrder()
		swapped()
	}
	if n := testing.AllocsPerRun(1000, inOrder); n != 0 {
		t.Errorf("%.1f allocations per segment in order", n)
	}
	if n := testing.AllocsPerRun(1000, swapped); n != 0 {
		t.Errorf("%.1f allocations per pair of segments out of order", n)
	}
	if s := r.Stats(); s.Queued != 0 || s.PeakQueued != queueBuf(1448)+qsegBytes {
		t.Errorf("queued %d, peak %d", s.Queued, s.PeakQueued)
	}
}

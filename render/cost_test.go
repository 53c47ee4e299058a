//go:build linux

// Linux only for the thread's CPU clock, which the test measures instead
// of wall time: on a machine shared with other work, wall time per record
// varied more than the factor the test allows.

package render

import (
	"encoding/binary"
	"io"
	"net/netip"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/query"
	"github.com/mcdissect/mcdissect/record"
	"golang.org/x/sys/unix"
)

// fullStatKeys decodes a Query full stat response that repeats the key
// "a" k times: k nodes, k−1 expert items (duplicate key), one per node.
func fullStatKeys(k int) *record.Record {
	b := binary.BigEndian.AppendUint32([]byte{0}, 1)
	b = append(b, "splitnum\x00\x80\x00hostname\x00many\x00"...)
	for range k {
		b = append(b, "a\x00\x00"...)
	}
	b = append(b, "\x00\x01player_\x00\x00alex\x00\x00"...)
	r := &record.Record{Frame: 1, Src: netip.MustParseAddrPort("10.0.0.1:25565"), Dst: netip.MustParseAddrPort("10.0.0.2:40000"), Stream: -1, Proto: "query"}
	query.Decode(&r.PDU, b, len(b), dissect.DirS2C)
	return r
}

// fullStatNames decodes a Query full stat response of k keys, k/2 distinct
// ones each sent twice: k/2 names that repeat.
func fullStatNames(k int) *record.Record {
	b := binary.BigEndian.AppendUint32([]byte{0}, 1)
	b = append(b, "splitnum\x00\x80\x00hostname\x00many\x00"...)
	for i := range k {
		b = append(b, "k"+strconv.Itoa(i/2)+"\x00v\x00"...)
	}
	b = append(b, "\x00\x01player_\x00\x00alex\x00\x00"...)
	r := &record.Record{Frame: 1, Src: netip.MustParseAddrPort("10.0.0.1:25565"), Dst: netip.MustParseAddrPort("10.0.0.2:40000"), Stream: -1, Proto: "query"}
	query.Decode(&r.PDU, b, len(b), dissect.DirS2C)
	return r
}

// threadCPU is the CPU time the calling thread has used.
func threadCPU(t *testing.T) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ts.Nano())
}

// TestTreeCostIsLinear renders a tree of k repeated keys (each with an
// expert item, or names that repeat) and one of 8k, in every tree output,
// and checks that the
// larger costs less than 24 times the smaller: 8 is linear, 64 quadratic
// (a look through every expert item, or every node of a repeated name,
// per node took -V of 50 such full stats from 0.06 s to 145 s). Costs are
// the thread's CPU time, the least of several interleaved runs, and the
// factor leaves a linear renderer three times the room it needs, so a busy
// machine does not fail it; a quadratic one exceeds it by more than twice.
func TestTreeCostIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("renders trees of 16,000 nodes several times")
	}
	const k, factor, tries = 2000, 24.0, 5
	cases := []struct {
		name, format string
		o            Options
		rec          func(int) *record.Record
	}{
		{"V", "text", Options{Verbose: true}, fullStatKeys},
		{"json", "json", Options{}, fullStatKeys},
		{"ek", "ek", Options{}, fullStatKeys},
		{"ek-names", "ek", Options{}, fullStatNames},
		{"html", "html", Options{}, fullStatKeys},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			small, large := c.rec(k), c.rec(8*k)
			if len(large.PDU.Nodes) < 8*k {
				t.Fatalf("the large record has %d nodes, want at least %d", len(large.PDU.Nodes), 8*k)
			}
			// One renderer per size, warmed by a first record, as a run
			// renders many: its scratch space is grown once.
			ws := [2]Writer{New(c.format, io.Discard, c.o), New(c.format, io.Discard, c.o)}
			recs := [2]*record.Record{small, large}
			best := [2]time.Duration{1 << 62, 1 << 62}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for try := range tries + 1 {
				for i, w := range ws {
					start := threadCPU(t)
					if err := w.Record(recs[i]); err != nil {
						t.Fatal(err)
					}
					if d := threadCPU(t) - start; try > 0 {
						best[i] = min(best[i], d)
					}
				}
			}
			ratio := float64(best[1]) / float64(max(best[0], time.Microsecond))
			t.Logf("%d keys: %v, %d keys: %v (×%.1f)", k, best[0], 8*k, best[1], ratio)
			if ratio > factor {
				t.Errorf("8 times the keys cost %.1f times as much (least of %d runs: %v, %v): more than linear", ratio, tries, best[0], best[1])
			}
		})
	}
}

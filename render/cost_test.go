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
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/classic"
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

// secrets is a Classic record of k names and k verification keys by turns,
// each key a secret of its own under the root: k ranges for --redact to
// mask, and k nodes to look up in them.
func secrets(k int) *record.Record {
	data := []byte(strings.Repeat("0123456789abcdef", 2*k))
	r := &record.Record{Frame: 1, Src: netip.MustParseAddrPort("10.0.0.1:40000"), Dst: netip.MustParseAddrPort("10.0.0.2:25565"), Stream: 0, TCP: true, Proto: "classic"}
	c := dissect.Begin(&r.PDU, classic.Registry.Root(), data, len(data))
	for range k {
		c.Field(classic.FieldUsername, 16, dissect.B(c.Peek(16)))
		i := c.Field(classic.FieldKey, 16, dissect.B(c.Peek(16)))
		r.PDU.Nodes[i].Flags |= dissect.FlagSensitive
	}
	c.Finish()
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
		{"html-redact", "html", Options{Redact: true}, secrets},
		{"pdml", "pdml", Options{}, fullStatKeys},
		{"pdml-redact", "pdml", Options{Redact: true}, secrets},
		{"V-redact", "text", Options{Verbose: true, Hex: true, Redact: true}, secrets},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			small, large := c.rec(k), c.rec(8*k)
			if len(large.PDU.Nodes) < 8*k {
				t.Fatalf("the large record has %d nodes, want at least %d", len(large.PDU.Nodes), 8*k)
			}
			recs := [2]*record.Record{small, large}
			best := [2]time.Duration{1 << 62, 1 << 62}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for range tries {
				for i, r := range recs {
					// A renderer per record: the page refuses records
					// past its size, so one renderer would stop.
					w := New(c.format, io.Discard, c.o)
					w.Begin()
					start := threadCPU(t)
					if err := w.Record(r); err != nil {
						t.Fatal(err)
					}
					best[i] = min(best[i], threadCPU(t)-start)
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

package ipfrag

import (
	"bytes"
	"math/rand/v2"
	"net/netip"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/budget"
)

var (
	t0  = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	key = Key{Src: netip.MustParseAddr("2001:db8::1"), Dst: netip.MustParseAddr("2001:db8::2"), ID: 7, Proto: 17, V6: true}
)

type frag struct {
	off  int
	more bool
	data string
}

func TestAdd(t *testing.T) {
	for _, c := range []struct {
		name    string
		frags   []frag
		want    string // the payload, "" if it must not complete
		overlap bool
		why     Reason // given up with this reason, if it does not complete
	}{
		{"in order", []frag{{0, true, "abcd"}, {4, true, "efgh"}, {8, false, "ij"}}, "abcdefghij", false, 0},
		{"last first", []frag{{8, false, "ij"}, {0, true, "abcd"}, {4, true, "efgh"}}, "abcdefghij", false, 0},
		{"one fragment", []frag{{0, false, "x"}}, "x", false, 0},
		{"duplicate", []frag{{0, true, "abcd"}, {0, true, "abcd"}, {4, false, "ef"}}, "abcdef", false, 0},
		{"overlap, first copy wins", []frag{{0, true, "abcd"}, {2, true, "XXYY"}, {6, false, "gh"}}, "abcdYYgh", true, 0},
		{"covering a held chunk", []frag{{4, true, "efgh"}, {0, false, "ABCDEFGHij"}}, "ABCDefghij", true, 0},
		{"a hole", []frag{{0, true, "abcd"}, {8, false, "ij"}}, "", false, End},
		{"past the largest datagram", []frag{{65530, true, "0123456789"}}, "", false, Malformed},
		{"two ends", []frag{{0, true, "abcd"}, {4, false, "ef"}, {4, false, "efgh"}}, "abcdef", false, 0},
		{"bytes past the end", []frag{{8, true, "ijkl"}, {0, false, "abcdefgh"}}, "", false, Malformed},
		{"past a known end", []frag{{4, false, "ef"}, {6, true, "gh"}}, "", false, Malformed},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := New[int](Limits{})
			var got Result
			done := false
			for i, f := range c.frags {
				r, ok := d.Add(key, f.off, f.more, []byte(f.data), uint64(i+1), t0, i)
				if ok {
					got, done = r, true
					break
				}
			}
			if c.want != "" {
				if !done || string(got.Payload) != c.want || got.Overlap != c.overlap {
					t.Fatalf("done %v, payload %q overlap %v; want %q overlap %v", done, got.Payload, got.Overlap, c.want, c.overlap)
				}
				if d.Pending() != 0 || d.Held() != 0 {
					t.Errorf("after completing: %d pending, %d bytes held", d.Pending(), d.Held())
				}
				return
			}
			if done {
				t.Fatalf("completed as %q", got.Payload)
			}
			d.End()
			g := d.GivenUp()
			if len(g) == 0 || g[0].Reason != c.why {
				t.Fatalf("given up %+v, want one for %v", g, c.why)
			}
			if d.Held() != 0 {
				t.Errorf("%d bytes held after End", d.Held())
			}
		})
	}
}

func TestExpire(t *testing.T) {
	d := New[string](Limits{Timeout: 30 * time.Second})
	a, b := key, key
	b.ID = 8
	d.Add(a, 0, true, []byte("old"), 1, t0, "frame 1")
	d.Add(b, 0, true, []byte("new"), 2, t0.Add(20*time.Second), "frame 2")
	d.Expire(t0.Add(31 * time.Second))
	g := d.GivenUp()
	if len(g) != 1 || g[0].Key != a || g[0].Reason != Timeout || g[0].Tag != "frame 1" || len(g[0].Parts) != 1 || g[0].Parts[0] != (Part{1, 3}) {
		t.Fatalf("given up %+v", g)
	}
	if d.Pending() != 1 {
		t.Errorf("%d pending, want the newer one", d.Pending())
	}
}

// TestBounds: past MaxBytes or MaxDatagrams the datagram least recently
// added to goes first, and the bytes held stay within the bound.
func TestBounds(t *testing.T) {
	d := New[int](Limits{MaxBytes: 10 * (1000 + overhead), MaxDatagrams: 1000})
	big := make([]byte, 1000)
	for i := range 50 {
		k := key
		k.ID = uint32(i)
		d.Add(k, 0, true, big, uint64(i+1), t0, i)
		if d.Held() > 10*(1000+overhead) {
			t.Fatalf("after %d datagrams, %d bytes held", i+1, d.Held())
		}
	}
	g := d.GivenUp()
	if len(g) != 40 || g[0].Key.ID != 0 || g[39].Key.ID != 39 || g[0].Reason != Bounds {
		t.Fatalf("given up %d, first %+v", len(g), g[0].Key)
	}
	d = New[int](Limits{MaxDatagrams: 3})
	for i := range 5 {
		k := key
		k.ID = uint32(i)
		d.Add(k, 0, true, []byte("x"), uint64(i+1), t0, i)
	}
	if g := d.GivenUp(); len(g) != 2 || d.Pending() != 3 {
		t.Fatalf("%d given up, %d pending", len(g), d.Pending())
	}
}

// TestNoDeclaredSize: a fragment at a large offset costs its own bytes,
// not the offset.
func TestNoDeclaredSize(t *testing.T) {
	d := New[int](Limits{})
	d.Add(key, 65000, true, []byte("12345678"), 1, t0, 0)
	if h := d.Held(); h != overhead+8 {
		t.Fatalf("%d bytes held for 8", h)
	}
}

// FuzzReassemble: any fragmentation of a payload, in any order, with
// duplicates, reassembles to it.
func FuzzReassemble(f *testing.F) {
	f.Add([]byte("hello, fragmented world"), uint64(1))
	f.Add(bytes.Repeat([]byte{0xab}, 3000), uint64(99))
	f.Fuzz(func(t *testing.T, payload []byte, seed uint64) {
		if len(payload) == 0 || len(payload) > maxPayload {
			return
		}
		r := rand.New(rand.NewPCG(seed, seed>>1))
		var frags []frag
		for off := 0; off < len(payload); {
			n := 1 + r.IntN(len(payload)-off)
			frags = append(frags, frag{off, off+n < len(payload), string(payload[off : off+n])})
			off += n
		}
		if r.IntN(2) == 0 {
			frags = append(frags, frags[r.IntN(len(frags))])
		}
		r.Shuffle(len(frags), func(i, j int) { frags[i], frags[j] = frags[j], frags[i] })
		d := New[int](Limits{})
		for i, fr := range frags {
			res, ok := d.Add(key, fr.off, fr.more, []byte(fr.data), uint64(i), t0, i)
			if ok {
				if !bytes.Equal(res.Payload, payload) || res.Overlap {
					t.Fatalf("reassembled %d bytes, overlap %v", len(res.Payload), res.Overlap)
				}
				return
			}
		}
		t.Fatalf("%d fragments never completed", len(frags))
	})
}

// TestSharedBudget: with an account of the process's budget, the bytes
// held stay within it, the oldest datagrams going first, and a budget
// that asks for room back (Shed) gets it.
func TestSharedBudget(t *testing.T) {
	b := budget.New(10 * (1000 + overhead))
	var d *Defragmenter[int]
	acct := b.Account("fragments", func(need int64) int64 { return d.Shed(need) })
	d = New[int](Limits{Account: acct})
	big := make([]byte, 1000)
	for i := range 30 {
		k := key
		k.ID = uint32(i)
		d.Add(k, 0, true, big, uint64(i+1), t0, i)
		if b.Used() > b.Limit() || int64(d.Held()) != acct.Used() {
			t.Fatalf("after %d: budget %d of %d, held %d, account %d", i+1, b.Used(), b.Limit(), d.Held(), acct.Used())
		}
	}
	g := d.GivenUp()
	if len(g) != 20 || g[0].Key.ID != 0 || g[0].Reason != Bounds {
		t.Fatalf("%d given up, first %+v", len(g), g[0])
	}
	if got := d.Shed(1); got == 0 || d.Pending() != 9 {
		t.Errorf("Shed gave back %d, %d pending", got, d.Pending())
	}
	d.End()
	if b.Used() != 0 {
		t.Errorf("%d bytes still charged after End", b.Used())
	}
}

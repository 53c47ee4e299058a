package reassembly

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// fuzzScript reads fuzz bytes as a script; it returns zeros when they run
// out, so every input is a valid script.
type fuzzScript struct{ b []byte }

func (s *fuzzScript) byte() byte {
	if len(s.b) == 0 {
		return 0
	}
	c := s.b[0]
	s.b = s.b[1:]
	return c
}

func (s *fuzzScript) u16() int { return int(s.byte())<<8 | int(s.byte()) }

// FuzzReassembler plays a stream cut into segments, then permuted,
// duplicated (possibly with other bytes), dropped and spread over time, and
// checks: no panic; delivered PDU, undissected and gap units tile the
// stream from its first byte to the furthest byte or FIN seen, with no
// overlap; their bytes and frame lists are those of the first copy of each
// byte; conflicts are only reported for copies that differ.
func FuzzReassembler(f *testing.F) {
	f.Add([]byte{0x01, 0xff, 0xff, 0xff, 0xf0, 0x02, 0x00, 10, 20, 30, 40, 50, 0, 1, 2, 1, 3, 0, 2, 2, 0})
	f.Add([]byte{0x06, 0, 0, 0, 7, 0x01, 0x20, 5, 5, 5, 5, 1, 0, 2, 1, 1, 3, 2, 1, 2, 0, 0})
	f.Add([]byte{0x3b, 0x80, 0, 0, 0, 0x05, 0x00, 200, 1, 200, 3, 200, 5, 4, 2, 2, 2, 4, 5, 0, 3, 1, 4, 1})
	f.Add([]byte{0x5c, 0x12, 0x34, 0x56, 0x78, 0x03, 0x00, 50, 60, 70, 80, 90, 2, 0, 0, 4, 0, 0, 1, 1, 3, 3, 1, 2})
	f.Fuzz(func(t *testing.T, in []byte) {
		s := &fuzzScript{b: in}
		flags := s.byte()
		withSYN, withFIN, corrupt := flags&1 != 0, flags&2 != 0, flags&4 != 0
		framer := (flags >> 3) & 3
		small := flags&0x20 != 0
		isn := uint32(s.byte())<<24 | uint32(s.byte())<<16 | uint32(s.byte())<<8 | uint32(s.byte())
		n := s.u16() % 3000
		rng := rand.New(rand.NewPCG(uint64(isn), uint64(n)))
		stream := make([]byte, n)
		for i := range stream {
			stream[i] = byte(rng.UintN(256))
		}

		type fseg struct {
			off, end int
			data     []byte
			fin      bool
			at       time.Duration
			ack      int // > 0: a bare ACK from the server acknowledging offset ack-1
		}
		var segs []fseg
		for off := 0; off < n; {
			l := 1 + int(s.byte())%200
			if len(s.b) == 0 {
				l = 100
			}
			end := min(n, off+l)
			segs = append(segs, fseg{off: off, end: end, data: stream[off:end]})
			off = end
		}
		if withFIN {
			segs = append(segs, fseg{off: n, end: n, fin: true})
		}
		var now time.Duration
		for ops := 0; len(s.b) >= 3 && ops < 64 && len(segs) > 0; ops++ {
			op, a, b := s.byte()%6, int(s.byte()), int(s.byte())
			i, j := a%len(segs), b%len(segs)
			switch op {
			case 0: // swap
				segs[i], segs[j] = segs[j], segs[i]
			case 1: // duplicate a segment, maybe with other bytes
				d := segs[i]
				if corrupt && b&1 != 0 && len(d.data) > 0 {
					d.data = bytes.Clone(d.data)
					d.data[b%len(d.data)] ^= 0x5A
				}
				segs = append(segs, d)
			case 2: // drop
				segs = append(segs[:i], segs[i+1:]...)
			case 3: // retransmit an arbitrary range, crossing boundaries
				lo := (a * 13) % max(n, 1)
				hi := min(n, lo+1+b*3)
				if lo < hi {
					segs = append(segs, fseg{off: lo, end: hi, data: stream[lo:hi]})
				}
			case 4: // let packet time pass from segment i on
				now += time.Duration(b%40) * time.Second
				segs[i].at = now
			case 5: // the server acknowledges the stream up to an offset, after segment i
				ack := fseg{ack: 1 + (a*256+b)%(n+1), at: segs[i].at}
				segs = slices.Insert(segs, i+1, ack)
			}
		}

		// The model keeps every segment of the stream seen (from the first
		// with data or a FIN on, when no SYN says where it starts).
		var m streamModel
		base, end := -1, -1
		frame := uint64(0)
		quiet := true // no time passes and no ACK comes: only Close gives holes up
		var script []pkt
		if withSYN {
			base, end = 0, 0
			script = append(script, pkt{seq: isn, flags: "S"})
			frame++
		}
		var at time.Duration
		for _, sg := range segs {
			// Time only moves forward, and never by the idle timeout at
			// once, which would (rightly) start a new stream.
			at = min(max(at, sg.at), at+DefaultIdleTimeout-time.Second)
			p := pkt{seq: isn + 1 + uint32(sg.off), flags: "A", payload: sg.data, at: int(at / time.Millisecond)}
			if at > 0 {
				quiet = false
			}
			if sg.ack > 0 {
				script = append(script, pkt{s2c: true, seq: 9000, flags: "A", ack: isn + uint32(sg.ack), at: p.at})
				frame++
				quiet = false
				continue
			}
			if sg.fin {
				p.flags = "AF"
			}
			script = append(script, p)
			frame++
			if base < 0 && (len(sg.data) > 0 || sg.fin) {
				base, end = sg.off, sg.off
			}
			if base < 0 {
				continue
			}
			end = max(end, sg.end)
			m.add(frame, sg.off, sg.data)
		}
		firstFrame, firstVal := m.stream(max(base, 0), end)

		lim := Limits{}
		if small {
			lim = Limits{MaxBufferedPerConn: 4000, MaxBufferedTotal: 20000, HistoryBytes: 300}
		}
		units, log, stats := fuzzRun(t, script, lim, framer, false)
		// Holding bytes that come in order must not change anything a
		// caller sees: the same script with every byte through the store
		// gives the same units.
		_, refLog, refStats := fuzzRun(t, script, lim, framer, true)
		if !slices.Equal(log, refLog) {
			t.Fatalf("units:\n%s\nvia the store:\n%s", strings.Join(log, "\n"), strings.Join(refLog, "\n"))
		}
		if !sameStats(stats, refStats) {
			t.Fatalf("stats %+v\nvia the store %+v", stats, refStats)
		}

		if lim := lim.withDefaults(); stats.PeakQueued > lim.MaxBufferedTotal {
			t.Fatalf("%d bytes held out of order at the peak, over the limit of %d", stats.PeakQueued, lim.MaxBufferedTotal)
		}
		next := int64(0)
		for _, u := range units {
			if u.Conn.Stream != 0 || u.Dir != ClientToServer {
				t.Fatalf("unit on stream %d dir %v", u.Conn.Stream, u.Dir)
			}
			for _, p := range u.Parts {
				if p.Frame > u.Frame {
					t.Fatalf("unit %s is decided before frame #%d that carried its bytes", formatUnit(&u), p.Frame)
				}
			}
			lo := int(u.StreamOffset)
			if u.Kind == KindConflict {
				if !corrupt {
					t.Fatalf("conflict without corrupted copies: %s", formatUnit(&u))
				}
				if u.Data[0] == firstVal[lo] || u.Data[u.Length-1] == firstVal[lo+u.Length-1] {
					t.Fatalf("conflict on equal bytes: %s", formatUnit(&u))
				}
				continue
			}
			if u.StreamOffset != next {
				t.Fatalf("unit %s starts at %d, want %d", formatUnit(&u), u.StreamOffset, next)
			}
			next += int64(u.Length)
			if u.Kind == KindGap {
				// A gap gives up bytes that had not come by the frame
				// that decides it, and, without time or ACKs to give
				// holes up and with room to hold bytes, only the end does.
				for o := lo; o < lo+u.Length; o++ {
					if f := firstFrame[o]; f != 0 && f <= u.Frame {
						t.Fatalf("gap %s gives up byte %d, carried by frame #%d", formatUnit(&u), o, f)
					}
				}
				if quiet && !small && u.Frame != uint64(len(script)) {
					t.Fatalf("gap %s decided before the end, with no reason to give the hole up", formatUnit(&u))
				}
				continue
			}
			if !bytes.Equal(u.Data, firstVal[lo:lo+u.Length]) {
				t.Fatalf("unit %s: bytes are not the first copy", formatUnit(&u))
			}
			var want []Part
			for o := lo; o < lo+u.Length; o++ {
				if k := len(want); k > 0 && want[k-1].Frame == firstFrame[o] {
					want[k-1].Bytes++
				} else {
					want = append(want, Part{Frame: firstFrame[o], Bytes: 1})
				}
			}
			if !equalParts(u.Parts, want) {
				t.Fatalf("unit %s: parts, want %v", formatUnit(&u), want)
			}
			if u.Kind == KindPDU {
				switch framer {
				case 2:
					if u.Length != 7 {
						t.Fatalf("fixed PDU of %d bytes", u.Length)
					}
				default:
					if u.Length != 1+int(u.Data[0]) {
						t.Fatalf("prefix PDU %s is mis-framed", formatUnit(&u))
					}
				}
			}
		}
		if want := int64(max(end-base, 0)); next != want {
			t.Fatalf("units cover %d bytes, stream seen covers %d (base %d)", next, want, base)
		}
	})
}

// fuzzRun plays a fuzz script through a new Reassembler, closes it and
// checks that it ended clean; it returns the units delivered (copies), the
// same formatted, and the final Stats.
func fuzzRun(t *testing.T, script []pkt, lim Limits, framer byte, viaStore bool) ([]Unit, []string, Stats) {
	var units []Unit
	var log []string
	r := New(func(c *ConnInfo) ConnHandler {
		rc := &recorder{units: &units, log: &log}
		fixed := fixedFrame(7)
		rc.frame = func(_ Dir, b []byte, afterGap bool) FrameResult {
			switch framer {
			case 1:
				if afterGap {
					return Lost()
				}
			case 2:
				return fixed(b)
			case 3:
				if afterGap && b[0] > 50 {
					return Skip(1)
				}
			}
			return prefixFrame(b)
		}
		return rc
	}, lim)
	r.viaStore = viaStore
	feed(r, 1, script)
	r.Close()
	if r.internalErrors != 0 {
		t.Fatalf("via the store %v: %d internal errors", viaStore, r.internalErrors)
	}
	st := r.Stats()
	if st.Buffered != 0 || st.Queued != 0 {
		t.Fatalf("via the store %v: after Close: buffered %d, queued %d", viaStore, st.Buffered, st.Queued)
	}
	return units, log, st
}

func equalParts(a, b []Part) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

package slp

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// FuzzFrame feeds arbitrary bytes, cut at arbitrary points, to Frame as a
// reassembler would (appending each segment, consuming what is framed) and
// decodes every PDU. Invariants: no panic; FrameOK never claims more than
// the buffer or zero bytes; a need-more length is beyond the buffer and
// bounded; a skip is of at least one byte; every tree passes dissect.Check.
// gaps sets where bytes go missing, as the reassembler reports them: bit 0
// and 1, the client's or the server's stream starts mid-way (afterGap
// from the first call), bit 2 and 3, the third segment of that direction
// is lost (its bytes dropped, the PDU being built with them, afterGap
// until the framer answers FrameOK).
func FuzzFrame(f *testing.F) {
	for _, steps := range conversations() {
		var c2sB, s2cB []byte
		for _, s := range steps {
			if s.dir == c2s {
				c2sB = append(c2sB, s.data...)
			} else {
				s2cB = append(s2cB, s.data...)
			}
		}
		f.Add(c2sB, s2cB, uint16(7), uint16(3), uint8(0))
		f.Add(c2sB, s2cB, uint16(9), uint16(50), uint8(0xf))
	}
	f.Add(hx("80 80 80 80 80 01"), []byte{}, uint16(1), uint16(1), uint8(0))
	f.Add([]byte{0xFE, 0x01}, kick("§1\x00127\x00v\x00m\x000\x001"), uint16(1), uint16(2), uint8(0))
	f.Fuzz(func(t *testing.T, a, b []byte, cutA, cutB uint16, gaps uint8) {
		c := NewConn()
		p := &dissect.PDU{}
		// fc and lc decode the same PDUs, in full and in Lite mode, and
		// never frame, as the pipeline's decoding goroutine does; each PDU
		// is kept, to see that no later PDU changes what it says. They
		// must say the same.
		fc, lc := NewConn(), NewConn()
		var fulls, lites []*dissect.PDU
		decode := func(data []byte, wireLen int, dir dissect.Dir) {
			c.DecodeCut(p, data, wireLen, dissect.Meta{Dir: dir})
			fp, lp := &dissect.PDU{}, &dissect.PDU{Lite: true}
			fc.DecodeCut(fp, data, wireLen, dissect.Meta{Dir: dir})
			lc.DecodeCut(lp, data, wireLen, dissect.Meta{Dir: dir})
			fulls, lites = append(fulls, fp), append(lites, lp)
			sameSummaries(t, fulls, lites)
		}
		feed := func(dir dissect.Dir, data []byte, cut int, midStream, lose bool) {
			var buf []byte
			if cut <= 0 {
				cut = 1
			}
			afterGap, skip, seg := midStream, 0, 0
			for len(data) > 0 || len(buf) > 0 {
				n := min(cut, len(data))
				seg++
				if lose && seg == 3 {
					// a segment not captured: the PDU being built is given up
					data, buf, afterGap = data[n:], buf[:0], true
					continue
				}
				if skip > 0 {
					k := min(skip, n)
					data, n, skip = data[k:], n-k, skip-k
				}
				buf = append(buf, data[:n]...)
				data = data[n:]
				for len(buf) > 0 {
					fr := c.Frame(dir, buf, afterGap)
					if fr.Status == dissect.FrameOK {
						if fr.Len <= 0 || fr.Len > len(buf) {
							t.Fatalf("FrameOK %d of %d bytes", fr.Len, len(buf))
						}
						afterGap = false
						decode(buf[:fr.Len], fr.Len, dir)
						if err := dissect.Check(p); err != nil {
							t.Fatalf("%v", err)
						}
						buf = buf[fr.Len:]
						continue
					}
					if fr.Status == dissect.FrameSkip {
						if fr.Len <= 0 {
							t.Fatalf("skip of %d bytes", fr.Len)
						}
						k := min(fr.Len, len(buf))
						buf, skip = buf[k:], fr.Len-k
						continue
					}
					if fr.Status == dissect.FrameNeedMore && fr.Len != 0 && (fr.Len <= len(buf) || fr.Len > MaxFrameLength+3) {
						t.Fatalf("need more %d with %d buffered", fr.Len, len(buf))
					}
					if fr.Status == dissect.FrameLost && fr.Reason == "" {
						t.Fatalf("lost without a reason")
					}
					break
				}
				if len(data) == 0 {
					if len(buf) > 0 && len(buf) < 4 && c.Frame(dir, buf, afterGap).Status == dissect.FrameNeedMore {
						// an incomplete PDU at the end: decode what there is as cut
						decode(buf, len(buf)+1, dir)
						if err := dissect.Check(p); err != nil {
							t.Fatalf("cut: %v", err)
						}
					}
					return
				}
			}
		}
		feed(c2s, a, int(cutA%64), gaps&1 != 0, gaps&4 != 0)
		feed(s2c, b, int(cutB%64), gaps&2 != 0, gaps&8 != 0)
		fc.Close(dissect.ConnEnd{})
		lc.Close(dissect.ConnEnd{})
		sameSummaries(t, fulls, lites)
	})
}

// sameSummaries fails unless Lite decoding said what full decoding said.
func sameSummaries(t *testing.T, fulls, lites []*dissect.PDU) {
	t.Helper()
	for k := range fulls {
		f, l := fulls[k], lites[k]
		if f.Message != l.Message || f.Info != l.Info || f.Dir != l.Dir {
			t.Fatalf("PDU %d: full %q %q %v, Lite %q %q %v", k, f.Message, f.Info, f.Dir, l.Message, l.Info, l.Dir)
		}
		if l.Pending {
			t.Fatalf("PDU %d: a Lite PDU is Pending (full: %v): nothing it shows waits for a response", k, f.Pending)
		}
		if len(l.Nodes) != 1 {
			t.Fatalf("PDU %d: Lite tree of %d nodes", k, len(l.Nodes))
		}
	}
}

// FuzzDecode decodes arbitrary bytes as a PDU in one of several connection
// states (fresh, status, login, compressed login, play, legacy).
func FuzzDecode(f *testing.F) {
	for _, steps := range conversations() {
		for k, s := range steps {
			f.Add(uint8(k), s.data)
		}
	}
	f.Add(uint8(3), hx("07 00 80 80 80 80 80 01"))
	f.Fuzz(func(t *testing.T, state uint8, data []byte) {
		c := NewConn()
		p := &dissect.PDU{}
		var prefix []step
		switch state % 6 {
		case 1:
			prefix = []step{{c2s, seedHandshake}}
		case 2:
			prefix = []step{{c2s, handshake(766, "h", 25565, 2)}}
		case 3:
			prefix = []step{{c2s, handshake(766, "h", 25565, 2)}, {s2c, pkt(3, vi(64))}}
		case 4:
			prefix = []step{{c2s, handshake(763, "h", 25565, 2)}, {s2c, pkt(2, make([]byte, 16), mcstr("x"))}}
		case 5:
			prefix = []step{{c2s, []byte{0xFE, 0x01}}}
		}
		lc := NewConn() // the same in Lite mode, never framing
		var fulls, lites []*dissect.PDU
		decode := func(data []byte, wireLen int, m dissect.Meta) {
			fp, lp := &dissect.PDU{}, &dissect.PDU{Lite: true}
			c.DecodeCut(fp, data, wireLen, m)
			lc.DecodeCut(lp, data, wireLen, m)
			fulls, lites = append(fulls, fp), append(lites, lp)
			sameSummaries(t, fulls, lites)
			*p = *fp
		}
		for _, s := range prefix {
			c.Frame(s.dir, s.data, false)
			decode(s.data, len(s.data), dissect.Meta{Dir: s.dir})
		}
		dir := c2s
		if state&0x80 != 0 {
			dir = s2c
		}
		decode(data, len(data), dissect.Meta{Dir: dir, Server: "1.2.3.4:25565"})
		if err := dissect.Check(p); err != nil {
			t.Fatalf("%v", err)
		}
		decode(data, len(data)+int(state), dissect.Meta{Dir: dir})
		if err := dissect.Check(p); err != nil {
			t.Fatalf("cut: %v", err)
		}
		c.Close(dissect.ConnEnd{})
		lc.Close(dissect.ConnEnd{})
		sameSummaries(t, fulls, lites)
	})
}

package classic

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

var (
	fuzzAll  = cpeConn(append(append([]any(nil), allExts...), "ExtEntityPositions", 1, "ExtendedBlocks", 1, "FastMap", 1)...)
	fuzzCPE  = cpeAll()
	fuzzWide = cpeConn("ExtEntityPositions", 1, "ExtendedBlocks", 1, "FastMap", 1, "HeldBlock", 1, "EnvMapAppearance", 2, "BlockDefinitionsExt", 2, "CustomModels", 2, "ExtendedTextures", 1)
)

// clone copies a template connection, so that each fuzz input starts from
// the same negotiation without paying for it.
func clone(c *Conn) *Conn {
	d := *c
	for i := range d.ext {
		d.ext[i] = append([]extAnn(nil), c.ext[i]...)
	}
	d.level = level{}
	d.d = nil
	return &d
}

func seedCorpus(f *testing.F) {
	for _, tc := range packetCases {
		f.Add(byte(tc.dir), tc.data)
	}
}

// FuzzFrame frames arbitrary bytes as a stream of either direction, after a
// gap or not, on a CPE connection with every extension: no panic, every
// answer within the buffer, progress on OK and Skip. Each packet is also
// decoded Lite on a second Conn that never frames (told of the gap by
// Gap), as the two-goroutine pipeline does: its Message, Info, Dir and
// Pending are those of the Conn that frames and decodes in full.
func FuzzFrame(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, flags byte, data []byte) {
		var c, lite *Conn
		if flags&4 != 0 {
			c, lite = clone(fuzzAll), clone(fuzzAll)
		} else {
			c, lite = NewConn(nil), NewConn(nil)
		}
		dir := dissect.DirC2S
		if flags&1 != 0 {
			dir = dissect.DirS2C
		}
		gap := flags&2 != 0
		if gap {
			lite.Gap(dir)
		}
		var q dissect.PDU
		q.Lite = true
		for len(data) > 0 {
			fr := c.Frame(dir, data, gap)
			gap = false
			switch fr.Status {
			case dissect.FrameOK, dissect.FrameSkip:
				if fr.Len <= 0 || fr.Len > len(data) {
					t.Fatalf("%v len %d of %d", fr.Status, fr.Len, len(data))
				}
				if fr.Status == dissect.FrameOK {
					var p dissect.PDU
					c.Decode(&p, data[:fr.Len], dissect.Meta{Dir: dir})
					if err := dissect.Check(&p); err != nil {
						t.Fatal(err)
					}
					checkAgreed(t, c)
					lite.Decode(&q, data[:fr.Len], dissect.Meta{Dir: dir})
					if a, b := summary(&p), summary(&q); a != b {
						t.Fatalf("full: %s\nlite, decode-only: %s", a, b)
					}
				}
				data = data[fr.Len:]
			default:
				return
			}
		}
	})
}

// FuzzDecode decodes arbitrary bytes as one packet of either direction, cut
// or not, on a vanilla or a CPE connection: Check holds, and a Lite decode
// on a twin connection gives the same Message, Info, Dir and Pending.
func FuzzDecode(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, flags byte, data []byte) {
		var c, lc *Conn
		switch flags & 12 {
		case 0:
			c, lc = NewConn(nil), NewConn(nil)
		case 4:
			c, lc = clone(fuzzCPE), clone(fuzzCPE)
		default:
			c, lc = clone(fuzzWide), clone(fuzzWide)
		}
		var q dissect.PDU
		q.Lite = true
		same := func(p *dissect.PDU) {
			t.Helper()
			if a, b := summary(p), summary(&q); a != b {
				t.Fatalf("full: %s\nlite: %s", a, b)
			}
		}
		dir := dissect.DirC2S
		if flags&1 != 0 {
			dir = dissect.DirS2C
		}
		wire := len(data)
		if flags&2 != 0 {
			wire += int(flags >> 4)
		}
		var p dissect.PDU
		c.DecodeCut(&p, data, wire, dissect.Meta{Dir: dir})
		if err := dissect.Check(&p); err != nil {
			t.Fatal(err)
		}
		lc.DecodeCut(&q, data, wire, dissect.Meta{Dir: dir})
		same(&p)
		// A known packet cut short (the bytes do not reach its end): one
		// failure, truncated, never malformed.
		short := false
		if len(data) > 0 {
			if pk := c.known(dir, data[0]); pk != nil {
				short = len(data) < c.pktLen(pk, data) || c.pktLen(pk, data) < 0
			}
		}
		if n, e := dissect.CountFailures(&p); wire > len(data) && short && (n != 1 || e.Info != dissect.ExpertTruncated) {
			t.Fatalf("cut %d of %d: %d failures\n%s", len(data), wire, n, dumpTree(&p))
		}
		// A level chunk of these bytes, then a finalize: the level path.
		if dir == dissect.DirS2C && len(data) > 0 {
			chunk := make([]byte, 1028)
			chunk[0] = 0x03
			n := copy(chunk[3:1027], data)
			chunk[1], chunk[2] = byte(n>>8), byte(n)
			for _, pkt := range [][]byte{[]byte{0x02, 0, 0, 0, 8}[:1+4*b2i(c.n.fastMap)], chunk, {0x04, 0, 2, 0, 2, 0, 2}} {
				c.Decode(&p, pkt, dissect.Meta{Dir: dir})
				lc.Decode(&q, pkt, dissect.Meta{Dir: dir})
				same(&p)
			}
			if err := dissect.Check(&p); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// FuzzHeartbeat frames and decodes arbitrary bytes as heartbeat HTTP, and
// decodes each message again Lite on a Heartbeat that never frames. A
// message the bytes end inside whose length the framer knows (a
// Content-Length body) is decoded cut, as the pipeline does at a gap or
// the connection's end. With flags bit 1 the bytes follow a gap: framing
// resynchronises first, skipping what it must.
func FuzzHeartbeat(f *testing.F) {
	f.Add(byte(0), []byte("GET /heartbeat.jsp?port=25565&max=32&name=My%20Server&public=True&version=7&salt=wo6kVAHjxoJcInKx&users=0\r\n"))
	f.Add(byte(0), []byte("POST /heartbeat.jsp HTTP/1.1\r\nContent-Length: 12\r\n\r\nsalt=abc&x=%"))
	f.Add(byte(1), []byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"))
	f.Add(byte(1), []byte("HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhttp:"))
	f.Add(byte(1), []byte("http://minecraft.net/classic/play/abc"))
	// Cut: inside the salt of a POST body, and inside a response's body.
	f.Add(byte(0), []byte(cutPost[:len(cutPost)-12]))
	f.Add(byte(1), []byte(cutResp[:len(cutResp)-5]))
	// Chunked, a chunk boundary inside the salt; many parameters; after a gap.
	f.Add(byte(0), []byte(chunkedPost(hbQuery(0), 20, 70)))
	f.Add(byte(0), []byte(chunkedPost(hbQuery(0), 20, 70)[:150]))
	f.Add(byte(0), []byte("GET /heartbeat.jsp?"+hbQuery(300)+" HTTP/1.1\r\n\r\n"))
	f.Add(byte(2), []byte("ers=0 HTTP/1.1\r\nHost: x\r\n\r\nGET /heartbeat.jsp?"+hbQuery(0)+" HTTP/1.1\r\n\r\n"))
	f.Add(byte(3), []byte("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nplay"))
	f.Fuzz(func(t *testing.T, flags byte, data []byte) {
		h := NewHeartbeat(NewSession())
		dir := dissect.DirC2S
		if flags&1 != 0 {
			dir = dissect.DirS2C
		}
		afterGap := flags&2 != 0
		for len(data) > 0 {
			fr := h.Frame(dir, data, afterGap)
			if fr.Status == dissect.FrameSkip {
				if !afterGap || fr.Len <= 0 || fr.Len > len(data) {
					t.Fatalf("skip %d of %d (after a gap: %v)", fr.Len, len(data), afterGap)
				}
				data = data[fr.Len:]
				continue
			}
			if fr.Status == dissect.FrameNeedMore && !afterGap {
				fr = h.FrameAtEnd(dir, data)
			}
			afterGap = false
			wire := fr.Len
			if fr.Status == dissect.FrameNeedMore && fr.Len > len(data) {
				fr.Status, fr.Len = dissect.FrameOK, len(data) // cut
			}
			if fr.Status != dissect.FrameOK {
				return
			}
			if fr.Len <= 0 || fr.Len > len(data) {
				t.Fatalf("len %d of %d", fr.Len, len(data))
			}
			wire = max(wire, fr.Len)
			var p, q dissect.PDU
			h.DecodeCut(&p, data[:fr.Len], wire, dissect.Meta{Dir: dir, Client: "1.2.3.4:5"})
			if err := dissect.Check(&p); err != nil {
				t.Fatalf("%v\n%s", err, dumpTree(&p))
			}
			q.Lite = true
			NewHeartbeat(NewSession()).DecodeCut(&q, data[:fr.Len], wire, dissect.Meta{Dir: dir, Client: "1.2.3.4:5"})
			if n, e := dissect.CountFailures(&p); wire > fr.Len && (n != 1 || e.Info != dissect.ExpertTruncated) {
				t.Fatalf("cut %d of %d: %d failures\n%s", fr.Len, wire, n, dumpTree(&p))
			}
			if a, b := summary(&p), summary(&q); a != b {
				t.Fatalf("full: %s\nlite, decode-only: %s", a, b)
			}
			data = data[fr.Len:]
		}
	})
}

// checkAgreed holds Conn.agreed, kept up to date as entries are observed,
// to Negotiated, which searches the lists.
func checkAgreed(t *testing.T, c *Conn) {
	t.Helper()
	for i := range packetTable {
		p := &packetTable[i]
		if p.extBit < 0 {
			continue
		}
		_, ok := c.Negotiated(p.ext)
		if got := c.agreed&(1<<p.extBit) != 0; got != ok {
			t.Fatalf("%s: agreed bit %v, Negotiated %v", p.ext, got, ok)
		}
	}
}

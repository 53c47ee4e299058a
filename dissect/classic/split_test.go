package classic

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// summary is what a PDU must show the same whether or not it was decoded
// Lite: its direction, message and Info. Pending differs: a full PDU may
// be held (an ExtEntry waiting for the other side's list, agreed.go), a
// Lite one never is (dissect.PDU.Lite).
func summary(p *dissect.PDU) string {
	return fmt.Sprintf("%s %q %q", p.Dir, p.Message, p.Info)
}

// classicSamples are the repository's Classic captures: the real session
// and the hand-made ones (heartbeat included).
func classicSamples(t *testing.T) []string {
	var files []string
	for _, g := range []string{"classic-*.pcap", "handmade-*classic*.pcap"} {
		m, _ := filepath.Glob(filepath.Join(*samplesDir, g))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("no Classic samples")
	}
	return files
}

// synthStep is one step of a made-up connection: a segment of payload in
// one direction, or skip bytes of it that the capture never saw.
type synthStep struct {
	c2s     bool
	payload []byte
	skip    int
}

// synthConn turns steps into the segments of one connection, SYNs first,
// so that replay reassembles it as it would a capture.
func synthConn(steps []synthStep) []segment {
	const client, server = "10.9.0.1:50000", "10.9.0.2:25565"
	segs := []segment{{frame: 1, src: client, dst: server, seq: 1000, syn: true}, {frame: 2, src: server, dst: client, seq: 5000, syn: true}}
	next := map[bool]uint32{true: 1001, false: 5001}
	for _, st := range steps {
		if st.skip > 0 {
			next[st.c2s] += uint32(st.skip)
			continue
		}
		src, dst := server, client
		if st.c2s {
			src, dst = client, server
		}
		segs = append(segs, segment{frame: uint64(len(segs) + 1), src: src, dst: dst, seq: next[st.c2s], payload: st.payload})
		next[st.c2s] += uint32(len(st.payload))
	}
	return segs
}

func joinPkts(ps ...[]byte) []byte {
	var b []byte
	for _, p := range ps {
		b = append(b, p...)
	}
	return b
}

// gapInLevel: the server's stream loses bytes in the middle of a level
// (once at a packet boundary, once inside a chunk), then sends a second,
// whole level; the client's stream loses bytes between position updates.
func gapInLevel() []segment {
	blocks := make([]byte, 32*16*32) // noise, so that the level takes a dozen chunks
	seed := uint32(7)
	for i := range blocks {
		seed = seed*1664525 + 1013904223
		blocks[i] = byte(seed>>24) % 50
	}
	chs := chunks(gzipLevel(blocks))
	fin := cat(0x04, be16(32), be16(16), be16(32))
	pos := func(x int) []byte { return cat(0x08, 0xff, be16(x), be16(5*32+51), be16(256), 0, 0) }
	steps := []synthStep{
		{c2s: true, payload: cat(0x00, 7, "steve", "-", 0x00)},
		{payload: joinPkts(cat(0x00, 7, "gappy", "a server with holes", 0x00), []byte{0x02}, chs[0])},
		{c2s: true, payload: joinPkts(pos(256), pos(260))},
		{payload: chs[1][:300]},
		{skip: len(chs[1]) - 300}, // the rest of chunk 1: the next segment starts at a packet
		{payload: joinPkts(chs[2:4]...)},
		{c2s: true, skip: 15},
		{c2s: true, payload: pos(268)[5:]},
		{c2s: true, payload: joinPkts(pos(276), pos(280), cat(0x0d, 0xff, "after the gap"))},
		{skip: 500}, // inside chunk 4: the framer skips to the next packet
		{payload: chs[4][500:]},
		{payload: joinPkts(joinPkts(chs[5:]...), fin, []byte{0x01}, []byte{0x01})},
		// A second level, whole: it inflates as if no gap had been.
		{payload: joinPkts([]byte{0x02}, joinPkts(chs...), fin, cat(0x0d, 0xff, "&ewelcome back"))},
	}
	return synthConn(steps)
}

// TestSplitFrameDecode frames every Classic sample with one Conn (or
// Heartbeat) and decodes with a second one, as the two-goroutine pipeline
// does, telling the second of gaps through Gap: the trees, Info and expert
// items are those of one instance doing both.
func TestSplitFrameDecode(t *testing.T) {
	cases := map[string][]segment{"synthetic gap in a level": gapInLevel()}
	for _, f := range classicSamples(t) {
		cases[filepath.Base(f)] = readPcap(t, f)
	}
	for name, segs := range cases {
		t.Run(name, func(t *testing.T) {
			one := replay(t, segs)
			two := replayWith(t, segs, replayOpts{split: true})
			if len(one.pdus) == 0 {
				t.Fatal("nothing decoded")
			}
			if !reflect.DeepEqual(one, two) {
				for i := range min(len(one.pdus), len(two.pdus)) {
					if one.pdus[i] != two.pdus[i] {
						t.Fatalf("PDU %d differs\none instance:\n%s\nsplit:\n%s", i, one.pdus[i], two.pdus[i])
					}
				}
				t.Fatalf("one instance: %d PDUs, lost %q, experts %v; split: %d PDUs, lost %q, experts %v",
					len(one.pdus), one.lost, one.experts, len(two.pdus), two.lost, two.experts)
			}
		})
	}
	// The synthetic case shows what it is for: the level across the gap is
	// reported, not inflated; the next one is.
	r := replayWith(t, cases["synthetic gap in a level"], replayOpts{split: true})
	if r.experts["classic.level.gap"] != 1 || r.objects != 2 || len(r.lost) < 2 { // one level's blocks and map
		t.Errorf("gap in a level: experts %v, %d objects, lost %q", r.experts, r.objects, r.lost)
	}
}

// TestLiteSummaries decodes every Classic sample with and without
// dissect.PDU.Lite, on one instance and split: Dir, Message and Info are
// the same, and so is the framing.
func TestLiteSummaries(t *testing.T) {
	cases := map[string][]segment{"synthetic gap in a level": gapInLevel()}
	for _, f := range classicSamples(t) {
		cases[filepath.Base(f)] = readPcap(t, f)
	}
	for name, segs := range cases {
		t.Run(name, func(t *testing.T) {
			full := replay(t, segs)
			for _, o := range []replayOpts{{lite: true}, {lite: true, split: true}} {
				lite := replayWith(t, segs, o)
				if !reflect.DeepEqual(full.sums, lite.sums) {
					for i := range min(len(full.sums), len(lite.sums)) {
						if full.sums[i] != lite.sums[i] {
							t.Fatalf("%+v: PDU %d\nfull: %s\nlite: %s", o, i, full.sums[i], lite.sums[i])
						}
					}
					t.Fatalf("%+v: %d PDUs, lite %d", o, len(full.sums), len(lite.sums))
				}
				if strings.Join(full.lost, "\n") != strings.Join(lite.lost, "\n") {
					t.Errorf("%+v: lost %q, lite %q", o, full.lost, lite.lost)
				}
			}
		})
	}
}

// TestAgreedBits: the word of agreed extensions follows what both sides
// announced, in either order, whatever the case of the names.
func TestAgreedBits(t *testing.T) {
	checkAgreed(t, NewConn(nil))
	checkAgreed(t, cpeAll())
	checkAgreed(t, cpeConn("FastMap", 1, "ExtEntityTeleport", 1))
	c := NewConn(nil)
	c.observe(dissect.DirC2S, cat(0x00, 7, "bob", "key", 0x42))
	c.observe(dissect.DirS2C, cat(0x11, "EXTENTITYTELEPORT", be32(1)))
	checkAgreed(t, c)
	if c.agreed != 0 {
		t.Fatal("agreed after one side")
	}
	c.observe(dissect.DirC2S, cat(0x11, "ExtEntityTeleport", be32(1)))
	checkAgreed(t, c)
	if c.agreed == 0 {
		t.Fatal("not agreed after both sides")
	}
}

package classic

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

var benchPos = cat(0x08, 0xff, be16(1040), be16(627), be16(-16), 64, 32)

func BenchmarkFramePosition(b *testing.B) {
	c := NewConn(nil)
	stream := append(append(append([]byte(nil), benchPos...), benchPos...), benchPos...)
	b.ReportAllocs()
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		buf := stream
		for len(buf) > 0 {
			f := c.Frame(dissect.DirC2S, buf, false)
			buf = buf[f.Len:]
		}
	}
}

func BenchmarkDecodePosition(b *testing.B) {
	c := NewConn(nil)
	var p dissect.PDU
	b.ReportAllocs()
	b.SetBytes(int64(len(benchPos)))
	for b.Loop() {
		c.Decode(&p, benchPos, c2sMeta)
	}
}

func BenchmarkDecodeLevelChunk(b *testing.B) {
	c := NewConn(nil)
	chunk := cat(0x03, be16(1024), make([]byte, 1024), 50)
	var p dissect.PDU
	c.Decode(&p, []byte{0x02}, s2cMeta)
	b.ReportAllocs()
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		if len(c.level.data[0]) > 1<<20 {
			c.level.data[0] = c.level.data[0][:0]
		}
		c.Decode(&p, chunk, s2cMeta)
	}
}

func BenchmarkDecodeMessage(b *testing.B) {
	c := NewConn(nil)
	msg := cat(0x0d, 0, "<alice&f>: hello from alice")
	var p dissect.PDU
	b.ReportAllocs()
	for b.Loop() {
		c.Decode(&p, msg, s2cMeta)
	}
}

func BenchmarkLevelFinalize(b *testing.B) {
	blocks := make([]byte, 64*32*64)
	for i := range blocks[:64*64*15] {
		blocks[i] = 3
	}
	z := gzipLevel(blocks)
	chs := chunks(z)
	var p dissect.PDU
	b.ReportAllocs()
	for b.Loop() {
		c := NewConn(nil)
		c.Decode(&p, []byte{0x02}, s2cMeta)
		for _, ch := range chs {
			c.Decode(&p, ch, s2cMeta)
		}
		c.Decode(&p, cat(0x04, be16(64), be16(32), be16(64)), s2cMeta)
	}
}

// mixedStream is a burst of the packets a busy Classic session is made of
// (the generator's mix, cmd/mcgen): the client's teleports, other players'
// relative moves and turns, chat with colour codes, pings, block changes,
// spawns and despawns.
var mixedStream = []struct {
	dir  dissect.Dir
	data []byte
}{
	{dissect.DirC2S, cat(0x08, 0xff, be16(1040), be16(627), be16(-16), 64, 32)},
	{dissect.DirS2C, cat(0x09, 3, 0xfc, 0x01, 0x08, 120, 20)},
	{dissect.DirS2C, cat(0x0a, 5, 0x04, 0x00, 0xf8)},
	{dissect.DirS2C, cat(0x0b, 7, 200, 10)},
	{dissect.DirS2C, cat(0x08, 9, be16(2000), be16(1107), be16(300), 17, 40)},
	{dissect.DirC2S, cat(0x08, 0xff, be16(1044), be16(627), be16(-12), 66, 32)},
	{dissect.DirS2C, cat(0x09, 4, 0x02, 0xff, 0x03, 100, 5)},
	{dissect.DirS2C, cat(0x0a, 8, 0x0c, 0x00, 0xf4)},
	{dissect.DirS2C, cat(0x0d, 12, "&7alice: &fanyone seen the diamonds?")},
	{dissect.DirS2C, []byte{0x01}},
	{dissect.DirC2S, cat(0x05, be16(32), be16(19), be16(1), 1, 45)},
	{dissect.DirS2C, cat(0x06, be16(32), be16(19), be16(1), 45)},
	{dissect.DirS2C, cat(0x07, 6, "bob", be16(1040), be16(1107), be16(528), 0, 0)},
	{dissect.DirS2C, cat(0x0d, 0xff, "&ebob joined the game")},
	{dissect.DirS2C, cat(0x0c, 6)},
	{dissect.DirC2S, cat(0x0d, 0xff, "hello there")},
}

func benchMixed(b *testing.B, lite bool) {
	c := NewConn(nil)
	var p dissect.PDU
	p.Lite = lite
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range mixedStream {
			c.Decode(&p, m.data, meta(m.dir))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(mixedStream)), "ns/pkt")
}

// BenchmarkDecodeMixed decodes the mixed burst with full trees (-V, JSON).
func BenchmarkDecodeMixed(b *testing.B) { benchMixed(b, false) }

// BenchmarkDecodeMixedLite is the summary path: no tree is read.
func BenchmarkDecodeMixedLite(b *testing.B) { benchMixed(b, true) }

// worldLevel is a generated-world level: bedrock, stone with ores, dirt,
// grass and air, so the histogram sees long runs of one block as real
// levels have.
func worldLevel(x, y, z int) []byte {
	b := make([]byte, x*y*z)
	ground := y / 2
	seed := uint32(1)
	for yy := 0; yy < y; yy++ {
		for i := 0; i < x*z; i++ {
			var v byte
			switch {
			case yy == 0:
				v = 7
			case yy < ground-3:
				v = 1
				seed = seed*1664525 + 1013904223
				if seed>>24 < 4 {
					v = 14 + byte(seed>>8)%3
				}
			case yy < ground:
				v = 3
			case yy == ground:
				v = 2
			}
			b[yy*x*z+i] = v
		}
	}
	return b
}

func benchFinalize(b *testing.B, lite bool) {
	const x, y, z = 128, 64, 128
	chs := chunks(gzipLevel(worldLevel(x, y, z)))
	fin := cat(0x04, be16(x), be16(y), be16(z))
	c := NewConn(nil)
	var p dissect.PDU
	p.Lite = lite
	b.ReportAllocs()
	b.SetBytes(x * y * z)
	for b.Loop() {
		c.Decode(&p, []byte{0x02}, s2cMeta)
		for _, ch := range chs {
			c.Decode(&p, ch, s2cMeta)
		}
		c.Decode(&p, fin, s2cMeta)
	}
}

// BenchmarkLevelWorld sends and finalizes a 128×64×128 level (1 MiB of
// blocks, the largest the generator makes) on one connection.
func BenchmarkLevelWorld(b *testing.B) { benchFinalize(b, false) }

// BenchmarkLevelWorldLite is the same level on the summary path.
func BenchmarkLevelWorldLite(b *testing.B) { benchFinalize(b, true) }

// BenchmarkDecodeCPE decodes an extension packet (ExtEntityTeleport) on a
// connection where both sides announced every extension, as ClassiCube
// and MCGalaxy do.
func BenchmarkDecodeCPE(b *testing.B) {
	c := cpeAll()
	pkt := cat(0x36, 5, 0x11, be16(1040), be16(627), be16(-16), 64, 32)
	var p dissect.PDU
	b.ReportAllocs()
	for b.Loop() {
		c.Decode(&p, pkt, s2cMeta)
	}
}

// BenchmarkCount8World counts the blocks of a generated-world level: long
// runs, and stone sprinkled with ores.
func BenchmarkCount8World(b *testing.B) {
	lv := worldLevel(128, 64, 128)
	var counts [1024]uint32
	b.SetBytes(int64(len(lv)))
	for b.Loop() {
		count8(&counts, lv)
	}
}

// BenchmarkDisplayMovement formats what a tree shows of a position and
// orientation update and a relative move: render-time work (Field.Custom).
func BenchmarkDisplayMovement(b *testing.B) {
	nodes := []*dissect.Node{
		{Value: dissect.F(1040.0 / 32)}, {Value: dissect.F(627.0 / 32)}, {Value: dissect.F(-16.0 / 32)},
		{Value: dissect.F(64 * 360.0 / 256)}, {Value: dissect.F(32 * 360.0 / 256)}, {Value: dissect.F(-4.0 / 32)},
	}
	var buf []byte
	for b.Loop() {
		buf = appendFixed(buf[:0], nodes[0])
		buf = appendFixed(buf[:0], nodes[1])
		buf = appendFixed(buf[:0], nodes[2])
		buf = appendYaw(buf[:0], nodes[3])
		buf = appendPitch(buf[:0], nodes[4])
		buf = appendDelta(buf[:0], nodes[5])
	}
}

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

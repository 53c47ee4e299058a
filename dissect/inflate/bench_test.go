package inflate

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"testing"
)

// chunkLike returns k chunk sections shaped like a Java chunk packet's
// data: a block count, a palette of a few block states, 4096 bit-packed
// palette indices in longs (terrain: runs of one block with noise), and a
// biome palette; then light arrays (mostly 0xff or 0x00 nibbles).
func chunkLike(k int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	var out []byte
	for range k {
		out = binary.BigEndian.AppendUint16(out, uint16(2000+rng.IntN(2000)))
		out = append(out, 4, 16) // 4 bits per entry, 16 palette entries
		for range 16 {
			out = binary.AppendUvarint(out, uint64(rng.IntN(20000)))
		}
		out = binary.AppendUvarint(out, 256)
		block := uint64(rng.IntN(16))
		for range 256 {
			var v uint64
			for j := range 16 {
				if rng.IntN(8) == 0 {
					block = uint64(rng.IntN(16))
				}
				v |= block << (4 * j)
			}
			out = binary.BigEndian.AppendUint64(out, v)
		}
		out = append(out, 0, 1, 0) // biomes: a single-valued palette
	}
	for range 2 * k {
		fill := byte(0xff)
		if rng.IntN(2) == 0 {
			fill = 0
		}
		for range 2048 {
			b := fill
			if rng.IntN(16) == 0 {
				b = byte(rng.IntN(256))
			}
			out = append(out, b)
		}
	}
	return out
}

// benchStream is 200 KiB of chunk-like data compressed at zlib's default
// level (57 KiB), as a server sends a chunk packet.
func benchStream() []byte {
	data := chunkLike(40)[:200<<10]
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	w.Write(data)
	w.Close()
	return buf.Bytes()
}

func BenchmarkPrefix512(b *testing.B) {
	z := benchStream()
	var d Decoder
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		out, err := d.Prefix(buf[:0], z, 512)
		if err != nil || len(out) != 512 {
			b.Fatal(len(out), err)
		}
	}
}

func BenchmarkZlib512(b *testing.B) {
	z := benchStream()
	src := bytes.NewReader(z)
	zr, err := zlib.NewReader(src)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 512)
	b.ReportAllocs()
	for b.Loop() {
		src.Reset(z)
		if err := zr.(zlib.Resetter).Reset(src, nil); err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(zr, buf); err != nil {
			b.Fatal(err)
		}
	}
}

package inflate

import (
	"bytes"
	"compress/zlib"
	"testing"
)

// levels are the compress/zlib levels FuzzPrefix makes streams with.
var levels = [...]int{zlib.HuffmanOnly, zlib.DefaultCompression, zlib.NoCompression, 1, 2, 3, 4, 5, 6, 7, 8, 9}

// compressed is data compressed by compress/zlib, as gen asks: gen-1
// picks the level, and how many times data repeats (so that copies reach
// across many blocks and far back).
func compressed(gen byte, data []byte) []byte {
	g := int(gen - 1)
	var buf bytes.Buffer
	w, err := zlib.NewWriterLevel(&buf, levels[g%len(levels)])
	if err != nil {
		panic(err)
	}
	reps := [...]int{1, 3, 40, 300}[g/len(levels)%4]
	for i := 0; i < reps && i*len(data) < 1<<16; i++ {
		w.Write(data)
	}
	w.Close()
	return buf.Bytes()
}

// FuzzPrefix checks Prefix against compress/zlib, on the fuzzer's bytes
// as a zlib stream (gen 0) or on zlib streams made from them (gen 1-255),
// inflating n bytes, n/3 and all of it (up to 128 KiB) with a reused and
// with a fresh Decoder.
func FuzzPrefix(f *testing.F) {
	text := []byte("The quick brown fox jumps over the lazy dog; the lazy dog sleeps. ")
	for i, gen := range []byte{1, 2, 3, 4, 7, 12, 14, 26, 38, 40} {
		f.Add(gen, uint16(7*i+1), text)
		f.Add(byte(0), uint16(512), compressed(gen, text))
	}
	f.Add(byte(0), uint16(65535), compressed(27, chunkLike(4)))
	f.Add(byte(0), uint16(100), compressed(1, nil))
	for _, c := range handMade() {
		f.Add(byte(0), uint16(c.n), c.z)
	}
	fixed := compressed(2, text)
	f.Fuzz(func(t *testing.T, gen byte, n uint16, data []byte) {
		z := data
		if gen != 0 {
			z = compressed(gen, data)
		}
		// a Decoder that has decoded a fixed block, then z three times
		var d Decoder
		d.Prefix(nil, fixed, 1000)
		checkPrefix(t, &d, z, int(n))
		checkPrefix(t, &d, z, int(n)/3)
		checkPrefix(t, &d, z, 1<<17)
	})
}

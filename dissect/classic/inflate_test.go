package classic

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"fmt"
	"math/rand/v2"
	"testing"
)

// checkInflate compares inflate (compress/flate into pooled level buffers,
// which are not cleared between levels) and stream with compress/flate
// alone into a fresh buffer on src: the same bytes, error, bomb and
// trailing count.
func checkInflate(t *testing.T, src []byte, raw bool, limit int) {
	t.Helper()
	in := new(inflater)
	wout, wbomb, wtr, werr := in.std(src, raw, limit, nil)
	// Made, then twice in a reused buffer: the second time in one that
	// held the first's bytes.
	for _, reuse := range []bool{false, true, true} {
		out, bomb, tr, err := inflate(src, raw, limit, 64, reuse)
		if fmt.Sprint(err) != fmt.Sprint(werr) || bomb != wbomb || tr != wtr || !bytes.Equal(out, wout) {
			t.Fatalf("raw %v limit %d reuse %v, %d bytes: got %d bytes, %v, bomb %v, trailing %d; compress/flate %d bytes, %v, bomb %v, trailing %d",
				raw, limit, reuse, len(src), len(out), err, bomb, tr, len(wout), werr, wbomb, wtr)
		}
		if reuse {
			putLevelBuf(out)
		}
	}
	// The streaming path (a level only counted) sees the same bytes, in
	// order, and ends the same way.
	var got []byte
	n, bomb, tr, err := in.stream(src, raw, limit, func(b []byte, at int) {
		if at != len(got) {
			t.Fatalf("chunk at %d after %d bytes", at, len(got))
		}
		got = append(got, b...)
	})
	if fmt.Sprint(err) != fmt.Sprint(werr) || bomb != wbomb || tr != wtr || n != len(got) || !bytes.Equal(got, wout) {
		t.Fatalf("stream raw %v limit %d, %d bytes: got %d (%d) bytes, %v, bomb %v, trailing %d; compress/flate %d bytes, %v, bomb %v, trailing %d",
			raw, limit, len(src), n, len(got), err, bomb, tr, len(wout), werr, wbomb, wtr)
	}
}

// compressed returns b deflated (raw) or gzipped at a level.
func compressed(b []byte, raw bool, level int) []byte {
	var z bytes.Buffer
	if raw {
		w, _ := flate.NewWriter(&z, level)
		w.Write(b)
		w.Close()
	} else {
		w, _ := gzip.NewWriterLevel(&z, level)
		w.Write(b)
		w.Close()
	}
	return z.Bytes()
}

// TestInflate inflates generated levels and text at every kind of
// block compress/flate writes (stored, fixed, dynamic, Huffman only), whole,
// cut, with bytes after them, over a small limit, and with bits flipped.
func TestInflate(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	inputs := [][]byte{nil, {7}, worldLevel(16, 8, 16), worldLevel(64, 32, 64), bytes.Repeat([]byte("&ehello there "), 3000)}
	noise := make([]byte, 70000)
	for i := range noise {
		noise[i] = byte(r.IntN(7)) // few symbols: short codes, short matches
	}
	inputs = append(inputs, noise)
	for _, in := range inputs {
		for _, level := range []int{flate.NoCompression, flate.BestSpeed, flate.DefaultCompression, flate.BestCompression, flate.HuffmanOnly} {
			for _, raw := range []bool{false, true} {
				z := compressed(in, raw, level)
				checkInflate(t, z, raw, 1<<24)
				checkInflate(t, append(append([]byte(nil), z...), 1, 2, 3), raw, 1<<24)
				checkInflate(t, z, raw, len(in))
				checkInflate(t, z, raw, len(in)/2)
				for range 20 {
					checkInflate(t, z[:r.IntN(len(z)+1)], raw, 1<<24)
					c := append([]byte(nil), z...)
					c[r.IntN(len(c))] ^= byte(1 << r.IntN(8))
					checkInflate(t, c, raw, 1<<24)
				}
			}
		}
	}
}

// FuzzInflate holds the pooled and streaming paths to compress/flate on
// any bytes, raw and gzipped.
func FuzzInflate(f *testing.F) {
	lv := worldLevel(8, 4, 8)
	for _, level := range []int{flate.NoCompression, flate.BestSpeed, flate.BestCompression, flate.HuffmanOnly} {
		f.Add(compressed(lv, false, level), false)
		f.Add(compressed(lv, true, level), true)
	}
	f.Fuzz(func(t *testing.T, src []byte, raw bool) {
		checkInflate(t, src, raw, 1<<16)
	})
}

package classic

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

func TestCount8(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4, 5, 15, 16, 17, 1000, 4099} {
		b := make([]byte, n)
		seed := uint32(n)
		for i := range b {
			seed = seed*1664525 + 1013904223
			b[i] = byte(seed >> 24)
			if i%50 < 40 {
				b[i] = 1 // runs, as in a level
			}
		}
		var want, got [1024]uint32
		for _, v := range b {
			want[v]++
		}
		got[0] = 5 // count8 adds to what is there
		want[0] += 5
		count8(&got, b)
		if got != want {
			t.Errorf("%d bytes: counts differ", n)
		}
	}
	// Runs that change value often, at every alignment, sprinkled or not;
	// every byte value in turn; a generated world.
	for name, b := range map[string][]byte{
		"cycle": func() []byte {
			b := make([]byte, 3000)
			for i := range b {
				b[i] = byte(i)
			}
			return b
		}(),
		"world": worldLevel(32, 16, 32),
		"runs": func() []byte {
			b := make([]byte, 5000)
			for i := range b {
				b[i] = byte(i / (1 + i%13) % 7)
			}
			return b
		}(),
		"halves": func() []byte {
			b := make([]byte, 999)
			for i := range b {
				b[i] = byte(i / 4 % 2 * 200)
			}
			return b
		}(),
	} {
		for skip := range 9 {
			var want, got [1024]uint32
			for _, v := range b[skip:] {
				want[v]++
			}
			count8(&got, b[skip:])
			if got != want {
				t.Errorf("%s from %d: counts differ", name, skip)
			}
		}
	}
}

// TestBlockCounter: a level counted chunk by chunk, as it streams, has the
// counts a plain count gives, whether the chunks hold the types the chunk
// before held (the guesses hold), new ones (a guess fails: one type more,
// or one fewer and another), or more than eight.
func TestBlockCounter(t *testing.T) {
	mixed := make([]byte, 4096)
	for i := range mixed {
		mixed[i] = byte(i * 7 / 3)
	}
	world := worldLevel(64, 32, 64)
	for name, b := range map[string][]byte{
		"world": world,
		// a layer of one type, then the same types in other amounts,
		// then a type swapped for another with the same total
		"swap":  append(append(bytes.Repeat([]byte{1, 1, 1, 14}, 600), bytes.Repeat([]byte{1, 14, 14, 14}, 600)...), bytes.Repeat([]byte{1, 1, 1, 15}, 600)...),
		"mixed": append(append(append([]byte(nil), world[:5000]...), mixed...), world[5000:9000]...),
		"empty": nil,
	} {
		for _, size := range []int{1, 7, 64, 1000, 4096, 1 << 20} {
			var want, got [1024]uint32
			for _, v := range b {
				want[v]++
			}
			got[3] = 5 // the counter adds to what is there
			want[3] += 5
			bc := blockCounter{counts: &got}
			for r := b; len(r) > 0; {
				n := min(size, len(r))
				bc.add(r[:n])
				r = r[n:]
			}
			if got != want {
				t.Errorf("%s in chunks of %d: counts differ", name, size)
			}
		}
	}
}

// TestInflaterReuse inflates good, broken, raw and bomb streams in turn:
// the pooled decompressors carry nothing from one level to the next.
func TestInflaterReuse(t *testing.T) {
	blocks := worldLevel(16, 8, 16)
	good := gzipLevel(blocks)
	var raw bytes.Buffer
	fw, _ := flateWriter(&raw)
	fw.Write(blocks)
	fw.Close()
	want := len(blocks) + 4
	for round := 0; round < 3; round++ {
		reuse := round > 0 // then in buffers given back by the round before
		out, bomb, tr, err := inflate(good, false, 1<<20, want, reuse)
		if err != nil || bomb || tr != 0 || len(out) != want || !bytes.Equal(out[4:], blocks) {
			t.Fatalf("round %d gzip: %d bytes, %v %v %d", round, len(out), err, bomb, tr)
		}
		putLevelBuf(out) // dirty, for the next inflate
		if _, _, _, err := inflate(good[:len(good)-9], false, 1<<20, want, reuse); err == nil {
			t.Fatalf("round %d: a cut stream inflates", round)
		}
		if _, _, _, err := inflate([]byte("not gzip"), false, 1<<20, want, reuse); err == nil {
			t.Fatalf("round %d: not gzip inflates", round)
		}
		if out, bomb, _, err := inflate(raw.Bytes(), true, 1<<20, len(blocks), reuse); err != nil || bomb || !bytes.Equal(out, blocks) {
			t.Fatalf("round %d raw: %d bytes, %v %v", round, len(out), err, bomb)
		} else {
			putLevelBuf(out)
		}
		if out, bomb, _, _ := inflate(good, false, 100, 50, reuse); !bomb || len(out) != 100 {
			t.Fatalf("round %d: bomb %v at %d", round, bomb, len(out))
		}
		if _, _, tr, _ := inflate(append(append([]byte(nil), good...), 1, 2, 3), false, 1<<20, want, reuse); tr != 3 {
			t.Fatalf("round %d: trailing %d", round, tr)
		}
	}
}

// TestLevelBufferFollowsBytes: a finalize that declares 256×64×256 (4 MiB)
// after a level that inflates to a few kilobytes costs a few kilobytes, in
// a tree and when exported: nothing is sized by what the wire declares.
func TestLevelBufferFollowsBytes(t *testing.T) {
	blocks := worldLevel(16, 8, 16) // 2 KiB
	chs := chunks(gzipLevel(blocks))
	fin := cat(0x04, be16(256), be16(64), be16(256))
	for _, export := range []bool{false, true} {
		c := NewConn(nil)
		var p dissect.PDU
		p.Export = export
		runtime.GC()
		runtime.GC() // the pools' victim caches too: every buffer is made
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		c.Decode(&p, []byte{0x02}, s2cMeta)
		for _, ch := range chs {
			c.Decode(&p, ch, s2cMeta)
		}
		c.Decode(&p, fin, s2cMeta)
		runtime.ReadMemStats(&after)
		if p.Find("classic.level.inflated_size") < 0 {
			t.Fatalf("export %v: the level was not inflated", export)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 512<<10 {
			t.Errorf("export %v: %d bytes allocated for a level of %d blocks declared as 4 MiB", export, got, len(blocks))
		}
	}
}

// TestLevelMap: each pixel takes the colour of its column's highest block
// that is not air, shaded by its height; air and a short array leave
// transparent pixels; a level past maxSide is sampled.
func TestLevelMap(t *testing.T) {
	const x, y, z = 4, 3, 2
	blocks := make([]byte, x*y*z)
	set := func(xx, yy, zz int, b byte) { blocks[(yy*z+zz)*x+xx] = b }
	set(0, 0, 0, 1) // stone at the bottom
	set(0, 2, 0, 2) // grass on top of the same column
	set(1, 1, 0, 8) // water in the middle
	set(3, 0, 1, 7) // bedrock at the bottom
	img := LevelMap(blocks, x, y, z, 0)
	if b := img.Bounds(); b.Dx() != x || b.Dy() != z {
		t.Fatalf("bounds %v", b)
	}
	for _, c := range []struct {
		xx, zz, yy int
		b          byte
	}{{0, 0, 2, 2}, {1, 0, 1, 8}, {3, 1, 0, 7}} {
		if got, want := img.RGBAAt(c.xx, c.zz), shade(blockColor(c.b), c.yy, y); got != want {
			t.Errorf("(%d,%d): %v, want %v", c.xx, c.zz, got, want)
		}
	}
	if got := img.RGBAAt(2, 0); got.R|got.G|got.B|got.A != 0 {
		t.Errorf("an all-air column is %v", got)
	}
	if short := LevelMap(blocks[:5], x, y, z, 0); short.Bounds().Dx() != x {
		t.Error("a short array changes the map's size")
	}
	if b := LevelMap(blocks, x, y, z, 2).Bounds(); b.Dx() != 2 || b.Dy() != 1 {
		t.Errorf("a 4×2 level at most 2 wide is %v", b)
	}
	if shade(blockColor(1), 2, 3) == shade(blockColor(1), 0, 3) {
		t.Error("height does not shade")
	}
}

// TestExportedLevelMadeAtItsSize: a level kept for export is made once, at
// its size, whatever it grows to: grown as it inflated, 16 MiB of blocks
// cost 80 MB of allocations (and two copies at the peak).
func TestExportedLevelMadeAtItsSize(t *testing.T) {
	const size = 16 << 20
	z := gzipLevel(make([]byte, size))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out, bomb, _, err := inflate(z, false, MaxInflated, 64, false)
	runtime.ReadMemStats(&after)
	if err != nil || bomb || len(out) != size+4 {
		t.Fatalf("%d bytes, %v, bomb %v", len(out), err, bomb)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > size*5/4 {
		t.Errorf("inflating %d bytes allocated %d", size+4, got)
	}
}

package classic

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"io"
	"math/bits"
	"strconv"
	"sync"

	"github.com/mcdissect/mcdissect/dissect"
)

// Caps on level data. Limits come before allocation: the joined compressed
// bytes stop growing at MaxCompressed, and inflation stops at the size the
// finalize packet announces (X×Y×Z plus the 4-byte count) or MaxInflated,
// whichever is less; a stream that would inflate further is a bomb and is
// reported, not obeyed.
const (
	MaxCompressed  = 16 << 20         // joined compressed bytes of one level (≈ 16 000 chunks)
	MaxBlocks      = 1024 * 64 * 1024 // blocks of the largest level inflated: 64 MiB
	MaxInflated    = MaxBlocks + 4    // inflated bytes of one level array: the blocks and the 4-byte count before them
	maxFramesShown = 64               // chunk frames listed in the finalize tree
)

// level is the level being sent on a connection.
type level struct {
	begun   bool
	fastMap bool
	volume  uint32 // FastMap's volume from Level Initialize
	data    [2][]byte
	chunks  int
	frames  []uint64
	capped  bool
	gap     bool
	// charged: the bytes of data charged to the memory budget; dropped:
	// the budget had the level given up (levelHolders).
	charged     int64
	dropped     bool
	droppedSaid bool
	// the last finalized level's dimensions, for BulkBlockUpdate indices
	sx, sy, sz int
}

// reset lets go of the level's data; h, the run's levels, is credited
// what it held.
func (l *level) reset(h *levelHolders) {
	sx, sy, sz := l.sx, l.sy, l.sz
	h.credit(l)
	putLevelBuf(l.data[0])
	putLevelBuf(l.data[1])
	*l = level{frames: l.frames[:0], sx: sx, sy: sy, sz: sz}
}

// joinStart is the capacity a level's joined compressed bytes start with,
// unless the pool has a larger buffer at hand: a level's chunks come 1024
// bytes at a time, and a generated world's joined data is tens to
// hundreds of KiB.
const joinStart = 64 << 10

// join appends a chunk's data to a level array's joined bytes. The buffers
// come from levelBufs and go back there (reset): a buffer that fills is
// swapped for one twice its size from the pool, its bytes copied once,
// never reallocated by append. With append and a list of four kept
// buffers, joining cost the classic-big -V run 0.44 s of its 5 CPU s (the
// runtime making, clearing and copying new arrays as they grew, 72 MB of
// chunks in 255 levels); through the pools it costs 0.13 s, most of it the
// one copy of each chunk (issue 12).
//
// A buffer that grows is charged first (charge, with the capacity it
// adds); when the charge is refused, join reports false and joins nothing.
func join(dst, b []byte, charge func(grow int) bool) ([]byte, bool) {
	if len(dst)+len(b) > cap(dst) {
		n := max(2*cap(dst), len(dst)+len(b), joinStart)
		nb := getLevelBuf(n)
		if !charge(cap(nb) - cap(dst)) {
			putLevelBuf(nb)
			return dst, false
		}
		grown := append(nb, dst...)
		putLevelBuf(dst)
		dst = grown
	}
	return append(dst, b...), true
}

// unpack turns a block index into coordinates: index = (y×Z + z)×X + x.
func (l *level) unpack(i uint32) (x, y, z int, ok bool) {
	if l.sx == 0 || l.sz == 0 || l.sy == 0 || int(i) >= l.sx*l.sy*l.sz {
		return 0, 0, 0, false
	}
	n := int(i)
	return n % l.sx, n / (l.sx * l.sz), (n / l.sx) % l.sz, true
}

func decLevelInit(d *dec) {
	c := d.conn
	c.level.reset(c.levels())
	c.level.begun = true
	c.level.fastMap = c.n.fastMap
	if c.n.fastMap {
		v, i := d.c.Uint32(FieldLevelVolumeFast)
		c.level.volume = v
		if i > 0 {
			a := len(d.out)
			d.out = dissect.AppendUint(d.out, uint64(v))
			d.out = append(d.out, " blocks (FastMap: the level follows as raw deflate, no gzip header, no count prefix)"...)
			d.textFrom(i, a)
		}
		if i >= 0 { // not cut off
			d.info = append(d.info, ", FastMap volume "...)
			d.info = dissect.AppendUint(d.info, uint64(v))
		}
	}
}

func decLevelChunk(d *dec) {
	c := &d.c
	l := &d.conn.level
	n, ni := c.Uint16(FieldChunkLength)
	length := int(n)
	if ni >= 0 && length > 1024 {
		c.Malformed(ni, ExpertChunkLength, "classic.level.chunk_length at offset 1: "+strconv.Itoa(length)+", at most 1024")
		length = 1024
	}
	data, di := c.Take(FieldChunkData, length)
	if length < 1024 {
		pad, pi := c.Take(FieldChunkPadding, 1024-length)
		if pi > 0 {
			a := len(d.out)
			d.out = dissect.AppendInt(d.out, int64(1024-length))
			d.out = append(d.out, " bytes of 0x00 padding"...)
			d.textFrom(pi, a)
			for _, b := range pad {
				if b != 0 {
					c.Expert(pi, ExpertChunkPadding, "classic.level.chunk_padding at offset "+strconv.Itoa(3+length)+": non-zero bytes in the padding")
					break
				}
			}
		}
	}
	arr := 0
	if d.conn.n.extBlocks {
		v, vi := c.Uint8(FieldArraySel)
		if v != 0 {
			arr = 1
		}
		if vi > 0 {
			a := len(d.out)
			d.out = dissect.AppendInt(d.out, int64(v))
			d.out = append(d.out, ": "...)
			d.out = appendName(d.out, arrayNames, uint64(min(v, 1)))
			d.out = append(d.out, " (ExtendedBlocks reuses the percent byte)"...)
			d.textFrom(vi, a)
		}
	} else if v, vi := c.Uint8(FieldPercent); vi >= 0 { // not cut off
		d.info = append(d.info, ", "...)
		d.info = dissect.AppendInt(d.info, int64(v))
		d.info = append(d.info, '%')
	}
	if ni >= 0 {
		d.info = append(d.info, ", "...)
		d.info = dissect.AppendInt(d.info, int64(length))
		d.info = append(d.info, " bytes"...)
	}
	if di < 0 {
		return
	}
	if !l.begun {
		c.Expert(0, ExpertLevelOrder, "classic.packet_id at offset 0: level data before Level Initialize; joined as the start of a level")
		l.reset(d.conn.levels())
		l.begun = true
		l.fastMap = d.conn.n.fastMap
	}
	l.chunks++
	// Joined only to be inflated for the level's tree (decLevelFinalize),
	// so not in a Lite PDU.
	d.pdu().Annotate(di, func() { d.joinChunk(arr, data, di) })
}

// joinChunk adds the chunk's data (node di) to array arr of the level.
func (d *dec) joinChunk(arr int, data []byte, di int32) {
	c, l := &d.c, &d.conn.level
	if len(l.frames) < maxFramesShown+1 {
		l.frames = append(l.frames, d.frame)
	}
	if len(l.data[arr])+len(data) > MaxCompressed {
		if !l.capped {
			c.Expert(di, ExpertLevelCapped, "classic.level.chunk_data at offset 3: the level's compressed data passes "+strconv.Itoa(MaxCompressed)+" bytes; the rest is not joined")
		}
		l.capped = true
		return
	}
	if !l.dropped {
		h := d.conn.levels()
		var ok bool
		if l.data[arr], ok = join(l.data[arr], data, func(grow int) bool { return h.charge(d.conn, int64(grow)) }); !ok {
			h.drop(d.conn)
		}
	}
	// A level given up for another's room says so at its next chunk.
	if l.dropped && !l.droppedSaid {
		l.droppedSaid = true
		c.Expert(di, ExpertLevelDropped, "classic.level.chunk_data at offset 3: "+droppedWhy)
	}
}

func decLevelFinalize(d *dec) {
	c := &d.c
	conn := d.conn
	l := &conn.level
	x, xi := c.Uint16(FieldSizeX)
	y, _ := c.Uint16(FieldSizeY)
	z, zi := c.Uint16(FieldSizeZ)
	if xi < 0 || zi < 0 {
		return // cut: the size is not known
	}
	d.info = append(d.info, ", "...)
	d.info = dissect.AppendInt(d.info, int64(x))
	d.info = append(d.info, "×"...)
	d.info = dissect.AppendInt(d.info, int64(y))
	d.info = append(d.info, "×"...)
	d.info = dissect.AppendInt(d.info, int64(z))
	if xi < 0 || zi < 0 {
		return
	}
	l.sx, l.sy, l.sz = int(x), int(y), int(z)
	defer l.reset(conn.levels())
	// What the level holds only its tree shows: it is inflated for its
	// node, not in a Lite PDU.
	p := d.pdu()
	lv := p.AddGenerated(0, FieldLevel, dissect.Value{}, "")
	p.Annotate(lv, func() { d.level(lv, x, y, z) })
}

// level adds under lv, the level's node, its sizes, its chunks' frames
// and what it holds, inflating it.
func (d *dec) level(lv int32, x, y, z uint16) {
	c, p, l := &d.c, d.pdu(), &d.conn.level
	volume := uint64(x) * uint64(y) * uint64(z)
	a := len(d.out)
	d.out = append(d.out, "Level "...)
	d.out = dissect.AppendInt(d.out, int64(x))
	d.out = append(d.out, "×"...)
	d.out = dissect.AppendInt(d.out, int64(y))
	d.out = append(d.out, "×"...)
	d.out = dissect.AppendInt(d.out, int64(z))
	d.textFrom(lv, a)
	p.AddGenerated(lv, FieldVolume, dissect.U(volume), "")
	p.AddGenerated(lv, FieldChunkCount, dissect.U(uint64(l.chunks)), "")
	for i, f := range l.frames {
		if i == maxFramesShown {
			c.Expert(lv, ExpertFrameCap, "classic.level: "+strconv.Itoa(l.chunks)+" chunks, the first "+strconv.Itoa(maxFramesShown)+" frames are listed")
			break
		}
		p.AddGenerated(lv, FieldChunkFrame, dissect.U(f), "")
	}
	if l.chunks == 0 {
		c.Expert(lv, ExpertLevelNoData, "classic.level: Level Finalize without any Level Data Chunk")
		return
	}
	if l.gap {
		c.Expert(lv, ExpertLevelGap, "classic.level: bytes of the server→client stream were lost while the level was sent; it is not inflated")
		return
	}
	if l.capped {
		return
	}
	if l.dropped {
		c.Expert(lv, ExpertLevelDropped, "classic.level: "+droppedWhy)
		return
	}
	p.AddGenerated(lv, FieldCompressed, dissect.U(uint64(len(l.data[0])+len(l.data[1]))), "")
	// The inflated size the finalize packet announces: X×Y×Z blocks, plus
	// the 4-byte count before them unless FastMap.
	want := volume
	if !l.fastMap {
		want += 4
	}
	// The inflation limit: twice the announced size (a level a little
	// larger than announced is a count mismatch, not a bomb), at most
	// MaxInflated.
	limit := min(2*want+64<<10, MaxInflated)
	var lower []byte
	// Blocks of each type: 256 IDs, 1024 under ExtendedBlocks; on the
	// stack, as the level's one allocation is its inflated blocks.
	var counts [1024]uint32
	ids := 0
	if !p.Export && len(l.data[1]) == 0 {
		// Only counted, one array: counted while it streams through a
		// small buffer, so a level costs its compressed bytes and a
		// 64 KiB window whatever its size (a 512×64×512 level inflated
		// whole cost 16 MiB cleared and copied as it grew).
		in := inflaters.Get().(*inflater)
		defer inflaters.Put(in)
		skip := 0
		if !l.fastMap {
			skip = 4 // the block count before the blocks
		}
		var prefix [4]byte
		bc := blockCounter{counts: &counts}
		total, bomb, trailing, err := in.stream(l.data[0], l.fastMap, int(limit), func(b []byte, at int) {
			if at < skip {
				k := copy(prefix[at:skip], b)
				b = b[k:]
			}
			bc.add(b)
		})
		ii := p.AddGenerated(lv, FieldInflated, dissect.U(uint64(total)), "")
		if levelProblem(c, ii, bomb, err, trailing, total, limit, want, l.fastMap) {
			return
		}
		blocks := total
		if !l.fastMap {
			if total < 4 {
				c.Expert(ii, ExpertLevelCount, "classic.level: "+strconv.Itoa(total)+" inflated bytes, too few for the 4-byte block count")
				return
			}
			cnt := binary.BigEndian.Uint32(prefix[:])
			bi := p.AddGenerated(lv, FieldBlockCount, dissect.U(uint64(cnt)), "")
			blocks = total - 4
			if uint64(cnt) != volume || blocks != int(cnt) {
				c.Expert(bi, ExpertLevelCount, "classic.level.block_count: prefix "+strconv.FormatUint(uint64(cnt), 10)+", inflated "+strconv.Itoa(blocks)+" blocks, X×Y×Z = "+strconv.FormatUint(volume, 10))
			}
		} else if uint64(blocks) != volume || l.volume != uint32(volume) {
			c.Expert(ii, ExpertLevelCount, "classic.level: FastMap volume "+strconv.FormatUint(uint64(l.volume), 10)+", inflated "+strconv.Itoa(blocks)+" blocks, X×Y×Z = "+strconv.FormatUint(volume, 10))
		}
		d.appendTypeCounts(p, lv, &counts, 256)
		return
	}
	for arr := 0; arr < 2; arr++ {
		if arr == 1 && len(l.data[1]) == 0 {
			break
		}
		out, bomb, trailing, err := inflate(l.data[arr], l.fastMap, int(limit), int(want), !p.Export)
		if !p.Export {
			// Only counted: given back once the counts are made (defers
			// run last to first, after the upper array's loop too).
			defer putLevelBuf(out)
		}
		name := "level-" + strconv.FormatUint(d.frame, 10)
		if arr == 1 {
			name += "-upper"
		}
		ii := p.AddGenerated(lv, FieldInflated, dissect.U(uint64(len(out))), "")
		if levelProblem(c, ii, bomb, err, trailing, len(out), limit, want, l.fastMap) {
			return
		}
		blocks := out
		if !l.fastMap {
			if len(out) < 4 {
				c.Expert(ii, ExpertLevelCount, "classic.level: "+strconv.Itoa(len(out))+" inflated bytes, too few for the 4-byte block count")
				return
			}
			cnt := binary.BigEndian.Uint32(out)
			bi := p.AddGenerated(lv, FieldBlockCount, dissect.U(uint64(cnt)), "")
			blocks = out[4:]
			if uint64(cnt) != volume || len(blocks) != int(cnt) {
				c.Expert(bi, ExpertLevelCount, "classic.level.block_count: prefix "+strconv.FormatUint(uint64(cnt), 10)+", inflated "+strconv.Itoa(len(blocks))+" blocks, X×Y×Z = "+strconv.FormatUint(volume, 10))
			}
		} else if uint64(len(blocks)) != volume || l.volume != uint32(volume) {
			c.Expert(ii, ExpertLevelCount, "classic.level: FastMap volume "+strconv.FormatUint(uint64(l.volume), 10)+", inflated "+strconv.Itoa(len(blocks))+" blocks, X×Y×Z = "+strconv.FormatUint(volume, 10))
		}
		if p.Export {
			p.Objects = append(p.Objects, dissect.Object{Kind: "level", Name: name + ".bin", Data: blocks, Dims: [3]int{int(x), int(y), int(z)}})
			if arr == 0 {
				if png := mapPNG(blocks, int(x), int(y), int(z)); png != nil {
					p.Objects = append(p.Objects, dissect.Object{Kind: "level", Name: name + ".png", Data: png, Dims: [3]int{int(x), int(y), int(z)}})
				}
			}
		}
		if arr == 0 {
			lower = blocks
		} else {
			// ExtendedBlocks: the upper array's bits go above the lower 8.
			ids = 1024
			for i, b := range lower {
				hi := 0
				if i < len(blocks) {
					hi = int(blocks[i]) & 3
				}
				counts[hi<<8|int(b)]++
			}
			lower = nil
		}
	}
	if lower != nil {
		ids = 256
		count8(&counts, lower)
	}
	d.appendTypeCounts(p, lv, &counts, ids)
}

// appendTypeCounts adds a node per block type seen, under the level.
func (d *dec) appendTypeCounts(p *dissect.PDU, lv int32, counts *[1024]uint32, ids int) {
	for id, n := range counts[:ids] {
		if n == 0 {
			continue
		}
		a := len(d.out)
		d.out = appendBlockLabel(d.out, id)
		d.out = append(d.out, ": "...)
		d.out = dissect.AppendUint(d.out, uint64(n))
		d.out = append(d.out, " blocks"...)
		d.textFrom(p.AddGenerated(lv, FieldTypeCount, dissect.U(uint64(n)), ""), a)
	}
}

// levelProblem adds the expert items of an inflation that went wrong (a
// bomb, a broken stream) or left bytes after its end; it reports whether
// the level stops there.
func levelProblem(c *dissect.Cursor, ii int32, bomb bool, err error, trailing, n int, limit, want uint64, fastMap bool) bool {
	switch {
	case bomb:
		c.Expert(ii, ExpertLevelBomb, "classic.level: the data inflates past "+strconv.FormatUint(limit, 10)+" bytes (X×Y×Z"+plus4(fastMap)+" = "+strconv.FormatUint(want, 10)+" announced; cap twice that + 64 KiB, at most "+strconv.Itoa(MaxInflated)+"): inflation stopped there")
		return true
	case err != nil:
		c.Expert(ii, ExpertLevelInflate, "classic.level: "+err.Error()+" after "+strconv.Itoa(n)+" inflated bytes")
		return true
	}
	if trailing > 0 {
		c.Expert(ii, ExpertLevelTrailing, "classic.level: "+strconv.Itoa(trailing)+" bytes after the end of the compressed stream")
	}
	return false
}

// count8 adds the byte values of b to counts. Levels are long runs of one
// block (air, stone), some sprinkled with others (ores in the stone): it
// follows the run's value v eight bytes at a time, counts the bytes equal
// to v in a register, and the others one by one, found by a mask of the
// bytes that differ. When most of a word differs, the run has changed and
// v becomes the word's last byte.
func count8(counts *[1024]uint32, b []byte) {
	const (
		ones = 0x0101010101010101
		low7 = 0x7f7f7f7f7f7f7f7f
		high = 0x8080808080808080
	)
	var t [256]uint32
	var v byte
	if len(b) > 0 {
		v = b[0]
	}
	bv := uint64(v) * ones
	run := uint32(0) // bytes equal to v not yet added to t[v]
	for ; len(b) >= 8; b = b[8:] {
		w := binary.LittleEndian.Uint64(b)
		x := w ^ bv
		if x == 0 {
			run += 8
			continue
		}
		// The top bit of each byte of x that is not zero.
		nz := ((x & low7) + low7 | x) & high
		k := bits.OnesCount64(nz)
		run += uint32(8 - k)
		for m := nz; m != 0; m &= m - 1 {
			t[byte(w>>(bits.TrailingZeros64(m)-7))]++
		}
		if k >= 4 {
			t[v] += run
			v = byte(w >> 56)
			bv, run = uint64(v)*ones, 0
		}
	}
	t[v] += run
	for _, c := range b {
		t[c]++
	}
	for i := range 256 {
		counts[i] += t[i]
	}
}

// blockCounter counts a level's blocks as the level streams through,
// chunk by chunk (inflater.stream). A level is layers of one block type or
// a few (air; stone with ores; dirt), so a chunk most often holds only the
// types the chunk before it held: add first counts each of those with
// bytes.Count, which the runtime vectorises, and when the counts add up to
// the chunk's length no other type is there and they are exact. Otherwise
// count8 counts the chunk, and the types it found (up to eight) are the
// guesses for the next one. On the classic-big mix (2.6 GB of blocks)
// counting cost 0.97 s of -V's 5 CPU s with count8 alone, and the guesses
// hold for most chunks: bytes.Count passes ran three times as fast as
// count8 over the same blocks (issue 12).
type blockCounter struct {
	counts *[1024]uint32
	guess  [8]byte
	n      int // guesses in guess; 0: none, count the next chunk with count8
}

func (bc *blockCounter) add(b []byte) {
	if len(b) == 0 {
		return
	}
	if bc.n > 0 {
		var got [len(bc.guess)]int
		sum := 0
		for i, v := range bc.guess[:bc.n] {
			one := [1]byte{v}
			got[i] = bytes.Count(b, one[:])
			sum += got[i]
		}
		if sum == len(b) {
			for i, v := range bc.guess[:bc.n] {
				bc.counts[v] += uint32(got[i])
			}
			return
		}
	}
	var t [1024]uint32
	count8(&t, b)
	bc.n = 0
	for v, c := range t[:256] {
		if c == 0 {
			continue
		}
		bc.counts[v] += c
		if bc.n < len(bc.guess) {
			bc.guess[bc.n] = byte(v)
		}
		bc.n++
	}
	if bc.n > len(bc.guess) {
		bc.n = 0 // too many types to guess: count8 again next time
	}
}

func plus4(fast bool) string {
	if fast {
		return ""
	}
	return " + 4"
}

// inflater is what inflating a level needs besides its output: reused
// across levels (and connections) from a pool, as each decompressor holds
// a 32 KiB window and its tables.
type inflater struct {
	chunk []byte // stream's buffer
	br    bytes.Reader
	gz    *gzip.Reader
	fl    io.ReadCloser // a flate.Resetter
}

var inflaters = sync.Pool{New: func() any { return new(inflater) }}

// levelBufs keeps the buffers levels are joined (join) and inflated into:
// a fresh megabyte per level cost more in page faults and first touches
// than inflating it.
// Buffers are a power of two bytes, one pool per size. They are not cleared:
// the inflaters write every byte of what they return, so a level costs what
// it inflates to, not the size its finalize packet declares (a server that
// declares 256×64×256 and sends a few bytes costs a few kilobytes).
var levelBufs [maxLevelBufBits + 1]sync.Pool // of *[]byte, by bits.Len(cap-1)

// maxLevelBufBits bounds the buffers levelBufs keeps: 4 MiB.
const maxLevelBufBits = 22

// levelBufStart is the most a level's first buffer holds before any byte is
// inflated: the buffer then doubles as bytes come (grow), whatever size the
// finalize declares.
const levelBufStart = 64 << 10

// getLevelBuf returns an empty buffer of capacity n or more, its bytes
// unspecified: from the pool of n's size or of a larger one (a buffer
// once grown for a big level serves the next, smaller, one), else made.
func getLevelBuf(n int) []byte {
	k := bits.Len(uint(n - 1))
	if k > maxLevelBufBits {
		return make([]byte, 0, n)
	}
	for j := k; j <= maxLevelBufBits; j++ {
		if p, _ := levelBufs[j].Get().(*[]byte); p != nil {
			return (*p)[:0]
		}
	}
	return make([]byte, 0, 1<<k)
}

// putLevelBuf gives back a buffer from getLevelBuf; one that is not a
// power of two (made for a size past the pools) is left to the collector.
func putLevelBuf(b []byte) {
	n := cap(b)
	if n == 0 || n&(n-1) != 0 || n > 1<<maxLevelBufBits {
		return
	}
	levelBufs[bits.Len(uint(n-1))].Put(&b)
}

// inflate inflates src (gzip, or raw deflate under FastMap), stopping at
// limit bytes: bomb is set when the stream holds more. trailing counts bytes
// after the end of the compressed stream.
// expect is the size the finalize announced: it only caps the first
// buffer (levelBufStart at most), which then grows with the bytes the
// stream really inflates to, never with what the wire declares.
//
// With reuse, the caller gives out back with putLevelBuf once it is done
// with it; otherwise out is the caller's to keep (an exported object), and
// a stream that inflates whole is made at its size: inflated twice, first
// through a small buffer to count its bytes. Grown as it inflated, a 64
// MiB level cost 320 MB of allocations and a peak of two copies (the last
// one and the one it grew into, 64 and 80 MB) where it now costs one.
func inflate(src []byte, raw bool, limit, expect int, reuse bool) (out []byte, bomb bool, trailing int, err error) {
	in := inflaters.Get().(*inflater)
	defer inflaters.Put(in)
	if !reuse {
		if n, bomb, _, err := in.stream(src, raw, limit, func([]byte, int) {}); !bomb && err == nil {
			// One byte more than the stream holds, for its end to be read.
			return in.std(src, raw, limit, make([]byte, 0, n+1))
		}
	}
	n := min(limit+1, max(min(expect+1, levelBufStart), 4<<10))
	return in.std(src, raw, limit, getLevelBuf(n))
}

// std is inflate through compress/flate and compress/gzip.
func (in *inflater) std(src []byte, raw bool, limit int, buf []byte) (out []byte, bomb bool, trailing int, err error) {
	in.br.Reset(src)
	defer in.br.Reset(nil) // the pool does not keep the level's data alive
	br := &in.br
	var r io.Reader
	if raw {
		if in.fl == nil {
			in.fl = flate.NewReader(br)
		} else {
			in.fl.(flate.Resetter).Reset(br, nil)
		}
		r = in.fl
	} else {
		var e error
		if in.gz == nil {
			in.gz, e = gzip.NewReader(br)
		} else {
			e = in.gz.Reset(br)
		}
		if e != nil {
			return nil, false, 0, errors.New("gzip header: " + e.Error())
		}
		in.gz.Multistream(false)
		r = in.gz
	}
	buf, err = readAtMost(r, buf[:0], limit+1)
	if len(buf) > limit {
		return buf[:limit], true, 0, nil
	}
	if err != nil {
		if err == io.ErrUnexpectedEOF {
			err = errors.New("the compressed stream ends early (" + strconv.Itoa(len(src)) + " bytes joined)")
		}
		return buf, false, 0, err
	}
	return buf, false, br.Len(), nil
}

// streamChunk is the buffer stream inflates into: the level passes through
// it, never whole.
const streamChunk = 64 << 10

// stream inflates src (gzip, or raw deflate under FastMap) through
// compress/flate, handing fn the inflated bytes chunk by chunk with the
// offset of each, at most limit+1 of them: bomb is set when there are
// more than limit. It returns how many bytes it inflated (at most limit),
// and, as inflate does, the bytes after the stream and what went wrong.
func (in *inflater) stream(src []byte, raw bool, limit int, fn func(b []byte, at int)) (n int, bomb bool, trailing int, err error) {
	r, err := in.reader(src, raw)
	if err != nil {
		return 0, false, 0, err
	}
	defer in.br.Reset(nil) // the pool does not keep the level's data alive
	if in.chunk == nil {
		in.chunk = make([]byte, streamChunk)
	}
	chunk := in.chunk
	for {
		m, rerr := r.Read(chunk[:min(len(chunk), limit+1-n)])
		if n+m > limit {
			fn(chunk[:limit-n], n)
			return limit, true, 0, nil
		}
		if m > 0 {
			fn(chunk[:m], n)
			n += m
		}
		switch {
		case rerr == io.EOF:
			return n, false, in.br.Len(), nil
		case rerr == io.ErrUnexpectedEOF:
			return n, false, 0, errors.New("the compressed stream ends early (" + strconv.Itoa(len(src)) + " bytes joined)")
		case rerr != nil:
			return n, false, 0, rerr
		}
	}
}

// reader readies the pooled decompressor on src.
func (in *inflater) reader(src []byte, raw bool) (io.Reader, error) {
	in.br.Reset(src)
	br := &in.br
	if raw {
		if in.fl == nil {
			in.fl = flate.NewReader(br)
		} else {
			in.fl.(flate.Resetter).Reset(br, nil)
		}
		return in.fl, nil
	}
	var e error
	if in.gz == nil {
		in.gz, e = gzip.NewReader(br)
	} else {
		e = in.gz.Reset(br)
	}
	if e != nil {
		in.br.Reset(nil)
		return nil, errors.New("gzip header: " + e.Error())
	}
	in.gz.Multistream(false)
	return in.gz, nil
}

// readAtMost reads r into buf until EOF or n bytes.
func readAtMost(r io.Reader, buf []byte, n int) ([]byte, error) {
	for len(buf) < n {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := r.Read(buf[len(buf):min(cap(buf), n)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// appendBlockLabel names a block ID: "Stone (1)", or "block 300" for IDs
// the tables do not name (BlockDefinitions defines them at run time).
func appendBlockLabel(b []byte, id int) []byte {
	if n, ok := blockNames[uint64(id)]; ok {
		b = append(b, n...)
		b = append(b, " ("...)
		b = dissect.AppendInt(b, int64(id))
		return append(b, ')')
	}
	b = append(b, "block "...)
	return dissect.AppendInt(b, int64(id))
}

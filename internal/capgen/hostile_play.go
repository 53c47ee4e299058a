package capgen

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"time"
)

// Hostile captures of Java's login, configuration and play states: sessions
// that start as a real server's do (a handshake with a real protocol
// number, Login Start, Set Compression, Login Success, and in 1.20.4 Login
// Acknowledged and Finish Configuration both ways), then attack with what
// play carries: zlib bombs, counts and lengths the bytes do not hold, NBT
// nested past Java's limit, many connections holding large unfinished
// compressed packets, and encrypted sessions nobody holds the key to.
// Packet IDs and layouts are minecraft-data's for 1.20.4 (protocol 765)
// and 1.8.x (47).

// Protocol numbers of the hostile play sessions.
const (
	proto1204 = 765
	proto18   = 47
)

// playThreshold is the hostile sessions' compression threshold.
const playThreshold = 256

// Packet IDs, 1.20.4 (765) play and configuration, to the client.
const (
	p765RegistryData = 0x05 // configuration
	p765FinishConfig = 0x02 // configuration, both directions
	p765TileEntity   = 0x07
	p765DeclareCmds  = 0x11
	p765WindowItems  = 0x13
	p765SetSlot      = 0x15
	p765CustomPay    = 0x18
	p765MapChunk     = 0x25
	p765Metadata     = 0x56
)

// Packet IDs, 1.8.x (47) play, to the client.
const (
	p47Chat        = 0x02
	p47MapChunk    = 0x21
	p47ChunkBulk   = 0x26
	p47SetSlot     = 0x2f
	p47WindowItems = 0x30
	p47TileEntity  = 0x35
	p47EntityNBT   = 0x49
)

// varInt appends v as a VarInt (negative numbers as their 32 bits).
func varInt(b []byte, v int) []byte { return binary.AppendUvarint(b, uint64(uint32(v))) }

// maxI32 is 2^31-1, the largest count a VarInt or i32 declares.
const maxI32 = 1<<31 - 1

// zPlain is a frame in the compressed format carrying body uncompressed
// (data length 0).
func zPlain(body []byte) []byte { return slpFrame(append([]byte{0}, body...)) }

// zPacket is a frame in the compressed format whose data length says dl
// and whose body is the zlib data z.
func zPacket(dl int, z []byte) []byte { return slpFrame(append(varInt(nil, dl), z...)) }

// zlibOf is b compressed with zlib at the best compression.
func zlibOf(b []byte) []byte { return zlibAt(b, zlib.BestCompression) }

// zlibAt is b compressed with zlib at level.
func zlibAt(b []byte, level int) []byte {
	var buf bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&buf, level)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// zlibZeros is zlib data inflating to packet id then n-1 zero bytes.
func zlibZeros(id byte, n int) []byte {
	b := make([]byte, n)
	b[0] = id
	return zlibOf(b)
}

// javaLogin writes a session's start, up to the play state: handshake
// with protocol proto, Login Start, Set Compression (threshold 256), Login
// Success, and for 1.20.2+ Login Acknowledged and Finish Configuration
// both ways. config, when not nil, is sent by the server in the
// configuration state before Finish Configuration (1.20.4 only).
func javaLogin(c *TCPConn, proto int, name string, config ...[]byte) {
	c.Handshake()
	hs := slpPacket(0, varInt(nil, proto), slpString("localhost"), []byte{0x63, 0xdd}, []byte{2})
	uuid := []byte("0123456789abcdef")
	if proto >= proto1204 {
		c.Send(true, append(hs, slpPacket(0, slpString(name), uuid)...))
	} else {
		c.Send(true, append(hs, slpPacket(0, slpString(name))...))
	}
	sv := slpPacket(3, varInt(nil, playThreshold))
	if proto >= proto1204 {
		sv = append(sv, zPlain(append(append([]byte{0x02}, uuid...), append(slpString(name), 0)...))...)
	} else {
		sv = append(sv, zPlain(append([]byte{0x02}, append(slpString("30313233-3435-3637-3839-616263646566"), slpString(name)...)...))...)
	}
	c.Send(false, sv)
	if proto < proto1204 {
		return
	}
	c.Send(true, zPlain([]byte{0x03})) // Login Acknowledged
	c.MSS = 1460
	for _, f := range config {
		c.Send(false, f)
	}
	c.MSS = 0
	c.Send(false, zPlain([]byte{p765FinishConfig}))
	c.Send(true, zPlain([]byte{p765FinishConfig}))
}

// playBombs are the compressed packets of PlayZipBombs, per version: each
// inflates to megabytes from a few kilobytes of zlib data.
func playBombs(proto int) [][]byte {
	const eight = 8 << 20 // the protocol's most, slp.MaxDataLength
	const two = 2 << 20   // the dissector's inflation cap, slp.InflateCap
	if proto >= proto1204 {
		zeros := zlibZeros(p765MapChunk, eight)
		// Chunk Data whose sky light is 2 MiB of empty arrays: one node
		// each, as many as the cap lets bytes exist
		dense := []byte{p765MapChunk, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0}
		dense = varInt(dense, two-len(dense)-5)
		dense = append(dense, make([]byte, two-len(dense))...)
		// Window Items saying 2^31-1 slots, then 2 MiB of empty slots
		items := varInt([]byte{p765WindowItems, 0, 0}, maxI32)
		items = append(items, make([]byte, two-len(items))...)
		return [][]byte{
			zPacket(eight, zeros),           // the most the field allows, capped
			zPacket(1000, zeros),            // inflates past what it declares
			zPacket(maxI32, zeros),          // declares 2^31-1
			zPacket(two, zlibOf(dense)),     // the cap's worth of nodes
			zPacket(two, zlibOf(items)),     // a count of 2^31-1 over 2 MiB
			zPacket(eight, zlibOf(nil)[:2]), // a zlib header and nothing else
		}
	}
	zeros := zlibZeros(p47MapChunk, eight)
	// Map Chunk Bulk with as many 10-byte chunk metas as 2 MiB holds
	bulk := varInt([]byte{p47ChunkBulk, 1}, two/10)
	bulk = append(bulk, make([]byte, two-len(bulk))...)
	// Map Chunk whose data buffer is the cap's size
	chunk := []byte{p47MapChunk, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff}
	chunk = varInt(chunk, two-len(chunk)-3)
	chunk = append(chunk, make([]byte, two-len(chunk))...)
	return [][]byte{
		zPacket(eight, zeros),
		zPacket(300, zeros),
		zPacket(maxI32, zeros),
		zPacket(two, zlibOf(bulk)),
		zPacket(two, zlibOf(chunk)),
	}
}

// PlayZipBombs writes n compressed play packets that inflate to megabytes
// from kilobytes: the protocol's 8 MiB declared and inflated, a data length
// the inflation overruns, 2^31-1 declared, 2 MiB of node-dense Chunk Data
// and Window Items, a zlib header with nothing after it. They go in
// sessions of 64 packets, 1.20.4 and 1.8 in turn, from the server.
//
// A server sends compressed packets of up to 8 MiB inflated; these are
// legal in form and hostile in ratio (about 1000:1). It exists because
// inflation must stop at the dissector's cap, one packet at a time, and
// the tree of an inflated packet must cost what its bytes hold.
func (w *Writer) PlayZipBombs(n int) {
	w.Step = time.Microsecond
	t := hostileStart
	bombs := map[int][][]byte{proto1204: playBombs(proto1204), proto18: playBombs(proto18)}
	for s, sent := 0, 0; sent < n; s++ {
		proto := proto1204
		if s%2 == 1 {
			proto = proto18
		}
		c := w.TCP(hostileClient(s), HostileServer, t)
		javaLogin(c, proto, "bomber")
		c.MSS = 1460
		for k := 0; k < 64 && sent < n; k++ {
			bs := bombs[proto]
			c.Send(false, bs[(s/2+k)%len(bs)])
			sent++
		}
		c.MSS = 0
		c.Close()
		t = c.Now
	}
}

// nbtString is NBT's string payload: u16 length, bytes.
func nbtString(s string) []byte {
	return append(binary.BigEndian.AppendUint16(nil, uint16(len(s))), s...)
}

// countPackets765 are 1.20.4 play packets whose counts and lengths say more
// than the packet holds.
func countPackets765() [][]byte {
	tile := func(nbt ...byte) []byte {
		b := append([]byte{p765TileEntity}, 0, 0, 0, 0, 0, 0, 0, 0)
		return append(varInt(b, 1), nbt...)
	}
	compound := func(tag byte, name string, payload ...byte) []byte {
		b := append([]byte{10, tag}, nbtString(name)...)
		return append(append(b, payload...), 0)
	}
	i32 := func(v int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(v)) }
	metaString := append(varInt([]byte{p765Metadata}, 7), 0, 4) // key 0, type string
	metaString = varInt(metaString, 32767)
	metaString = append(metaString, "short"...)
	var metaLoop []byte // metadata entries with no end marker
	metaLoop = varInt(append(metaLoop, p765Metadata), 8)
	for k := range 200 {
		metaLoop = append(metaLoop, byte(k%255), 0, 1) // key, type byte, value
	}
	return [][]byte{
		append(varInt([]byte{p765WindowItems, 0, 0}, maxI32), 0, 0, 0),
		append(varInt([]byte{p765WindowItems, 0, 0}, 1000000), make([]byte, 100)...),
		append(varInt([]byte{p765SetSlot, 0, 0, 0, 0, 1}, 1), append([]byte{1}, compound(9, "list", append([]byte{3}, i32(maxI32)...)...)...)...),
		tile(compound(11, "ints", i32(maxI32)...)...),
		tile(compound(12, "longs", i32(maxI32)...)...),
		tile(compound(7, "bytes", i32(maxI32)...)...),
		tile(compound(7, "negative", i32(-1)...)...),
		tile(compound(8, "text", 0xff, 0xff, 'a', 'b')...),
		tile(compound(9, "compounds", append([]byte{10}, i32(maxI32)...)...)...),
		append(varInt([]byte{p765CustomPay}, 32767), "minecraft:brand"...),
		append(varInt([]byte{p765CustomPay}, maxI32), "x"...),
		append(varInt([]byte{p765CustomPay}, 40000), "x"...),
		append(varInt([]byte{p765MapChunk, 0, 0, 0, 1, 0, 0, 0, 1, 0}, maxI32), 1, 2, 3),
		append(varInt([]byte{p765MapChunk, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0}, maxI32), make([]byte, 50)...),
		append(varInt(append([]byte{p765MapChunk, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0}, 0), maxI32), make([]byte, 50)...),
		append(varInt([]byte{p765DeclareCmds}, maxI32), 0, 0, 0),
		metaString,
		metaLoop,
	}
}

// countPackets47 are 1.8 play packets whose counts and lengths say more
// than the packet holds (the 1.8 NBT is named: type, name, payload).
func countPackets47() [][]byte {
	named := func(tag byte, name string, payload ...byte) []byte {
		b := append([]byte{10, 0, 0, tag}, nbtString(name)...)
		return append(append(b, payload...), 0)
	}
	i32 := func(v int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(v)) }
	slot := func(nbt ...byte) []byte {
		return append([]byte{p47SetSlot, 0, 0, 0, 0, 1, 1, 0, 0}, nbt...)
	}
	return [][]byte{
		append([]byte{p47WindowItems, 0, 0x7f, 0xff}, 0xff, 0xff, 0xff),
		append([]byte{p47WindowItems, 0, 0xff, 0xff}, 0xff, 0xff), // a count of -1
		append([]byte{p47WindowItems, 0, 0x80, 0x00}, 0xff, 0xff),
		slot(named(9, "list", append([]byte{1}, i32(maxI32)...)...)...),
		slot(named(11, "ints", i32(maxI32)...)...),
		slot(named(8, "text", 0xff, 0xff)...),
		append(varInt([]byte{p47ChunkBulk, 1}, maxI32), make([]byte, 30)...),
		append(varInt([]byte{p47MapChunk, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff}, maxI32), 1, 2),
		append(varInt([]byte{p47Chat}, 32767), "hello"...),
		append(varInt([]byte{p47Chat}, maxI32), "hello"...),
		append(append([]byte{p47TileEntity}, make([]byte, 9)...), named(12, "longs", i32(maxI32)...)...),
	}
}

// playPacketFrames frames bodies in the compressed format: under the
// threshold as they are, at or over it compressed.
func playPacketFrames(bodies [][]byte) []byte {
	var out []byte
	for _, b := range bodies {
		if len(b) < playThreshold {
			out = append(out, zPlain(b)...)
		} else {
			out = append(out, zPacket(len(b), zlibOf(b))...)
		}
	}
	return out
}

// PlayDeclaredCounts writes n sessions, 1.20.4 and 1.8 in turn, whose
// server sends play packets with counts and lengths that say millions or
// 2^31-1 (arrays, NBT lists and arrays, strings, buffers, entity metadata)
// over a few bytes, and a 1.20.4 registry data whose NBT list says 2^31-1
// compounds. Each packet is one frame whose length is true.
//
// No real server sends them; a fuzzer or a hostile proxy does. It exists
// because nothing may be allocated, or walked, for what a count declares:
// each must be reported malformed at the bytes that are there.
func (w *Writer) PlayDeclaredCounts(n int) {
	w.Step = time.Microsecond
	t := hostileStart
	p765 := playPacketFrames(countPackets765())
	p47 := playPacketFrames(countPackets47())
	reg := append([]byte{p765RegistryData, 10, 9}, nbtString("minecraft:dimension_type")...)
	reg = binary.BigEndian.AppendUint32(append(reg, 10), maxI32)
	config := zPlain(append(reg, 0, 0))
	w.playSessions(n, t, "counter", config, p765, p47)
}

// playSessions writes n sessions, 1.20.4 (with config in its
// configuration state) and 1.8 in turn, each sending its play frames
// after the login, from time t.
func (w *Writer) playSessions(n int, t time.Time, name string, config, f765, f47 []byte) {
	for s := range n {
		c := w.TCP(hostileClient(s), HostileServer, t)
		c.MSS = 1460
		if s%2 == 0 {
			javaLogin(c, proto1204, name, config)
			c.MSS = 1460
			c.Send(false, f765)
		} else {
			javaLogin(c, proto18, name)
			c.MSS = 1460
			c.Send(false, f47)
		}
		c.Close()
		t = c.Now
	}
}

// nbtDeep is a compound nested depth levels deep (the root counts one),
// anonymous (network NBT, 1.20.2+) or named with an empty name (before).
func nbtDeep(depth int, named bool) []byte {
	b := []byte{10}
	if named {
		b = append(b, 0, 0)
	}
	for range depth - 1 {
		b = append(b, 10, 0, 1, 'd')
	}
	return append(b, bytes.Repeat([]byte{0}, depth)...)
}

// nbtDeepList is a compound holding lists of lists nested depth deep.
func nbtDeepList(depth int, named bool) []byte {
	b := []byte{10}
	if named {
		b = append(b, 0, 0)
	}
	b = append(b, 9, 0, 1, 'l')
	for range depth - 2 {
		b = append(b, 9, 0, 0, 0, 1) // a list of one list
	}
	return append(b, 0, 0, 0, 0, 0, 0) // an empty list of End, then the compound's end
}

// PlayDeepNBT writes n sessions, 1.20.4 and 1.8 in turn, whose NBT nests
// to and past Java's limit of 512: compounds and lists of lists 511, 512,
// 513, 600 and 100,000 deep, in 1.20.4's registry data (configuration),
// block entity data, item slots, entity metadata and chunk heightmaps, and
// 1.8's item slots, block entity and entity NBT. The deepest are
// compressed (300 KB inflating from a few hundred bytes).
//
// Vanilla refuses NBT deeper than 512; a hostile server or proxy sends it
// to break a client. It exists because a decoder that recurses per level
// must stop at the limit, with an expert item, and cost what the bytes
// are.
func (w *Writer) PlayDeepNBT(n int) {
	w.Step = time.Microsecond
	t := hostileStart
	depths := []int{511, 512, 513, 600, 100000}
	var config []byte
	var p765, p47 [][]byte
	for _, d := range depths {
		config = append(config, playPacketFrames([][]byte{
			append([]byte{p765RegistryData}, nbtDeep(d, false)...),
			append([]byte{p765RegistryData}, nbtDeepList(d, false)...),
		})...)
		p765 = append(p765,
			append([]byte{p765TileEntity, 0, 0, 0, 0, 0, 0, 0, 0, 1}, nbtDeep(d, false)...),
			append([]byte{p765SetSlot, 0, 0, 0, 0, 1, 1, 1}, nbtDeepList(d, false)...),
			append([]byte{p765Metadata, 1, 0, 16}, append(nbtDeep(d, false), 0xff)...),
			append([]byte{p765MapChunk, 0, 0, 0, 1, 0, 0, 0, 1}, append(nbtDeep(d, false), make([]byte, 10)...)...),
		)
		p47 = append(p47,
			append([]byte{p47SetSlot, 0, 0, 0, 0, 1, 1, 0, 0}, nbtDeep(d, true)...),
			append(append([]byte{p47TileEntity}, make([]byte, 9)...), nbtDeepList(d, true)...),
			append([]byte{p47EntityNBT, 1}, nbtDeep(d, true)...),
		)
	}
	w.playSessions(n, t, "deep", config, playPacketFrames(p765), playPacketFrames(p47))
}

// PlayPartialPackets writes n 1.20.4 connections in play, all open at
// once, each leaving a compressed packet of about 1.5 MB one segment
// short: on even connections a Chunk Data of incompressible bytes, on odd
// ones a zlib bomb (8 MiB declared) padded to the frame's length, so that
// a connection's held bytes are a stream mid-inflate.
//
// A real server's chunk packets are a few kilobytes to a few hundred;
// many clients stalled mid-packet is a slow-loris. It exists because the
// held bytes of all of them must fit the one budget: the oldest are
// given up, and say so.
func (w *Writer) PlayPartialPackets(n int) {
	w.Step = time.Microsecond
	const size = 1500000
	noise := xorshiftBytes(size)
	noise[0] = p765MapChunk
	stored := zPacket(size, zlibStored(noise))
	bomb := zlibZeros(p765MapChunk, 8<<20)
	bomb = append(bomb, xorshiftBytes(size-len(bomb))...)
	bombed := zPacket(8<<20, bomb)
	t := hostileStart
	conns := make([]*TCPConn, n)
	for i := range conns {
		c := w.TCP(hostileClient(i), HostileServer, t)
		javaLogin(c, proto1204, "partial")
		t = c.Now
		conns[i] = c
	}
	for i, c := range conns {
		c.Now = t
		c.MSS = 1460
		f := stored
		if i%2 == 1 {
			f = bombed
		}
		c.Send(false, f[:len(f)-1000])
		t = c.Now
	}
}

// zlibStored is b in zlib's stored blocks (incompressible data as a
// server's deflater leaves it).
func zlibStored(b []byte) []byte { return zlibAt(b, zlib.NoCompression) }

// noiseSeed is xorshift32's usual seed (Marsaglia's).
const noiseSeed = 2463534242

// xorshiftBytes is n bytes of xorshift noise, from the seed noiseSeed
// unless another is given.
func xorshiftBytes(n int, seed ...uint32) []byte {
	b := make([]byte, n)
	x := uint32(noiseSeed)
	if len(seed) > 0 {
		x = seed[0]
	}
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

// PlayEncrypted writes n 1.20.4 online-mode logins, all open at once: the
// handshake, Login Start, Encryption Request and Response in the clear,
// then 32 KB each way of what AES/CFB8 makes (noise, as a cipher's output
// is), in 1460-byte segments taken in turn from every connection. No key
// log opens them.
//
// Every online-mode session looks like this to a capture without the
// server's key. It exists because bytes nothing can frame must be counted
// and reported, never held for a decoder that will not come.
func (w *Writer) PlayEncrypted(n int) {
	w.Step = time.Microsecond
	const each = 32 << 10
	noise := xorshiftBytes(each + 4096)
	key := xorshiftBytes(162)
	t := hostileStart
	conns := make([]*TCPConn, n)
	for i := range conns {
		c := w.TCP(hostileClient(i), HostileServer, t)
		c.Handshake()
		hs := slpPacket(0, varInt(nil, proto1204), slpString("localhost"), []byte{0x63, 0xdd}, []byte{2})
		c.Send(true, append(hs, slpPacket(0, slpString("crypt"), []byte("0123456789abcdef"))...))
		c.Send(false, slpPacket(1, slpString(""), varInt(nil, len(key)), key, []byte{4, 1, 2, 3, byte(i)}))
		secret := noise[i%4096 : i%4096+128]
		c.Send(true, slpPacket(1, varInt(nil, 128), secret, varInt(nil, 128), secret))
		t = c.Now
		conns[i] = c
	}
	for off := 0; off < each; off += 1460 {
		for i, c := range conns {
			c.Now = t
			k := min(1460, each-off)
			src := noise[(i+off)%4096:]
			c.Send(false, src[:k])
			c.Send(true, src[7:7+k])
			t = c.Now
		}
	}
	for _, c := range conns {
		c.Now = t
		c.Close()
		t = c.Now
	}
}

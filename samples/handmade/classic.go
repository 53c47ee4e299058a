package main

// Hand-made Classic sessions, built from the protocol tables (seed 004 for
// the core protocol; the modern client's protocol table for CPE): every
// packet the real capture (classic-session.pcap) lacks.

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
	"net/netip"
	"path/filepath"
	"time"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

// cpkt builds a Classic packet: bytes and ints are single bytes, i16/i32
// are big-endian, str is a 64-byte space-padded string, raw is copied.
type (
	i16 int
	i32 int
	str string
	raw []byte
)

func cpkt(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch v := p.(type) {
		case int:
			b = append(b, byte(v))
		case rune:
			b = append(b, byte(v))
		case i16:
			b = binary.BigEndian.AppendUint16(b, uint16(v))
		case i32:
			b = binary.BigEndian.AppendUint32(b, uint32(v))
		case str:
			s := bytes.Repeat([]byte{' '}, 64)
			copy(s, v)
			b = append(b, s...)
		case raw:
			b = append(b, v...)
		}
	}
	return b
}

func join(ps ...[]byte) []byte { return bytes.Join(ps, nil) }

// levelChunks splits compressed level data into Level Data Chunks; sel is
// the last byte (percent complete, or the ExtendedBlocks array selector
// when >= 0).
func levelChunks(z []byte, sel int) []byte {
	var out []byte
	for i := 0; i < len(z); i += 1024 {
		part := z[i:min(i+1024, len(z))]
		last := (i + len(part)) * 100 / len(z)
		if sel >= 0 {
			last = sel
		}
		out = append(out, cpkt(0x03, i16(len(part)), raw(part), raw(make([]byte, 1024-len(part))), last)...)
	}
	return out
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func deflated(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// flatLevel is an X×Y×Z level (index (y×Z + z)×X + x): bedrock, stone,
// dirt, grass, air, and a few other blocks here and there.
func flatLevel(x, y, z int) []byte {
	b := make([]byte, x*y*z)
	for yy := 0; yy < y; yy++ {
		var blk byte
		switch {
		case yy == 0:
			blk = 7
		case yy < y/2-2:
			blk = 1
		case yy < y/2:
			blk = 3
		case yy == y/2:
			blk = 2
		}
		for i := 0; i < x*z; i++ {
			b[yy*x*z+i] = blk
		}
	}
	b[(y/2+1)*x*z+5] = 38  // a rose
	b[(y/2+1)*x*z+9] = 46  // TNT
	b[(y/2+1)*x*z+12] = 20 // glass
	return b
}

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func writeClassic(dir string) error {
	for _, s := range []struct {
		name string
		fn   func(*capgen.Writer)
	}{
		{"handmade-classic-vanilla.pcap", classicVanilla},
		{"handmade-classic-cpe.pcap", classicCPE},
		{"handmade-classic-heartbeat.pcap", classicHeartbeat},
		{"handmade-classic-bomb.pcap", classicBomb},
		{"handmade-classic-unknown.pcap", classicUnknown},
		{"handmade-classic-gap.pcap", classicGap},
	} {
		w, err := capgen.Create(filepath.Join(dir, s.name))
		if err != nil {
			return err
		}
		s.fn(w)
		if err := w.Close(); err != nil {
			return err
		}
	}
	return nil
}

var (
	classicServer = netip.MustParseAddrPort("10.0.4.1:25565")
	classicClient = netip.MustParseAddrPort("10.0.4.2:51000")
)

// classicVanilla: protocol 7 without CPE, every core packet both ways.
func classicVanilla(w *capgen.Writer) {
	c := w.TCP(classicClient, classicServer, t0)
	c.Handshake()
	c.Send(true, cpkt(0x00, 7, str("steve"), str("0123456789abcdef0123456789abcdef"), 0x00))
	level := flatLevel(16, 8, 16)
	z := gzipped(join(cpkt(i32(len(level))), level))
	s := join(
		cpkt(0x00, 7, str("&aHand-made &fClassic"), str("&eseed 004 tables"), 0x64), // op
		cpkt(0x01), // ping
		cpkt(0x02),
		levelChunks(z, -1),
		cpkt(0x04, i16(16), i16(8), i16(16)),
		// Spawn self standing on row 5: Y = 5×32 + 51.
		cpkt(0x07, 0xff, str("steve"), i16(8*32), i16(5*32+51), i16(8*32), 64, 0),
		cpkt(0x07, 3, str("&calex"), i16(4*32+16), i16(5*32+51), i16(4*32+16), 128, 16),
		cpkt(0x08, 0xff, i16(8*32), i16(5*32+51), i16(8*32), 64, 0),
	)
	c.SendSplit(false, s, 100, 1000, 2500) // packets across segments
	c.Send(true, join(cpkt(0x08, 0xff, i16(8*32), i16(5*32+51), i16(8*32), 64, 0),
		cpkt(0x08, 0xff, i16(8*32+8), i16(5*32+51), i16(8*32), 96, 32))) // two per segment
	// Set block both ways: create a brick, destroy a dirt block.
	c.Send(true, cpkt(0x05, i16(9), i16(5), i16(8), 1, 45))
	c.Send(false, cpkt(0x06, i16(9), i16(5), i16(8), 45))
	c.Send(true, cpkt(0x05, i16(9), i16(3), i16(8), 0, 2))
	c.Send(false, cpkt(0x06, i16(9), i16(3), i16(8), 0))
	// Relative moves of player 3.
	c.Send(false, join(
		cpkt(0x09, 3, 16, 0, -8, 192, 224),
		cpkt(0x0a, 3, 32, 0, 0),
		cpkt(0x0a, 3, -128, 127, 1),
		cpkt(0x0b, 3, 32, 64),
		cpkt(0x0b, 3, 0, 100), // pitch 100: head upside down
	))
	// Chat with colours; player IDs 3 (< 127) and 127 and 255 (≥ 127: the client adds &e).
	c.Send(true, cpkt(0x0d, 0xff, str("hello %cworld")))
	c.Send(false, join(
		cpkt(0x0d, 3, str("&c<alex> &fhi &asteve")),
		cpkt(0x0d, 127, str("from id 127: &byellow first")),
		cpkt(0x0d, 0xff, str("&4Server&f: restart in &c5 &fminutes")),
	))
	c.Send(false, cpkt(0x0f, 0x00)) // de-opped
	c.Send(false, cpkt(0x01))
	c.Send(false, cpkt(0x0c, 3))
	c.Send(false, cpkt(0x0e, str("&cKicked: &fend of the sample")))
	c.Close()
}

var cpeExts = []struct {
	name string
	ver  int
}{
	{"ClickDistance", 1}, {"CustomBlocks", 1}, {"HeldBlock", 1}, {"TextHotKey", 1}, {"ExtPlayerList", 2}, {"EnvColors", 1},
	{"SelectionCuboid", 1}, {"BlockPermissions", 1}, {"ChangeModel", 1}, {"EnvMapAppearance", 2}, {"EnvWeatherType", 1},
	{"HackControl", 1}, {"MessageTypes", 1}, {"PlayerClick", 1}, {"LongerMessages", 1}, {"FullCP437", 1},
	{"BlockDefinitions", 1}, {"BlockDefinitionsExt", 2}, {"BulkBlockUpdate", 1}, {"TextColors", 1}, {"EnvMapAspect", 2},
	{"EntityProperty", 1}, {"ExtEntityPositions", 1}, {"TwoWayPing", 1}, {"InventoryOrder", 1}, {"InstantMOTD", 1},
	{"FastMap", 1}, {"ExtendedBlocks", 1}, {"ExtendedTextures", 1}, {"SetHotbar", 1}, {"SetSpawnpoint", 1},
	{"VelocityControl", 1}, {"CustomParticles", 1}, {"CustomModels", 2}, {"PluginMessages", 1}, {"ExtEntityTeleport", 1},
	{"LightingMode", 1}, {"CinematicGui", 1}, {"NotifyAction", 1}, {"ToggleBlockList", 1},
}

func extList(app string) []byte {
	b := cpkt(0x10, str(app), i16(len(cpeExts)))
	for _, e := range cpeExts {
		b = append(b, cpkt(0x11, str(e.name), i32(e.ver))...)
	}
	return b
}

// classicCPE: a CPE session where both sides announce every extension, so
// the framing is widened (ExtEntityPositions, FastMap, ExtendedBlocks,
// ExtendedTextures, the v2s) and each CPE packet is sent once.
func classicCPE(w *capgen.Writer) {
	c := w.TCP(netip.MustParseAddrPort("10.0.4.3:51001"), classicServer, t0.Add(time.Minute))
	c.Handshake()
	c.Send(true, cpkt(0x00, 7, str("alex"), str("-"), 0x42)) // 0x42: CPE client
	c.SendSplit(false, extList("MCGalaxy 1.9.4.9"), 67, 67+69*10)
	c.Send(true, extList("ClassiCube 1.3.8"))
	c.Send(false, cpkt(0x13, 1))
	c.Send(true, cpkt(0x13, 1))
	level := flatLevel(16, 8, 16)
	upper := make([]byte, len(level))
	upper[(8/2+1)*16*16+7] = 1 // one block above 255: 256 + lower byte
	level[(8/2+1)*16*16+7] = 44
	c.Send(false, join(
		cpkt(0x00, 7, str("CPE sample"), str("every extension"), 0x64),
		cpkt(0x02, i32(len(level))), // FastMap: the volume
		levelChunks(deflated(level), 0),
		levelChunks(deflated(upper), 1), // ExtendedBlocks: the upper array
		cpkt(0x04, i16(16), i16(8), i16(16)),
		// ExtEntityPositions: int coordinates.
		cpkt(0x07, 0xff, str("alex"), i32(8*32), i32(5*32+51), i32(8*32), 0, 0),
		cpkt(0x08, 0xff, i32(8*32), i32(5*32+51), i32(8*32), 0, 0),
		cpkt(0x12, i16(160)),
		cpkt(0x14, i16(300), 0), // HoldThis, an ExtendedBlocks ID
		cpkt(0x15, str("Fly toggle"), str("/fly\n"), i32(33), 1),
		cpkt(0x16, i16(4), str("steve"), str("&csteve"), str("Admins"), 2),
		cpkt(0x17, 4, str("steve"), str("steve")),
		cpkt(0x21, 4, str("&csteve"), str("steve"), i32(100*32), i32(5*32+51), i32(-3*32), 64, 0),
		cpkt(0x18, i16(4)),
		cpkt(0x19, 0, i16(135), i16(206), i16(235)),
		cpkt(0x19, 2, i16(-1), i16(-1), i16(-1)), // reset fog colour
		cpkt(0x1a, 1, str("spawn zone"), i16(0), i16(0), i16(0), i16(15), i16(7), i16(15), i16(255), i16(0), i16(0), i16(96)),
		cpkt(0x1b, 1),
		cpkt(0x1c, i16(7), 0, 0),
		cpkt(0x1d, 4, str("chicken")),
		cpkt(0x1e, str("http://example.org/terrain.zip"), 7, 8, i16(4), i16(10), i16(0)), // v2
		cpkt(0x1f, 1),
		cpkt(0x20, 1, 0, 1, 1, 1, i16(-1)),
		// BlockDefinitions with ExtendedBlocks (2-byte IDs) and ExtendedTextures (2-byte textures).
		cpkt(0x23, i16(70), str("Marble"), 2, 128, i16(1), i16(2), i16(3), 0, 4, 0, 16, 0, 0, 0, 0, 0),
		cpkt(0x25, i16(71), str("Marble slab"), 2, 128, i16(1), i16(2), i16(2), i16(2), i16(2), i16(3), 0, 4, 0, 0, 0, 0, 16, 8, 16, 0, 0, 0, 0, 0),
		cpkt(0x24, i16(70)),
		bulk([]int{0, 1, 300}, []int{1, 2, 300}),
		cpkt(0x27, 255, 128, 0, 255, 'h'),
		cpkt(0x28, str("http://example.org/textures/"), str("pack.zip")), // v2: 128 characters
		cpkt(0x29, 4, i32(256)),
		cpkt(0x2a, 4, 3, i32(2000)),
		cpkt(0x2b, 1, i16(7)),
		cpkt(0x2c, i16(45), i16(1)),
		cpkt(0x2d, i16(45), 0),
		cpkt(0x2e, i32(8*32), i32(5*32+51), i32(8*32), 64, 0),
		cpkt(0x2f, i32(0), i32(12500), i32(0), 0, 1, 0),
		cpkt(0x30, 1, 0, 0, 15, 15, 255, 255, 255, 1, 10, 8, i32(0), i16(32), i32(10000), i32(-5000), i32(10000), i32(0), 0, 1),
		cpkt(0x31, 1, i32(8*32), i32(6*32), i32(8*32), i32(8*32), i32(5*32), i32(8*32)),
		cpkt(0x32, 1, str("box"), 1, raw(make([]byte, 44)), i16(64), i16(64), 1),
		cpkt(0x33, 1, raw(make([]byte, 24+48+24)), raw(make([]byte, 4*17)), 0), // v2: four animations
		cpkt(0x34, 1),
		cpkt(0x35, 9, raw(bytes.Repeat([]byte("plugin-data-"), 6)[:64])),
		cpkt(0x36, 4, 0x13, i32(101*32), i32(5*32+51), i32(-3*32), 64, 32),
		cpkt(0x37, 2, 1),
		cpkt(0x38, 1, 1, 0, 0, 0, 0, 255, i16(8192)),
		cpkt(0x3b, 0),
		cpkt(0x0d, 100, str("&eAnnouncement (MessageTypes)")),
		cpkt(0x06, i16(9), i16(5), i16(8), i16(300)),
	))
	c.Send(true, join(
		cpkt(0x08, i16(45), i32(8*32), i32(5*32+51), i32(8*32), 64, 0), // HeldBlock + ExtendedBlocks + ExtEntityPositions
		cpkt(0x05, i16(9), i16(5), i16(8), 1, i16(300)),
		cpkt(0x22, 0, 0, i16(16384), i16(0), 255, i16(9), i16(5), i16(8), 2),
		cpkt(0x2b, 0, i16(8)),
		cpkt(0x2b, 1, i16(7)), // echo of the server's ping
		cpkt(0x35, 9, raw(bytes.Repeat([]byte{0x2a}, 64))),
		cpkt(0x39, i16(3), i16(0)),
		cpkt(0x3a, i16(4), i16(8), i16(5), i16(8)),
		cpkt(0x0d, 1, str("a long message in two parts, ")), // LongerMessages: partial
		cpkt(0x0d, 0, str("this is the end")),
	))
	c.Send(false, cpkt(0x2b, 0, i16(8)))
	c.Close()
}

// bulk builds a BulkBlockUpdate under ExtendedBlocks: indices, low bytes,
// then 2 high bits per block.
func bulk(idx, blocks []int) []byte {
	b := cpkt(0x26, len(idx)-1)
	for i := 0; i < 256; i++ {
		v := 0
		if i < len(idx) {
			v = idx[i]
		}
		b = append(b, cpkt(i32(v))...)
	}
	for i := 0; i < 256; i++ {
		v := 0
		if i < len(blocks) {
			v = blocks[i]
		}
		b = append(b, byte(v))
	}
	hi := make([]byte, 64)
	for i, v := range blocks {
		hi[i/4] |= byte(v>>8&3) << (2 * (i % 4))
	}
	return append(b, hi...)
}

// classicHeartbeat: the server's heartbeat (HTTP GET with the salt, port
// 80), the list server's answer, then two players: steve's key is
// md5(salt + "steve"), mallory's is forged.
func classicHeartbeat(w *capgen.Writer) {
	const salt = "wo6kVAHjxoJcInKx"
	hb := w.TCP(netip.MustParseAddrPort("10.0.4.1:40000"), netip.MustParseAddrPort("203.0.113.80:80"), t0.Add(2*time.Minute))
	hb.Handshake()
	hb.Send(true, []byte("GET /heartbeat.jsp?port=25565&max=32&name=My%20Server&public=True&version=7&salt="+salt+"&users=0&software=hand%2Dmade HTTP/1.1\r\nHost: minecraft.net\r\nUser-Agent: handmade\r\n\r\n"))
	body := "http://minecraft.net/classic/play/d2a6e9c0b1"
	hb.Send(false, []byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "+itoa(len(body))+"\r\n\r\n"+body))
	hb.Close()
	// The seed's own form: an HTTP/0.9 request line, answered without headers.
	hb2 := w.TCP(netip.MustParseAddrPort("10.0.4.1:40001"), netip.MustParseAddrPort("203.0.113.80:80"), t0.Add(2*time.Minute+time.Second))
	hb2.Handshake()
	hb2.Send(true, []byte("GET /heartbeat.jsp?port=25565&max=32&name=My%20Server&public=True&version=7&salt="+salt+"&users=1\r\n"))
	hb2.Send(false, []byte(body+"\n"))
	hb2.Close()
	for i, p := range []struct{ name, key string }{
		{"steve", md5hex(salt + "steve")},
		{"mallory", md5hex("guessed" + "mallory")},
	} {
		c := w.TCP(netip.AddrPortFrom(netip.MustParseAddr("10.0.4.9"), uint16(52000+i)), classicServer, t0.Add(3*time.Minute+time.Duration(i)*time.Second))
		c.Handshake()
		c.Send(true, cpkt(0x00, 7, str(p.name), str(p.key), 0x00))
		c.Send(false, cpkt(0x00, 7, str("My Server"), str("verified names"), 0x00))
		if i == 1 {
			c.Send(false, cpkt(0x0e, str("&cFailed to verify your name")))
		}
		c.Close()
	}
}

func md5hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}

// classicBomb: a level whose gzip stream inflates to 32 MiB while the
// finalize packet announces 64×64×64.
func classicBomb(w *capgen.Writer) {
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	gz.Write(cpkt(i32(64 * 64 * 64)))
	zero := make([]byte, 1<<20)
	for i := 0; i < 32; i++ {
		gz.Write(zero)
	}
	gz.Close()
	c := w.TCP(netip.MustParseAddrPort("10.0.4.4:51002"), classicServer, t0.Add(4*time.Minute))
	c.Handshake()
	c.Send(true, cpkt(0x00, 7, str("victim"), str("-"), 0x00))
	c.MSS = 1460
	c.Send(false, join(cpkt(0x00, 7, str("bomb"), str("a gzip bomb level"), 0x00), cpkt(0x02), levelChunks(buf.Bytes(), -1), cpkt(0x04, i16(64), i16(64), i16(64))))
	c.Close()
}

// classicUnknown: a packet ID the server→client table does not have, in
// the middle of the stream: the rest of that direction is undissected, the
// client's direction goes on.
func classicUnknown(w *capgen.Writer) {
	c := w.TCP(netip.MustParseAddrPort("10.0.4.5:51003"), classicServer, t0.Add(5*time.Minute))
	c.Handshake()
	c.Send(true, cpkt(0x00, 7, str("steve"), str("-"), 0x00))
	c.Send(false, join(cpkt(0x00, 7, str("odd server"), str("unknown packet next"), 0x00), cpkt(0x01), cpkt(0x42, 1, 2, 3, 4, 5), cpkt(0x01)))
	c.Send(true, cpkt(0x0d, 0xff, str("still framed")))
	c.Close()
}

// classicGap: 20 bytes of the client's position updates never captured:
// the framer resynchronises on the next run of valid packets.
func classicGap(w *capgen.Writer) {
	c := w.TCP(netip.MustParseAddrPort("10.0.4.6:51004"), classicServer, t0.Add(6*time.Minute))
	c.Handshake()
	c.Send(true, cpkt(0x00, 7, str("steve"), str("-"), 0x00))
	pos := func(x int) []byte { return cpkt(0x08, 0xff, i16(x), i16(5*32+51), i16(256), 0, 0) }
	c.Send(true, join(pos(256), pos(260)))
	c.Skip(true, 15) // lost: one packet and a half
	c.Send(true, pos(268)[5:])
	c.Send(true, join(pos(276), pos(280), cpkt(0x0d, 0xff, str("after the gap"))))
	c.Close()
}

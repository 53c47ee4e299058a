package main

// Hand-made Server List Ping captures: what real peers won't produce.

import (
	"bytes"
	"compress/zlib"
	"net/netip"
	"path/filepath"
	"time"

	"github.com/mcdissect/mcdissect/dissect/slp"
	"github.com/mcdissect/mcdissect/internal/capgen"
)

func slpVarInt(v int32) []byte { return slp.AppendVarInt(nil, v) }

func slpString(s string) []byte { return append(slpVarInt(int32(len(s))), s...) }

// slpPacket frames ID and body: VarInt length, VarInt ID, body.
func slpPacket(id int32, body ...[]byte) []byte {
	inner := slpVarInt(id)
	for _, b := range body {
		inner = append(inner, b...)
	}
	return append(slpVarInt(int32(len(inner))), inner...)
}

func slpHandshake(proto int32, host string, port []byte, next int32) []byte {
	return slpPacket(0, slpVarInt(proto), slpString(host), port, slpVarInt(next))
}

func slpPort(p uint16) []byte { return []byte{byte(p >> 8), byte(p)} }

func slpUTF16(s string) []byte {
	var out []byte
	for _, r := range s {
		out = append(out, byte(r>>8), byte(r))
	}
	return out
}

func slpKick(s string) []byte {
	n := len([]rune(s))
	return append([]byte{0xFF, byte(n >> 8), byte(n)}, slpUTF16(s)...)
}

func slpPingHost(proto byte, host string, port int32) []byte {
	data := append([]byte{proto, 0, byte(len(host))}, slpUTF16(host)...)
	data = append(data, byte(port>>24), byte(port>>16), byte(port>>8), byte(port))
	b := append([]byte{0xFE, 0x01, 0xFA, 0x00, 0x0B}, slpUTF16("MC|PingHost")...)
	b = append(b, byte(len(data)>>8), byte(len(data)))
	return append(b, data...)
}

// slpForgeD packs bytes as Forge 1.18.1+ does in forgeData.d: the byte
// count in two 15-bit characters, then the bytes 15 bits per character,
// least significant first.
func slpForgeD(b []byte) string {
	out := []rune{rune(len(b) & 0x7FFF), rune(len(b) >> 15 & 0x7FFF)}
	var buf uint32
	bits := 0
	for _, x := range b {
		buf |= uint32(x) << bits
		bits += 8
		if bits >= 15 {
			out = append(out, rune(buf&0x7FFF))
			buf >>= 15
			bits -= 15
		}
	}
	if bits > 0 {
		out = append(out, rune(buf&0x7FFF))
	}
	return string(out)
}

// slpJSONString quotes s for JSON, escaping controls as \u00XX.
func slpJSONString(s string) string {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			const hexd = "0123456789abcdef"
			b.WriteString(`\u00`)
			b.WriteByte(hexd[r>>4])
			b.WriteByte(hexd[r&15])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// a 64x64 PNG would make the samples large; a 1x1 PNG keeps them small
// and still has a real IHDR (the dissector notes it is not 64x64).
var slpTinyPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

func writeSLP(dir string) error {
	t0 := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	server := netip.MustParseAddrPort("192.0.2.10:25565")
	client := func(port uint16) netip.AddrPort { return netip.AddrPortFrom(netip.MustParseAddr("198.51.100.7"), port) }
	status := `{"version":{"name":"1.20.6","protocol":766},"players":{"max":20,"online":2,"sample":[{"name":"Alex","id":"ec561538-f3fd-461d-aff5-086b22154bce"},{"name":"Steve","id":"8667ba71-b85a-4004-af54-457a9734eed7"}]},"description":{"text":"A ","color":"gold","extra":[{"text":"hand-made","bold":true},"§r server"]},"favicon":"data:image/png;base64,` + slpTinyPNG + `","enforcesSecureChat":true}`
	hs := slpHandshake(766, "mc.example.org", slpPort(25565), 1)
	req := slpPacket(0)
	resp := slpPacket(0, slpString(status))
	ping := slpPacket(1, []byte{0, 0, 1, 0x8f, 0x2b, 0x3c, 0x4d, 0x5e})

	files := []struct {
		name string
		gen  func(w *capgen.Writer)
	}{
		{"reorder", func(w *capgen.Writer) {
			// handshake and status request cut in three and sent out of
			// order; the response in four segments, one duplicated, one
			// retransmitted overlapping its neighbours, all reordered.
			c := w.TCP(client(50001), server, t0)
			c.Handshake()
			first := append(append([]byte{}, hs...), req...)
			c.SegmentAt(true, 10, first[10:])
			c.SegmentAt(true, 0, first[:4])
			c.SegmentAt(true, 4, first[4:10])
			q := len(resp) / 4
			c.SegmentAt(false, q, resp[q:2*q])
			c.SegmentAt(false, 0, resp[:q])
			c.SegmentAt(false, 3*q, resp[3*q:])
			c.SegmentAt(false, 0, resp[:q])              // duplicate
			c.SegmentAt(false, 2*q-5, resp[2*q-5:3*q+5]) // overlaps both neighbours
			c.Send(true, ping)
			c.Send(false, ping)
			c.Close()
		}},
		{"gap", func(w *capgen.Writer) {
			// the middle of the status response is missing: the server
			// side is undissected from there, the client side goes on
			c := w.TCP(client(50002), server, t0)
			c.Handshake()
			c.Send(true, hs)
			c.Send(true, req)
			c.Send(false, resp[:40])
			c.Skip(false, 30)
			c.SegmentAt(false, 70, resp[70:])
			c.Send(true, ping)
			c.Send(false, ping)
			c.Close()
		}},
		{"midstream", func(w *capgen.Writer) {
			// the capture starts in the middle of a status response
			c := w.TCP(client(50003), server, t0)
			c.SegmentAt(false, 5000, resp[150:])
			c.SegmentAt(true, 3000, ping)
			c.SegmentAt(false, 5000+len(resp)-150, ping)
			c.Close()
		}},
		{"hostile-length", func(w *capgen.Writer) {
			// a length prefix of 0x0fffffff (268 MB): never buffered
			c := w.TCP(client(50004), server, t0)
			c.Handshake()
			c.Send(true, hs)
			c.Send(true, append([]byte{0xff, 0xff, 0xff, 0x7f}, bytes.Repeat([]byte{0x41}, 64)...))
			c.Close()
		}},
		{"varint6", func(w *capgen.Writer) {
			// a 6-byte VarInt (80 80 80 80 80 01), as a packet length, and
			// inside a packet on a second connection
			c := w.TCP(client(50005), server, t0)
			c.Handshake()
			c.Send(true, hs)
			c.Send(true, []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x00})
			c.Close()
			c2 := w.TCP(client(50006), server, t0.Add(time.Second))
			c2.Handshake()
			c2.Send(true, append([]byte{0x07, 0x00}, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01))
			c2.Close()
		}},
		{"zlib-bomb", func(w *capgen.Writer) {
			// after Set Compression a packet declares 300 bytes and its
			// zlib data inflates to 10 MiB: stopped at 301
			c := w.TCP(client(50007), server, t0)
			c.Handshake()
			c.Send(true, slpHandshake(766, "mc.example.org", slpPort(25565), 2))
			uuid := []byte{0xec, 0x56, 0x15, 0x38, 0xf3, 0xfd, 0x46, 0x1d, 0xaf, 0xf5, 0x08, 0x6b, 0x22, 0x15, 0x4b, 0xce}
			c.Send(true, slpPacket(0, slpString("Alex"), uuid))
			c.Send(false, slpPacket(3, slpVarInt(256)))
			var z bytes.Buffer
			zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
			zw.Write(make([]byte, 10<<20))
			zw.Close()
			inner := append(slpVarInt(300), z.Bytes()...)
			c.MSS = 1448
			c.Send(false, append(slpVarInt(int32(len(inner))), inner...))
			c.Close()
		}},
		{"bad-json", func(w *capgen.Writer) {
			c := w.TCP(client(50008), server, t0)
			c.Handshake()
			c.Send(true, append(append([]byte{}, hs...), req...))
			c.Send(false, slpPacket(0, slpString(`{"description":"unterminated,"players":{"max":1}`)))
			c.Close()
		}},
		{"forge", func(w *capgen.Writer) {
			var d []byte
			d = append(d, 0, 0, 2) // not truncated, 2 mods
			d = append(d, 1<<1)    // forge: 1 channel
			d = append(d, slpString("forge")...)
			d = append(d, slpString("47.2.0")...)
			d = append(d, slpString("tier_sorting")...)
			d = append(d, slpString("1.0")...)
			d = append(d, 0)
			d = append(d, 1) // server-only mod, no channels
			d = append(d, slpString("spark")...)
			d = append(d, 1) // one non-mod channel
			d = append(d, slpString("minecraft:register")...)
			d = append(d, slpString("FML3")...)
			d = append(d, 1)
			js := `{"version":{"name":"1.20.1","protocol":763},"description":{"text":"A Forge server"},"players":{"max":10,"online":0},"enforcesSecureChat":false,"forgeData":{"channels":[],"mods":[],"truncated":false,"fmlNetworkVersion":3,"d":` + slpJSONString(slpForgeD(d)) + `}}`
			c := w.TCP(client(50009), server, t0)
			c.Handshake()
			c.Send(true, slpHandshake(763, "forge.example.org\x00FML3\x00", slpPort(25565), 1))
			c.Send(true, req)
			c.Send(false, slpPacket(0, slpString(js)))
			c.Close()
		}},
		{"legacy-port", func(w *capgen.Writer) {
			// legacy pings to a server on port 25570: 1.6 (MC|PingHost),
			// 1.4 (FE 01) and beta (FE), each answered by a kick
			other := netip.MustParseAddrPort("192.0.2.10:25570")
			c := w.TCP(client(50010), other, t0)
			c.Handshake()
			c.Send(true, slpPingHost(78, "192.0.2.10", 25570))
			c.Send(false, slpKick("§1\x00127\x001.20.4\x00A §6legacy§r server\x003\x0020"))
			c.Close()
			c2 := w.TCP(client(50011), other, t0.Add(time.Second))
			c2.Handshake()
			c2.Send(true, []byte{0xFE, 0x01})
			c2.Send(false, slpKick("§1\x00127\x001.20.4\x00A legacy server\x003\x0020"))
			c2.Close()
			c3 := w.TCP(client(50012), other, t0.Add(2*time.Second))
			c3.Handshake()
			c3.Send(true, []byte{0xFE})
			c3.Send(false, slpKick("A legacy server§3§20"))
			c3.Close()
		}},
		{"le-port", func(w *capgen.Writer) {
			// a client that writes the handshake's port little-endian (seed 002)
			c := w.TCP(client(50013), server, t0)
			c.Handshake()
			c.Send(true, slpHandshake(766, "mc.example.org", []byte{0xdd, 0x63}, 1))
			c.Send(true, req)
			c.Send(false, resp)
			c.Close()
		}},
	}
	for _, f := range files {
		w, err := capgen.Create(filepath.Join(dir, "handmade-slp-"+f.name+".pcap"))
		if err != nil {
			return err
		}
		f.gen(w)
		if err := w.Close(); err != nil {
			return err
		}
	}
	return nil
}

package main

// Classic packets and heartbeats cut by a gap or by the connection's end
// (issue 11, partial decodes): each is decoded as far as its bytes go, the
// field they end in marked truncated. Real peers do not stop in the middle
// of a packet, and kernel capture losses cannot be had on demand, so these
// are written by hand. The cut identifications carry keys and the cut
// heartbeats a salt: --redact must mask every piece of them
// (cmd/mcdissect's TestRedactEverywhere reads the constants below).

import (
	"net/netip"
	"path/filepath"
	"time"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

// cutSalt is the salt of handmade-classic-cut.pcap; the keys are
// md5(cutSalt + name) for cutNames.
const cutSalt = "Hn3pQ7wXk2Lm9RtZ"

var cutNames = []string{"fern", "gale"}

func writeClassicCut(dir string) error {
	w, err := capgen.Create(filepath.Join(dir, "handmade-classic-cut.pcap"))
	if err != nil {
		return err
	}
	classicCut(w)
	return w.Close()
}

func classicCut(w *capgen.Writer) {
	t := time.Date(2026, 11, 22, 14, 0, 0, 0, time.UTC)
	list := netip.MustParseAddrPort("203.0.113.81:80")
	server := netip.MustParseAddr("10.0.6.1")
	body := "port=25565&max=8&name=Cut%20Server&public=False&version=7&salt=" + cutSalt + "&users=1"
	post := "POST /server/heartbeat HTTP/1.1\r\nHost: www.classicube.net\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " +
		itoa(len(body)) + "\r\n\r\n" + body
	inSalt := len(post) - len("&users=1") - 7 // 9 characters of the salt

	// 1. A heartbeat POST whose connection ends in the middle of the salt:
	// its head and 9 characters of the salt are decoded, the salt truncated.
	hb := w.TCP(netip.AddrPortFrom(server, 40200), list, t)
	hb.Handshake()
	hb.Send(true, []byte(post[:inSalt]))
	hb.Close()

	// 2. The same POST in two segments, the second not captured: the salt
	// is cut by the gap; the response, cut by the connection's end inside
	// its body (the play URL), is decoded as far as it goes too.
	hb2 := w.TCP(netip.AddrPortFrom(server, 40201), list, t.Add(time.Second))
	hb2.Handshake()
	hb2.Send(true, []byte(post[:inSalt+3])) // 12 characters of the salt
	hb2.Skip(true, len(post)-(inSalt+3))
	resp := "HTTP/1.1 200 OK\r\nContent-Length: 46\r\n\r\nhttp://www.classicube.net/server/play/cut0001"
	hb2.Send(false, []byte(resp[:len(resp)-20]))
	hb2.Close()

	// 3. A GET heartbeat whose connection ends inside the salt, before the
	// end of its head: an HTTP head has no length to be cut from, so these
	// bytes stay undissected (and --redact masks them whole).
	get := "GET /heartbeat.jsp?port=25565&max=8&name=Cut&public=False&version=7&salt=" + cutSalt + "&users=1 HTTP/1.1\r\nHost: minecraft.net\r\n\r\n"
	hb3 := w.TCP(netip.AddrPortFrom(server, 40202), list, t.Add(2*time.Second))
	hb3.Handshake()
	hb3.Send(true, []byte(get[:len("GET /heartbeat.jsp?port=25565&max=8&name=Cut&public=False&version=7&salt=")+10]))
	hb3.Close()

	game := netip.AddrPortFrom(server, 25565)
	ident := func(name string, unused int) []byte {
		return cpkt(0x00, 7, str(name), str(md5hex(cutSalt+name)), unused)
	}
	pos := func(x int) []byte { return cpkt(0x08, 0xff, i16(x), i16(5*32+51), i16(8*32), 64, 0) }

	// 4. A player's connection with a cut in each direction's middle and
	// at each direction's end.
	c := w.TCP(netip.AddrPortFrom(netip.MustParseAddr("10.0.6.9"), 54000), game, t.Add(10*time.Second))
	c.Handshake()
	// (Every cut leaves at least 8 characters of the secret, the window
	// TestRedactEverywhere looks for.)
	// The identification cut by a gap inside the key (24 of its 64
	// bytes); the rest of the key and the unused byte come after the gap,
	// skipped by the resync to the position packets.
	id := ident(cutNames[0], 0x00)
	c.Send(true, id[:2+64+24])
	c.Skip(true, 30)
	c.Send(true, join(id[2+64+54:], pos(256), pos(264), pos(272)))
	// The server: identification, level, its second chunk cut by a gap
	// inside the data; the level is then not inflated.
	level := flatLevel(16, 8, 16)
	chunks := levelChunks(gzipped(join(cpkt(i32(len(level))), level)), -1)
	chunks = join(chunks, chunks[:1028]) // a second chunk (the level's bytes twice: it would not inflate either way)
	c.Send(false, join(cpkt(0x00, 7, str("Cut Server"), str("cut packets"), 0x00), cpkt(0x01), cpkt(0x02), chunks[:1028]))
	c.Send(false, chunks[1028:1028+500])
	c.Skip(false, 528)
	c.Send(false, join(cpkt(0x04, i16(16), i16(8), i16(16)),
		cpkt(0x07, 0xff, str(cutNames[0]), i16(8*32), i16(5*32+51), i16(8*32), 64, 0),
		cpkt(0x0d, 0xff, str("&eWelcome to the cut server"))))
	// A position cut by a gap inside its X coordinate's second byte.
	p := pos(280)
	c.Send(true, p[:3])
	c.Skip(true, len(p)-3)
	c.Send(true, join(pos(288), pos(296), pos(304)))
	// The ends: the client's chat message cut at a field boundary (its
	// ID and flag byte, no text), the server's Spawn Player inside the name.
	c.Send(true, cpkt(0x0d, 0xff, str("bye"))[:2])
	c.Send(false, cpkt(0x07, 4, str("&bvisitor"), i16(8*32), i16(5*32+51), i16(8*32), 0, 0)[:6])
	c.Close()

	// 5. An identification whose connection ends inside the key (40 of 64
	// bytes), from a CPE client.
	c2 := w.TCP(netip.AddrPortFrom(netip.MustParseAddr("10.0.6.9"), 54001), game, t.Add(20*time.Second))
	c2.Handshake()
	c2.Send(true, ident(cutNames[1], 0x42)[:2+64+40])
	c2.Close()

	// 6. An identification cut exactly where the key starts: the name
	// whole, the key absent, truncated with none of its bytes.
	c3 := w.TCP(netip.AddrPortFrom(netip.MustParseAddr("10.0.6.9"), 54002), game, t.Add(30*time.Second))
	c3.Handshake()
	c3.Send(true, ident("hale", 0x00)[:2+64])
	c3.Close()
}

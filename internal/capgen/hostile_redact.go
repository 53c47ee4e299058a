package capgen

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"net/netip"
	"strings"
	"time"
	"unicode/utf16"
)

// Hostile captures for --redact: copies of a learned secret in the
// encodings other protocols carry text in, and a secret learned after a
// record holding its copy was decoded.

// heartbeatAndPlayer writes a heartbeat that teaches HostileSalt and a
// player "alex" whose key is valid for it, from time t; it returns the
// time after them.
func (w *Writer) heartbeatAndPlayer(t time.Time) (*TCPConn, time.Time) {
	hb := w.TCP(hostileHeartbeatFrom(0), hostileListServer, t)
	hb.Handshake()
	hb.Send(true, []byte("GET /heartbeat.jsp?"+heartbeatQuery(0)+" HTTP/1.1\r\nHost: minecraft.net\r\n\r\n"))
	hb.Send(false, []byte("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nplay/abcde"))
	hb.Close()
	c := w.hostilePlayer(0, hb.Now, "alex")
	return c, c.Now
}

// percentAll is s with every byte %-escaped, as a URL may carry it.
func percentAll(s string) string {
	var b strings.Builder
	for i := range len(s) {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return b.String()
}

// jsonEscapeAll is s with every character \u-escaped, as JSON may carry it.
func jsonEscapeAll(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// pngWithText is a 1×1 PNG carrying text in a tEXt chunk.
func pngWithText(key, text string) []byte {
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1)))
	b := buf.Bytes()
	const ihdrEnd = 8 + 8 + 13 + 4 // signature, IHDR's length and type, data, CRC
	data := append([]byte("tEXt"+key+"\x00"), text...)
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(data)-4))
	chunk = append(chunk, data...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(data))
	return append(append(append([]byte(nil), b[:ihdrEnd]...), chunk...), b[ihdrEnd:]...)
}

// SecretEncodings writes a heartbeat and a player (the salt and a key
// learned), then copies of them written as other protocols carry text:
// %-escaped in a Classic chat message, a key split between two chat
// messages, \u-escaped in an SLP status's description, inside the PNG of
// its favicon (base64 in the JSON), in UTF-16 in a legacy ping's kick, in
// a Query full stat's host name and player list, in a Bedrock pong's MOTD,
// and in the blocks of a Classic level (gzip on the wire).
//
// Real peers do not echo the secrets of a Classic server. It exists
// because a secret learned once must be masked wherever its bytes
// reappear, in whatever encoding the wire gives them where that encoding
// is certain.
func (w *Writer) SecretEncodings() {
	w.Step = time.Microsecond
	key := HostileKey("alex")
	c, _ := w.heartbeatAndPlayer(hostileStart)
	c.Send(true, classicMessage(0xff, "salt="+percentAll(HostileSalt)))
	c.Send(true, classicMessage(0xff, "my key is "+key[:20]))
	c.Send(true, classicMessage(0xff, key[20:]+" (twice)"))
	blocks := flatLevel(16, 16, 16)
	copy(blocks[1000:], HostileSalt)
	var level bytes.Buffer
	gz := gzip.NewWriter(&level)
	gz.Write(binary.BigEndian.AppendUint32(nil, uint32(len(blocks))))
	gz.Write(blocks)
	gz.Close()
	c.Send(false, append(append([]byte{0x02}, classicLevelChunks(level.Bytes())...), classicLevelFinalize(16, 16, 16)...))
	c.Close()
	t := c.Now

	favicon := "data:image/png;base64," + base64.StdEncoding.EncodeToString(pngWithText("Comment", "salt "+HostileSalt))
	status := `{"version":{"name":"` + key + `","protocol":767},"players":{"max":20,"online":0},"description":{"text":"` + jsonEscapeAll(HostileSalt) + `"},"favicon":"` + favicon + `"}`
	s := w.TCP(hostileClient(1), HostileServer, t)
	s.Handshake()
	s.Send(true, slpStatusRequest())
	s.MSS = 1460
	s.Send(false, slpStatusResponse(status))
	s.Close()

	legacy := w.TCP(hostileClient(2), HostileServer, s.Now)
	legacy.Handshake()
	legacy.Send(true, []byte{0xfe, 0x01})
	kick := "§1\x00127\x001.21.1\x00salt " + HostileSalt + "\x000\x0020"
	legacy.Send(false, append(binary.BigEndian.AppendUint16([]byte{0xff}, uint16(len(utf16.Encode([]rune(kick))))), slpUTF16(kick)...))
	legacy.Close()
	t = legacy.Now

	q := netip.AddrPortFrom(HostileServer.Addr(), 25565)
	cl := hostileClient(3)
	w.UDP(t, cl, q, queryHandshakeRequest(1))
	w.UDP(t.Add(time.Millisecond), q, cl, queryHandshakeResponse(1, 1000))
	w.UDP(t.Add(2*time.Millisecond), cl, q, queryStatRequest(1, 1000, true))
	w.UDP(t.Add(3*time.Millisecond), q, cl, queryFullStat(1, queryVanillaKV("salt "+HostileSalt), []string{key}))

	bedrock := netip.AddrPortFrom(HostileServer.Addr(), 19132)
	w.UDP(t.Add(4*time.Millisecond), hostileClient(4), bedrock, raknetPing(1))
	w.UDP(t.Add(5*time.Millisecond), bedrock, hostileClient(4), raknetPong(1, "MCPE;salt "+HostileSalt+";712;1.21.20;0;10;1;"+key+";Survival;1;19132;19133;"))
}

// SecretLate writes a player "alex" with a valid key, chat and a server
// identification carrying the salt, and only then the heartbeat that
// teaches the salt; with held, all of it while a Query handshake request
// waits for its response, which comes last.
//
// A real server's heartbeat comes every 45 seconds, so a capture may well
// show the salt after copies of it. It exists because the records held
// behind the request (all of them: a request awaiting its response holds
// the output in order) must leave with the salt masked, although it was
// learned after they were decoded; and, without held, to show what a
// second pass (-2) adds.
func (w *Writer) SecretLate(held bool) {
	w.Step = time.Microsecond
	t := hostileStart
	q := netip.AddrPortFrom(HostileServer.Addr(), 25565)
	cl := hostileClient(3)
	if held {
		w.UDP(t, cl, q, queryHandshakeRequest(1))
	}
	c := w.hostilePlayer(0, t.Add(time.Millisecond), "alex")
	c.Send(true, classicMessage(0xff, "the salt is "+HostileSalt))
	c.Send(false, classicIdent("Late", "salt "+HostileSalt))
	hb := w.TCP(hostileHeartbeatFrom(0), hostileListServer, c.Now)
	hb.Handshake()
	hb.Send(true, []byte("GET /heartbeat.jsp?"+heartbeatQuery(0)+" HTTP/1.1\r\nHost: minecraft.net\r\n\r\n"))
	hb.Send(false, []byte("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nplay/abcde"))
	hb.Close()
	c.Close()
	if held {
		w.UDP(hb.Now.Add(time.Millisecond), q, cl, queryHandshakeResponse(1, 1000))
	}
}

// ManyKeys writes a heartbeat, then n players with distinct names, each
// with its valid key, each saying that key in chat.
//
// A real server sees as many keys as players, hundreds a day at most. It
// exists because every key is a secret to learn, and a set that learns
// them must be bounded: past its bound a key is masked in its own record,
// and the run says that its copies elsewhere are not.
func (w *Writer) ManyKeys(n int) {
	w.Step = time.Microsecond
	c, t := w.heartbeatAndPlayer(hostileStart)
	c.Close()
	for i := range n {
		name := fmt.Sprintf("p%d", i)
		p := w.hostilePlayer(i+1, t, name)
		p.Send(true, classicMessage(0xff, "my key is "+HostileKey(name)))
		p.Close()
		t = p.Now
	}
}

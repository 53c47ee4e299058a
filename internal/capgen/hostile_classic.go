package capgen

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

// Hostile Classic captures: levels and identifications that make an
// analyzer hold bytes per connection, and heartbeats whose salt hides where
// a per-field rule would miss it.

// HostileSalt is the heartbeat salt of the hostile Classic captures; the
// keys they send are md5(HostileSalt + name).
const HostileSalt = "Hq7ZtR4mWx2PkL9s"

// hostileListServer is the list server heartbeats go to.
var hostileListServer = netip.MustParseAddrPort("203.0.113.80:80")

// hostileHeartbeatFrom is the server's own address as its heartbeats leave
// it (the same IP as HostileServer, so that the salt matches its port).
func hostileHeartbeatFrom(i int) netip.AddrPort {
	return netip.AddrPortFrom(HostileServer.Addr(), uint16(40000+i))
}

// HostileKey is the valid key of a player name in the hostile captures.
func HostileKey(name string) string { return classicKey(HostileSalt, name) }

// LevelsHeld writes n Classic connections, all open at once, each of
// which receives 1 MiB of Level Data Chunks and never the Level Finalize:
// every connection's level is joined and held, to the end of the capture.
//
// Real servers finalize every level they start. It exists because n
// clients of a hostile server (or one hostile server's many connections)
// each make the analyzer hold a level: the sum must stay bounded.
func (w *Writer) LevelsHeld(n int) {
	w.Step = time.Microsecond
	conns := make([]*TCPConn, n)
	t := hostileStart
	for i := range conns {
		c := w.TCP(hostileClient(i), HostileServer, t)
		c.Handshake()
		c.Send(true, classicIdent("p"+strconv.Itoa(i), "-"))
		c.Send(false, append(classicIdent("Held", "levels never finalized"), 0x02))
		t = c.Now
		conns[i] = c
	}
	// Incompressible bytes, as a level's gzip stream is: what is joined is
	// what was sent.
	chunk := xorshiftBytes(1024, 88172645)
	for k := range 1024 {
		for _, c := range conns {
			c.Now = t
			c.Send(false, classicLevelChunk(chunk, byte(k*100/1024)))
			t = c.Now
		}
	}
}

// PartialIdentifications writes n Classic connections, each of whose
// client sends 100 of the identification's 131 bytes and then nothing: n
// connections whose protocol is known and whose first packet waits, each
// holding the per-connection state of a Classic conversation.
//
// Real clients send their identification whole, in one segment. It exists
// because a connection costs what its state costs from its first byte, and
// 80,000 of them must fit in the memory bound without the collector
// thrashing.
func (w *Writer) PartialIdentifications(n int) {
	w.Step = time.Microsecond
	t := hostileStart
	for i := range n {
		c := w.TCP(hostileClient(i), HostileServer, t)
		c.Handshake()
		c.Send(true, classicIdent("p"+strconv.Itoa(i), HostileKey("p"+strconv.Itoa(i)))[:100])
		t = c.Now
	}
}

// flatLevel is an X×Y×Z level (index (y×Z + z)×X + x): bedrock, stone,
// dirt, grass, air.
func flatLevel(x, y, z int) []byte {
	b := make([]byte, x*y*z)
	for yy := range y {
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
		for i := yy * x * z; blk != 0 && i < (yy+1)*x*z; i++ {
			b[i] = blk
		}
	}
	return b
}

// BigLevel writes one Classic connection that sends a 1024×64×1024 level
// (64 MiB of blocks and the 4-byte count, 64 KiB of gzip) and finalizes it.
//
// Classic servers (MCGalaxy, ClassiCube's) allow levels this large, but no
// real peer was captured sending one here. It exists because a level that
// inflates to 64 MiB is legal and must be accepted, and because the outputs
// that keep a level's blocks (the page's map, --export-objects level) must
// stay within the memory bound with it.
func (w *Writer) BigLevel() {
	const x, y, z = 1024, 64, 1024
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	gz.Write(binary.BigEndian.AppendUint32(nil, x*y*z))
	gz.Write(flatLevel(x, y, z))
	gz.Close()
	c := w.TCP(hostileClient(0), HostileServer, hostileStart)
	c.Handshake()
	c.Send(true, classicIdent("builder", "-"))
	c.MSS = 1460
	c.Send(false, append(append(append(classicIdent("Big", "a 1024x64x1024 level"), 0x02), classicLevelChunks(buf.Bytes())...), classicLevelFinalize(x, y, z)...))
	c.Close()
}

// heartbeatQuery is a heartbeat's parameters with extra pairs before the
// salt.
func heartbeatQuery(extra int) string {
	var b strings.Builder
	b.WriteString("port=25565&max=32&name=Hostile%20Server&public=True&version=7")
	for k := range extra {
		b.WriteString("&x")
		b.WriteString(strconv.Itoa(k))
		b.WriteString("=1")
	}
	b.WriteString("&salt=" + HostileSalt + "&users=0")
	return b.String()
}

// hostilePlayer writes a player's connection to HostileServer that
// identifies as name with the valid key, and the server's reply.
func (w *Writer) hostilePlayer(i int, t time.Time, name string) *TCPConn {
	c := w.TCP(hostileClient(i), HostileServer, t)
	c.Handshake()
	c.Send(true, classicIdent(name, HostileKey(name)))
	c.Send(false, classicIdent("Hostile Server", "welcome"))
	return c
}

// HeartbeatManyParams writes two heartbeats with n parameters before the
// salt, one as a GET query string and one as a POST form body, and a player
// whose key is valid for that salt.
//
// Real server software sends seven to nine parameters. It exists because a
// parser that stops after a fixed number of parameters never reaches the
// salt, which is then neither learned nor masked.
func (w *Writer) HeartbeatManyParams(n int) {
	w.Step = time.Microsecond
	t := hostileStart
	q := heartbeatQuery(n)
	hb := w.TCP(hostileHeartbeatFrom(0), hostileListServer, t)
	hb.Handshake()
	hb.Send(true, []byte("GET /heartbeat.jsp?"+q+" HTTP/1.1\r\nHost: minecraft.net\r\n\r\n"))
	hb.Send(false, []byte("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nplay/abcde"))
	hb.Close()
	hb2 := w.TCP(hostileHeartbeatFrom(1), hostileListServer, hb.Now)
	hb2.Handshake()
	hb2.MSS = 1460
	hb2.Send(true, []byte("POST /heartbeat.jsp HTTP/1.1\r\nHost: minecraft.net\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: "+strconv.Itoa(len(q))+"\r\n\r\n"+q))
	hb2.Send(false, []byte("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nplay/abcde"))
	hb2.Close()
	w.hostilePlayer(0, hb2.Now, "alex").Close()
}

// chunked is body in HTTP/1.1 chunks cut at the given offsets.
func chunked(body string, cuts ...int) string {
	var b strings.Builder
	prev := 0
	for _, c := range append(cuts, len(body)) {
		b.WriteString(strconv.FormatInt(int64(c-prev), 16) + "\r\n" + body[prev:c] + "\r\n")
		prev = c
	}
	b.WriteString("0\r\n\r\n")
	return b.String()
}

// HeartbeatChunked writes two POST heartbeats whose form bodies are sent
// chunked, one with a chunk boundary inside the salt's value and one inside
// "salt=" itself, and a player whose key is valid for that salt.
//
// Real server software sends a Content-Length. It exists because a body
// read without de-chunking teaches a salt with a chunk header inside it
// (and then calls a valid key forged), or none, and leaves the salt in
// clear.
func (w *Writer) HeartbeatChunked() {
	w.Step = time.Microsecond
	q := heartbeatQuery(0)
	at := strings.Index(q, "salt=")
	t := hostileStart
	for k, cut := range []int{at + len("salt=") + 5, at + 2} {
		hb := w.TCP(hostileHeartbeatFrom(k), hostileListServer, t)
		hb.Handshake()
		hb.Send(true, []byte("POST /heartbeat.jsp HTTP/1.1\r\nHost: minecraft.net\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n"+chunked(q, 10, cut)))
		hb.Send(false, []byte("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nplay/abcde"))
		hb.Close()
		t = hb.Now
	}
	w.hostilePlayer(0, t, "alex").Close()
}

// SecretCopies writes a heartbeat, the list server's error response that
// echoes the salt, a player with a valid key, a server whose MOTD carries
// the salt, chat carrying the key and the salt, and the server's message
// echoing the key.
//
// Real list servers do not echo salts and real players do not type their
// keys, but anything a peer controls can carry any bytes. It exists because
// a secret learned once must be masked wherever its bytes reappear, not only
// in the field that taught it.
func (w *Writer) SecretCopies() {
	w.Step = time.Microsecond
	t := hostileStart
	name := "alex"
	key := HostileKey(name)
	hb := w.TCP(hostileHeartbeatFrom(0), hostileListServer, t)
	hb.Handshake()
	hb.Send(true, []byte("GET /heartbeat.jsp?"+heartbeatQuery(0)+" HTTP/1.1\r\nHost: minecraft.net\r\n\r\n"))
	msg := "bad heartbeat: salt " + HostileSalt + " was already used"
	hb.Send(false, []byte("HTTP/1.1 500 Internal Server Error\r\nContent-Length: "+strconv.Itoa(len(msg))+"\r\n\r\n"+msg))
	hb.Close()
	c := w.TCP(hostileClient(0), HostileServer, hb.Now)
	c.Handshake()
	c.Send(true, classicIdent(name, key))
	c.Send(false, classicIdent("Hostile Server", "salt "+HostileSalt))
	c.Send(true, classicMessage(0xff, "my key is "+key))
	c.Send(true, classicMessage(0xff, "the salt is "+HostileSalt))
	c.Send(false, classicMessage(0, "alex said "+key))
	c.Close()
}

// HeartbeatWithoutSYN writes a heartbeat connection the capture picked up
// at its request line (its SYN, SYN+ACK and ACK not captured), the
// response, and a player whose key is valid for the salt it carries.
//
// Real captures miss the handshake of connections already open when the
// capture starts; a heartbeat is short, so this is a hand-made extreme.
// It exists because the request line alone proves where the HTTP message
// starts, and the salt in it must be learned and masked.
func (w *Writer) HeartbeatWithoutSYN() {
	w.Step = time.Microsecond
	hb := w.TCP(hostileHeartbeatFrom(0), hostileListServer, hostileStart)
	hb.Send(true, []byte("GET /heartbeat.jsp?"+heartbeatQuery(0)+" HTTP/1.1\r\nHost: minecraft.net\r\n\r\n"))
	hb.Send(false, []byte("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nplay/abcde"))
	hb.Close()
	w.hostilePlayer(0, hb.Now, "alex").Close()
}

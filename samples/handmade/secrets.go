package main

// Secrets in imperfect captures: Classic heartbeats and identifications cut
// short, broken by a lost segment, or cut by the snap length, so that the
// salt and the verification keys sit in bytes no complete PDU explains.
// --redact must mask them wherever they land (cmd/mcdissect's redaction
// sweep reads this file).

import (
	"net/netip"
	"path/filepath"
	"time"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

// secretSalt is the salt of handmade-classic-secrets.pcap; the keys are
// md5(secretSalt + name) for the names below.
const secretSalt = "Zq8xR2mVt4LpW9nK"

var secretNames = []string{"alex", "brook", "casey", "drew", "emery"}

func writeSecrets(dir string) error {
	w, err := capgen.Create(filepath.Join(dir, "handmade-classic-secrets.pcap"))
	if err != nil {
		return err
	}
	classicSecrets(w)
	return w.Close()
}

func classicSecrets(w *capgen.Writer) {
	t := time.Date(2026, 11, 22, 13, 0, 0, 0, time.UTC)
	list := netip.MustParseAddrPort("203.0.113.80:80")
	server := netip.MustParseAddr("10.0.5.1")
	get := "GET /heartbeat.jsp?port=25565&max=8&name=Secret%20Server&public=False&version=7&salt=" + secretSalt + "&users=0 HTTP/1.1\r\nHost: minecraft.net\r\n\r\n"

	// 1. A complete heartbeat, so that keys can be checked.
	hb := w.TCP(netip.AddrPortFrom(server, 40100), list, t)
	hb.Handshake()
	hb.Send(true, []byte(get))
	hb.Send(false, []byte("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nplay/abcde"))
	hb.Close()

	// 2. A heartbeat whose connection ends in the middle of the salt.
	cut := get[:len("GET /heartbeat.jsp?port=25565&max=8&name=Secret%20Server&public=False&version=7&salt=")+9]
	hb2 := w.TCP(netip.AddrPortFrom(server, 40101), list, t.Add(time.Second))
	hb2.Handshake()
	hb2.Send(true, []byte(cut))
	hb2.Close()

	// 3. A heartbeat whose first segment was not captured: the salt is in
	// the bytes after the gap.
	hb3 := w.TCP(netip.AddrPortFrom(server, 40102), list, t.Add(2*time.Second))
	hb3.Handshake()
	hb3.Skip(true, 30)
	hb3.Send(true, []byte(get[30:]))
	hb3.Close()

	// 4. A heartbeat (POST, the salt in the body) cut by the snap length.
	body := "port=25565&max=8&name=Secret&public=False&version=7&salt=" + secretSalt + "&users=0"
	post := "POST /heartbeat.jsp HTTP/1.1\r\nHost: minecraft.net\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " + itoa(len(body)) + "\r\n\r\n" + body
	hb4 := w.TCP(netip.AddrPortFrom(server, 40103), list, t.Add(3*time.Second))
	hb4.Handshake()
	hb4.SegmentAtCut(true, 0, []byte(post), 54+len(post)-20)
	hb4.Close()

	game := netip.AddrPortFrom(server, 25565)
	ident := func(name string) []byte { return cpkt(0x00, 7, str(name), str(md5hex(secretSalt+name)), 0x00) }
	for i, name := range secretNames {
		c := w.TCP(netip.AddrPortFrom(netip.MustParseAddr("10.0.5.9"), uint16(53000+i)), game, t.Add(time.Duration(10+i)*time.Second))
		c.Handshake()
		id := ident(name)
		switch i {
		case 0: // complete: the key checked against the heartbeat's salt
			c.Send(true, id)
			c.Send(false, cpkt(0x00, 7, str("Secret Server"), str("welcome"), 0x00))
		case 1: // the connection ends in the middle of the key
			c.Send(true, id[:2+64+20])
		case 2: // a segment inside the name lost: the key comes after the gap
			c.Send(true, id[:10])
			c.Skip(true, 20)
			c.Send(true, id[30:])
		case 3: // the frame cut by the snap length inside the key
			c.SegmentAtCut(true, 0, id, 54+2+64+16)
			c.Send(true, cpkt(0x0d, 0xff, str("hello")))
		case 4: // the key sent in two segments, the second lost
			c.Send(true, id[:2+64+8])
			c.Skip(true, 40)
			c.Send(true, id[2+64+48:])
			c.Send(true, cpkt(0x0d, 0xff, str("after")))
		}
		c.Close()
	}
}

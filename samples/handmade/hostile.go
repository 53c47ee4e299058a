package main

// A hostile server and hostile players for -T html: every text a
// server or a player controls (MOTDs, player names, chat, a favicon URI)
// holds markup that would run script if a page ever took it for HTML:
// "</script>" to close the page's data element, "<img onerror>", an
// unclosed "<!--", and U+2028 (a line end to old JavaScript parsers).
// Each payload, if it ran, would set window.__pwned, which the browser
// test checks stays undefined.

import (
	"net/netip"
	"path/filepath"
	"time"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

const (
	hostileClose = `</script><script>window.__pwned=1</script>`
	hostileImg   = `<img src=x onerror="window.__pwned=2">`
	hostileNote  = `<!-- <script>window.__pwned=3</script>`
)

func writeHostile(dir string) error {
	w, err := capgen.Create(filepath.Join(dir, "handmade-hostile-html.pcap"))
	if err != nil {
		return err
	}
	t := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	server := netip.MustParseAddr("192.0.2.66")
	client := netip.MustParseAddr("198.51.100.66")

	// Query: the MOTD and the player names.
	s := &qSession{w: w, client: netip.AddrPortFrom(client, 50066), server: netip.AddrPortFrom(server, 25565), now: t}
	s.c2s(qHandshakeReq(0x01020304))
	s.s2c(qHandshakeResp(0x01020304, 6666))
	s.c2s(qStatReq(0x01020304, 6666, true))
	s.s2c(qFull(0x01020304, qSplit, qVanillaKV("§c"+hostileClose+hostileImg, "3", "25565"),
		[]string{hostileImg, hostileNote, "line\u2028sep</script>"}))

	// SLP: the description (a chat component), the player sample and a
	// favicon URI that tries to leave its attribute.
	status := `{"version":{"name":` + slpJSONString(hostileClose) + `,"protocol":767},` +
		`"players":{"max":20,"online":2,"sample":[{"name":` + slpJSONString(hostileImg) + `,"id":"ec561538-f3fd-461d-aff5-086b22154bce"},` +
		`{"name":` + slpJSONString(hostileNote) + `,"id":"8667ba71-b85a-4004-af54-457a9734eed7"}]},` +
		`"description":{"text":` + slpJSONString("§a"+hostileClose) + `,"color":"gold","extra":[{"text":` + slpJSONString(hostileImg+"\u2028") + `,"bold":true}]},` +
		`"favicon":` + slpJSONString(`data:image/png;base64,AAAA" onerror="window.__pwned=4`) + `}`
	c := w.TCP(netip.AddrPortFrom(client, 50067), netip.AddrPortFrom(server, 25565), t.Add(time.Second))
	c.Handshake()
	c.Send(true, append(slpHandshake(767, "<b>host</b>", slpPort(25565), 1), slpPacket(0)...))
	c.Send(false, slpPacket(0, slpString(status)))
	c.Close()

	// Classic: a server name, a player name and chat (64 bytes each).
	cc := w.TCP(netip.AddrPortFrom(client, 50068), netip.AddrPortFrom(server, 25580), t.Add(2*time.Second))
	cc.Handshake()
	cc.Send(true, cpkt(0x00, 7, str(`<script>window.__pwned=5</script>`), str("0123456789abcdef0123456789abcdef"), 0x00))
	cc.Send(false, cpkt(0x00, 7, str(`</script><!--`), str(`&c<img src=x onerror="window.__pwned=6">`), 0x00))
	cc.Send(false, cpkt(0x0d, 3, str(`&c</script>&f<img src=x onerror="window.__pwned=7">`)))
	cc.Close()
	return w.Close()
}

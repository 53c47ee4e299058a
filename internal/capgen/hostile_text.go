package capgen

import (
	"encoding/binary"
	"net/netip"
	"strings"
	"time"
	"unicode/utf16"
)

// Hostile captures of Query, Server List Ping and text: a full stat that
// repeats one key, a stream picked up mid-response, line separators in every
// text a peer controls.

// FullStatKeys writes n Query full stat exchanges whose responses each
// repeat the key "a" (with an empty value) k times: k − 1 duplicate keys,
// each an expert item on its own node. At k = 16,000 a response is a
// 48 KB datagram, written as one frame.
//
// Real servers send each key once, in datagrams under 1,500 bytes. It
// exists because the cost of a tree must grow with its nodes and expert
// items, not with their product.
func (w *Writer) FullStatKeys(n, k int) {
	w.Step = time.Microsecond
	t := hostileStart
	kv := make([]string, 0, 2*(k+2))
	kv = append(kv, "hostname", "many keys")
	for range k {
		kv = append(kv, "a", "")
	}
	q := netip.AddrPortFrom(HostileServer.Addr(), 25565)
	for i := range n {
		cl := hostileClient(i)
		sess := uint32(i + 1)
		w.UDP(t, cl, q, queryHandshakeRequest(sess))
		w.UDP(t.Add(100*time.Microsecond), q, cl, queryHandshakeResponse(sess, 1000+i))
		w.UDP(t.Add(200*time.Microsecond), cl, q, queryStatRequest(sess, 1000+i, true))
		w.UDP(t.Add(300*time.Microsecond), q, cl, queryFullStat(sess, kv, []string{"alex"}))
		t = t.Add(time.Millisecond)
	}
}

// SLPMidStatus writes a Server List Ping connection the capture picked up
// in the middle of the server's status response of 4.5 KB (neither the
// handshake, nor the status request, nor the response's first half
// captured), then n pings and the pongs that echo them.
//
// A real client sends one ping per connection; the status response cut at
// the capture's start is what real captures of busy servers begin with. It
// exists because a pong that echoes a ping seen proves where it starts, so
// every pong after the cut must be dissected, not left undissected.
func (w *Writer) SLPMidStatus(n int) {
	w.Step = time.Microsecond
	c := w.TCP(hostileClient(0), HostileServer, hostileStart)
	req := append(slpHandshake(1), slpPacket(0)...)
	resp := slpPacket(0, slpString(slpStatusJSON(strings.Repeat("mid-stream ", 400))))
	c.Skip(true, len(req))
	c.Skip(false, len(resp)/2)
	c.MSS = 1460
	c.Send(false, resp[len(resp)/2:])
	for i := range n {
		v := 0x0102030405060708 + uint64(i)
		c.Send(true, slpPing(v))
		c.Send(false, slpPing(v))
	}
	c.Close()
}

// lineSep and paraSep are U+2028 and U+2029 as UTF-8.
const (
	lineSep = "\u2028"
	paraSep = "\u2029"
)

// sepText is a text holding both separators, and a C1 control (NEL,
// U+0085) that outputs already escape, for comparison.
const sepText = "line" + lineSep + "para" + paraSep + "nel\u0085end"

// slpUTF16 is s in UTF-16BE.
func slpUTF16(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.BigEndian.AppendUint16(b, u)
	}
	return b
}

// LineSeparators writes U+2028 and U+2029 (raw UTF-8, and as JSON's \u2028
// escapes) in every kind of text a peer controls: Query keys, values and
// player names; an SLP status's version name, description, player sample
// and login name; a legacy kick (UTF-16BE); a Bedrock pong's MOTD; a
// Classic heartbeat's server name (%-escaped). Classic's own strings are
// code page 437 bytes, which hold no U+2028.
//
// Real servers send what their operators type; these two code points are
// line ends to a terminal, to JavaScript and to line-based tools. It exists
// so that every output escapes them as it escapes other separators and
// C1 controls.
func (w *Writer) LineSeparators() {
	w.Step = time.Microsecond
	t := hostileStart
	q := netip.AddrPortFrom(HostileServer.Addr(), 25565)
	cl := hostileClient(0)
	w.UDP(t, cl, q, queryHandshakeRequest(1))
	w.UDP(t.Add(time.Millisecond), q, cl, queryHandshakeResponse(1, 1000))
	w.UDP(t.Add(2*time.Millisecond), cl, q, queryStatRequest(1, 1000, true))
	kv := append(queryVanillaKV(sepText), "key"+lineSep+paraSep, sepText)
	w.UDP(t.Add(3*time.Millisecond), q, cl, queryFullStat(1, kv, []string{sepText, "plain"}))
	w.UDP(t.Add(4*time.Millisecond), cl, q, queryStatRequest(1, 1000, false))
	w.UDP(t.Add(5*time.Millisecond), q, cl, queryBasicStat(1, sepText))

	status := `{"version":{"name":"` + sepText + `","protocol":767},"players":{"max":20,"online":1,"sample":[{"name":"` + sepText + `","id":"ec561538-f3fd-461d-aff5-086b22154bce"}]},` +
		`"description":{"text":"` + sepText + `","extra":[{"text":"escaped \u2028 \u2029"}]}}`
	c := w.TCP(hostileClient(1), HostileServer, t.Add(10*time.Millisecond))
	c.Handshake()
	c.Send(true, append(slpHandshake(1), slpPacket(0)...))
	c.Send(false, slpPacket(0, slpString(status)))
	c.Close()

	login := w.TCP(hostileClient(2), HostileServer, c.Now)
	login.Handshake()
	login.Send(true, append(slpHandshake(2), slpPacket(0, slpString("n"+lineSep+paraSep), make([]byte, 16))...))
	login.Send(false, slpPacket(0, slpString(`{"text":"`+sepText+`"}`)))
	login.Close()

	legacy := w.TCP(hostileClient(3), HostileServer, login.Now)
	legacy.Handshake()
	legacy.Send(true, []byte{0xfe, 0x01})
	kick := "§1\x00127\x001.21.1\x00" + sepText + "\x000\x0020"
	legacy.Send(false, append(binary.BigEndian.AppendUint16([]byte{0xff}, uint16(len(utf16.Encode([]rune(kick))))), slpUTF16(kick)...))
	legacy.Close()

	bedrock := netip.AddrPortFrom(HostileServer.Addr(), 19132)
	w.UDP(legacy.Now, hostileClient(4), bedrock, raknetPing(1))
	w.UDP(legacy.Now.Add(time.Millisecond), bedrock, hostileClient(4), raknetPong(1, "MCPE;"+sepText+";712;1.21.20;0;10;1;"+sepText+";Survival;1;19132;19133;"))

	hb := w.TCP(hostileHeartbeatFrom(0), hostileListServer, legacy.Now.Add(time.Second))
	hb.Handshake()
	hb.Send(true, []byte("GET /heartbeat.jsp?port=25565&max=8&name=a%E2%80%A8b%E2%80%A9c&public=True&version=7&salt="+HostileSalt+"&users=0&software=x HTTP/1.1\r\nHost: minecraft.net\r\n\r\n"))
	hb.Send(false, []byte("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nplay/"+lineSep[:3]+"x"))
	hb.Close()
}

package slp

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/hex"
	"flag"
	"image"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

var update = flag.Bool("update", false, "rewrite testdata/fields.txt")

func hx(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(err)
	}
	return b
}

// pkt builds a modern packet: VarInt length, VarInt ID, body.
func pkt(id int32, body ...[]byte) []byte {
	inner := appendVarInt(nil, id)
	for _, b := range body {
		inner = append(inner, b...)
	}
	return append(appendVarInt(nil, int32(len(inner))), inner...)
}

func vi(v int32) []byte { return appendVarInt(nil, v) }

func mcstr(s string) []byte { return append(vi(int32(len(s))), s...) }

func u16be(v uint16) []byte { return []byte{byte(v >> 8), byte(v)} }

func utf16be(s string) []byte {
	var out []byte
	for _, r := range s {
		out = append(out, byte(r>>8), byte(r))
	}
	return out
}

func handshake(proto int32, host string, port uint16, next int32) []byte {
	return pkt(0, vi(proto), mcstr(host), u16be(port), vi(next))
}

const (
	c2s = dissect.DirC2S
	s2c = dissect.DirS2C
)

type step struct {
	dir  dissect.Dir
	data []byte
}

var t0 = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

// run frames and decodes a conversation, one step per PDU, and checks that
// Frame delimits each step exactly and that every tree keeps the invariants.
func run(t testing.TB, steps ...step) []*dissect.PDU {
	t.Helper()
	c := NewConn()
	var out []*dissect.PDU
	for k, s := range steps {
		f := c.Frame(s.dir, s.data, false)
		if f.Status != dissect.FrameOK || f.Len != len(s.data) {
			t.Fatalf("step %d: Frame = %+v, want OK %d", k, f, len(s.data))
		}
		p := &dissect.PDU{}
		c.Decode(p, s.data, meta(k, s.dir))
		if err := dissect.Check(p); err != nil {
			t.Fatalf("step %d (%s): %v", k, p.Message, err)
		}
		out = append(out, p)
	}
	c.Close(dissect.ConnEnd{})
	return out
}

func meta(k int, d dissect.Dir) dissect.Meta {
	return dissect.Meta{Frame: uint64(k + 4), Time: t0.Add(time.Duration(k) * 25 * time.Millisecond), Client: "10.0.0.1:50000", Server: "10.0.0.2:25565", Dir: d}
}

// node finds the first node named name, failing the test if none.
func node(t testing.TB, p *dissect.PDU, name string) *dissect.Node {
	t.Helper()
	i := p.Find(name)
	if i < 0 {
		t.Fatalf("%s: no %s in %s", p.Message, name, dump(p))
	}
	return &p.Nodes[i]
}

func display(t testing.TB, p *dissect.PDU, name string) string {
	return dissecttest.Display(node(t, p, name))
}

func dump(p *dissect.PDU) string {
	var b strings.Builder
	for i := range p.Nodes {
		n := &p.Nodes[i]
		b.WriteString(strings.Repeat("  ", p.Depth(int32(i))))
		b.WriteString(n.Name() + " [" + itoa(int(n.Offset)) + "+" + itoa(int(n.Length)) + "]: " + dissecttest.Display(n) + "\n")
	}
	for _, e := range p.Experts {
		b.WriteString("  expert " + e.Info.Name + ": " + e.Msg + "\n")
	}
	return b.String()
}

func itoa(v int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(v)) }

func fmtInt(v int) string {
	if v == 0 {
		return "0"
	}
	neg := v < 0
	if neg {
		v = -v
	}
	var b []byte
	for v > 0 {
		b = append([]byte{byte('0' + v%10)}, b...)
		v /= 10
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}

func hasExpert(p *dissect.PDU, name string) bool {
	for _, e := range p.Experts {
		if e.Info.Name == name {
			return true
		}
	}
	return false
}

func wantExpert(t testing.TB, p *dissect.PDU, name string) {
	t.Helper()
	if !hasExpert(p, name) {
		t.Errorf("%s: no expert %s in\n%s", p.Message, name, dump(p))
	}
}

// bytesOf is the bytes a node covers.
func bytesOf(p *dissect.PDU, n *dissect.Node) string {
	return string(p.Data[n.Offset : n.Offset+n.Length])
}

// Seed 002's real bytes.
var (
	seedHandshake = hx("18 00 fe 05 11 6d 63 2e 67 6f 6f 64 62 6f 79 62 6f 79 2e 74 6f 70 63 dd 01")
	seedStatusReq = hx("01 00")
	seedPing      = hx("09 01 00 00 00 00 00 00 2e 5d")
)

func TestSeedHandshake(t *testing.T) {
	p := run(t, step{c2s, seedHandshake})[0]
	// Worked out from seed 002: 0x18 = 24 bytes follow; fe 05 = 0x7e + 5<<7 = 766;
	// 0x11 = 17 address bytes; 63 dd = 25565; 01 = status.
	for _, c := range []struct{ name, want string }{
		{"slp.length", "24 (1-byte VarInt)"},
		{"slp.packet_id", "Handshake (0x00)"},
		{"slp.handshake.protocol_version", "766 (1.20.5/1.20.6)"},
		{"slp.handshake.address_length", "17"},
		{"slp.handshake.server_address", `"mc.goodboyboy.top"`},
		{"slp.handshake.server_port", "25565"},
		{"slp.handshake.next_state", "Status (1)"},
	} {
		if got := display(t, p, c.name); got != c.want {
			t.Errorf("%s = %s, want %s", c.name, got, c.want)
		}
	}
	if n := node(t, p, "slp.handshake.protocol_version"); n.Offset != 2 || n.Length != 2 {
		t.Errorf("protocol version at [%d+%d], want [2+2]", n.Offset, n.Length)
	}
	if n := node(t, p, "slp.handshake.server_port"); n.Offset != 22 || n.Length != 2 {
		t.Errorf("port at [%d+%d], want [22+2]", n.Offset, n.Length)
	}
	if p.Message != "Handshake" || p.Info != "Handshake, protocol 766 (1.20.5/1.20.6), mc.goodboyboy.top:25565, next state Status" {
		t.Errorf("Message %q Info %q", p.Message, p.Info)
	}
	if hasExpert(p, "slp.handshake.server_port.little_endian") || len(p.Experts) != 0 {
		t.Errorf("unexpected experts:\n%s", dump(p))
	}
}

func TestPortLittleEndian(t *testing.T) {
	for _, c := range []struct {
		name  string
		port  uint16
		flag  bool
		check string
	}{
		{"default port written LE", 0xdd63, true, "25565"},
		{"big-endian default", 25565, false, ""},
		{"other port BE", 25566, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := run(t, step{c2s, handshake(766, "localhost", c.port, 1)})[0]
			if got := hasExpert(p, "slp.handshake.server_port.little_endian"); got != c.flag {
				t.Fatalf("LE note %v, want %v\n%s", got, c.flag, dump(p))
			}
			if c.flag {
				if got := display(t, p, "slp.handshake.server_port_le"); got != c.check {
					t.Errorf("LE reading %s, want %s", got, c.check)
				}
				if got := display(t, p, "slp.handshake.server_port"); got != "56675" {
					t.Errorf("BE reading %s, want 56675 (0xdd63)", got)
				}
			}
		})
	}
	// the port the connection reached, written little-endian: 19132 = 0x4abc
	c := NewConn()
	p := &dissect.PDU{}
	data := handshake(766, "h", 0xbc4a, 1)
	c.Frame(c2s, data, false)
	c.Decode(p, data, dissect.Meta{Dir: c2s, Server: "[::1]:19132"})
	wantExpert(t, p, "slp.handshake.server_port.little_endian")
}

func TestForgeMarkersAndForwarding(t *testing.T) {
	for _, c := range []struct{ addr, host, marker string }{
		{"example.org\x00FML\x00", "example.org", "FML"},
		{"example.org\x00FML2\x00", "example.org", "FML2"},
		{"example.org\x00FML3\x00", "example.org", "FML3"},
		{"example.org\x00FORGE", "example.org", "FORGE"},
	} {
		t.Run(c.marker, func(t *testing.T) {
			p := run(t, step{c2s, handshake(47, c.addr, 25565, 1)})[0]
			if got := display(t, p, "slp.handshake.server_address"); got != `"`+c.host+`"` {
				t.Errorf("address %s", got)
			}
			if got := display(t, p, "slp.handshake.forge_marker"); got != `"`+c.marker+`"` {
				t.Errorf("marker %s", got)
			}
			if got := display(t, p, "slp.handshake.protocol_version"); got != "47 (1.8-1.8.9)" {
				t.Errorf("protocol %s", got)
			}
		})
	}
	p := run(t, step{c2s, handshake(340, "mc.example\x00192.0.2.7\x00069a79f444e94726a5befca90e38aaf5", 25565, 2)})[0]
	if got := display(t, p, "slp.handshake.forwarded.client_ip"); got != `"192.0.2.7"` {
		t.Errorf("client ip %s", got)
	}
	if got := display(t, p, "slp.handshake.protocol_version"); got != "340 (1.12.2)" {
		t.Errorf("protocol %s", got)
	}
	wantExpert(t, p, "slp.handshake.forwarding")
}

func TestProtocolNames(t *testing.T) {
	for v, want := range map[int64]string{
		47: "1.8-1.8.9", 340: "1.12.2", 754: "1.16.4/1.16.5", 763: "1.20/1.20.1", 764: "1.20.2",
		765: "1.20.3/1.20.4", 766: "1.20.5/1.20.6", 767: "1.21/1.21.1", 768: "1.21.2/1.21.3",
		769: "1.21.4", 770: "1.21.5", 771: "1.21.6", 772: "1.21.7/1.21.8", 773: "1.21.9/1.21.10",
		-1: "any version (-1, ping convention)", 12345: "Unknown (12345)",
		0x40000000 + 200: "1.21-pre2, snapshot, protocol 0x40000000+200",
	} {
		if got := VersionName(v); got != want {
			t.Errorf("VersionName(%d) = %q, want %q", v, got, want)
		}
	}
}

// pngFavicon makes a w x h PNG data URI.
func pngFavicon(w, h int) (string, int) {
	var b bytes.Buffer
	png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h)))
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes()), b.Len()
}

func statusResp(json string) []byte { return pkt(0, mcstr(json)) }

func statusConv(json string) []*dissect.PDU {
	return run(testingT{}, step{c2s, seedHandshake}, step{c2s, seedStatusReq}, step{s2c, statusResp(json)})
}

// testingT lets helpers run outside a test (benchmarks set it up themselves).
type testingT struct{ testing.TB }

func (testingT) Helper()                   {}
func (testingT) Fatalf(f string, a ...any) { panic(f) }

func TestStatusExchange(t *testing.T) {
	fav, pngLen := pngFavicon(64, 64)
	js := `{"version":{"name":"1.20.6","protocol":766},"players":{"max":20,"online":1,"sample":[{"name":"Notch","id":"069a79f4-44e9-4726-a5be-fca90e38aaf5"}]},"description":{"text":"Hello ","color":"gold","extra":[{"text":"world","bold":true}]},"favicon":"` + fav + `","enforcesSecureChat":true,"previewsChat":false,"modpackData":{"projectID":1}}`
	ps := run(t, step{c2s, seedHandshake}, step{c2s, seedStatusReq}, step{s2c, statusResp(js)},
		step{c2s, seedPing}, step{s2c, seedPing})
	req, resp, ping, pong := ps[1], ps[2], ps[3], ps[4]
	if req.Message != "Status Request" || display(t, req, "slp.length") != "1 (1-byte VarInt)" {
		t.Errorf("status request: %s", dump(req))
	}
	want := map[string]string{
		"slp.status.version.name":         `"1.20.6"`,
		"slp.status.version.protocol":     "766 (1.20.5/1.20.6)",
		"slp.status.players.max":          "20",
		"slp.status.players.online":       "1",
		"slp.status.players.sample.name":  `"Notch"`,
		"slp.status.players.sample.id":    `"069a79f4-44e9-4726-a5be-fca90e38aaf5"`,
		"slp.status.description":          `"Hello world"`,
		"slp.status.description.styled":   `"[gold]Hello [bold]world"`,
		"slp.status.favicon.mime":         `"image/png"`,
		"slp.status.favicon.width":        "64",
		"slp.status.favicon.height":       "64",
		"slp.status.favicon.size":         itoa(pngLen) + " bytes",
		"slp.status.enforces_secure_chat": "True",
		"slp.status.previews_chat":        "False",
		"slp.status.other.modpackData":    "\"modpackData\": {\"projectID\":1}",
		"slp.request_in":                  "5",
	}
	for name, w := range want {
		if got := display(t, resp, name); got != w {
			t.Errorf("%s = %s, want %s", name, got, w)
		}
	}
	// JSON nodes cover their values' bytes
	for name, w := range map[string]string{
		"slp.status.version.name":     `"1.20.6"`,
		"slp.status.version.protocol": "766",
		"slp.status.players.max":      "20",
		"slp.status.description":      `{"text":"Hello ","color":"gold","extra":[{"text":"world","bold":true}]}`,
	} {
		if got := bytesOf(resp, node(t, resp, name)); got != w {
			t.Errorf("%s covers %q, want %q", name, got, w)
		}
	}
	if got := display(t, resp, "slp.time"); got != "0.025 s" {
		t.Errorf("slp.time = %s", got)
	}
	if got := display(t, req, "slp.response_in"); got != "6" {
		t.Errorf("request's response_in = %s", got)
	}
	if req.Pending || ping.Pending {
		t.Errorf("still pending after their responses")
	}
	if resp.Info != `Status Response, 1.20.6 (766), 1/20 players, "Hello world"` {
		t.Errorf("Info %q", resp.Info)
	}
	// ping and pong: 00..2e 5d = 11869
	for _, p := range []*dissect.PDU{ping, pong} {
		if got := display(t, p, "slp.ping.payload"); got != "11869 (0x0000000000002e5d)" {
			t.Errorf("%s payload %s", p.Message, got)
		}
	}
	if ping.Message != "Ping Request" || pong.Message != "Pong Response" {
		t.Errorf("messages %q %q", ping.Message, pong.Message)
	}
	if got := display(t, pong, "slp.ping.request_in"); got != "7" {
		t.Errorf("pong's ping frame %s", got)
	}
	if got := display(t, pong, "slp.rtt"); got != "0.025 s" {
		t.Errorf("rtt %s", got)
	}
	if got := display(t, ping, "slp.response_in"); got != "8" {
		t.Errorf("ping's response_in %s", got)
	}
	if len(resp.Experts) != 0 || len(pong.Experts) != 0 {
		t.Errorf("unexpected experts\n%s%s", dump(resp), dump(pong))
	}
}

func TestPongUnmatched(t *testing.T) {
	ps := run(t, step{c2s, seedHandshake}, step{c2s, seedPing}, step{s2c, pkt(1, hx("0000000000000001"))})
	wantExpert(t, ps[2], "slp.ping.unmatched")
	// A pong that echoes another payload does not answer the ping: the
	// ping is let go without a link (no pong will answer it now), not
	// linked to the wrong one and not held to the end.
	if ps[1].Pending || ps[1].Find("slp.response_in") >= 0 {
		t.Errorf("the ping, after a pong that does not echo it: pending %v\n%s", ps[1].Pending, dump(ps[1]))
	}
}

func TestStatusJSONEdgeCases(t *testing.T) {
	long := strings.Repeat("x", 32767-len(`{"description":""}`))
	for _, c := range []struct {
		name, json string
		desc       string // plain description (slp.status.description.plain), "" for none
		sent       string // the description as sent, when it differs (its § codes)
		experts    []string
		noTree     bool
	}{
		{name: "description string with § codes", json: `{"description":"§6Gold §lbold§r plain","players":{"max":1,"online":0}}`, desc: "Gold bold plain", sent: "§6Gold §lbold§r plain"},
		{name: "translate only", json: `{"description":{"translate":"multiplayer.status.cannot_connect"},"players":{"max":1,"online":0}}`, desc: "multiplayer.status.cannot_connect"},
		{name: "translate with", json: `{"description":{"translate":"chat.type.text","with":["Steve","hi"]},"players":{"max":1,"online":0}}`, desc: "chat.type.text[Steve, hi]"},
		{name: "array component", json: `{"description":["",{"text":"a","color":"red"},"b"],"players":{"max":1,"online":0}}`, desc: "ab"},
		{name: "players missing, protocol -1", json: `{"version":{"name":"Velocity","protocol":-1},"description":"proxy"}`, desc: "proxy", experts: []string{"slp.status.players.missing"}},
		{name: "sample as MOTD lines", json: `{"players":{"max":1,"online":0,"sample":[{"name":"§aWelcome","id":"00000000-0000-0000-0000-000000000000"}]},"description":""}`, experts: []string{"slp.status.players.sample.motd"}},
		{name: "raw newline in string", json: "{\"description\":\"line1\nline2\",\"players\":{\"max\":1,\"online\":0}}", desc: "line1\nline2", experts: []string{"slp.status.json.control_char"}},
		{name: "escapes", json: `{"description":"a\u00a7cb\n\"q\"","players":{"max":1,"online":0}}`, desc: "ab\n\"q\"", sent: "a§cb\n\"q\""},
		{name: "does not parse", json: `{"description":"x",}`, experts: []string{"slp.status.json.invalid"}, noTree: true},
		{name: "cut JSON", json: `{"description":"x"`, experts: []string{"slp.status.json.invalid"}, noTree: true},
		{name: "deep nesting", json: strings.Repeat("[", 100) + strings.Repeat("]", 100), experts: []string{"slp.status.json.limit"}, noTree: true},
		{name: "near the 32767-char limit", json: `{"description":"` + long + `"}`, desc: long, experts: []string{"slp.status.players.missing"}},
		{name: "over the limit", json: `{"description":"` + long + `xy"}`, desc: long + "xy", experts: []string{"slp.status.json.too_long"}},
		{name: "wrong types", json: `{"version":"1.8","players":{"max":"20","online":0},"description":7}`, desc: "7", experts: []string{"slp.status.json.type"}},
		{name: "favicon not png", json: `{"favicon":"data:image/jpeg;base64,AAAA","players":{"max":1,"online":0},"description":""}`, experts: []string{"slp.status.favicon.invalid"}},
		{name: "favicon 32x32", json: `{"favicon":"` + func() string { s, _ := pngFavicon(32, 32); return s }() + `","players":{"max":1,"online":0},"description":""}`, experts: []string{"slp.status.favicon.not_64x64"}},
		{name: "favicon with escaped = and newlines", json: `{"favicon":"` + strings.ReplaceAll(strings.ReplaceAll(func() string { s, _ := pngFavicon(64, 64); return s }(), "=", `\u003d`), "AAAA", `AAAA\n`) + `","players":{"max":1,"online":0},"description":""}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := statusConv(c.json)[2]
			if err := dissect.Check(resp); err != nil {
				t.Fatal(err)
			}
			if got := node(t, resp, "slp.status.json").Value.Text(); got != c.json {
				t.Errorf("JSON text not shown as received")
			}
			if c.noTree != (resp.Find("slp.status") < 0) {
				t.Errorf("tree present = %v, want %v\n%s", resp.Find("slp.status") >= 0, !c.noTree, dump(resp))
			}
			if c.desc != "" {
				if got := node(t, resp, "slp.status.description.plain").Value.Text(); got != c.desc {
					t.Errorf("plain description %q, want %q", got, c.desc)
				}
				sent := c.sent
				if sent == "" {
					sent = c.desc
				}
				if got := node(t, resp, "slp.status.description").Value.Text(); got != sent {
					t.Errorf("description %q, want it as sent: %q", got, sent)
				}
			}
			for _, e := range c.experts {
				wantExpert(t, resp, e)
			}
			if len(c.experts) == 0 && len(resp.Experts) != 0 {
				t.Errorf("unexpected experts\n%s", dump(resp))
			}
		})
	}
	// the error names its offset: `{"description":"x",}` fails at JSON offset 19 ('}' where a key should be)
	resp := statusConv(`{"description":"x",}`)[2]
	for _, e := range resp.Experts {
		if e.Info == ExpertJSONInvalid && !strings.Contains(e.Msg, "JSON offset 19") {
			t.Errorf("error message %q does not name JSON offset 19", e.Msg)
		}
	}
}

// forgeEncode packs bytes the way Forge's ServerStatusPing.encodeOptimized
// does (written from its description: size in two 15-bit characters, then
// the bytes 15 bits per character, least significant first).
func forgeEncode(b []byte) string {
	var out []rune
	out = append(out, rune(len(b)&0x7FFF), rune(len(b)>>15&0x7FFF))
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

func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&15])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func TestForgeD(t *testing.T) {
	// Hand-checked: 4 zero bytes (not truncated, 0 mods, 0 channels) pack
	// as size 4 (chars 0x0004 0x0000) and 32 zero bits in 3 characters.
	if got := forgeEncode([]byte{0, 0, 0, 0}); got != "\x04\x00\x00\x00\x00" {
		t.Fatalf("encoder: %q", got)
	}
	var raw []byte
	raw = append(raw, 0)    // not truncated
	raw = append(raw, 0, 2) // 2 mods
	raw = append(raw, 1<<1) // forge: 1 channel (count << 1), not server-only (bit 0 clear)
	raw = append(raw, mcstr("forge")...)
	raw = append(raw, mcstr("47.2.0")...)
	raw = append(raw, mcstr("tier_sorting")...)
	raw = append(raw, mcstr("1.0")...)
	raw = append(raw, 0)      // not required
	raw = append(raw, 0<<1|1) // servercore: no channels, server-only
	raw = append(raw, mcstr("servercore")...)
	raw = append(raw, 1) // one non-mod channel
	raw = append(raw, mcstr("minecraft:register")...)
	raw = append(raw, mcstr("FML3")...)
	raw = append(raw, 1) // required
	js := `{"description":"Forge","players":{"max":1,"online":0},"version":{"name":"1.20.1","protocol":763},"forgeData":{"channels":[],"mods":[],"fmlNetworkVersion":3,"truncated":false,"d":` + jsonString(forgeEncode(raw)) + `}}`
	resp := statusConv(js)[2]
	if len(resp.Experts) != 0 {
		t.Fatalf("experts:\n%s", dump(resp))
	}
	var mods, chans, reqs []string
	for i := range resp.Nodes {
		n := &resp.Nodes[i]
		switch n.Name() {
		case "slp.status.forge.mod.id":
			mods = append(mods, n.Value.Text())
		case "slp.status.forge.channel.name":
			chans = append(chans, n.Value.Text())
		case "slp.status.forge.channel.required":
			reqs = append(reqs, dissecttest.Display(n))
		}
	}
	if strings.Join(mods, ",") != "forge,servercore" {
		t.Errorf("mods %v", mods)
	}
	if strings.Join(chans, ",") != "forge:tier_sorting,minecraft:register" || strings.Join(reqs, ",") != "False,True" {
		t.Errorf("channels %v %v", chans, reqs)
	}
	if got := display(t, resp, "slp.status.forge.d.size"); got != itoa(len(raw))+" bytes" {
		t.Errorf("unpacked size %s, want %d", got, len(raw))
	}
	if got := display(t, resp, "slp.status.forge.fml_network_version"); got != "3" {
		t.Errorf("fml %s", got)
	}
	// broken: the size header claims more than the characters carry
	bad := `{"description":"","players":{"max":1,"online":0},"forgeData":{"d":"\u7fff\u0001ab"}}`
	wantExpert(t, statusConv(bad)[2], "slp.status.forge.d.invalid")
	// truncated by Forge: the list stops early, a note says so, not an error
	cut := append([]byte{1, 0, 3}, 2)
	cut = append(cut, mcstr("forge")...)
	tr := `{"description":"","players":{"max":1,"online":0},"forgeData":{"d":` + jsonString(forgeEncode(cut)) + `}}`
	p := statusConv(tr)[2]
	wantExpert(t, p, "slp.status.forge.d.invalid")
	if got := display(t, p, "slp.status.forge.truncated"); got != "True" {
		t.Errorf("truncated %s", got)
	}
}

func TestModinfoAndForgeJSON(t *testing.T) {
	js := `{"description":"","players":{"max":1,"online":0},"modinfo":{"type":"FML","modList":[{"modid":"mcp","version":"9.42"},{"modid":"FML","version":"8.0.99.99"}]},"forgeData":{"channels":[{"res":"forge:tier_sorting","version":"1.0","required":false}],"mods":[{"modId":"forge","modmarker":"ANY"}],"fmlNetworkVersion":2}}`
	p := statusConv(js)[2]
	if got := display(t, p, "slp.status.modinfo.type"); got != `"FML"` {
		t.Errorf("type %s", got)
	}
	var ids []string
	for i := range p.Nodes {
		if p.Nodes[i].Name() == "slp.status.forge.mod.id" {
			ids = append(ids, p.Nodes[i].Value.Text())
		}
	}
	if strings.Join(ids, ",") != "mcp,FML,forge" {
		t.Errorf("mod ids %v", ids)
	}
	if got := display(t, p, "slp.status.forge.channel.name"); got != `"forge:tier_sorting"` {
		t.Errorf("channel %s", got)
	}
}

func legacyPingHost(proto byte, host string, port int32) []byte {
	data := []byte{proto}
	data = append(data, u16be(uint16(len(host)))...)
	data = append(data, utf16be(host)...)
	data = append(data, byte(port>>24), byte(port>>16), byte(port>>8), byte(port))
	b := []byte{0xFE, 0x01, 0xFA}
	b = append(b, u16be(11)...)
	b = append(b, utf16be("MC|PingHost")...)
	b = append(b, u16be(uint16(len(data)))...)
	return append(b, data...)
}

func kick(s string) []byte {
	n := 0
	for range s {
		n++
	}
	return append(append([]byte{0xFF}, u16be(uint16(n))...), utf16be(s)...)
}

func TestLegacy(t *testing.T) {
	modern := kick("§1\x00127\x001.20.4\x00A Minecraft Server\x000\x0020")
	beta := kick("A Minecraft Server§3§20")
	t.Run("FE beta", func(t *testing.T) {
		ps := run(t, step{c2s, []byte{0xFE}}, step{s2c, beta})
		if ps[0].Message != "Legacy Server List Ping (beta 1.8-1.3)" {
			t.Errorf("message %q", ps[0].Message)
		}
		for name, w := range map[string]string{"slp.legacy.motd": `"A Minecraft Server"`, "slp.legacy.online": "3", "slp.legacy.max": "20", "slp.request_in": "4"} {
			if got := display(t, ps[1], name); got != w {
				t.Errorf("%s = %s, want %s", name, got, w)
			}
		}
	})
	t.Run("FE 01", func(t *testing.T) {
		ps := run(t, step{c2s, []byte{0xFE, 0x01}}, step{s2c, modern})
		if ps[0].Message != "Legacy Server List Ping (1.4-1.5)" {
			t.Errorf("message %q", ps[0].Message)
		}
		for name, w := range map[string]string{
			"slp.legacy.magic": `"§1"`, "slp.legacy.protocol_version": "1.7+ server answering a legacy ping (127)",
			"slp.legacy.server_version": `"1.20.4"`, "slp.legacy.motd": `"A Minecraft Server"`,
			"slp.legacy.online": "0", "slp.legacy.max": "20",
		} {
			if got := display(t, ps[1], name); got != w {
				t.Errorf("%s = %s, want %s", name, got, w)
			}
		}
		// the magic §1 and its NUL: 00 a7 00 31 00 00 right after FF and the length
		if n := node(t, ps[1], "slp.legacy.magic"); n.Offset != 3 || n.Length != 6 {
			t.Errorf("magic at [%d+%d]", n.Offset, n.Length)
		}
		if ps[1].Info != `Legacy Kick (1.4+), protocol 127, 1.20.4, "A Minecraft Server", 0/20 players` {
			t.Errorf("Info %q", ps[1].Info)
		}
	})
	t.Run("FE 01 FA MC|PingHost", func(t *testing.T) {
		ping := legacyPingHost(74, "localhost", 25566)
		ps := run(t, step{c2s, ping}, step{s2c, modern})
		p := ps[0]
		if p.Message != "Legacy Server List Ping (1.6)" {
			t.Errorf("message %q", p.Message)
		}
		for name, w := range map[string]string{
			"slp.legacy.channel": `"MC|PingHost"`, "slp.legacy.protocol_version": "1.6.2 (74)",
			"slp.legacy.host": `"localhost"`, "slp.legacy.port": "25566", "slp.legacy.data_length": "25 bytes",
		} {
			if got := display(t, p, name); got != w {
				t.Errorf("%s = %s, want %s", name, got, w)
			}
		}
		if len(p.Experts) != 0 {
			t.Errorf("experts\n%s", dump(p))
		}
	})
	t.Run("kick in neither form", func(t *testing.T) {
		ps := run(t, step{c2s, []byte{0xFE}}, step{s2c, kick("no separators")})
		wantExpert(t, ps[1], "slp.legacy.kick.format")
	})
	t.Run("FE 01 00 is a modern handshake of length 254", func(t *testing.T) {
		host := strings.Repeat("a", 247) // 1 (ID) + 1 (47) + 2 (VarInt 247) + 247 + 2 + 1 = 254
		hs := handshake(47, host, 25565, 1)
		if hs[0] != 0xFE || hs[1] != 0x01 || hs[2] != 0x00 {
			t.Fatalf("test packet starts % x", hs[:3])
		}
		if d := Detect(hs); d != DetectYes {
			t.Errorf("Detect = %v", d)
		}
		p := run(t, step{c2s, hs})[0]
		if p.Message != "Handshake" {
			t.Errorf("message %q", p.Message)
		}
	})
}

func TestLogin(t *testing.T) {
	uuid := hx("069a79f444e94726a5befca90e38aaf5")
	encReq := pkt(1, mcstr(""), vi(4), []byte{1, 2, 3, 4}, vi(4), []byte{9, 8, 7, 6}, []byte{1})
	encResp := pkt(1, vi(3), []byte{5, 5, 5}, vi(2), []byte{6, 6})
	c := NewConn()
	steps := []step{
		{c2s, handshake(766, "localhost", 25565, 2)},
		{c2s, pkt(0, mcstr("Notch"), uuid)},
		{s2c, encReq},
		{c2s, encResp},
	}
	var ps []*dissect.PDU
	for k, s := range steps {
		if f := c.Frame(s.dir, s.data, false); f.Status != dissect.FrameOK || f.Len != len(s.data) {
			t.Fatalf("step %d: %+v", k, f)
		}
		p := &dissect.PDU{}
		c.Decode(p, s.data, meta(k, s.dir))
		if err := dissect.Check(p); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	if got := display(t, ps[1], "slp.login.name"); got != `"Notch"` {
		t.Errorf("name %s", got)
	}
	if got := display(t, ps[1], "slp.login.uuid"); got != `"069a79f4-44e9-4726-a5be-fca90e38aaf5"` {
		t.Errorf("uuid %s", got)
	}
	if got := display(t, ps[2], "slp.login.should_authenticate"); got != "True" {
		t.Errorf("should authenticate %s", got)
	}
	if got := display(t, ps[2], "slp.login.public_key"); got != "01020304" {
		t.Errorf("public key %s", got)
	}
	wantExpert(t, ps[3], "slp.login.encryption")
	for _, d := range []dissect.Dir{c2s, s2c} {
		f := c.Frame(d, []byte{0x12, 0x34, 0x56}, false)
		if f.Status != dissect.FrameLost || !strings.Contains(f.Reason, "encrypted") {
			t.Errorf("after Encryption Response, %v: %+v", d, f)
		}
	}
}

func zlibBytes(b []byte) []byte {
	var out bytes.Buffer
	w := zlib.NewWriter(&out)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// compressedPkt builds a frame after Set Compression: length, data length,
// zlib(ID + body).
func compressedPkt(declared int32, z []byte) []byte {
	inner := append(vi(declared), z...)
	return append(vi(int32(len(inner))), inner...)
}

func TestCompression(t *testing.T) {
	uuid := hx("069a79f444e94726a5befca90e38aaf5")
	success := append(append(vi(2), uuid...), mcstr("Notch")...)
	success = append(success, vi(0)...) // no properties
	success = append(success, 1)        // strict error handling (1.20.5/1.21)
	big := append([]byte{0x30}, bytes.Repeat([]byte("chunk"), 200)...)
	bomb := zlibBytes(make([]byte, 10<<20))
	c := NewConn()
	frames := []step{
		{c2s, handshake(766, "localhost", 25565, 2)},
		{c2s, pkt(0, mcstr("Notch"), uuid)},
		{s2c, pkt(3, vi(256))},
		{s2c, append(vi(int32(1+len(success))), append([]byte{0}, success...)...)}, // data length 0: not compressed
		{c2s, append(vi(2), 0, 3)},                                                 // Login Acknowledged, uncompressed
		{s2c, compressedPkt(int32(len(big)), zlibBytes(big))},
		{s2c, compressedPkt(300, bomb)},
		{s2c, compressedPkt(9<<20, zlibBytes([]byte{1, 2, 3}))},
		{s2c, compressedPkt(300, []byte("not zlib at all"))},
	}
	var out []*dissect.PDU
	for k, s := range frames {
		if f := c.Frame(s.dir, s.data, false); f.Status != dissect.FrameOK || f.Len != len(s.data) {
			t.Fatalf("step %d: %+v", k, f)
		}
		p := &dissect.PDU{}
		c.Decode(p, s.data, meta(k, s.dir))
		if err := dissect.Check(p); err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
		out = append(out, p)
	}
	wantExpert(t, out[2], "slp.login.compression")
	if got := display(t, out[2], "slp.login.threshold"); got != "256" {
		t.Errorf("threshold %s", got)
	}
	if out[3].Message != "Login Success" || display(t, out[3], "slp.login.name") != `"Notch"` {
		t.Errorf("login success:\n%s", dump(out[3]))
	}
	if got := display(t, out[3], "slp.data_length"); got != "0 (not compressed)" {
		t.Errorf("data length %s", got)
	}
	if out[4].Message != "Login Acknowledged" {
		t.Errorf("ack: %s", dump(out[4]))
	}
	p := out[5]
	if got := display(t, p, "slp.inflated_size"); got != itoa(len(big)) {
		t.Errorf("inflated %s, want %d", got, len(big))
	}
	// the inflated packet is laid after the frame and read with the
	// version's data: 0x30 is no clientbound configuration packet of 1.20.5
	node(t, p, "slp.inflated")
	if got := display(t, p, "slp.packet_id"); got != "0x30" {
		t.Errorf("inner id %s", got)
	}
	wantExpert(t, p, "mc.java.unknown_packet")
	wantExpert(t, out[6], "slp.compression.bomb")
	if got := display(t, out[6], "slp.inflated_size"); got != "301" {
		t.Errorf("bomb inflated %s, want the declared 300 + 1 byte that proves it", got)
	}
	wantExpert(t, out[7], "slp.compression.too_large")
	wantExpert(t, out[8], "slp.compression.invalid")
	if hasExpert(out[6], "slp.play.undissected") {
		t.Errorf("play note repeated")
	}
}

func TestFrameHostile(t *testing.T) {
	for _, c := range []struct {
		name   string
		buf    []byte
		status dissect.FrameStatus
		len    int
		reason string
	}{
		{"6-byte VarInt", hx("80 80 80 80 80 01"), dissect.FrameLost, 0, "longer than 5 bytes"},
		{"1 GB length", hx("80 80 80 80 04"), dissect.FrameLost, 0, "over the protocol maximum"},
		{"4-byte length", hx("80 80 80 01"), dissect.FrameLost, 0, "over the protocol maximum"},
		{"3 continuation bytes", hx("ff ff ff"), dissect.FrameLost, 0, "over the protocol maximum"},
		{"max length, need more", hx("ff ff 7f 00"), dissect.FrameNeedMore, 3 + MaxFrameLength, ""},
		{"half a VarInt", hx("ff"), dissect.FrameNeedMore, 0, ""},
		{"empty packet", hx("00 05"), dissect.FrameOK, 1, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn := NewConn()
			// start modern: a handshake first
			hs := handshake(766, "h", 25565, 1)
			conn.Frame(c2s, hs, false)
			f := conn.Frame(c2s, c.buf, false)
			if f.Status != c.status || f.Len != c.len || !strings.Contains(f.Reason, c.reason) {
				t.Errorf("Frame = %+v, want status %d len %d reason ~%q", f, c.status, c.len, c.reason)
			}
			if c.status == dissect.FrameLost {
				if g := conn.Frame(c2s, hs, false); g.Status != dissect.FrameLost {
					t.Errorf("not sticky: %+v", g)
				}
			}
		})
	}
	// the 6-byte VarInt inside a packet, decoded: malformed, not a panic
	c := NewConn()
	p := &dissect.PDU{}
	data := append(hx("07 00"), hx("80 80 80 80 80 01")...)
	c.Decode(p, data, dissect.Meta{Dir: c2s})
	if err := dissect.Check(p); err != nil {
		t.Fatal(err)
	}
	wantExpert(t, p, "slp.varint.too_long")
	if n, _ := dissect.CountFailures(p); n != 1 {
		t.Errorf("%d failures", n)
	}
}

func TestFrameLegacySplit(t *testing.T) {
	ping := legacyPingHost(78, "example.org", 25565)
	c := NewConn()
	for n := 3; n < len(ping); n++ {
		f := c.Frame(c2s, ping[:n], false)
		if f.Status != dissect.FrameNeedMore {
			t.Fatalf("prefix %d: %+v", n, f)
		}
	}
	if f := c.Frame(c2s, ping, false); f.Status != dissect.FrameOK || f.Len != len(ping) {
		t.Errorf("whole: %+v", f)
	}
	// FE 01 alone then FA in a later segment: two PDUs
	c = NewConn()
	if f := c.Frame(c2s, ping[:2], false); f.Status != dissect.FrameOK || f.Len != 2 {
		t.Errorf("FE 01: %+v", f)
	}
	if f := c.Frame(c2s, ping[2:], false); f.Status != dissect.FrameOK || f.Len != len(ping)-2 {
		t.Errorf("FA: %+v", f)
	}
	kickB := kick("§1\x0078\x001.6.4\x00m\x000\x001")
	for n := 1; n < len(kickB); n++ {
		if f := c.Frame(s2c, kickB[:n], false); f.Status != dissect.FrameNeedMore {
			t.Fatalf("kick prefix %d: %+v", n, f)
		}
	}
	if f := c.Frame(s2c, kickB, false); f.Status != dissect.FrameOK || f.Len != len(kickB) {
		t.Errorf("kick: %+v", f)
	}
}

func TestDetect(t *testing.T) {
	for _, c := range []struct {
		name string
		b    []byte
		want Detection
	}{
		{"seed handshake", seedHandshake, DetectYes},
		{"seed handshake + status request in one segment", append(append([]byte{}, seedHandshake...), seedStatusReq...), DetectYes},
		{"handshake prefix", seedHandshake[:10], DetectNeedMore},
		{"legacy FE", []byte{0xFE}, DetectYes},
		{"legacy FE 01", []byte{0xFE, 0x01}, DetectYes},
		{"legacy 1.6", legacyPingHost(74, "a", 1), DetectYes},
		{"classic identification", append([]byte{0x00, 0x07}, bytes.Repeat([]byte{' '}, 128)...), DetectNo},
		{"HTTP", []byte("GET / HTTP/1.1\r\n"), DetectNo},
		{"TLS", hx("16 03 01 02 00 01 00 01 fc 03 03"), DetectNo},
		{"next state 4", handshake(766, "h", 25565, 4), DetectNo},
		{"empty", nil, DetectNeedMore},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Detect(c.b); got != c.want {
				t.Errorf("Detect = %v, want %v", got, c.want)
			}
		})
	}
}

// conversations used by the truncation sweep and the fuzz seeds
func conversations() map[string][]step {
	fav, _ := pngFavicon(64, 64)
	uuid := hx("069a79f444e94726a5befca90e38aaf5")
	js := `{"version":{"name":"1.20.6","protocol":766},"players":{"max":20,"online":1,"sample":[{"name":"Notch","id":"069a79f4-44e9-4726-a5be-fca90e38aaf5"}]},"description":{"text":"Hi","color":"gold"},"favicon":"` + fav + `"}`
	return map[string][]step{
		"status":     {{c2s, seedHandshake}, {c2s, seedStatusReq}, {s2c, statusResp(js)}, {c2s, seedPing}, {s2c, seedPing}},
		"legacy16":   {{c2s, legacyPingHost(74, "localhost", 25565)}, {s2c, kick("§1\x00127\x001.20.4\x00A Minecraft Server\x000\x0020")}},
		"legacyBeta": {{c2s, []byte{0xFE}}, {s2c, kick("A Minecraft Server§3§20")}},
		"login": {
			{c2s, handshake(766, "localhost", 25565, 2)},
			{c2s, pkt(0, mcstr("Notch"), uuid)},
			{s2c, pkt(4, vi(7), mcstr("velocity:player_info"), []byte{1})},
			{c2s, pkt(2, vi(7), []byte{1}, []byte{9, 9})},
			{s2c, pkt(1, mcstr(""), vi(4), []byte{1, 2, 3, 4}, vi(4), []byte{9, 8, 7, 6}, []byte{1})},
			{c2s, pkt(1, vi(3), []byte{5, 5, 5}, vi(2), []byte{6, 6})},
		},
		"compressed": {
			{c2s, handshake(766, "localhost", 25565, 2)},
			{s2c, pkt(0, mcstr(`{"text":"Bye"}`))},
			{s2c, pkt(3, vi(64))},
			{s2c, compressedPkt(200, zlibBytes(append([]byte{2}, bytes.Repeat([]byte{7}, 199)...)))},
		},
	}
}

// TestTruncationSweep decodes every prefix of every PDU of the
// conversations as cut by the capture: no panic, the invariants hold, and
// exactly one truncated item names a field and an offset.
func TestTruncationSweep(t *testing.T) {
	for name, steps := range conversations() {
		for k := range steps {
			for n := 0; n < len(steps[k].data); n++ {
				c := NewConn()
				for _, s := range steps[:k] {
					c.Frame(s.dir, s.data, false)
					c.Decode(&dissect.PDU{}, s.data, dissect.Meta{Dir: s.dir})
				}
				p := &dissect.PDU{}
				s := steps[k]
				c.DecodeCut(p, s.data[:n], len(s.data), dissect.Meta{Dir: s.dir})
				if err := dissect.Check(p); err != nil {
					t.Fatalf("%s step %d prefix %d: %v\n%s", name, k, n, err, dump(p))
				}
				cnt, last := dissect.CountFailures(p)
				if cnt != 1 || last.Info != dissect.ExpertTruncated || !strings.Contains(last.Msg, " at offset ") {
					t.Fatalf("%s step %d prefix %d: %d failures (last %+v)\n%s", name, k, n, cnt, last, dump(p))
				}
				if off := p.Nodes[last.Node].Offset; !strings.Contains(last.Msg, "at offset "+itoa(int(off))) {
					t.Fatalf("%s step %d prefix %d: %q does not name offset %d", name, k, n, last.Msg, off)
				}
			}
		}
	}
}

func TestFieldsGolden(t *testing.T) {
	dissecttest.Golden(t, "testdata/fields.txt", Registry.Dump(), *update)
	for _, name := range []string{"slp.length", "slp.packet_id", "slp.handshake.protocol_version", "slp.handshake.server_address",
		"slp.handshake.server_port", "slp.handshake.next_state", "slp.status.json", "slp.status.version.name",
		"slp.status.version.protocol", "slp.status.players.max", "slp.status.players.online", "slp.status.players.sample.name",
		"slp.status.description", "slp.status.favicon.width", "slp.status.favicon.height", "slp.ping.payload", "slp.rtt",
		"slp.legacy.protocol_version", "slp.legacy.server_version", "slp.legacy.motd", "slp.legacy.online", "slp.legacy.max",
		"slp.login.name"} {
		if _, _, ok := dissect.LookupField(name); !ok {
			t.Errorf("field %s missing", name)
		}
	}
}

// TestTreesOwnTheirBytes: the decoding buffers go back to the pool after
// every PDU (DecodeCut's giveBack), so nothing a tree keeps may point into
// them. A rich status response's tree is dumped, other responses of the
// same shape with other letters are decoded through the same pool, and the
// first tree must read the same.
func TestTreesOwnTheirBytes(t *testing.T) {
	raw := []byte{0, 1, 2, 3, 'm', 'o', 'd', 's', 0xff, 0x7f}
	status := func(a string) string {
		return `{"version":{"name":"` + a + `-1.20.6","protocol":766},"players":{"max":20,"online":1,"sample":[{"name":"` + a + `","id":"069a79f4-44e9-4726-a5be-fca90e38aaf5"}]},` +
			`"description":{"text":"` + a + ` §6Hello ","color":"gold","extra":[{"text":"` + a + `","bold":true}]},` +
			`"forgeData":{"channels":[],"mods":[{"modId":"` + a + `","modmarker":"ANY"}],"fmlNetworkVersion":3,"truncated":false,"d":` + jsonString(forgeEncode(append([]byte(a), raw...))) + `}}`
	}
	first := statusConv(status("Alpha"))
	before := dump(first[2])
	for _, a := range []string{"Bravo", "Charl", "Delta", "Echoo"} {
		statusConv(status(a))
	}
	if after := dump(first[2]); after != before {
		t.Fatalf("the first tree changed when other PDUs used the pool:\nbefore\n%s\nafter\n%s", before, after)
	}
	if !strings.Contains(before, "Alpha") {
		t.Fatalf("the tree does not hold the response's text:\n%s", before)
	}
}

// TestGiveUp: a request the pipeline must output before its response
// (GiveUp) says so, with the reason the pipeline gave, is never written
// to again, and its response still links back to it; a PDU the Conn does
// not hold is left alone.
func TestGiveUp(t *testing.T) {
	statusResp := pkt(0, mcstr(`{"description":"x","players":{"max":1,"online":0}}`))
	pong := seedPing
	type pduCase struct {
		name      string
		req, resp []byte
		reqIn     string
	}
	for _, w := range []struct {
		why       dissect.Release
		says, not string // in the note, and not in it
	}{
		{dissect.Release{Why: dissect.ReleaseCount, Max: 1024}, "1024 records waited behind it", "held "},
		{dissect.Release{Why: dissect.ReleaseMemory, Max: 64 << 20}, "memory budget of 64 MiB was spent", "held "},
		{dissect.Release{Why: dissect.ReleaseHold, Hold: time.Second}, "held 1s, the longest the hold allows", "waited behind"},
		{dissect.Release{Why: dissect.ReleaseHold}, "--hold 0", "waited behind"},
	} {
		for _, c := range []pduCase{
			{"status", seedStatusReq, statusResp, "slp.request_in"},
			{"ping", seedPing, pong, "slp.ping.request_in"},
		} {
			t.Run(c.name+"/"+w.says, func(t *testing.T) {
				conn := NewConn()
				var ps []*dissect.PDU
				send := func(d dissect.Dir, data []byte) *dissect.PDU {
					if f := conn.Frame(d, data, false); f.Status != dissect.FrameOK {
						t.Fatalf("Frame %+v", f)
					}
					p := &dissect.PDU{}
					conn.Decode(p, data, meta(len(ps), d))
					ps = append(ps, p)
					return p
				}
				send(c2s, seedHandshake)
				req := send(c2s, c.req)
				if !req.Pending {
					t.Fatal("request not held")
				}
				conn.GiveUp(&dissect.PDU{}, w.why) // not one of its requests
				if !req.Pending {
					t.Fatal("GiveUp of another PDU let go of the request")
				}
				conn.GiveUp(req, w.why)
				if req.Pending {
					t.Fatal("still pending after GiveUp")
				}
				wantExpert(t, req, "slp.response.unlinked")
				if note := req.Experts[len(req.Experts)-1].Msg; !strings.Contains(note, w.says) || strings.Contains(note, w.not) {
					t.Errorf("note %q: want %q in it, and not %q", note, w.says, w.not)
				}
				before := dump(req)
				resp := send(s2c, c.resp)
				if got := display(t, resp, c.reqIn); got != "5" {
					t.Errorf("%s = %s, want 5 (the request's frame)", c.reqIn, got)
				}
				if len(resp.Experts) != 0 {
					t.Errorf("response's experts:\n%s", dump(resp))
				}
				conn.Close(dissect.ConnEnd{})
				if after := dump(req); after != before {
					t.Errorf("the request was written to after GiveUp:\n%s\nbefore:\n%s", after, before)
				}
			})
		}
	}
}

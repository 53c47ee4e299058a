package filter

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/query"
)

// records: the seed's handshake request and full stat response, decoded by
// the real Query dissector.
func records(t *testing.T) []*analyze.Record {
	t.Helper()
	req := []byte{0xfe, 0xfd, 0x09, 0x00, 0x00, 0x00, 0x01}
	resp := []byte("\x00\x00\x00\x00\x01splitnum\x00\x80\x00hostname\x00A Minecraft Server\x00gametype\x00SMP\x00game_id\x00MINECRAFT\x00version\x001.20.4\x00plugins\x00\x00map\x00world\x00numplayers\x002\x00maxplayers\x0020\x00hostport\x0025565\x00hostip\x00127.0.0.1\x00\x00\x01player_\x00\x00barneygale\x00Vivalahelvig\x00\x00")
	c, s := netip.MustParseAddrPort("10.0.0.1:40000"), netip.MustParseAddrPort("10.0.0.2:25565")
	r1 := &analyze.Record{Frame: 1, Src: c, Dst: s, Stream: -1, Proto: "query"}
	query.Decode(&r1.PDU, req, len(req), dissect.DirC2S)
	r2 := &analyze.Record{Frame: 2, Src: s, Dst: c, Stream: -1, Proto: "query"}
	query.Decode(&r2.PDU, resp, len(resp), dissect.DirS2C)
	return []*analyze.Record{r1, r2}
}

func TestMatch(t *testing.T) {
	recs := records(t)
	for _, c := range []struct {
		expr string
		want string // which records match: "1", "2", "12" or ""
	}{
		{"query", "12"},
		{"slp", ""},
		{"query.type == 9", "1"},
		{`query.type == "Handshake"`, "1"},
		{"query.type != 9", "2"},
		{`mc.direction == "s2c"`, "2"},
		{`mc.protocol == "query" && frame.number >= 2`, "2"},
		{"frame.number < 2 || query.numplayers.value == 2", "12"},
		{"!query.player", "1"},
		{"not query.player and query", "1"},
		{`query.player == "Vivalahelvig"`, "2"},
		{`query.motd contains "Minecraft"`, "2"},
		{`query.motd matches "^A .*Server$"`, "2"},
		{`query.kv.map == "world"`, "2"},
		{"query.magic == 0xfefd", "1"},
		{"query.session_id == 0x00000001", "12"},
		{"(query.type == 0) && (udp.srcport == 25565)", "2"},
		{`ip.src == "10.0.0.1"`, "1"},
		{`mc.message == "Full Stat Response"`, "2"},
	} {
		f, err := Compile(c.expr)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		got := ""
		for _, r := range recs {
			if f.Match(r) {
				got += string(rune('0' + r.Frame))
			}
		}
		if got != c.want {
			t.Errorf("%s: matched %q, want %q", c.expr, got, c.want)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	for expr, msg := range map[string]string{
		"query.nope == 1":           "not a field name",
		"query.type ==":             "missing value",
		"query.type == abc":         "is a number",
		"(query.type == 9":          "missing )",
		`query.motd == "x`:          "unterminated string",
		"query.type contains 1":     "is a number",
		`query.motd matches "("`:    "matches",
		"query.type == 9 query.map": "unexpected",
		"":                          "unexpected end",
	} {
		_, err := Compile(expr)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: error %v, want one saying %q", expr, err, msg)
		}
	}
}

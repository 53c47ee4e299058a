package query

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// Seed dumps, as printed in 000 and 001 (the basic stat dump is the same in
// both; the full stat dumps differ by 001's slip).
var (
	seedHandshakeReq  = hx("FE FD 09 00 00 00 01")
	seedHandshakeResp = hx("09 00 00 00 01 39 35 31 33 33 30 37 00")
	seedBasicReq      = hx("FE FD 00 00 00 00 01 00 91 29 5B")
	seedBasicResp     = hx(`00 00 00 00 01 41 20 4D 69 6E 65 63 72 61 66 74
		20 53 65 72 76 65 72 00 53 4D 50 00 77 6F 72 6C
		64 00 32 00 32 30 00 DD 63 31 32 37 2E 30 2E 30
		2E 31 00`)
	seedFullReq   = hx("FE FD 00 00 00 00 01 00 91 29 5B 00 00 00 00")
	seedFullResp0 = hx(`00 00 00 00 01 73 70 6C 69 74 6E 75 6D 00 80 00
		68 6F 73 74 6E 61 6D 65 00 41 20 4D 69 6E 65 63
		72 61 66 74 20 53 65 72 76 65 72 00 67 61 6D 65
		74 79 70 65 00 53 4D 50 00 67 61 6D 65 5F 69 64
		00 4D 49 4E 45 43 52 41 46 54 00 76 65 72 73 69
		6F 6E 00 42 65 74 61 20 31 2E 39 20 50 72 65 72
		65 6C 65 61 73 65 20 34 00 70 6C 75 67 69 6E 73
		00 00 6D 61 70 00 77 6F 72 6C 64 00 6E 75 6D 70
		6C 61 79 65 72 73 00 32 00 6D 61 78 70 6C 61 79
		65 72 73 00 32 30 00 68 6F 73 74 70 6F 72 74 00
		32 35 35 36 35 00 68 6F 73 74 69 70 00 31 32 37
		2E 30 2E 30 2E 31 00 00 01 70 6C 61 79 65 72 5F
		00 00 62 61 72 6E 65 79 67 61 6C 65 00 56 69 76
		61 6C 61 68 65 6C 76 69 67 00 00`)
	seedFullResp1 = hx(`00 00 00 00 01 73 70 6C 69 74 6E 75 6D 00 80 00
		68 6F 73 74 6E 61 6D 65 00 41 20 4D 69 6E 65 63
		72 61 66 74 20 53 65 72 76 65 72 00 67 61 6D 65
		74 79 70 65 00 53 4D 50 00 67 61 6D 65 5F 69 64
		00 4D 49 4E 45 43 52 41 46 54 00 76 65 72 73 69
		6F 6E 00 42 65 74 61 20 31 2E 39 20 50 72 65 72
		65 6C 65 61 73 65 20 34 00 70 6C 75 67 69 6E 73
		00 00 6D 61 70 00 77 6F 72 6C 64 00 6E 75 6D 70
		6C 61 79 65 72 73 00 32 00 6D 61 78 70 6C 61 79
		65 72 73 00 32 30 00 68 6F 73 74 70 6F 72 74 00
		32 35 35 36 35 00 68 6F 73 74 6E 61 6D 65 00 31
		32 37 2E 30 2E 30 2E 31 00 00 01 70 6C 61 79 65
		72 5F 00 00 62 61 72 6E 65 79 67 61 6C 65 00 56
		69 76 61 6C 61 68 65 6C 76 69 67 00 00`)
)

// vanillaKVs is the seed's key/value section with players and a MOTD of
// our choosing.
func vanillaKVs(motd, numplayers, hostport string) []byte {
	return kvs("hostname", motd, "gametype", "SMP", "game_id", "MINECRAFT", "version", "1.21.1",
		"plugins", "", "map", "world", "numplayers", numplayers, "maxplayers", "20",
		"hostport", hostport, "hostip", "127.0.0.1")
}

var split = []byte("splitnum\x00\x80\x00")

// mshBasic is msh's basic stat as its capture notes describe it: port
// little-endian (25575 = e7 63), an extra 00, then an empty hostip.
var mshBasic = cat(0, hx("00 00 03 04"), "\u00a7fmsh: \u00a7b\u00a7lHIBERNATING\x00", "SMP\x00", "world\x00", "0\x00", "0\x00", hx("e7 63 00 00"))

// geyserFull follows Geyser's QueryPacketHandler: split header "GeyserMC\0"
// 80 00, keys in HashMap order, and a token that may be negative.
var geyserFull = cat(0, hx("0a 0b 0c 0d"), "GeyserMC\x00\x80\x00",
	kvs("hostport", "19132", "plugins", "", "gametype", "SMP", "numplayers", "1", "hostname", "Geyser", "version",
		"Geyser (git-master-4b4bb3a) 1.21.50", "game_id", "MINECRAFT", "map", "Geyser", "maxplayers", "100", "hostip", "0.0.0.0"),
	playerList("Steve"))

var geyserHandshakeResp = cat(9, hx("0a 0b 0c 0d"), "-1942601834\x00")

func players(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("Player%03d", i)
	}
	return out
}

type decodeCase struct {
	name    string
	data    []byte
	wire    int // 0: len(data)
	dir     dissect.Dir
	msg     string
	info    string
	want    map[string]string   // filter name -> display of its first node
	wantAll map[string][]string // filter name -> display of every node
	experts []string            // exact, in order
}

var decodeCases = []decodeCase{
	// 000 and 001: handshake, session ID 1.
	{name: "seed handshake request", data: seedHandshakeReq, dir: dissect.DirC2S,
		msg: MsgHandshakeRequest, info: "Handshake Request, session 0x00000001",
		want: map[string]string{"query.magic": "0xfefd", "query.type": "Handshake (9)", "query.session_id": "0x00000001", "query.session_id_masked": "0x00000001"}},
	// The seeds: "9513307" packed big-endian is 00 91 29 5B.
	{name: "seed handshake response", data: seedHandshakeResp, dir: dissect.DirS2C,
		msg: MsgHandshakeResponse, info: "Handshake Response, session 0x00000001, token 9513307",
		want: map[string]string{"query.type": "Handshake (9)", "query.token_string": `"9513307"`,
			"query.challenge_token": "9513307 (sent back big-endian as 00 91 29 5b)"}},
	{name: "seed basic stat request", data: seedBasicReq, dir: dissect.DirC2S,
		msg: MsgBasicStatRequest, info: "Basic Stat Request, session 0x00000001, token 9513307",
		want: map[string]string{"query.type": "Stat (0)", "query.challenge_token": "9513307", "query.padding": "<none>"}},
	// hostport DD 63 little-endian is 0x63DD = 25565.
	{name: "seed basic stat response", data: seedBasicResp, dir: dissect.DirS2C,
		msg: MsgBasicStatResponse, info: `Basic Stat Response, session 0x00000001, 2/20 players, "A Minecraft Server"`,
		want: map[string]string{"query.motd": `"A Minecraft Server"`, "query.gametype": `"SMP"`, "query.map": `"world"`,
			"query.numplayers": `"2"`, "query.numplayers.value": "2", "query.maxplayers": `"20"`, "query.maxplayers.value": "20",
			"query.hostport": "25565", "query.hostip": `"127.0.0.1"`}},
	{name: "seed full stat request", data: seedFullReq, dir: dissect.DirC2S,
		msg: MsgFullStatRequest, info: "Full Stat Request, session 0x00000001, token 9513307",
		want: map[string]string{"query.challenge_token": "9513307", "query.padding": "00000000"}},
	{name: "seed 000 full stat response", data: seedFullResp0, dir: dissect.DirS2C,
		msg: MsgFullStatResponse, info: `Full Stat Response, session 0x00000001, 2/20 players, "A Minecraft Server"`,
		want: map[string]string{
			"query.split.key": `"splitnum"`, "query.split.packet": "0x80", "query.split.last": "True", "query.split.index": "0", "query.split.extra": "0x00",
			"query.kv.hostname": `"A Minecraft Server"`, "query.motd": `"A Minecraft Server"`,
			"query.kv.gametype": `"SMP"`, "query.gametype": `"SMP"`, "query.game_id": `"MINECRAFT"`,
			"query.version": `"Beta 1.9 Prerelease 4"`, "query.plugins": `""`, "query.kv.plugins": `""`, "query.map": `"world"`,
			"query.numplayers": `"2"`, "query.numplayers.value": "2", "query.maxplayers.value": "20",
			"query.hostport.text": `"25565"`, "query.hostport": "25565", "query.hostip": `"127.0.0.1"`, "query.kv.hostip": `"127.0.0.1"`,
			"query.kv_end": "00", "query.players.section": "0x01", "query.players.field": `"player_"`, "query.players.start": "0x00",
			"query.players_end": "00", "query.players.count": "2"},
		wantAll: map[string][]string{"query.player": {`"barneygale"`, `"Vivalahelvig"`},
			"query.key": {`"hostname"`, `"gametype"`, `"game_id"`, `"version"`, `"plugins"`, `"map"`, `"numplayers"`, `"maxplayers"`, `"hostport"`, `"hostip"`}}},
	// 001's slip: a second hostname key where 000 has hostip. Shown as sent,
	// flagged as a duplicate; there is no hostip.
	{name: "seed 001 full stat response (duplicate hostname)", data: seedFullResp1, dir: dissect.DirS2C,
		msg: MsgFullStatResponse, info: `Full Stat Response, session 0x00000001, 2/20 players, "A Minecraft Server"`,
		want:    map[string]string{"query.hostip": "<none>", "query.players.count": "2"},
		wantAll: map[string][]string{"query.motd": {`"A Minecraft Server"`, `"127.0.0.1"`}, "query.kv.hostname": {`"A Minecraft Server"`, `"127.0.0.1"`}},
		experts: []string{"query.kv.duplicate"}},
	// 003: a client that masks a random session ID with 0x0F per byte.
	{name: "003 masked random session", data: hx("FE FD 09 0F 0A 03 0C"), dir: dissect.DirC2S,
		msg: MsgHandshakeRequest, want: map[string]string{"query.session_id": "0x0f0a030c", "query.session_id_masked": "0x0f0a030c"}},
	{name: "session ID with high bits", data: hx("FE FD 09 12 34 56 78"), dir: dissect.DirC2S,
		msg:     MsgHandshakeRequest,
		want:    map[string]string{"query.session_id": "0x12345678", "query.session_id_masked": "0x02040608"},
		experts: []string{"query.session_id.unmasked_bits"}},
	{name: "response echoing high bits", data: hx("09 FF FF FF FF 31 00"), dir: dissect.DirS2C,
		msg: MsgHandshakeResponse, want: map[string]string{"query.session_id_masked": "0x0f0f0f0f", "query.challenge_token": "1 (sent back big-endian as 00 00 00 01)"},
		experts: []string{"query.session_id.unmasked_bits"}},

	// Real clients, seen in query-full.pcap: minequery pads with ff ff ff 01.
	{name: "minequery padding", data: hx("fe fd 00 0b 02 02 04 00 44 9f a4 ff ff ff 01"), dir: dissect.DirC2S,
		msg: MsgFullStatRequest, want: map[string]string{"query.challenge_token": "4497316", "query.padding": "ffffff01"},
		experts: []string{"query.padding.nonzero"}},
	{name: "msh basic stat", data: mshBasic, dir: dissect.DirS2C,
		msg: MsgBasicStatResponse, info: "Basic Stat Response, session 0x00000304, 0/0 players, \"\u00a7fmsh: \u00a7b\u00a7lHIBERNATING\"",
		want:    map[string]string{"query.hostport": "25575", "query.hostip": `""`, "query.trailing": "00"},
		experts: []string{"query.trailing"}},

	// Geyser.
	{name: "geyser full stat", data: geyserFull, dir: dissect.DirS2C,
		msg: MsgFullStatResponse, info: `Full Stat Response, session 0x0a0b0c0d, 1/100 players, "Geyser"`,
		want: map[string]string{"query.split.key": `"GeyserMC"`, "query.split.packet": "0x80", "query.motd": `"Geyser"`,
			"query.hostport": "19132", "query.kv.hostport": `"19132"`, "query.player": `"Steve"`, "query.map": `"Geyser"`},
		experts: []string{"query.split.unexpected"}},
	{name: "geyser negative token", data: geyserHandshakeResp, dir: dissect.DirS2C,
		msg: MsgHandshakeResponse, info: "Handshake Response, session 0x0a0b0c0d, token -1942601834",
		// 2^32 - 1942601834 = 2352365462 = 0x8C363F96.
		want: map[string]string{"query.challenge_token": "-1942601834 (sent back big-endian as 8c 36 3f 96)"}},

	// Ports above 32767 are unsigned: 40 9C little-endian is 0x9C40 = 40000.
	{name: "basic stat port 40000", data: cat(0, hx("00 00 00 01"), "m\x00SMP\x00world\x000\x0020\x00", hx("40 9c"), "10.0.0.1\x00"), dir: dissect.DirS2C,
		msg: MsgBasicStatResponse, want: map[string]string{"query.hostport": "40000"}},
	{name: "full stat port 65535", data: cat(0, hx("00 00 00 01"), split, vanillaKVs("m", "0", "65535"), playerList()), dir: dissect.DirS2C,
		msg: MsgFullStatResponse, want: map[string]string{"query.hostport": "65535", "query.players.count": "0"}},
	{name: "full stat port 70000", data: cat(0, hx("00 00 00 01"), split, vanillaKVs("m", "0", "70000"), playerList()), dir: dissect.DirS2C,
		msg: MsgFullStatResponse, want: map[string]string{"query.hostport": "<none>", "query.hostport.text": `"70000"`},
		experts: []string{"query.number.invalid"}},

	// MOTDs with NUL bytes. "Welcome 一起玩!" sent as low bytes (MC-221987):
	// 一 U+4E00 -> 00, 起 U+8D77 -> 77 'w', 玩 U+73A9 -> a9.
	{name: "full stat MOTD with one NUL", data: cat(0, hx("00 00 00 01"), split, vanillaKVs("Welcome \x00w\xa9!", "0", "25565"), playerList()), dir: dissect.DirS2C,
		msg:     MsgFullStatResponse,
		want:    map[string]string{"query.motd": `"Welcome \x00w\xa9!"`, "query.kv.hostname": `"Welcome \x00w\xa9!"`, "query.gametype": `"SMP"`, "query.hostip": `"127.0.0.1"`},
		experts: []string{"query.motd.nul"}},
	// "\u0000\u0000" in server.properties: an empty string would end a naive
	// parser's section right after the MOTD.
	{name: "full stat MOTD with two NULs", data: cat(0, hx("00 00 00 01"), split, vanillaKVs("A\x00\x00B", "0", "25565"), playerList()), dir: dissect.DirS2C,
		msg: MsgFullStatResponse, want: map[string]string{"query.motd": `"A\x00\x00B"`, "query.hostip": `"127.0.0.1"`},
		experts: []string{"query.motd.nul"}},
	// Geyser order with hostname last: the MOTD's pieces run to the end of the section.
	{name: "full stat MOTD with NUL, hostname last", data: cat(0, hx("00 00 00 01"), split,
		kvs("gametype", "SMP", "numplayers", "0", "maxplayers", "5", "hostname", "Hi\x00there"), playerList()), dir: dissect.DirS2C,
		msg: MsgFullStatResponse, want: map[string]string{"query.motd": `"Hi\x00there"`, "query.players.count": "0"},
		experts: []string{"query.motd.nul"}},
	// A server's own extra key after hostname looks like a key: not merged.
	{name: "full stat extra key after hostname", data: cat(0, hx("00 00 00 01"), split,
		kvs("hostname", "Hi", "server_mod", "paper", "gametype", "SMP", "numplayers", "0"), playerList()), dir: dissect.DirS2C,
		msg: MsgFullStatResponse, want: map[string]string{"query.motd": `"Hi"`, "query.kv.server_mod": `"paper"`, "query.value": `"paper"`},
		experts: []string{"query.kv.unknown_key"}},
	{name: "basic stat MOTD with one NUL", data: cat(0, hx("00 00 00 01"), "Welcome \x00w\xa9!\x00SMP\x00world\x002\x0020\x00", hx("dd 63"), "127.0.0.1\x00"), dir: dissect.DirS2C,
		msg:     MsgBasicStatResponse,
		want:    map[string]string{"query.motd": `"Welcome \x00w\xa9!"`, "query.gametype": `"SMP"`, "query.numplayers.value": "2", "query.hostport": "25565"},
		experts: []string{"query.motd.nul"}},
	// Terminal escape codes are shown escaped, with a note.
	{name: "MOTD with escape codes", data: cat(0, hx("00 00 00 01"), split, vanillaKVs("\x1b[2J\x1b]0;pwned\x07hi", "0", "25565"), playerList()), dir: dissect.DirS2C,
		msg: MsgFullStatResponse, want: map[string]string{"query.motd": `"\x1b[2J\x1b]0;pwned\x07hi"`},
		info:    `Full Stat Response, session 0x00000001, 0/20 players, "\x1b[2J\x1b]0;pwned\x07hi"`,
		experts: []string{"query.text.control"}},
	{name: "basic stat MOTD with escape codes", data: cat(0, hx("00 00 00 01"), "\x1b[31mred\x00SMP\x00world\x000\x0020\x00", hx("dd 63"), "127.0.0.1\x00"), dir: dissect.DirS2C,
		msg: MsgBasicStatResponse, want: map[string]string{"query.motd": `"\x1b[31mred"`}, experts: []string{"query.text.control"}},

	// Player counts.
	{name: "300 players", data: cat(0, hx("00 00 00 01"), split, vanillaKVs("big", "300", "25565"), playerList(players(300)...)), dir: dissect.DirS2C,
		msg:  MsgFullStatResponse,
		want: map[string]string{"query.players.count": "300", "query.numplayers.value": "300", "query.player": `"Player000"`}},
	{name: "numplayers differs from the list", data: cat(0, hx("00 00 00 01"), split, vanillaKVs("m", "3", "25565"), playerList("a", "b")), dir: dissect.DirS2C,
		msg: MsgFullStatResponse, info: `Full Stat Response, session 0x00000001, 3/20 players (2 listed), "m"`,
		want: map[string]string{"query.players.count": "2"}, experts: []string{"query.numplayers.mismatch"}},
	{name: "numplayers not a number", data: cat(0, hx("00 00 00 01"), "m\x00SMP\x00world\x00two\x0020\x00", hx("dd 63"), "127.0.0.1\x00"), dir: dissect.DirS2C,
		msg: MsgBasicStatResponse, want: map[string]string{"query.numplayers": `"two"`, "query.numplayers.value": "<none>"},
		experts: []string{"query.number.invalid"}},

	// Lengths.
	{name: "handshake request of 8 bytes", data: hx("FE FD 09 00 00 00 01 00"), dir: dissect.DirC2S,
		msg: MsgHandshakeRequest, want: map[string]string{"query.trailing": "00"}, experts: []string{"query.request.length", "query.trailing"}},
	{name: "stat request of 13 bytes", data: hx("FE FD 00 00 00 00 01 00 91 29 5B 00 00"), dir: dissect.DirC2S,
		msg: MsgStatRequest, want: map[string]string{"query.padding": "0000"}, experts: []string{"query.request.length"}},
	{name: "stat request of 16 bytes", data: hx("FE FD 00 00 00 00 01 00 91 29 5B 00 00 00 00 00"), dir: dissect.DirC2S,
		msg: MsgStatRequest, want: map[string]string{"query.padding": "00000000", "query.trailing": "00"}, experts: []string{"query.request.length", "query.trailing"}},
	{name: "stat request of 9 bytes", data: hx("FE FD 00 00 00 00 01 00 91"), dir: dissect.DirC2S,
		msg: MsgStatRequest, want: map[string]string{"query.challenge_token": "0"}, experts: []string{"mc.malformed", "query.request.length"}},
	{name: "unknown request type", data: hx("FE FD 05 00 00 00 01 AA"), dir: dissect.DirC2S,
		msg: MsgUnknownRequest, want: map[string]string{"query.payload": "aa"}, experts: []string{"query.type.unknown"}},
	{name: "bad magic", data: hx("FE FE 09 00 00 00 01"), dir: dissect.DirC2S,
		msg: MsgHandshakeRequest, want: map[string]string{"query.magic": "0xfefe"}, experts: []string{"query.magic.bad"}},
	{name: "token not a number", data: cat(9, hx("00 00 00 01"), "12a\x00"), dir: dissect.DirS2C,
		msg: MsgHandshakeResponse, want: map[string]string{"query.challenge_token": "<none>"}, experts: []string{"query.token_string.invalid"}},
	// 4294967297 = 2^32 + 1: clients that pack it as an int32 send 1.
	{name: "token out of range", data: cat(9, hx("00 00 00 01"), "4294967297\x00"), dir: dissect.DirS2C,
		msg: MsgHandshakeResponse, want: map[string]string{"query.challenge_token": "1 (sent back big-endian as 00 00 00 01)"}, experts: []string{"query.token_string.range"}},
	{name: "empty stat response", data: hx("00 00 00 00 01"), dir: dissect.DirS2C,
		msg: MsgStatResponse, experts: []string{"mc.malformed"}},
	{name: "unknown response type", data: hx("07 00 00 00 01 41"), dir: dissect.DirS2C,
		msg: MsgUnknownResponse, experts: []string{"query.type.unknown"}},
	{name: "full stat not the last packet", data: cat(0, hx("00 00 00 01"), "splitnum\x00\x01\x00", vanillaKVs("m", "0", "25565"), playerList()), dir: dissect.DirS2C,
		msg: MsgFullStatResponse, want: map[string]string{"query.split.last": "False", "query.split.index": "1"},
		experts: []string{"query.split.unexpected", "query.split.more"}},
	{name: "full stat without the empty key", data: cat(0, hx("00 00 00 01"), split, "hostname\x00m\x00numplayers\x000\x00", playerList()), dir: dissect.DirS2C,
		msg: MsgFullStatResponse, want: map[string]string{"query.kv_end": "<none>", "query.numplayers.value": "0"}, experts: []string{"query.kv.no_end"}},
	{name: "full stat odd strings", data: cat(0, hx("00 00 00 01"), split, "numplayers\x000\x00lonely\x00\x00", playerList()), dir: dissect.DirS2C,
		msg: MsgFullStatResponse, want: map[string]string{"query.kv.lonely": `""`, "query.players.count": "0"}, experts: []string{"query.kv.unknown_key", "query.kv.odd"}},
	{name: "full stat bad player header", data: cat(0, hx("00 00 00 01"), split, vanillaKVs("m", "1", "25565"), "\x02player_\x00\x00x\x00\x00"), dir: dissect.DirS2C,
		msg: MsgFullStatResponse, experts: []string{"query.players.unexpected"}},
	{name: "hostile key", data: cat(0, hx("00 00 00 01"), split, kvs("a.b\x1b[0m", "v"), playerList()), dir: dissect.DirS2C,
		msg: MsgFullStatResponse, want: map[string]string{"query.kv.a_b__0m": `"v"`, "query.key": `"a.b\x1b[0m"`}, experts: []string{"query.kv.unknown_key", "query.text.control"}},

	// Direction from the shape.
	{name: "unknown direction, request", data: seedFullReq, dir: dissect.DirUnknown, msg: MsgFullStatRequest},
	{name: "unknown direction, response", data: seedHandshakeResp, dir: dissect.DirUnknown, msg: MsgHandshakeResponse},
	// A capture cut short: classified by the wire length.
	{name: "full stat request cut by the snap length", data: seedFullReq[:13], wire: 15, dir: dissect.DirC2S,
		msg: MsgFullStatRequest, experts: []string{"mc.truncated"}},
}

func TestDecode(t *testing.T) {
	for _, tc := range decodeCases {
		t.Run(tc.name, func(t *testing.T) {
			p := decode(t, tc.data, tc.wire, tc.dir)
			tree := dump(p)
			if p.Message != tc.msg {
				t.Errorf("Message %q, want %q\n%s", p.Message, tc.msg, tree)
			}
			if tc.info != "" && p.Info != tc.info {
				t.Errorf("Info\n got %s\nwant %s", p.Info, tc.info)
			}
			if tc.dir != dissect.DirUnknown && p.Dir != tc.dir {
				t.Errorf("Dir %v, want %v", p.Dir, tc.dir)
			}
			for name, want := range tc.want {
				if got := disp(p, name); got != want {
					t.Errorf("%s = %s, want %s\n%s", name, got, want, tree)
				}
			}
			for name, want := range tc.wantAll {
				if got := disps(p, name); !slices.Equal(got, want) {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
			if got := expertNames(p); !slices.Equal(got, tc.experts) {
				t.Errorf("experts %q, want %q\n%s%s", got, tc.experts, expertMsgs(p), tree)
			}
		})
	}
}

// TestExpertMessages checks that expert items say what was seen.
func TestExpertMessages(t *testing.T) {
	for _, tc := range []struct {
		data []byte
		dir  dissect.Dir
		want string
	}{
		{geyserFull, dissect.DirS2C, `query.split at offset 5: saw 47 65 79 73 65 72 4d 43 00 80 00 ("GeyserMC" 80 00) (Geyser's header), expected 73 70 6c 69 74 6e 75 6d 00 80 00 ("splitnum" 80 00)`},
		{hx("FE FD 09 12 34 56 78"), dissect.DirC2S, "query.session_id at offset 3: 0x12345678 has bits outside 0x0F0F0F0F set (0x10305070); the server uses 0x02040608"},
		{hx("FE FE 09 00 00 00 01"), dissect.DirC2S, "query.magic at offset 0: saw fe fe, expected fe fd"},
		{seedFullResp1, dissect.DirS2C, `key "hostname" at offset 166 was already sent in this reply`},
		{mshBasic, dissect.DirS2C, "1 bytes after hostip at offset 48: 00 (msh writes an extra 00 after hostport, so its empty hostip ends one byte early)"},
		{hx("FE FD 00 00 00 00 01 00 91"), dissect.DirC2S, "query.challenge_token at offset 7: needs 4 bytes, 2 left"},
	} {
		p := decode(t, tc.data, 0, tc.dir)
		if msgs := expertMsgs(p); !strings.Contains(msgs, tc.want) {
			t.Errorf("experts\n%s\nlack %s", msgs, tc.want)
		}
	}
}

// TestMsh decodes every datagram of the real capture: msh 2.5.0 answering
// five client libraries.
func TestMsh(t *testing.T) {
	dgs, err := readPcap("testdata/query-full.pcap")
	if err != nil {
		t.Fatal(err)
	}
	if len(dgs) != 20 {
		t.Fatalf("%d datagrams, want 20", len(dgs))
	}
	wantMsg := []string{MsgHandshakeRequest, MsgHandshakeResponse, MsgFullStatRequest, MsgFullStatResponse}
	tr := NewTracker()
	var pdus []*dissect.PDU
	for i, d := range dgs {
		dir := dissect.DirS2C
		client, server := d.dst, d.src
		if d.dstPort == 25575 {
			dir, client, server = dissect.DirC2S, d.src, d.dst
		}
		if ld, ok := Looks(d.payload); !ok || ld != dir {
			t.Errorf("frame %d: Looks = %v %v, want %v true", d.frame, ld, ok, dir)
		}
		p := decode(t, d.payload, 0, dissect.DirUnknown)
		if p.Dir != dir || p.Message != wantMsg[i%4] {
			t.Errorf("frame %d: %v %s, want %v %s", d.frame, p.Dir, p.Message, dir, wantMsg[i%4])
		}
		tr.Observe(dissect.Meta{Frame: d.frame, Time: d.time, Client: client, Server: server, Dir: dir}, p)
		pdus = append(pdus, p)
	}
	tr.Close()
	for i, p := range pdus {
		f := dgs[i].frame
		if p.Pending {
			t.Errorf("frame %d still pending", f)
		}
		var want []string
		if f == 19 { // minequery pads with ff ff ff 01
			want = []string{"query.padding.nonzero"}
		}
		if got := expertNames(p); !slices.Equal(got, want) {
			t.Errorf("frame %d experts %q, want %q\n%s", f, got, want, expertMsgs(p))
		}
		switch i % 4 {
		case 0:
			if got := disp(p, "query.response_in"); got != fmt.Sprint(f+1) {
				t.Errorf("frame %d: response in %s", f, got)
			}
		case 1, 3:
			if got := disp(p, "query.request_in"); got != fmt.Sprint(f-1) {
				t.Errorf("frame %d: request in %s", f, got)
			}
		case 2:
			if got := disp(p, "query.token_issued_in"); got != fmt.Sprint(f-1) {
				t.Errorf("frame %d: token issued in %s", f, got)
			}
		}
		if err := dissect.Check(p); err != nil {
			t.Errorf("frame %d after tracking: %v", f, err)
		}
	}
	// Frame 4, minecraft-server-util's full stat: what msh sends.
	p := pdus[3]
	for name, want := range map[string]string{
		"query.session_id":      "0x00000304", // sessionID 772 in the client's options
		"query.motd":            "\"\u00a7fmsh: \u00a7b\u00a7lHIBERNATING\"",
		"query.plugins":         `"msh/1.20.4: msh v2.5.0"`,
		"query.version":         `"1.20.4"`,
		"query.numplayers":      `"0"`,
		"query.maxplayers":      `"0"`,
		"query.hostport":        "25575",
		"query.hostip":          `""`,
		"query.players.count":   "0",
		"query.challenge_token": "<none>",
	} {
		if got := disp(p, name); got != want {
			t.Errorf("frame 4 %s = %s, want %s", name, got, want)
		}
	}
	// Frames 10 and 11: mcquery reported token 2022458.
	if got := disp(pdus[9], "query.challenge_token"); got != "2022458 (sent back big-endian as 00 1e dc 3a)" {
		t.Errorf("frame 10 token %s", got)
	}
	if got := disp(pdus[10], "query.challenge_token"); got != "2022458" {
		t.Errorf("frame 11 token %s", got)
	}
}

// equivalent reports whether a truncated decode may name got where the
// whole decode has want at the same offset: where the next item is either
// another entry or the list's terminator, the cut leaves no way to tell.
func equivalent(got, want string) bool {
	return got == want ||
		got == "query.key" && want == "query.kv_end" ||
		got == "query.players_end" && want == "query.player" ||
		got == "query.payload" // a type 0 response cut right after its session ID
}

// TestTruncationSweep decodes every prefix of every message with the wire
// length of the whole: exactly one truncated item, naming the field the
// whole decode has at that offset.
func TestTruncationSweep(t *testing.T) {
	type msg struct {
		name  string
		data  []byte
		dir   dissect.Dir
		exact bool // the prefix's failing field must match the whole decode's
	}
	msgs := []msg{
		{"handshake request", seedHandshakeReq, dissect.DirC2S, true},
		{"handshake response", seedHandshakeResp, dissect.DirS2C, true},
		{"basic stat request", seedBasicReq, dissect.DirC2S, true},
		{"basic stat response", seedBasicResp, dissect.DirS2C, true},
		{"full stat request", seedFullReq, dissect.DirC2S, true},
		{"full stat response 000", seedFullResp0, dissect.DirS2C, true},
		{"full stat response 001", seedFullResp1, dissect.DirS2C, true},
		{"msh basic", mshBasic, dissect.DirS2C, true},
		{"geyser handshake", geyserHandshakeResp, dissect.DirS2C, true},
		{"300 players", cat(0, hx("00 00 00 01"), split, vanillaKVs("big", "300", "25565"), playerList(players(300)...)), dissect.DirS2C, true},
		// Prefixes cut before Geyser's 80 00 read as a basic stat, and
		// prefixes of a MOTD with NULs cannot show the repair.
		{"geyser full", geyserFull, dissect.DirS2C, false},
		{"MOTD with NUL", cat(0, hx("00 00 00 01"), split, vanillaKVs("Welcome \x00w\xa9!", "0", "25565"), playerList()), dissect.DirS2C, false},
		{"basic MOTD with NUL", cat(0, hx("00 00 00 01"), "Welcome \x00w\xa9!\x00SMP\x00world\x002\x0020\x00", hx("dd 63"), "127.0.0.1\x00"), dissect.DirS2C, false},
	}
	dgs, err := readPcap("testdata/query-full.pcap")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dgs[:4] {
		dir := dissect.DirS2C
		if d.dstPort == 25575 {
			dir = dissect.DirC2S
		}
		msgs = append(msgs, msg{fmt.Sprintf("msh frame %d", d.frame), d.payload, dir, true})
	}
	for _, m := range msgs {
		t.Run(m.name, func(t *testing.T) {
			whole := decode(t, m.data, 0, m.dir)
			for n := 0; n < len(m.data); n++ {
				p := new(dissect.PDU)
				Decode(p, m.data[:n], len(m.data), m.dir)
				if err := dissect.Check(p); err != nil {
					t.Fatalf("prefix %d: %v\n%s", n, err, dump(p))
				}
				cnt, last := dissect.CountFailures(p)
				if cnt != 1 || last.Info != dissect.ExpertTruncated {
					t.Fatalf("prefix %d: %d failures (last %v)\n%s", n, cnt, last, dump(p))
				}
				if !m.exact {
					continue
				}
				fn := &p.Nodes[last.Node]
				// The leaf of the whole decode that starts where the cut field starts.
				want := ""
				for i := range whole.Nodes {
					w := &whole.Nodes[i]
					if w.Flags&dissect.FlagGenerated == 0 && w.Offset == fn.Offset && int(w.Offset+w.Length) > n && w.Length > 0 {
						want = w.Field.Name // the deepest such node comes last
					}
				}
				if !equivalent(fn.Field.Name, want) {
					t.Errorf("prefix %d: cut field %s at %d, whole decode has %s there\n%s", n, fn.Field.Name, fn.Offset, want, dump(p))
				}
				if !strings.Contains(last.Msg, fn.Field.Name+" at offset ") {
					t.Errorf("prefix %d: message %q does not name the field", n, last.Msg)
				}
			}
		})
	}
}

func TestLooks(t *testing.T) {
	dgs, err := readPcap("testdata/query-full.pcap")
	if err != nil {
		t.Fatal(err)
	}
	yes := []struct {
		data []byte
		dir  dissect.Dir
	}{
		{seedHandshakeReq, dissect.DirC2S}, {seedHandshakeResp, dissect.DirS2C}, {seedBasicReq, dissect.DirC2S},
		{seedBasicResp, dissect.DirS2C}, {seedFullReq, dissect.DirC2S}, {seedFullResp0, dissect.DirS2C},
		{seedFullResp1, dissect.DirS2C}, {mshBasic, dissect.DirS2C}, {geyserFull, dissect.DirS2C}, {geyserHandshakeResp, dissect.DirS2C},
		{cat(0, hx("00 00 00 01"), "Welcome \x00w\xa9!\x00SMP\x00world\x002\x0020\x00", hx("dd 63"), "127.0.0.1\x00"), dissect.DirS2C},
		// Requests of any length: gamedig's 11-byte handshake, odd stats.
		{hx("FE FD 09 00 00 00 01 00 00 00 00"), dissect.DirC2S},
		{hx("FE FD 09 00 00 00 01 00"), dissect.DirC2S},
		{hx("FE FD 00 00 00 00 01 00 91 29 5B 00 00"), dissect.DirC2S},
		{hx("FE FD 00 00 00 00 01"), dissect.DirC2S},
	}
	for _, d := range dgs {
		dir := dissect.DirS2C
		if d.dstPort == 25575 {
			dir = dissect.DirC2S
		}
		yes = append(yes, struct {
			data []byte
			dir  dissect.Dir
		}{d.payload, dir})
	}
	for i, y := range yes {
		if dir, ok := Looks(y.data); !ok || dir != y.dir {
			t.Errorf("yes[%d] % x: %v %v", i, y.data[:min(16, len(y.data))], dir, ok)
		}
	}
	no := map[string][]byte{
		"empty":                       nil,
		"handshake without session":   hx("FE FD 09 00 00 00"),
		"stat without session":        hx("FE FD 00 00"),
		"request of unknown type":     hx("FE FD 05 00 00 00 01"),
		"RakNet unconnected ping":     hx("01 00 00 00 00 00 00 00 2a 00 ff ff 00 fe fe fe fe fd fd fd fd 12 34 56 78 00 00 00 00 00 00 00 00"),
		"RakNet unconnected pong":     cat(0x1c, make([]byte, 16), hx("00 ff ff 00 fe fe fe fe fd fd fd fd 12 34 56 78"), 0, 10, "MCPE;x;1;1"),
		"DNS query":                   hx("12 34 01 00 00 01 00 00 00 00 00 00 07 65 78 61 6d 70 6c 65 03 63 6f 6d 00 00 01 00 01"),
		"handshake response no NUL":   cat(9, hx("00 00 00 01"), "9513307"),
		"handshake response letters":  cat(9, hx("00 00 00 01"), "95x3307\x00"),
		"handshake response trailing": cat(9, hx("00 00 00 01"), "9513307\x00\x00"),
		"stat response, text":         cat(0, hx("00 00 00 01"), "hello world\x00"),
		"basic shape, numbers not":    cat(0, hx("00 00 00 01"), "m\x00SMP\x00world\x00x\x0020\x00", hx("dd 63"), "127.0.0.1\x00"),
		"basic shape, junk after":     cat(0, hx("00 00 00 01"), "m\x00SMP\x00world\x002\x0020\x00", hx("dd 63"), "127.0.0.1\x00junk"),
		"zeros":                       make([]byte, 64),
	}
	for name, d := range no {
		if dir, ok := Looks(d); ok {
			t.Errorf("%s: Looks = %v true", name, dir)
		}
	}
}

// TestReuse decodes into one PDU again and again: nothing of the last
// message leaks into the next.
func TestReuse(t *testing.T) {
	var p dissect.PDU
	Decode(&p, seedFullResp0, len(seedFullResp0), dissect.DirS2C)
	Decode(&p, seedHandshakeReq, len(seedHandshakeReq), dissect.DirC2S)
	if err := dissect.Check(&p); err != nil {
		t.Fatal(err)
	}
	if p.Message != MsgHandshakeRequest || len(p.Nodes) != 5 || len(p.Experts) != 0 {
		t.Errorf("after reuse: %s", dump(&p))
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range [][]byte{seedHandshakeReq, seedHandshakeResp, seedBasicReq, seedBasicResp, seedFullReq, seedFullResp0, seedFullResp1, mshBasic, geyserFull, geyserHandshakeResp,
		cat(0, hx("00 00 00 01"), split, vanillaKVs("A\x00\x00B", "0", "25565"), playerList("x")),
		cat(0, hx("00 00 00 01"), "Welcome \x00w\xa9!\x00SMP\x00world\x002\x0020\x00", hx("dd 63"), "127.0.0.1\x00")} {
		f.Add(s, uint8(0), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, dir uint8, cut uint8) {
		var p dissect.PDU
		Decode(&p, data, len(data)+int(cut%4), dissect.Dir(dir%3))
		if err := dissect.Check(&p); err != nil {
			t.Fatalf("%v\n%s", err, dump(&p))
		}
		if n, _ := dissect.CountFailures(&p); n > 1 {
			t.Fatalf("%d failures\n%s", n, dump(&p))
		}
		// Lite says the same, and the token the tracker reads from the
		// bytes is the tree's.
		lp := dissect.PDU{Lite: true}
		Decode(&lp, data, len(data)+int(cut%4), dissect.Dir(dir%3))
		if lp.Message != p.Message || lp.Info != p.Info || lp.Dir != p.Dir || len(lp.Nodes) != 1 {
			t.Fatalf("Lite: %q %q %v (%d nodes), full: %q %q %v", lp.Message, lp.Info, lp.Dir, len(lp.Nodes), p.Message, p.Info, p.Dir)
		}
		if p.Message == MsgHandshakeResponse {
			tok, ok := handshakeToken(&p)
			if !sameToken(&p, tok, ok) {
				t.Fatalf("handshakeToken = %d %v\n%s", tok, ok, dump(&p))
			}
		}
		if d, ok := Looks(data); ok {
			Decode(&p, data, len(data), d)
			if err := dissect.Check(&p); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestPaddedHandshake: gamedig's 11-byte handshake is a handshake request
// whose four extra bytes are shown as trailing bytes and flagged.
func TestPaddedHandshake(t *testing.T) {
	d := hx("FE FD 09 00 00 00 01 00 00 00 00")
	var p dissect.PDU
	Decode(&p, d, len(d), dissect.DirC2S)
	if err := dissect.Check(&p); err != nil {
		t.Fatal(err)
	}
	if p.Message != MsgHandshakeRequest {
		t.Errorf("message %q", p.Message)
	}
	i := p.Find("query.trailing")
	if i < 0 || p.Nodes[i].Offset != 7 || p.Nodes[i].Length != 4 {
		t.Fatalf("query.trailing: %d", i)
	}
	want := map[string]bool{"query.request.length": false, "query.trailing": false}
	for _, e := range p.Experts {
		if _, ok := want[e.Info.Name]; ok {
			want[e.Info.Name] = true
		}
	}
	for n, seen := range want {
		if !seen {
			t.Errorf("no expert item %s", n)
		}
	}
}

package query

import (
	"encoding/binary"
	"strconv"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
)

// A realistic full stat: a Paper server with plugins and 20 players.
var benchFull = cat(0, hx("00 00 00 01"), split,
	kvs("hostname", "\u00a7aA Minecraft Server \u00a77- \u00a7bsurvival", "gametype", "SMP", "game_id", "MINECRAFT",
		"version", "1.21.1", "plugins", "Paper on 1.21.1-R0.1-SNAPSHOT: LuckPerms 5.4.102; EssentialsX 2.20.1; WorldEdit 7.3.4",
		"map", "world", "numplayers", "20", "maxplayers", "100", "hostport", "25565", "hostip", "203.0.113.7"),
	playerList(players(20)...))

func benchDecode(b *testing.B, data []byte, dir dissect.Dir) {
	var p dissect.PDU
	Decode(&p, data, len(data), dir) // grow the slices once
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		Decode(&p, data, len(data), dir)
	}
}

func BenchmarkDecodeFullStat(b *testing.B) { benchDecode(b, benchFull, dissect.DirS2C) }
func BenchmarkDecodeFullStat300(b *testing.B) {
	benchDecode(b, cat(0, hx("00 00 00 01"), split, vanillaKVs("big", "300", "25565"), playerList(players(300)...)), dissect.DirS2C)
}
func BenchmarkDecodeBasicStat(b *testing.B) { benchDecode(b, seedBasicResp, dissect.DirS2C) }
func BenchmarkDecodeHandshakeResponse(b *testing.B) {
	benchDecode(b, seedHandshakeResp, dissect.DirS2C)
}
func BenchmarkDecodeFullStatRequest(b *testing.B) { benchDecode(b, seedFullReq, dissect.DirC2S) }

func BenchmarkLooks(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Looks(benchFull)
		Looks(seedBasicResp)
		Looks(seedFullReq)
	}
}

// BenchmarkTracker: one handshake and full stat exchange per iteration.
func BenchmarkTracker(b *testing.B) {
	tr := NewTracker()
	var ps [4]dissect.PDU
	msgs := [4][]byte{seedHandshakeReq, seedHandshakeResp, seedFullReq, benchFull}
	dirs := [4]dissect.Dir{dissect.DirC2S, dissect.DirS2C, dissect.DirC2S, dissect.DirS2C}
	b.ReportAllocs()
	now := t0
	for b.Loop() {
		for i := range ps {
			Decode(&ps[i], msgs[i], len(msgs[i]), dirs[i])
			now = now.Add(1000)
			tr.Observe(dissect.Meta{Frame: uint64(i), Time: now, Client: "127.0.0.1:40000", Server: "127.0.0.1:25565", Dir: dirs[i]}, &ps[i])
		}
		tr.Expire(now)
	}
}

// BenchmarkTrackerClients: Query sessions as the benchmark capture has
// them, each from a new client port, eight at a time: a handshake, then
// two stat exchanges with the token. One iteration is one session (six
// datagrams); the tracker sees thousands of clients, so its bounds and
// pruning are exercised.
func BenchmarkTrackerClients(b *testing.B) {
	const nClients = 1 << 14
	clients := make([]string, nClients)
	for i := range clients {
		clients[i] = "10.1." + strconv.Itoa(i>>8&255) + "." + strconv.Itoa(i&255) + ":" + strconv.Itoa(40000+i%20000)
	}
	type sess struct {
		client string
		sid    uint32
		tok    int
	}
	var msgs [6][]byte
	var dirs = [6]dissect.Dir{dissect.DirC2S, dissect.DirS2C, dissect.DirC2S, dissect.DirS2C, dissect.DirC2S, dissect.DirS2C}
	tr := NewTracker()
	var ps [8][6]dissect.PDU
	now := t0
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		k := n % 8
		s := sess{client: clients[n%nClients], sid: uint32(n) & sessionMask, tok: 1000000 + n}
		n++
		// built in place: the test helpers parse hex and would dominate
		msgs[0] = binary.BigEndian.AppendUint32(append(msgs[0][:0], 0xFE, 0xFD, 9), s.sid)
		msgs[1] = append(strconv.AppendInt(binary.BigEndian.AppendUint32(append(msgs[1][:0], 9), s.sid), int64(s.tok), 10), 0)
		msgs[2] = binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(append(msgs[2][:0], 0xFE, 0xFD, 0), s.sid), uint32(s.tok))
		msgs[2] = append(msgs[2], 0, 0, 0, 0)
		msgs[3] = benchFull
		msgs[4] = binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(append(msgs[4][:0], 0xFE, 0xFD, 0), s.sid), uint32(s.tok))
		msgs[5] = seedBasicResp
		for i := range msgs {
			Decode(&ps[k][i], msgs[i], len(msgs[i]), dirs[i])
			now = now.Add(time.Millisecond)
			tr.Observe(dissect.Meta{Frame: uint64(6*n + i), Time: now, Client: s.client, Server: "127.0.0.1:25565", Dir: dirs[i]}, &ps[k][i])
		}
		tr.Expire(now)
	}
}

// BenchmarkDecodeFullStatFresh decodes into a new PDU each time, as the
// pipeline does when its pooled records are busy or small: the tree's
// slice grows from nothing.
func BenchmarkDecodeFullStatFresh(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchFull)))
	for b.Loop() {
		var p dissect.PDU
		Decode(&p, benchFull, len(benchFull), dissect.DirS2C)
	}
}

func BenchmarkDecodeBasicStatFresh(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var p dissect.PDU
		Decode(&p, seedBasicResp, len(seedBasicResp), dissect.DirS2C)
	}
}

func benchDecodeLite(b *testing.B, data []byte, dir dissect.Dir) {
	p := dissect.PDU{Lite: true}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		Decode(&p, data, len(data), dir)
	}
}

func BenchmarkDecodeFullStatLite(b *testing.B)  { benchDecodeLite(b, benchFull, dissect.DirS2C) }
func BenchmarkDecodeBasicStatLite(b *testing.B) { benchDecodeLite(b, seedBasicResp, dissect.DirS2C) }

func BenchmarkDecodeFullStat300Lite(b *testing.B) {
	benchDecodeLite(b, cat(0, hx("00 00 00 01"), split, vanillaKVs("big", "300", "25565"), playerList(players(300)...)), dissect.DirS2C)
}

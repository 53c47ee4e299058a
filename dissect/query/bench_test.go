package query

import (
	"testing"

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

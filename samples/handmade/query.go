package main

// Hand-made Query captures: what real peers won't produce (or what no server
// we can run here sends): Geyser's replies, MOTDs with NUL bytes and
// terminal escape codes, stale, never-issued and foreign tokens, requests
// that get no reply, requests of the wrong length, session IDs with high
// bits, a reply cut by the snap length, ports above 32767, msh's basic stat.

import (
	"encoding/binary"
	"net/netip"
	"path/filepath"
	"strconv"
	"time"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

func qBE32(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }

func qCat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// qStrings joins NUL-terminated strings.
func qStrings(ss ...string) []byte {
	var b []byte
	for _, s := range ss {
		b = append(b, s...)
		b = append(b, 0)
	}
	return b
}

func qHandshakeReq(sess uint32) []byte { return qCat([]byte{0xFE, 0xFD, 9}, qBE32(sess)) }

func qHandshakeResp(sess uint32, tok int32) []byte {
	return qCat([]byte{9}, qBE32(sess), qStrings(strconv.Itoa(int(tok))))
}

func qStatReq(sess uint32, tok int32, full bool) []byte {
	b := qCat([]byte{0xFE, 0xFD, 0}, qBE32(sess), qBE32(uint32(tok)))
	if full {
		b = append(b, 0, 0, 0, 0)
	}
	return b
}

// qFull builds a full stat: split header, pairs, empty key, player section.
func qFull(sess uint32, header string, kv []string, players []string) []byte {
	b := qCat([]byte{0}, qBE32(sess), []byte(header), qStrings(kv...), []byte{0}, []byte("\x01player_\x00\x00"), qStrings(players...), []byte{0})
	return b
}

func qVanillaKV(motd, numplayers, hostport string) []string {
	return []string{"hostname", motd, "gametype", "SMP", "game_id", "MINECRAFT", "version", "1.21.1",
		"plugins", "", "map", "world", "numplayers", numplayers, "maxplayers", "20",
		"hostport", hostport, "hostip", "127.0.0.1"}
}

// qBasic builds a basic stat: MOTD, gametype, map, numplayers, maxplayers,
// the port little-endian, hostip.
func qBasic(sess uint32, motd, numplayers string, port uint16, hostip string) []byte {
	return qCat([]byte{0}, qBE32(sess), qStrings(motd, "SMP", "world", numplayers, "20"),
		binary.LittleEndian.AppendUint16(nil, port), qStrings(hostip))
}

const qSplit = "splitnum\x00\x80\x00"

// qSession is one client talking to one server at a moving packet time.
type qSession struct {
	w              *capgen.Writer
	client, server netip.AddrPort
	now            time.Time
}

func (s *qSession) c2s(b []byte) {
	s.now = s.now.Add(time.Millisecond)
	s.w.UDP(s.now, s.client, s.server, b)
}
func (s *qSession) s2c(b []byte) {
	s.now = s.now.Add(time.Millisecond)
	s.w.UDP(s.now, s.server, s.client, b)
}
func (s *qSession) wait(d time.Duration) { s.now = s.now.Add(d) }

func writeQuery(dir string) error {
	t0 := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	lo := netip.MustParseAddr("127.0.0.1")
	server := netip.AddrPortFrom(lo, 25565)
	sess := func(w *capgen.Writer, port uint16, srv netip.AddrPort, at time.Duration) *qSession {
		return &qSession{w: w, client: netip.AddrPortFrom(lo, port), server: srv, now: t0.Add(at)}
	}
	files := []struct {
		name string
		gen  func(w *capgen.Writer)
	}{
		// Geyser answers on the Bedrock port (19132, shared with RakNet, so
		// only the heuristic finds it). Its handshake handler falls through
		// to the stat handler: a handshake gets the token AND a full stat.
		// Tokens are the first 4 bytes of an MD5, so often negative; the
		// split header is "GeyserMC\0" 80 00 and keys come in HashMap order.
		{"geyser", func(w *capgen.Writer) {
			s := sess(w, 50000, netip.AddrPortFrom(lo, 19132), 0)
			full := qFull(0x01020304, "GeyserMC\x00\x80\x00",
				[]string{"hostport", "19132", "plugins", "", "gametype", "SMP", "numplayers", "1", "hostname", "Geyser",
					"version", "Geyser (git-master-4b4bb3a) 1.21.50", "game_id", "MINECRAFT", "map", "Geyser",
					"maxplayers", "100", "hostip", "0.0.0.0"}, []string{"Steve"})
			// A RakNet unconnected ping and pong on the same port: not Query.
			ping := qCat([]byte{0x01}, make([]byte, 8), []byte{0x00, 0xff, 0xff, 0x00, 0xfe, 0xfe, 0xfe, 0xfe, 0xfd, 0xfd, 0xfd, 0xfd, 0x12, 0x34, 0x56, 0x78}, make([]byte, 8))
			s.c2s(ping)
			pong := qCat([]byte{0x1c}, make([]byte, 16), []byte{0x00, 0xff, 0xff, 0x00, 0xfe, 0xfe, 0xfe, 0xfe, 0xfd, 0xfd, 0xfd, 0xfd, 0x12, 0x34, 0x56, 0x78}, []byte{0, 30}, []byte("MCPE;Geyser;686;1.21.50;1;100;"))
			s.s2c(pong)
			s.c2s(qHandshakeReq(0x01020304))
			s.s2c(qHandshakeResp(0x01020304, -1942601834))
			s.s2c(full)
			s.c2s(qStatReq(0x01020304, -1942601834, true))
			s.s2c(full)
		}},
		// MOTDs with NUL bytes (MC-221987: "Welcome 一起玩!" sent as low
		// bytes; "\u0000\u0000" in server.properties), and with terminal
		// escape codes that must never reach the user's terminal.
		{"motd", func(w *capgen.Writer) {
			for i, motd := range []string{"Welcome \x00w\xa9!", "A\x00\x00B", "\x1b[2J\x1b[31mPWNED\x1b]0;title\x07"} {
				s := sess(w, uint16(50010+i), server, time.Duration(i)*time.Second)
				tok := int32(1000 + i)
				s.c2s(qHandshakeReq(uint32(i + 1)))
				s.s2c(qHandshakeResp(uint32(i+1), tok))
				s.c2s(qStatReq(uint32(i+1), tok, true))
				s.s2c(qFull(uint32(i+1), qSplit, qVanillaKV(motd, "1", "25565"), []string{"Notch"}))
				s.c2s(qStatReq(uint32(i+1), tok, false))
				s.s2c(qBasic(uint32(i+1), motd, "1", 25565, "127.0.0.1"))
			}
		}},
		// Tokens: a stale one (> 30 s, no reply), one never issued (no
		// reply), one issued to another port of the same IP (no reply), a
		// superseded one (no reply), a handshake nobody answers, and a
		// reply nobody asked for.
		{"tokens", func(w *capgen.Writer) {
			s := sess(w, 50020, server, 0)
			s.c2s(qHandshakeReq(1))
			s.s2c(qHandshakeResp(1, 9513307))
			s.c2s(qStatReq(1, 9513307, false))
			s.s2c(qBasic(1, "A Minecraft Server", "0", 25565, "127.0.0.1"))
			s.wait(35 * time.Second)
			s.c2s(qStatReq(1, 9513307, true)) // stale
			s.wait(6 * time.Second)
			s.c2s(qStatReq(1, 4242, true)) // never issued
			s.wait(6 * time.Second)
			other := &qSession{w: w, client: netip.AddrPortFrom(lo, 50021), server: server, now: s.now}
			s.c2s(qHandshakeReq(2))
			s.s2c(qHandshakeResp(2, 777))
			other.now = s.now
			other.c2s(qStatReq(2, 777, true)) // another port
			s.now = other.now
			s.c2s(qHandshakeReq(3))
			s.s2c(qHandshakeResp(3, 888))
			s.c2s(qStatReq(3, 777, true)) // superseded by 888
			s.wait(6 * time.Second)
			s.c2s(qHandshakeReq(4)) // no reply at all
			s.wait(6 * time.Second)
			s.s2c(qFull(5, qSplit, qVanillaKV("unsolicited", "0", "25565"), nil))
		}},
		// Requests of the wrong length, a session ID with bits outside
		// 0x0F0F0F0F, an unknown type, a bad magic.
		{"requests", func(w *capgen.Writer) {
			s := sess(w, 50030, server, 0)
			s.c2s(qHandshakeReq(0x12345678))
			s.s2c(qHandshakeResp(0x12345678, 31337))
			s.c2s(qCat(qHandshakeReq(0x01), []byte{0}))                   // 8 bytes
			s.c2s(qCat(qStatReq(0x12345678, 31337, false), []byte{0, 0})) // 13 bytes
			s.s2c(qBasic(0x12345678, "A Minecraft Server", "0", 25565, "127.0.0.1"))
			s.c2s(qCat(qStatReq(0x12345678, 31337, true), []byte{0})) // 16 bytes
			s.s2c(qBasic(0x12345678, "A Minecraft Server", "0", 25565, "127.0.0.1"))
			s.c2s(qStatReq(0x12345678, 31337, false)[:9]) // 9 bytes
			s.c2s(qCat([]byte{0xFE, 0xFD, 5}, qBE32(1)))  // type 5
			s.c2s(qCat([]byte{0xFE, 0xFE, 9}, qBE32(1)))  // bad magic
		}},
		// A full stat reply of 300 players cut by a snap length of 200
		// bytes of frame: captured < wire length.
		{"truncated", func(w *capgen.Writer) {
			s := sess(w, 50040, server, 0)
			names := make([]string, 300)
			for i := range names {
				names[i] = "Player" + strconv.Itoa(i)
			}
			s.c2s(qHandshakeReq(1))
			s.s2c(qHandshakeResp(1, 5))
			s.c2s(qStatReq(1, 5, true))
			s.now = s.now.Add(time.Millisecond)
			w.UDPCut(s.now, s.server, s.client, qFull(1, qSplit, qVanillaKV("big", "300", "25565"), names), 200)
		}},
		// Ports above 32767 are unsigned: a server on port 40000 (LE 40 9c),
		// and msh's basic stat as its capture notes describe it: the port
		// little-endian, an extra 00, then an empty hostip.
		{"ports", func(w *capgen.Writer) {
			srv := netip.AddrPortFrom(lo, 40000)
			s := sess(w, 50050, srv, 0)
			s.c2s(qHandshakeReq(1))
			s.s2c(qHandshakeResp(1, 6))
			s.c2s(qStatReq(1, 6, false))
			s.s2c(qBasic(1, "high port", "0", 40000, "127.0.0.1"))
			s.c2s(qStatReq(1, 6, true))
			s.s2c(qFull(1, qSplit, qVanillaKV("high port", "0", "40000"), nil))
			m := sess(w, 50051, netip.AddrPortFrom(lo, 25575), time.Second)
			m.c2s(qHandshakeReq(0x0304))
			m.s2c(qHandshakeResp(0x0304, 8577368))
			m.c2s(qStatReq(0x0304, 8577368, false))
			m.s2c(qCat([]byte{0}, qBE32(0x0304), qStrings("\u00a7fmsh: \u00a7b\u00a7lHIBERNATING", "SMP", "world", "0", "0"), []byte{0xe7, 0x63, 0x00, 0x00}))
		}},
	}
	for _, f := range files {
		w, err := capgen.Create(filepath.Join(dir, "handmade-query-"+f.name+".pcap"))
		if err != nil {
			return err
		}
		f.gen(w)
		if err := w.Close(); err != nil {
			return err
		}
	}
	return nil
}

package capgen

import (
	"bytes"
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
	"strconv"
)

// Packet builders for the hostile captures, from the protocols' tables
// (Query: GameSpy4 as vanilla's QueryThread; Server List Ping: wiki.vg;
// Classic: seed 004). Hand-made captures of real sessions live in
// samples/handmade; these are the pieces the hostile ones repeat.

// queryHandshakeRequest is FE FD 09 and a session ID.
func queryHandshakeRequest(sess uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte{0xfe, 0xfd, 9}, sess)
}

// queryHandshakeResponse is 09, the session ID and the token as text.
func queryHandshakeResponse(sess uint32, token int) []byte {
	b := binary.BigEndian.AppendUint32([]byte{9}, sess)
	return append(strconv.AppendInt(b, int64(token), 10), 0)
}

// queryStatRequest is a basic stat request, or with full a full one (four
// bytes of padding).
func queryStatRequest(sess uint32, token int, full bool) []byte {
	b := binary.BigEndian.AppendUint32([]byte{0xfe, 0xfd, 0}, sess)
	b = binary.BigEndian.AppendUint32(b, uint32(token))
	if full {
		b = append(b, 0, 0, 0, 0)
	}
	return b
}

// cstrings appends NUL-terminated strings.
func cstrings(b []byte, ss ...string) []byte {
	for _, s := range ss {
		b = append(b, s...)
		b = append(b, 0)
	}
	return b
}

// queryFullStat is a full stat response: the split header, the key/value
// pairs kv (key, value, key, value…), the empty key, the player section.
func queryFullStat(sess uint32, kv []string, players []string) []byte {
	b := binary.BigEndian.AppendUint32([]byte{0}, sess)
	b = append(b, "splitnum\x00\x80\x00"...)
	b = cstrings(b, kv...)
	b = append(b, 0)
	b = append(b, "\x01player_\x00\x00"...)
	b = cstrings(b, players...)
	return append(b, 0)
}

// queryVanillaKV is vanilla's key/value section with the given MOTD.
func queryVanillaKV(motd string) []string {
	return []string{"hostname", motd, "gametype", "SMP", "game_id", "MINECRAFT", "version", "1.21.1",
		"plugins", "", "map", "world", "numplayers", "2", "maxplayers", "20",
		"hostport", "25565", "hostip", "127.0.0.1"}
}

// queryBasicStat is a basic stat response: MOTD, gametype, map, players
// online and max, the port little-endian, the host IP.
func queryBasicStat(sess uint32, motd string) []byte {
	b := binary.BigEndian.AppendUint32([]byte{0}, sess)
	b = cstrings(b, motd, "SMP", "world", "2", "20")
	b = binary.LittleEndian.AppendUint16(b, 25565)
	return cstrings(b, "127.0.0.1")
}

// slpString is a VarInt-prefixed UTF-8 string.
func slpString(s string) []byte {
	return append(binary.AppendUvarint(nil, uint64(len(s))), s...)
}

// slpPacket is a frame: VarInt length, VarInt packet ID, body.
func slpPacket(id int, body ...[]byte) []byte {
	b := binary.AppendUvarint(nil, uint64(id))
	for _, p := range body {
		b = append(b, p...)
	}
	return slpFrame(b)
}

// slpHandshake is a handshake to localhost:25565 asking for next state.
func slpHandshake(next int) []byte {
	return slpPacket(0, binary.AppendUvarint(nil, 767), slpString("localhost"), []byte{0x63, 0xdd}, []byte{byte(next)})
}

// slpPing is a ping (or, from the server, a pong) carrying v.
func slpPing(v uint64) []byte { return slpPacket(1, binary.BigEndian.AppendUint64(nil, v)) }

// slpStatusJSON is a status response's JSON with the given description.
func slpStatusJSON(description string) string {
	return `{"version":{"name":"1.21.1","protocol":767},"players":{"max":20,"online":0},"description":{"text":"` + description + `"}}`
}

// classicString is a 64-byte space-padded Classic string.
func classicString(s string) []byte {
	b := bytes.Repeat([]byte{' '}, 64)
	copy(b, s)
	return b
}

// classicIdent is an identification (00, version 7, two strings, a byte).
func classicIdent(name, keyOrMOTD string) []byte {
	b := append([]byte{0x00, 7}, classicString(name)...)
	b = append(b, classicString(keyOrMOTD)...)
	return append(b, 0)
}

// classicMessage is a chat message (0x0d) from player id.
func classicMessage(id byte, text string) []byte {
	return append([]byte{0x0d, id}, classicString(text)...)
}

// classicLevelChunk is a Level Data Chunk carrying up to 1024 bytes.
func classicLevelChunk(data []byte, percent byte) []byte {
	b := binary.BigEndian.AppendUint16([]byte{0x03}, uint16(len(data)))
	b = append(b, data...)
	b = append(b, make([]byte, 1024-len(data))...)
	return append(b, percent)
}

// classicLevelChunks splits compressed level data into chunks.
func classicLevelChunks(z []byte) []byte {
	var out []byte
	for i := 0; i < len(z); i += 1024 {
		part := z[i:min(i+1024, len(z))]
		out = append(out, classicLevelChunk(part, byte((i+len(part))*100/len(z)))...)
	}
	return out
}

// classicLevelFinalize is Level Finalize with the level's size.
func classicLevelFinalize(x, y, z int) []byte {
	b := []byte{0x04}
	b = binary.BigEndian.AppendUint16(b, uint16(x))
	b = binary.BigEndian.AppendUint16(b, uint16(y))
	return binary.BigEndian.AppendUint16(b, uint16(z))
}

// classicKey is the verification key the list server gives a name.
func classicKey(salt, name string) string {
	sum := md5.Sum([]byte(salt + name))
	return hex.EncodeToString(sum[:])
}

// raknetMagic is RakNet's offline-message magic.
var raknetMagic = []byte{0x00, 0xff, 0xff, 0x00, 0xfe, 0xfe, 0xfe, 0xfe, 0xfd, 0xfd, 0xfd, 0xfd, 0x12, 0x34, 0x56, 0x78}

// raknetPing is an unconnected ping sent at time t.
func raknetPing(t uint64) []byte {
	b := binary.BigEndian.AppendUint64([]byte{0x01}, t)
	b = append(b, raknetMagic...)
	return binary.BigEndian.AppendUint64(b, 0)
}

// raknetPong is an unconnected pong carrying the server's ID string.
func raknetPong(t uint64, s string) []byte {
	b := binary.BigEndian.AppendUint64([]byte{0x1c}, t)
	b = binary.BigEndian.AppendUint64(b, 0x0123456789abcdef)
	b = append(b, raknetMagic...)
	b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
	return append(b, s...)
}

package mcgen

import (
	"encoding/binary"
	"math"
)

// The play state of a Java login (Config.Play, the "play" mix), 1.21.1
// (protocol 767) as minecraft-data describes it, compressed with threshold
// 256: after the configuration state the server sends Join Game, a
// position and a batch of chunks; then, burst after burst, entities move,
// players chat, the client sends its positions and answers keep-alives,
// and now and then another chunk arrives; at the end the client leaves or
// is kicked. Chunk Data frames are made once (assets.chunks), zlib'd.

// Packet IDs of 1.21.1's play state.
const (
	playLogin        = 0x2b
	playPosition     = 0x40
	playChunk        = 0x27
	playBatchStart   = 0x0d
	playBatchEnd     = 0x0c
	playRelMove      = 0x2e
	playMoveLook     = 0x2f
	playHeadRot      = 0x48
	playVelocity     = 0x5a
	playTeleport     = 0x70
	playSystemChat   = 0x6c
	playKeepAliveS   = 0x26
	playKick         = 0x1d
	playUpdateTime   = 0x64
	cplayTeleportOK  = 0x00
	cplayBatchRecv   = 0x08
	cplayChat        = 0x06
	cplayKeepAlive   = 0x18
	cplayPosition    = 0x1a
	cplayPositionRot = 0x1b
)

// makeChunk builds a Chunk Data packet body for chunk (x, z): heightmaps
// (an NBT long array), 24 sections of paletted block states and biomes,
// no block entities, and light for 26 sections, as 1.21.1 sends it; the
// section data is random within small palettes, so it compresses about as
// real terrain does.
func makeChunk(r *rng, x, z int32) []byte {
	b := appendVarInt(nil, playChunk)
	b = binary.BigEndian.AppendUint32(b, uint32(x))
	b = binary.BigEndian.AppendUint32(b, uint32(z))
	// heightmaps: anonymous NBT compound { MOTION_BLOCKING: long[37] }
	b = append(b, 10, 12)
	b = binary.BigEndian.AppendUint16(b, 15)
	b = append(b, "MOTION_BLOCKING"...)
	b = binary.BigEndian.AppendUint32(b, 37)
	for range 37 {
		b = binary.BigEndian.AppendUint64(b, 0x0101010101010101*uint64(60+r.intn(8)))
	}
	b = append(b, 0)
	// sections
	var sec []byte
	for s := range 24 {
		if s > 12 { // air above the surface: single-valued palettes
			sec = binary.BigEndian.AppendUint16(sec, 0)
			sec = append(sec, 0, 0, 0) // bits 0, value air, no longs
			sec = append(sec, 0, 1, 0) // biomes: bits 0, plains, no longs
			continue
		}
		sec = binary.BigEndian.AppendUint16(sec, 4096)
		sec = append(sec, 4) // 4 bits per block, indirect palette
		pal := 3 + r.intn(8)
		sec = appendVarInt(sec, pal)
		for range pal {
			sec = appendVarInt(sec, 1+r.intn(20000))
		}
		sec = appendVarInt(sec, 256) // 4096 blocks × 4 bits / 64
		for range 256 {
			var v uint64
			for k := range 16 {
				v |= uint64(r.intn(pal)) << (4 * k)
			}
			sec = binary.BigEndian.AppendUint64(sec, v)
		}
		sec = append(sec, 0, 1, 0) // biomes: one
	}
	b = appendVarInt(b, len(sec))
	b = append(b, sec...)
	b = append(b, 0) // no block entities
	b = append(b, 1) // sky light mask: one long
	b = binary.BigEndian.AppendUint64(b, 0x3fffffc)
	b = append(b, 1, 0, 0, 0, 0, 0, 0, 0, 0) // block light mask: none set
	b = append(b, 1)
	b = binary.BigEndian.AppendUint64(b, 0x3)
	b = append(b, 1)
	b = binary.BigEndian.AppendUint64(b, 0x3ffffff)
	b = appendVarInt(b, 24) // sky light arrays
	for k := range 24 {
		b = appendVarInt(b, 2048)
		for range 2048 {
			if k > 10 {
				b = append(b, 0xff)
			} else {
				b = append(b, byte(r.intn(256)&0xf0|0x0f))
			}
		}
	}
	b = append(b, 0) // no block light arrays
	return b
}

// playStep sends one burst of the play state; it reports whether the
// session is over.
func (s *slpActor) playStep() bool {
	r := &s.g.r
	c, sv := &s.pend[0], &s.pend[1]
	switch s.state {
	case 20: // join game, position, the first chunks
		*sv = plainFrame(*sv, s.joinGame())
		*sv = plainFrame(*sv, s.positionPacket())
		*sv = plainFrame(*sv, []byte{playBatchStart})
		n := 4 + r.intn(12)
		for range n {
			*sv = append(*sv, s.g.a.chunks[r.intn(len(s.g.a.chunks))]...)
		}
		*sv = plainFrame(*sv, appendVarInt([]byte{playBatchEnd}, n))
		s.emit(1, true)
		s.state = 21
	case 21: // teleport confirmed, batch received, the first position
		*c = plainFrame(*c, appendVarInt([]byte{cplayTeleportOK}, 1))
		b := binary.BigEndian.AppendUint32([]byte{cplayBatchRecv}, math.Float32bits(9.5))
		*c = plainFrame(*c, b)
		*c = plainFrame(*c, s.clientPosition(true))
		s.emit(0, false)
		s.state = 22
	default:
		s.bursts--
		if s.bursts <= 0 {
			if r.intn(4) == 0 {
				*sv = plainFrame(*sv, s.systemChat(playKick, "Kicked: idle for too long"))
				s.emit(1, false)
			}
			s.flow.finish()
			return true
		}
		s.wait(r.between(200, 50000))
		switch k := r.intn(100); {
		case k < 45: // entities move: a server burst of several updates
			for range 1 + r.intn(6) {
				*sv = plainFrame(*sv, s.entityUpdate())
			}
			s.emit(1, true)
		case k < 75: // the player moves
			*c = plainFrame(*c, s.clientPosition(r.intn(3) == 0))
			s.emit(0, true)
		case k < 83: // chat: the client's message, then the server's line
			msg := chats[r.intn(len(chats))]
			*c = plainFrame(*c, s.clientChat(msg))
			s.emit(0, false)
			*sv = plainFrame(*sv, s.systemChat(playSystemChat, "<"+string(s.name)+"> "+msg))
			s.emit(1, false)
		case k < 91: // keep-alive and its answer
			id := r.next() & 0x7fffffffffff
			*sv = plainFrame(*sv, binary.BigEndian.AppendUint64([]byte{playKeepAliveS}, id))
			s.emit(1, false)
			*c = plainFrame(*c, binary.BigEndian.AppendUint64([]byte{cplayKeepAlive}, id))
			s.emit(0, false)
		case k < 95: // time
			b := binary.BigEndian.AppendUint64([]byte{playUpdateTime}, uint64(1000+r.intn(1<<30)))
			*sv = plainFrame(*sv, binary.BigEndian.AppendUint64(b, uint64(r.intn(24000))))
			s.emit(1, true)
		default: // a new chunk as the player walks
			*sv = append(*sv, s.g.a.chunks[r.intn(len(s.g.a.chunks))]...)
			s.emit(1, true)
		}
	}
	return false
}

func (s *slpActor) joinGame() []byte {
	b := []byte{playLogin}
	b = binary.BigEndian.AppendUint32(b, uint32(1+s.g.r.intn(100000)))
	b = append(b, 0) // not hardcore
	b = appendVarInt(b, 3)
	for _, w := range []string{"minecraft:overworld", "minecraft:the_nether", "minecraft:the_end"} {
		b = appendString(b, w)
	}
	b = appendVarInt(b, 100) // max players
	b = appendVarInt(b, 10)  // view distance
	b = appendVarInt(b, 10)  // simulation distance
	b = append(b, 0, 1, 0)   // reduced debug info, respawn screen, limited crafting
	b = appendVarInt(b, 0)   // dimension
	b = appendString(b, "minecraft:overworld")
	b = binary.BigEndian.AppendUint64(b, s.g.r.next())
	b = append(b, 0, 0xff, 0, 0, 0) // survival, no previous, not debug, not flat, no death location
	b = appendVarInt(b, 0)          // portal cooldown
	return append(b, 0)             // secure chat not enforced
}

func (s *slpActor) positionPacket() []byte {
	b := []byte{playPosition}
	for _, v := range []float64{s.px, s.py, s.pz} {
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(v))
	}
	b = binary.BigEndian.AppendUint32(b, math.Float32bits(0))
	b = binary.BigEndian.AppendUint32(b, math.Float32bits(0))
	b = append(b, 0)
	return appendVarInt(b, 1)
}

func (s *slpActor) clientPosition(look bool) []byte {
	r := &s.g.r
	s.px += float64(r.intn(200)-100) / 100
	s.pz += float64(r.intn(200)-100) / 100
	id := byte(cplayPosition)
	if look {
		id = cplayPositionRot
	}
	b := []byte{id}
	for _, v := range []float64{s.px, s.py, s.pz} {
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(v))
	}
	if look {
		b = binary.BigEndian.AppendUint32(b, math.Float32bits(float32(r.intn(360))))
		b = binary.BigEndian.AppendUint32(b, math.Float32bits(float32(r.intn(90))))
	}
	return append(b, 1)
}

func (s *slpActor) entityUpdate() []byte {
	r := &s.g.r
	id := 2 + r.intn(400)
	switch r.intn(10) {
	case 0, 1, 2, 3:
		b := appendVarInt([]byte{playRelMove}, id)
		for range 3 {
			b = binary.BigEndian.AppendUint16(b, uint16(r.intn(4096)-2048))
		}
		return append(b, byte(r.intn(2)))
	case 4, 5, 6:
		b := appendVarInt([]byte{playMoveLook}, id)
		for range 3 {
			b = binary.BigEndian.AppendUint16(b, uint16(r.intn(4096)-2048))
		}
		return append(b, byte(r.intn(256)), byte(r.intn(128)), byte(r.intn(2)))
	case 7:
		return append(appendVarInt([]byte{playHeadRot}, id), byte(r.intn(256)))
	case 8:
		b := appendVarInt([]byte{playVelocity}, id)
		for range 3 {
			b = binary.BigEndian.AppendUint16(b, uint16(r.intn(2000)-1000))
		}
		return b
	}
	b := appendVarInt([]byte{playTeleport}, id)
	for _, v := range []float64{s.px + float64(r.intn(64)-32), s.py, s.pz + float64(r.intn(64)-32)} {
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(v))
	}
	return append(b, byte(r.intn(256)), 0, 1)
}

func (s *slpActor) clientChat(msg string) []byte {
	b := appendString([]byte{cplayChat}, msg)
	b = binary.BigEndian.AppendUint64(b, uint64(s.c.now()/1000))
	b = binary.BigEndian.AppendUint64(b, s.g.r.next())
	b = append(b, 0)          // no signature
	b = appendVarInt(b, 0)    // offset
	return append(b, 0, 0, 0) // acknowledged
}

// systemChat is a packet whose body is a text component in NBT (a
// compound with "text"): System Chat (with its action-bar flag) or a kick.
func (s *slpActor) systemChat(id byte, text string) []byte {
	b := []byte{id, 10, 8}
	b = binary.BigEndian.AppendUint16(b, 4)
	b = append(b, "text"...)
	b = binary.BigEndian.AppendUint16(b, uint16(len(text)))
	b = append(b, text...)
	b = append(b, 0)
	if id == playSystemChat {
		b = append(b, 0)
	}
	return b
}

package mcgen

import (
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
	"net/netip"
)

// classicServer is a Minecraft Classic (protocol 7) server.
type classicServer struct {
	addr  netip.Addr
	name  string
	motd  string
	salt  string
	level int // index in assets
}

// Classic packet IDs.
const (
	cIdent      = 0x00
	cPing       = 0x01
	cLevelInit  = 0x02
	cLevelChunk = 0x03
	cLevelFinal = 0x04
	cSetBlockC  = 0x05
	cSetBlockS  = 0x06
	cSpawn      = 0x07
	cTeleport   = 0x08
	cPosOrient  = 0x09
	cPosUpdate  = 0x0a
	cOrient     = 0x0b
	cDespawn    = 0x0c
	cMessage    = 0x0d
	cDisconnect = 0x0e
)

type classicPlayer struct {
	x, y, z    int16 // fixed point, 5 fraction bits
	yaw, pitch uint8
	name       [16]byte
	nameLen    uint8
	on         bool
}

// classicActor is one Classic session: identification, the level in
// 1024-byte chunks, spawns, then a long run of movement, chat, pings and
// block changes, and a disconnect.
type classicActor struct {
	flow
	srv    *classicServer
	state  int
	chunk  int // level bytes sent
	rounds int
	me     classicPlayer
	others [24]classicPlayer
	kicked bool
}

func (a *classicActor) proto() int { return Classic }

func (a *classicActor) init(g *gen) int {
	a.srv = g.classic[g.r.intn(len(g.classic))]
	cl := g.client(true)
	a.open(g, cl, netip.AddrPortFrom(a.srv.addr, 25565))
	a.state, a.chunk = 0, 0
	// Sessions run 100 to 2500 bursts, fewer in a small capture so that one
	// session is at most a twentieth of it.
	lv := g.a.levels[a.srv.level]
	a.rounds = g.r.between(100, max(100, min(2500, int(g.cfg.Size/20-int64(len(lv.gz)))/115)))
	a.kicked = false
	a.me = a.newPlayer()
	for i := range a.others {
		a.others[i] = a.newPlayer()
		a.others[i].on = g.r.intn(3) == 0
	}
	g.st.ClassicConns++
	return 600 + len(lv.gz)*1028/1024 + 70*(len(lv.gz)/1024+1) + a.rounds*115
}

func (a *classicActor) newPlayer() classicPlayer {
	r := &a.g.r
	lv := a.g.a.levels[a.srv.level]
	p := classicPlayer{
		x: int16(r.intn(lv.x)*32 + 16), y: int16((lv.y/2+1)*32 + 51), z: int16(r.intn(lv.z)*32 + 16),
		yaw: uint8(r.intn(256)), pitch: uint8(r.intn(64)),
	}
	p.nameLen = uint8(len(appendName(p.name[:0], r)))
	return p
}

func (p *classicPlayer) nameStr() []byte { return p.name[:p.nameLen] }

func appendPaddedBytes(b, s []byte) []byte {
	s = s[:min(len(s), 64)]
	b = append(b, s...)
	for i := len(s); i < 64; i++ {
		b = append(b, ' ')
	}
	return b
}

func appendPos(b []byte, p *classicPlayer) []byte {
	b = binary.BigEndian.AppendUint16(b, uint16(p.x))
	b = binary.BigEndian.AppendUint16(b, uint16(p.y))
	b = binary.BigEndian.AppendUint16(b, uint16(p.z))
	return append(b, p.yaw, p.pitch)
}

func (a *classicActor) spawn(b []byte, id int8, p *classicPlayer) []byte {
	b = append(b, cSpawn, byte(id))
	b = appendPaddedBytes(b, p.nameStr())
	return appendPos(b, p)
}

// message appends a Message packet: a player's chat ("&7Name: &ftext") or
// a server notice ("&eName joined the game").
func (a *classicActor) message(b []byte, from int8, chat bool, color string, name []byte, text string) []byte {
	var m [96]byte
	t := append(m[:0], color...)
	t = append(t, name...)
	if chat {
		t = append(t, ": &f"...)
	} else {
		t = append(t, ' ')
	}
	t = append(t, text...)
	b = append(b, cMessage, byte(from))
	return appendPaddedBytes(b, t)
}

func (a *classicActor) step() bool {
	a.begin()
	defer a.end()
	r := &a.g.r
	c, sv := &a.pend[0], &a.pend[1]
	lv := a.g.a.levels[a.srv.level]
	switch a.state {
	case 0: // connect, Player Identification
		a.handshake()
		a.wait(r.between(50, 400))
		*c = append(*c, cIdent, 7)
		*c = appendPaddedBytes(*c, a.me.nameStr())
		h := md5.New()
		h.Write([]byte(a.srv.salt))
		h.Write(a.me.nameStr())
		var sum [16]byte
		var key [32]byte
		hex.Encode(key[:], h.Sum(sum[:0]))
		*c = appendPaddedBytes(*c, key[:])
		*c = append(*c, 0x00)
		a.emit(0, false)
		a.state = 1
	case 1: // Server Identification, Level Initialize
		*sv = append(*sv, cIdent, 7)
		*sv = appendPadded(*sv, a.srv.name)
		*sv = appendPadded(*sv, a.srv.motd)
		op := byte(0)
		if r.permille(50) {
			op = 0x64
		}
		*sv = append(*sv, op, cLevelInit)
		a.emit(1, false)
		a.state = 2
	case 2: // level chunks, a few per burst
		for k := r.between(2, 8); k > 0 && a.chunk < len(lv.gz); k-- {
			n := min(1024, len(lv.gz)-a.chunk)
			*sv = append(*sv, cLevelChunk)
			*sv = binary.BigEndian.AppendUint16(*sv, uint16(n))
			*sv = append(*sv, lv.gz[a.chunk:a.chunk+n]...)
			for i := n; i < 1024; i++ {
				*sv = append(*sv, 0)
			}
			a.chunk += n
			*sv = append(*sv, byte(a.chunk*100/len(lv.gz)))
		}
		if a.chunk == len(lv.gz) {
			*sv = append(*sv, cLevelFinal)
			*sv = binary.BigEndian.AppendUint16(*sv, uint16(lv.x))
			*sv = binary.BigEndian.AppendUint16(*sv, uint16(lv.y))
			*sv = binary.BigEndian.AppendUint16(*sv, uint16(lv.z))
			*sv = a.spawn(*sv, -1, &a.me)
			for i := range a.others {
				if a.others[i].on {
					*sv = a.spawn(*sv, int8(i), &a.others[i])
				}
			}
			*sv = a.message(*sv, -1, false, "&e", a.me.nameStr(), "joined the game")
			a.state = 3
		}
		a.emit(1, false)
	case 3:
		a.play()
		a.rounds--
		if a.rounds <= 0 {
			a.state = 4
		}
	case 4:
		if r.permille(200) { // kicked, or the server shuts down
			*sv = append(*sv, cDisconnect)
			*sv = appendPadded(*sv, r.pick(kickReasons))
		}
		a.flow.finish()
		return true
	}
	return false
}

// play sends one burst of the game.
func (a *classicActor) play() {
	r := &a.g.r
	c, sv := &a.pend[0], &a.pend[1]
	switch n := r.intn(1000); {
	case n < 450: // the client reports its position (20 times a second)
		a.me.x += int16(r.between(-8, 8))
		a.me.z += int16(r.between(-8, 8))
		a.me.yaw += uint8(r.between(-6, 6))
		*c = append(*c, cTeleport, 0xff)
		*c = appendPos(*c, &a.me)
		a.emit(0, false)
	case n < 850: // the server relays other players' moves
		for k := r.between(1, 10); k > 0; k-- {
			i := r.intn(len(a.others))
			p := &a.others[i]
			if !p.on {
				continue
			}
			dx, dy, dz := int8(r.between(-12, 12)), int8(r.between(-2, 2)), int8(r.between(-12, 12))
			p.x += int16(dx)
			p.y += int16(dy)
			p.z += int16(dz)
			switch r.intn(10) {
			case 0, 1, 2, 3:
				p.yaw += uint8(r.between(-10, 10))
				*sv = append(*sv, cPosOrient, byte(i), byte(dx), byte(dy), byte(dz), p.yaw, p.pitch)
			case 4, 5, 6:
				*sv = append(*sv, cPosUpdate, byte(i), byte(dx), byte(dy), byte(dz))
			case 7, 8:
				p.yaw += uint8(r.between(-20, 20))
				p.pitch = uint8(r.intn(64))
				*sv = append(*sv, cOrient, byte(i), p.yaw, p.pitch)
			default:
				*sv = append(*sv, cTeleport, byte(i))
				*sv = appendPos(*sv, p)
			}
		}
		a.emit(1, true)
	case n < 900: // chat from another player
		i := r.intn(len(a.others))
		*sv = a.message(*sv, int8(i), true, "&7", a.others[i].nameStr(), r.pick(chats))
		a.emit(1, true)
	case n < 920: // the client chats; the server echoes it
		msg := r.pick(chats)
		*c = append(*c, cMessage, 0xff)
		*c = appendPadded(*c, msg)
		a.emit(0, false)
		a.wait(r.between(100, 2000))
		*sv = a.message(*sv, -1, true, "&f", a.me.nameStr(), msg)
		a.emit(1, true)
	case n < 950: // ping
		*sv = append(*sv, cPing)
		a.emit(1, true)
	case n < 980: // the client places or breaks a block; the server confirms
		x, y, z := uint16(a.me.x/32), uint16(a.me.y/32), uint16(a.me.z/32+1)
		mode := byte(r.intn(2))
		blk := byte(r.between(1, 49))
		*c = append(*c, cSetBlockC)
		*c = binary.BigEndian.AppendUint16(*c, x)
		*c = binary.BigEndian.AppendUint16(*c, y)
		*c = binary.BigEndian.AppendUint16(*c, z)
		*c = append(*c, mode, blk)
		a.emit(0, false)
		a.wait(r.between(100, 2000))
		if mode == 0 {
			blk = 0
		}
		*sv = append(*sv, cSetBlockS)
		*sv = binary.BigEndian.AppendUint16(*sv, x)
		*sv = binary.BigEndian.AppendUint16(*sv, y)
		*sv = binary.BigEndian.AppendUint16(*sv, z)
		*sv = append(*sv, blk)
		a.emit(1, true)
	default: // someone leaves or joins
		i := r.intn(len(a.others))
		p := &a.others[i]
		if p.on {
			*sv = append(*sv, cDespawn, byte(i))
			*sv = a.message(*sv, -1, false, "&e", p.nameStr(), "left the game")
			p.on = false
		} else {
			*p = a.newPlayer()
			p.on = true
			*sv = a.spawn(*sv, int8(i), p)
			*sv = a.message(*sv, -1, false, "&e", p.nameStr(), "joined the game")
		}
		a.emit(1, true)
	}
}

// finish completes the level download if it is under way, then ends the
// session.
func (a *classicActor) finish() {
	for a.state < 3 {
		a.step()
		a.g.advance()
	}
	a.state = 4
	a.step()
}

var kickReasons = []string{"Kicked by an operator", "Server shutting down", "You were idle too long"}

package raknet

import (
	"bytes"
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
)

// Lengths of the fixed parts.
const (
	lenPing       = 1 + 8 + 16 + 8           // ID, time, magic, client GUID
	lenPongHeader = 1 + 8 + 8 + 16 + 2       // ID, time, server GUID, magic, string length
	magicAtPing   = 1 + 8                    // where the magic starts in a ping
	magicAtPong   = 1 + 8 + 8                // and in a pong
	minPingShape  = magicAtPing + len(Magic) // enough of a ping to see its magic
	minPongShape  = magicAtPong + len(Magic)
)

// Looks reports whether data is a RakNet unconnected ping or pong, by its
// ID and the offline-message magic at the place the ID puts it, and which
// way it goes (a ping is the client's). The magic is 16 fixed bytes: it
// proves the datagram is RakNet on any port. It reads data only.
func Looks(data []byte) (dissect.Dir, bool) {
	if len(data) == 0 {
		return dissect.DirUnknown, false
	}
	switch data[0] {
	case IDUnconnectedPing, IDUnconnectedPingOpen:
		if len(data) >= minPingShape && [16]byte(data[magicAtPing:minPingShape]) == Magic {
			return dissect.DirC2S, true
		}
	case IDUnconnectedPong:
		if len(data) >= minPongShape && [16]byte(data[magicAtPong:minPongShape]) == Magic {
			return dissect.DirS2C, true
		}
	}
	return dissect.DirUnknown, false
}

// Decode dissects one offline message into p. data is what the capture
// holds, wireLen the datagram's length on the wire. dir is not needed to
// read the message (its ID says which it is) but is kept on p.
//
// p keeps pointers into data: data must outlive p's use.
func Decode(p *dissect.PDU, data []byte, wireLen int, dir dissect.Dir) {
	c := dissect.Begin(p, Registry.Root(), data, wireLen)
	id, ii := c.Uint8(fID)
	var info facts
	switch {
	case ii < 0:
		p.Message = MsgUnknown
	case id == IDUnconnectedPing || id == IDUnconnectedPingOpen:
		p.Message = MsgPing
		if id == IDUnconnectedPingOpen {
			p.Message = MsgPingOpn
		}
		if dir == dissect.DirUnknown {
			dir = dissect.DirC2S
		}
		info.readTime(&c)
		magic(&c)
		info.readGUID(&c, fClientGUID)
		trailing(&c)
	case id == IDUnconnectedPong:
		p.Message = MsgPong
		if dir == dissect.DirUnknown {
			dir = dissect.DirS2C
		}
		info.readTime(&c)
		info.readGUID(&c, fServerGUID)
		magic(&c)
		pong(&c, &info)
		trailing(&c)
	default:
		p.Message = MsgUnknown
		c.Expert(ii, eUnknown, "raknet.id at offset 0: 0x"+strconv.FormatUint(uint64(id), 16)+" is not a ping (0x01, 0x02) or pong (0x1c)")
		if c.Remaining() > 0 {
			c.Take(fPayload, c.Remaining())
		}
	}
	c.Finish()
	p.Dir = dir
	var arr [160]byte
	p.Info = string(info.append(arr[:0], p.Message))
}

// facts is what the Info column says.
type facts struct {
	time, guid     int64
	timeOK, guidOK bool
	pong           bool
	edition, motd  []byte
	online, max    []byte
	version        []byte
}

func (f *facts) readTime(c *dissect.Cursor) {
	var i int32
	f.time, i = c.Int64(fTime)
	f.timeOK = i >= 0
}

func (f *facts) readGUID(c *dissect.Cursor, fd *dissect.Field) {
	var i int32
	f.guid, i = c.Int64(fd)
	f.guidOK = i >= 0
}

func (f *facts) append(b []byte, msg string) []byte {
	b = append(b, msg...)
	if f.timeOK {
		b = append(b, ", time "...)
		b = dissect.AppendInt(b, f.time)
	}
	if f.pong {
		b = append(b, ", "...)
		b = dissect.AppendSafe(b, string(short(f.edition)))
		b = append(b, ' ')
		b = dissect.AppendQuoted(b, string(short(f.motd)))
		if f.online != nil || f.max != nil {
			b = append(b, ", "...)
			b = dissect.AppendSafe(b, string(short(f.online)))
			b = append(b, '/')
			b = dissect.AppendSafe(b, string(short(f.max)))
			b = append(b, " players"...)
		}
		if len(f.version) > 0 {
			b = append(b, ", v"...)
			b = dissect.AppendSafe(b, string(short(f.version)))
		}
	}
	return b
}

// short cuts s to 32 bytes for the Info column.
func short(s []byte) []byte {
	if len(s) > 32 {
		return s[:32]
	}
	return s
}

func magic(c *dissect.Cursor) {
	off := c.Off()
	m, i := c.Take(fMagic, len(Magic))
	if i >= 0 && !bytes.Equal(m, Magic[:]) {
		c.Malformed(i, eMagic, "raknet.magic at offset "+strconv.Itoa(off)+" is not RakNet's offline-message magic")
	}
}

// pong reads the length-prefixed status string and splits it at ';'.
func pong(c *dissect.Cursor, info *facts) {
	n, li := c.Uint16(fStrLen)
	if li < 0 {
		return
	}
	off := c.Off()
	if int(n) > c.Remaining() {
		c.Fail(fServerID, "needs "+strconv.Itoa(int(n))+" bytes, "+strconv.Itoa(c.Remaining())+" left")
		return
	}
	s, si := c.Take(fServerID, int(n))
	if si < 0 {
		return
	}
	info.pong = true
	p := c.P
	k := 0
	// A trailing ';' (servers send one) ends the string without a field.
	for start := 0; start < len(s); k++ {
		end := bytes.IndexByte(s[start:], ';')
		last := end < 0
		if last {
			end = len(s)
		} else {
			end += start
		}
		v := s[start:end:end]
		f := fExtra
		if k < len(pongFields) {
			f = pongFields[k]
		}
		switch f {
		case fEdition:
			info.edition = v
		case fMOTD:
			info.motd = v
		case fVersion:
			info.version = v
		case fOnline:
			info.online = v
		case fMax:
			info.max = v
		}
		// The node covers its ';' too, as a C string's covers its NUL.
		n := end - start
		if !last {
			n++
		}
		i := p.AddNode(si, f, off+start, n, dissect.B(v))
		switch f {
		case fMOTD:
			p.AddPlain(i, fMOTDPlain, v)
		case fEdition:
			if string(v) != "MCPE" && string(v) != "MCEE" {
				p.AddExpert(i, eEdition, "raknet.pong.edition at offset "+strconv.Itoa(off+start)+": "+strconv.Quote(string(short(v)))+", expected MCPE or MCEE")
			}
		case fProtocol, fOnline, fMax, fGamemodeID, fPortV4, fPortV6:
			if len(v) > 0 {
				if u, err := strconv.ParseUint(string(v), 10, 64); err == nil {
					p.AddGenerated(i, fNumber, dissect.U(u), "")
				} else {
					p.AddExpert(i, eNumber, f.Name+" at offset "+strconv.Itoa(off+start)+": "+strconv.Quote(string(short(v)))+" is not a decimal number")
				}
			}
		}
		start = end + 1
	}
	if k < 6 {
		p.AddExpert(si, eFields, "raknet.server_id at offset "+strconv.Itoa(off)+" has "+strconv.Itoa(k)+" fields; Bedrock servers send 12 (6 at least)")
	}
}

// trailing accounts for bytes after the end of a message.
func trailing(c *dissect.Cursor) {
	if c.Failed() || c.Remaining() == 0 {
		return
	}
	off, n := c.Off(), c.Remaining()
	_, i := c.Take(fTrailing, n)
	c.Expert(i, eTrailing, strconv.Itoa(n)+" bytes after the end of the message at offset "+strconv.Itoa(off))
}

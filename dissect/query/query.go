package query

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"unicode/utf8"

	"github.com/mcdissect/mcdissect/dissect"
)

// Request lengths: the two stat requests differ only by the 4 padding bytes.
const (
	lenHandshakeRequest = 7
	lenBasicRequest     = 11
	lenFullRequest      = 15
)

const sessionMask = 0x0F0F0F0F

var splitHeader = []byte("splitnum\x00\x80\x00")

// Decode dissects one Query datagram into p. data is what the capture holds,
// wireLen the datagram's length on the wire (> len(data) when the snap length
// cut it). dir says who sent it; with DirUnknown the shape decides: requests
// start FE FD, responses never do (no response type is 0xFE).
//
// p keeps pointers into data: data must outlive p's use.
func Decode(p *dissect.PDU, data []byte, wireLen int, dir dissect.Dir) {
	if dir == dissect.DirUnknown {
		dir = dissect.DirS2C
		if len(data) > 0 && data[0] == 0xFE {
			dir = dissect.DirC2S
		}
	}
	c := dissect.Begin(p, Registry.Root(), data, wireLen)
	p.Dir = dir
	p.Annotate(0, func() { reserveNodes(p, data, dir) }) // a tree's room: none in a Lite PDU
	var info infoFacts
	if dir == dissect.DirC2S {
		decodeRequest(&c, &info)
	} else {
		decodeResponse(&c, &info)
	}
	c.Finish()
	var arr [160]byte
	p.SetInfo(info.append(arr[:0], p.Message))
}

// reserveNodes makes room for a full stat's tree in one step: grown node
// by node from a small or new PDU, the slice was reallocated up to eight
// times. A full stat has about one node per string (per NUL) plus a few.
// Other messages have 16 nodes or fewer, which a pooled PDU mostly has
// room for already. The estimate is capped, so a hostile datagram of NULs
// reserves no more than a real reply needs.
func reserveNodes(p *dissect.PDU, data []byte, dir dissect.Dir) {
	if dir != dissect.DirS2C || len(data) <= 5 || data[0] != TypeStat || statKind(data[5:], p.Cut()) != kindFull {
		return
	}
	p.Reserve(min(bytes.Count(data[5:], []byte{0})+32, 1024))
}

// infoFacts collects what the Info column says; Decode formats it at the
// end into a buffer on its stack (decoders do not append to it themselves:
// a buffer reached through a pointer would escape to the heap), so the Info
// string is the one allocation, and a Lite PDU's none (PDU.SetInfo).
type infoFacts struct {
	sess, tok, listed, motd bool
	session                 uint32
	token                   int32
	np, mx, nListed         uint64
	npOK, mxOK, players     bool
	motdText                []byte
}

func (f *infoFacts) setSession(v uint32) { f.sess, f.session = true, v }
func (f *infoFacts) setToken(v int32)    { f.tok, f.token = true, v }
func (f *infoFacts) setPlayers(np uint64, npOK bool, mx uint64, mxOK bool) {
	f.players, f.np, f.npOK, f.mx, f.mxOK = true, np, npOK, mx, mxOK
}

// append formats the Info column: "Full Stat Response, session 0x00000001,
// 2/20 players, "A Minecraft Server"".
func (f *infoFacts) append(b []byte, msg string) []byte {
	b = append(b, msg...)
	if f.sess {
		b = append(b, ", session 0x"...)
		for sh := 28; sh >= 0; sh -= 4 {
			b = append(b, "0123456789abcdef"[(f.session>>uint(sh))&15])
		}
	}
	if f.tok {
		b = append(b, ", token "...)
		b = dissect.AppendInt(b, int64(f.token))
	}
	if f.players {
		b = append(b, ", "...)
		b = appendCount(b, f.np, f.npOK)
		b = append(b, '/')
		b = appendCount(b, f.mx, f.mxOK)
		b = append(b, " players"...)
	}
	if f.listed {
		b = append(b, " ("...)
		b = dissect.AppendUint(b, f.nListed)
		b = append(b, " listed)"...)
	}
	if f.motd {
		b = append(b, ", "...)
		b = appendShort(b, f.motdText)
	}
	return b
}

func appendCount(b []byte, v uint64, ok bool) []byte {
	if !ok {
		return append(b, '?')
	}
	return dissect.AppendUint(b, v)
}

// appendShort appends s quoted and escaped, cut at 32 bytes on a rune
// boundary: the Info column stays one short line (and the conversion to
// string below stays on the stack).
func appendShort(b, s []byte) []byte {
	const max = 32
	cut := false
	if len(s) > max {
		n := max
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s, cut = s[:n], true
	}
	b = dissect.AppendQuoted(b, string(s)) // the conversion does not escape: AppendQuoted only reads it
	if cut {
		b = append(b, "…"...)
	}
	return b
}

func decodeRequest(c *dissect.Cursor, info *infoFacts) {
	p := c.P
	magic, mi := c.Uint16(fMagic)
	if mi >= 0 && magic != 0xFEFD {
		c.Malformed(mi, eMagic, "query.magic at offset 0: saw "+hex2(p.Data[0:2])+", expected fe fd")
	}
	typ, ti := c.Uint8(fType)
	session(c, info)
	if ti < 0 {
		p.Message = MsgUnknownRequest
		return
	}
	switch typ {
	case TypeHandshake:
		p.Message = MsgHandshakeRequest
		if p.WireLen != lenHandshakeRequest && !c.Failed() {
			c.Expert(ti, eReqLength, "handshake request of "+strconv.Itoa(p.WireLen)+" bytes, expected 7")
		}
	case TypeStat:
		switch p.WireLen {
		case lenBasicRequest:
			p.Message = MsgBasicStatRequest
		case lenFullRequest:
			p.Message = MsgFullStatRequest
		default:
			p.Message = MsgStatRequest
		}
		tok, tki := c.Int32(fToken)
		if tki >= 0 {
			info.setToken(tok)
		}
		if p.WireLen > lenBasicRequest {
			// Padding is 4 bytes, or what a short request has of it.
			pad, pi := c.Take(fPadding, min(p.WireLen, lenFullRequest)-lenBasicRequest)
			if pi >= 0 && len(pad) == 4 && binary.BigEndian.Uint32(pad) != 0 {
				c.Expert(pi, ePadding, "query.padding at offset 11: "+hex2(pad)+", the documents send 00 00 00 00")
			}
		}
		if p.Message == MsgStatRequest {
			c.Expert(ti, eReqLength, "stat request of "+strconv.Itoa(p.WireLen)+" bytes: basic is 11, full is 15 (vanilla answers any length but 15 with the basic stat)")
		}
	default:
		p.Message = MsgUnknownRequest
		c.Expert(ti, eTypeUnknown, "query.type at offset 2: "+strconv.Itoa(int(typ))+", expected 9 (handshake) or 0 (stat)")
		if c.Remaining() > 0 {
			c.Take(fPayload, c.Remaining())
		}
	}
	trailing(c)
}

// session reads the session ID, adds its masked value and flags bits the
// server ignores.
func session(c *dissect.Cursor, info *infoFacts) uint32 {
	off := c.Off()
	v, i := c.Uint32(fSession)
	if i < 0 {
		return 0
	}
	info.setSession(v)
	c.P.AddGenerated(i, fSessionMask, dissect.U(uint64(v&sessionMask)), "")
	if v&^sessionMask != 0 {
		c.Expert(i, eSessionBits, "query.session_id at offset "+strconv.Itoa(off)+": 0x"+hex32(v)+" has bits outside 0x0F0F0F0F set (0x"+hex32(v&^sessionMask)+"); the server uses 0x"+hex32(v&sessionMask))
	}
	return v
}

// trailing accounts for bytes after the end of a message.
func trailing(c *dissect.Cursor) {
	if c.Failed() {
		return
	}
	if c.Remaining() == 0 {
		if c.P.Cut() {
			// The message looks complete but the capture lost bytes after
			// it: say so rather than drop them silently.
			c.Fail(fTrailing, strconv.Itoa(c.P.WireLen-len(c.P.Data))+" bytes on the wire after the end of the message were not captured")
		}
		return
	}
	off, n := c.Off(), c.Remaining()
	if c.P.Cut() {
		c.Fail(fTrailing, strconv.Itoa(n)+" bytes after the end of the message, and "+strconv.Itoa(c.P.WireLen-len(c.P.Data))+" more on the wire that were not captured")
		return
	}
	b, i := c.Take(fTrailing, n)
	c.Expert(i, eTrailing, strconv.Itoa(n)+" bytes after the end of the message at offset "+strconv.Itoa(off)+": "+hex2(b))
}

func decodeResponse(c *dissect.Cursor, info *infoFacts) {
	p := c.P
	typ, ti := c.Uint8(fType)
	session(c, info)
	if ti < 0 {
		p.Message = MsgUnknownResponse
		return
	}
	switch typ {
	case TypeHandshake:
		p.Message = MsgHandshakeResponse
		handshakeResponse(c, info)
	case TypeStat:
		if c.Failed() {
			p.Message = MsgStatResponse
			return
		}
		switch statKind(p.Data[c.Off():], p.Cut()) {
		case kindFull:
			p.Message = MsgFullStatResponse
			fullStat(c, info)
		case kindBasic:
			p.Message = MsgBasicStatResponse
			basicStat(c, info)
		default:
			p.Message = MsgStatResponse
			c.Fail(fPayload, "no payload: a stat response carries the basic or the full stat")
		}
	default:
		p.Message = MsgUnknownResponse
		c.Expert(ti, eTypeUnknown, "query.type at offset 0: "+strconv.Itoa(int(typ))+", expected 9 (handshake) or 0 (stat)")
		if c.Remaining() > 0 {
			c.Take(fPayload, c.Remaining())
		}
	}
	trailing(c)
}

func handshakeResponse(c *dissect.Cursor, info *infoFacts) {
	off := c.Off()
	s, si := c.CString(fTokenString)
	if si < 0 {
		return
	}
	v, ok, inRange := parseToken(s)
	switch {
	case !ok:
		c.Malformed(si, eTokenInvalid, "query.token_string at offset "+strconv.Itoa(off)+": "+quote(s)+" is not a decimal number")
		return
	case !inRange:
		c.Expert(si, eTokenRange, "query.token_string at offset "+strconv.Itoa(off)+": "+quote(s)+" does not fit a signed 32-bit integer; clients that pack it as int32 send "+strconv.FormatInt(int64(int32(v)), 10))
	}
	t := int32(v)
	info.setToken(t)
	c.P.AddGeneratedFunc(si, fToken, func() (dissect.Value, string) { return dissect.I(int64(t)), tokenText(t) })
}

// tokenText is the generated query.token node's text: the token and the
// bytes a client sends it back as.
func tokenText(t int32) string {
	var arr [64]byte
	txt := dissect.AppendInt(arr[:0], int64(t))
	txt = append(txt, " (sent back big-endian as "...)
	for k := 24; k >= 0; k -= 8 {
		x := byte(uint32(t) >> uint(k))
		txt = append(txt, "0123456789abcdef"[x>>4], "0123456789abcdef"[x&15])
		if k > 0 {
			txt = append(txt, ' ')
		}
	}
	txt = append(txt, ')')
	return string(txt)
}

// handshakeToken is the challenge token of handshake response p, as
// handshakeResponse reads it (the generated query.token node), taken from
// the bytes so that it does not depend on the tree: Lite mode has none.
func handshakeToken(p *dissect.PDU) (int32, bool) {
	if len(p.Data) < 5 || p.Data[0] != TypeHandshake {
		return 0, false
	}
	s := p.Data[5:]
	n := bytes.IndexByte(s, 0)
	if n < 0 {
		return 0, false
	}
	v, ok, _ := parseToken(s[:n])
	return int32(v), ok
}

// parseToken parses an optionally signed decimal of at most 19 digits.
func parseToken(s []byte) (v int64, ok, inRange bool) {
	neg := false
	if len(s) > 0 && s[0] == '-' {
		neg, s = true, s[1:]
	}
	if len(s) == 0 || len(s) > 18 {
		return 0, false, false
	}
	for _, ch := range s {
		if ch < '0' || ch > '9' {
			return 0, false, false
		}
		v = v*10 + int64(ch-'0')
	}
	if neg {
		v = -v
	}
	return v, true, v >= -1<<31 && v < 1<<31
}

// parseUint parses a decimal of at most 10 digits, no sign.
func parseUint(s []byte) (uint64, bool) {
	if len(s) == 0 || len(s) > 10 {
		return 0, false
	}
	var v uint64
	for _, ch := range s {
		if ch < '0' || ch > '9' {
			return 0, false
		}
		v = v*10 + uint64(ch-'0')
	}
	return v, true
}

type statKindT uint8

const (
	kindNone statKindT = iota
	kindBasic
	kindFull
)

// statKind tells a basic from a full stat response by its payload, since the
// response alone does not say which request it answers. A full stat starts
// with the GameSpy3 split header: "splitnum\0" (Geyser: "GeyserMC\0"), then a
// packet-number byte with the 0x80 "last packet" bit set, then 00. A basic
// stat starts with the MOTD, then "SMP\0" (or another game type): a second
// byte after the first NUL that is 0x80 or more followed by 00 would need a
// one-byte non-ASCII game type, which no server sends.
func statKind(pl []byte, cut bool) statKindT {
	if len(pl) == 0 {
		return kindNone
	}
	if bytes.HasPrefix(pl, splitHeader[:9]) {
		return kindFull
	}
	if cut && len(pl) < 9 && bytes.HasPrefix(splitHeader, pl) {
		return kindFull
	}
	if n := bytes.IndexByte(pl, 0); n > 0 && n+2 < len(pl) && pl[n+1]&0x80 != 0 && pl[n+2] == 0 {
		return kindFull
	}
	return kindBasic
}

func basicStat(c *dissect.Cursor, info *infoFacts) {
	p := c.P
	start := c.Off()
	pl := p.Data[start:]
	// The MOTD ends at its first NUL, unless what follows does not have the
	// basic stat's shape and a later NUL gives it: then the MOTD holds NUL
	// bytes (MC-221987, MC-231035) and a naive parser reads every later field
	// shifted. See motdEnd.
	end, nuls := motdEnd(pl)
	var motd []byte
	mi := int32(-1)
	if end >= 0 {
		motd = pl[:end]
		mi = c.Field(fMOTD, end+1, dissect.B(motd))
		if nuls > 0 {
			c.Expert(mi, eMOTDNul, "query.motd at offset "+strconv.Itoa(start)+" holds "+nulBytes(nuls)+"; only with them in the MOTD do the fields after it have the basic stat's shape (naive parsers shift every field)")
		}
		control(c, mi, motd)
	} else {
		motd, mi = c.CString(fMOTD)
	}
	p.AddPlain(mi, fMOTDPlain, motd)
	gt, gi := c.CString(fGametype)
	control(c, gi, gt)
	mp, mpi := c.CString(fMap)
	control(c, mpi, mp)
	np, npOK := number(c, fNumPlayers, fNumPlayersVal)
	mx, mxOK := number(c, fMaxPlayers, fMaxPlayersVal)
	c.Uint16LE(fHostPort)
	hip, hi := c.CString(fHostIP)
	control(c, hi, hip)
	if mi >= 0 {
		info.setPlayers(np, npOK, mx, mxOK)
		info.motd, info.motdText = true, motd
	}
	if !c.Failed() && c.Remaining() > 0 && len(hip) == 0 && allZero(p.Data[c.Off():]) {
		// msh writes the port, an extra 00, then hostip: with an empty
		// hostip the extra byte shows up here.
		off, n := c.Off(), c.Remaining()
		b, i := c.Take(fTrailing, n)
		c.Expert(i, eTrailing, strconv.Itoa(n)+" bytes after hostip at offset "+strconv.Itoa(off)+": "+hex2(b)+" (msh writes an extra 00 after hostport, so its empty hostip ends one byte early)")
	}
}

// motdEnd finds where the basic stat's MOTD ends: the first NUL whose rest
// has the basic stat's shape (basicShape). It tries at most 64 NULs so a
// hostile datagram of NULs costs linear time. It returns -1 if no NUL gives
// the shape (the caller then reads the MOTD up to its first NUL and lets the
// fields after it show what went wrong), and how many NULs the MOTD holds.
func motdEnd(pl []byte) (end, nuls int) {
	first := bytes.IndexByte(pl, 0)
	if first < 0 {
		return -1, 0
	}
	if basicShape(pl[first+1:], false) {
		return first, 0
	}
	for i, n := first, 0; n < 64; n++ {
		j := bytes.IndexByte(pl[i+1:], 0)
		if j < 0 {
			break
		}
		i += 1 + j
		if basicShape(pl[i+1:], false) {
			return i, bytes.Count(pl[:i], []byte{0})
		}
	}
	return first, 0
}

// basicShape reports whether b, the bytes after the MOTD's NUL, read as
// gametype, map, numplayers and maxplayers (two decimal numbers), a 2-byte
// port and a NUL-terminated hostip. strict also requires the hostip to end
// the datagram, bar one extra 00 (msh).
func basicShape(b []byte, strict bool) bool {
	for i := 0; i < 4; i++ {
		n := bytes.IndexByte(b, 0)
		if n < 0 {
			return false
		}
		if i >= 2 {
			if _, ok := parseUint(b[:n]); !ok {
				return false
			}
		}
		b = b[n+1:]
	}
	if len(b) < 3 {
		return false
	}
	b = b[2:]
	n := bytes.IndexByte(b, 0)
	if n < 0 {
		return false
	}
	rest := b[n+1:]
	return !strict || len(rest) == 0 || len(rest) == 1 && rest[0] == 0
}

// number reads a NUL-terminated decimal as f, with its parsed value as a
// generated child fv.
func number(c *dissect.Cursor, f, fv *dissect.Field) (uint64, bool) {
	off := c.Off()
	s, i := c.CString(f)
	if i < 0 {
		return 0, false
	}
	return numberValue(c, i, fv, s, off, f.Name, 0)
}

// numberValue parses s, the text of node i, as a decimal at most limit (0:
// no limit) and adds it as a generated child fv, or flags it.
func numberValue(c *dissect.Cursor, i int32, fv *dissect.Field, s []byte, off int, name string, limit uint64) (uint64, bool) {
	v, ok := parseUint(s)
	if ok && limit > 0 && v > limit {
		c.Expert(i, eNumber, name+" at offset "+strconv.Itoa(off)+": "+quote(s)+" is above "+strconv.FormatUint(limit, 10))
		return v, false
	}
	if !ok {
		c.Expert(i, eNumber, name+" at offset "+strconv.Itoa(off)+": "+quote(s)+" is not a decimal number")
		return 0, false
	}
	c.P.AddGenerated(i, fv, dissect.U(v), "")
	return v, true
}

// control flags a string holding C0 control characters or DEL (terminal
// escape codes): renderers escape them, the note says why they look odd.
func control(c *dissect.Cursor, i int32, s []byte) {
	c.P.ExpertFunc(i, eControl, func() string {
		for k, ch := range s {
			if ch < 0x20 && ch != 0 || ch == 0x7f {
				n := &c.P.Nodes[i]
				return n.Name() + " at offset " + strconv.Itoa(int(n.Offset)) + " holds control character 0x" + hex2(s[k:k+1]) + " at byte " + strconv.Itoa(k) + " (a terminal escape code?); shown escaped"
			}
		}
		return ""
	})
}

func allZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

// hex2 formats bytes as "fe fd": at most 32 bytes, then "…".
func hex2(b []byte) string {
	const digits = "0123456789abcdef"
	n := min(len(b), 32)
	out := make([]byte, 0, 3*n+3)
	for k := 0; k < n; k++ {
		if k > 0 {
			out = append(out, ' ')
		}
		out = append(out, digits[b[k]>>4], digits[b[k]&15])
	}
	if n < len(b) {
		out = append(out, "…"...)
	}
	if len(out) == 0 {
		return "<empty>"
	}
	return string(out)
}

func hex32(v uint32) string {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], v)
	const digits = "0123456789abcdef"
	out := make([]byte, 8)
	for k := range b {
		out[2*k], out[2*k+1] = digits[b[k]>>4], digits[b[k]&15]
	}
	return string(out)
}

// quote shows wire text in an expert message, escaped and quoted.
func quote(s []byte) string {
	if len(s) > 64 {
		return string(dissect.AppendQuoted(nil, string(s[:64]))) + "…"
	}
	return string(dissect.AppendQuoted(nil, string(s)))
}

func nulBytes(n int) string {
	if n == 1 {
		return "1 NUL byte"
	}
	return strconv.Itoa(n) + " NUL bytes"
}

package slp

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/inflate"
)

// Packet names per phase and direction, indexed by packet ID.
var (
	namesHandshakeC2S = []string{"Handshake"}
	namesStatusC2S    = []string{"Status Request", "Ping Request"}
	namesStatusS2C    = []string{"Status Response", "Pong Response"}
	namesLoginC2S     = []string{"Login Start", "Encryption Response", "Login Plugin Response", "Login Acknowledged", "Cookie Response"}
	namesLoginS2C     = []string{"Disconnect (login)", "Encryption Request", "Login Success", "Set Compression", "Login Plugin Request", "Cookie Request"}
)

const playName = "Configuration/Play packet"

// idTexts caches "Name (0x00)" for every named packet.
var idTexts = map[string]string{}

func init() {
	for _, t := range [][]string{namesHandshakeC2S, namesStatusC2S, namesStatusS2C, namesLoginC2S, namesLoginS2C} {
		for id, n := range t {
			idTexts[n] = n + " (" + hexByte(byte(id)) + ")"
		}
	}
}

func packetNames(phase uint8, i int) []string {
	switch {
	case phase == phHandshake && i == 0:
		return namesHandshakeC2S
	case phase == phStatus && i == 0:
		return namesStatusC2S
	case phase == phStatus:
		return namesStatusS2C
	case phase == phLogin && i == 0:
		return namesLoginC2S
	case phase == phLogin:
		return namesLoginS2C
	}
	return nil
}

// Limits of strings, in UTF-16 characters as the protocol counts them.
const (
	maxStatusChars  = 32767
	maxAddressChars = 255
	maxNameChars    = 16
	maxServerID     = 20
	maxIdentifier   = 32767
)

// Decode dissects one PDU that Frame delimited, in capture order, and
// updates the connection's state: p gets the tree, p.Message, p.Info and
// p.Dir (m.Dir). Requests (status request, ping, legacy ping) are marked
// Pending until their response links them (slp.response_in); see Close.
func (c *Conn) Decode(p *dissect.PDU, data []byte, m dissect.Meta) {
	c.DecodeCut(p, data, len(data), m)
}

// DecodeCut is Decode for a PDU the capture cut: wireLen is its length on
// the wire (the length Frame asked for), data the bytes there are. Reads
// past the end of data are Truncated, not Malformed.
func (c *Conn) DecodeCut(p *dissect.PDU, data []byte, wireLen int, m dissect.Meta) {
	c.decoder()
	cur := dissect.Begin(p, Registry.Root(), data, wireLen)
	p.Dir = m.Dir
	i := di(m.Dir)
	t := &c.dec
	k := kModern
	if t.isLegacy(i, data) {
		k = c.legacyKind(i, data)
	}
	if k == kModern && i == 0 && !t.hsSeen && t.legacy != 1 && t.d[0].phase == phHandshake {
		// The handshake was not captured: a status request or ping is read
		// in the status state, as the framer's resync reads it.
		if n, pr := t.probe(0, data); pr == prWeak && n == len(data) {
			t.d[0].phase, t.d[1].phase = phStatus, phStatus
		}
	}
	if c.opts.Version != "" && !t.hsSeen && !t.d[i].started && t.legacy != 1 && len(data) > 0 && !t.mid[i] && (i == 1 || Detect(data) == DetectNo) {
		// a session picked up mid-way whose version the user named
		t.midway(i)
		t.d[i].compress = guessCompressed(data)
	}
	d := t.d[i] // the state before this PDU
	var l link
	var plain []byte // the decrypted PDU
	switch {
	case len(data) == 0:
		p.Message, p.Info = "Empty", "Empty PDU"
		if p.Cut() {
			cur.Fail(FieldLength, "the capture holds none of the PDU's "+strconv.Itoa(wireLen)+" bytes")
		}
	case d.enc && d.cfb != nil:
		// decrypted with the key log: the plaintext is laid after the
		// ciphertext and dissected as a plain session's bytes
		plain = make([]byte, len(data))
		t.d[i].cfb.decrypt(plain, data)
		cur.Field(FieldEncrypted, len(data), dissect.B(data))
		cur.Derive(FieldDecrypted, plain)
		p.AddGenerated(cur.Parent(), FieldSecretHow, dissect.S(t.secretHow), "")
		p.AddGeneratedFunc(cur.Parent(), FieldSecret, func() (dissect.Value, string) { return dissect.S(hex.EncodeToString(t.secret)), "" })
		l = c.modern(&cur, &d, i, m)
		cur.Close()
	case d.enc:
		p.Message = "Encrypted data"
		p.Info = "Encrypted data, " + strconv.Itoa(len(data)) + " bytes"
		_, n := cur.Take(FieldData, wireLen)
		if !c.encNoted && n >= 0 {
			c.encNoted = true
			cur.Expert(n, ExpertNoKey, "encrypted: not dissected"+t.keyHint())
		}
	case k != kModern:
		l = c.legacy(&cur, k)
	default:
		l = c.modern(&cur, &d, i, m)
	}
	if c.liteCut >= 0 {
		// the summary's walk of an inflated head stopped where the head
		// ends, which says nothing of the packet
		p.Experts = p.Experts[:c.liteCut]
		c.liteCut = -1
	}
	cur.Finish()
	if plain != nil {
		data = plain
	}
	if wireLen > len(data) {
		// a PDU cut by the capture's end or a gap: say so where it is listed
		p.Info += " [cut: " + strconv.Itoa(len(data)) + " of " + strconv.Itoa(wireLen) + " bytes]"
	}
	c.link(&cur, l, m)
	t.advance(i, k, data)
	// The buffers go back after every PDU, not at Close: a long login or
	// play connection with compression kept a zlib reader and a 32 KiB
	// buffer (some 80 KB) for its whole life, and on bench/realmix's 1 GB
	// capture those were a sixth of the summary's live heap, which the
	// collector scans again and again under the soft memory limit.
	c.giveBack()
}

// link is what to do once a PDU's tree is finished: hold a request until
// its response, or link a response to its request. It is a value rather
// than a closure so that decoding a PDU allocates nothing for it.
type link struct {
	op   linkOp
	v    uint64 // ping payload
	vOff int    // offset of the ping payload
	vi   int32  // its node
}

type linkOp uint8

const (
	linkNone linkOp = iota
	linkHoldStatus
	linkAnswerStatus
	linkHoldPing
	linkAnswerPing
	linkHoldLegacy
	linkAnswerLegacy
	linkHoldLogin // Login Start: the server's first login packet answers it
	linkAnswerLogin
)

func (c *Conn) link(cur *dissect.Cursor, l link, m dissect.Meta) {
	p := cur.P
	switch l.op {
	case linkHoldStatus:
		if !cur.Failed() {
			c.statusAsked = true
			if c.answerEarly(p, m) {
				break
			}
			c.statusReq.End(dissect.End{}, &statusOutcomes, c.Later) // a second request: the first is no longer waited for
			c.statusReq.Hold(p, m, kindStatus)
		}
	case linkAnswerStatus:
		if c.statusReq.P == p {
			c.statusReq = dissect.Wait{}
		}
		if !c.statusReq.Answer(p, m, &statusOutcomes, c.Later) {
			c.holdEarly(p, m)
		}
	case linkHoldPing:
		c.holdPing(p, m, l.v)
	case linkAnswerPing:
		c.answerPing(p, m, l)
	case linkHoldLegacy:
		if !cur.Failed() {
			c.legacyReq.End(dissect.End{}, &statusOutcomes, c.Later)
			c.legacyReq.Hold(p, m, kindLegacy)
		}
	case linkAnswerLegacy:
		if c.legacyReq.P == p {
			c.legacyReq = dissect.Wait{}
		}
		c.legacyReq.Answer(p, m, &statusOutcomes, c.Later)
	case linkHoldLogin:
		if !cur.Failed() {
			c.loginReq.End(dissect.End{}, &loginOutcomes, c.Later)
			c.loginReq.Hold(p, m, kindLogin)
		}
	case linkAnswerLogin:
		c.loginReq.Answer(p, m, &loginOutcomes, c.Later)
	}
}

func (c *Conn) legacyKind(i int, b []byte) kind {
	switch {
	case i == 0 && len(b) > 0 && b[0] == 0xFE:
		return kLegacyPing
	case i == 0 && len(b) > 0 && b[0] == 0xFA:
		return kLegacyPlug
	case i == 1 && len(b) > 0 && b[0] == 0xFF:
		return kLegacyKick
	}
	return kLegacyExtra
}

// appendVarIntLength shows a frame's VarInt length with its size on the
// wire, "516 (2-byte VarInt)", when a tree is printed (not per packet).
func appendVarIntLength(b []byte, n *dissect.Node) []byte {
	b = dissect.AppendUint(b, n.Value.N)
	b = append(b, " ("...)
	b = dissect.AppendInt(b, int64(n.Length))
	return append(b, "-byte VarInt)"...)
}

func init() {
	FieldLength.Custom = appendVarIntLength
	FieldDataLength.Custom = appendVarIntLength
}

// modern dissects a VarInt-framed packet. d is the direction's state
// before it. It returns what to do after the tree is finished (links).
func (c *Conn) modern(cur *dissect.Cursor, d *dirState, i int, m dissect.Meta) link {
	p := cur.P
	t := &c.dec
	length, li, ok := varInt(cur, FieldLength)
	if !ok {
		p.Message, p.Info = headerFailed(cur, "packet length")
		return link{}
	}
	if want := p.WireLen - cur.Off(); int(length) != want {
		cur.Malformed(li, ExpertLengthMismatch, "slp.length at offset 0: says "+strconv.FormatInt(int64(length), 10)+" bytes follow, the PDU has "+strconv.Itoa(want))
	}
	if length == 0 {
		cur.Malformed(li, ExpertEmptyPacket, "slp.length at offset 0: 0, so there is no packet ID")
		p.Message, p.Info = "Empty packet", "Empty packet (length 0)"
		return link{}
	}
	phase := d.phase
	if d.compress {
		off := cur.Off()
		dl, dli, ok := varInt(cur, FieldDataLength)
		if !ok {
			p.Message, p.Info = headerFailed(cur, "data length")
			return link{}
		}
		if dl != 0 {
			if !c.compressed(cur, dli, off, dl, phase, i) {
				return link{}
			}
			dli = -1 // the cursor is in the inflated packet
		}
		p.SetText(dli, "0 (not compressed)")
	}
	idOff := cur.Off()
	id, idi, ok := varInt(cur, FieldPacketID)
	if !ok {
		p.Message, p.Info = headerFailed(cur, "packet ID")
		return link{}
	}
	guessed := false
	if !t.hsSeen && phase == phStatus {
		guessed = true
		cur.Expert(idi, ExpertStateGuessed, "slp.packet_id at offset "+strconv.Itoa(idOff)+": no handshake seen on this connection, read as a status packet")
		p.AddGenerated(0, FieldStateGuessed, dissect.S("Status"), "")
	}
	names := packetNames(phase, i)
	if phase == phPlay {
		c.javaBody(cur, i, id, idi)
		return link{}
	}
	if id < 0 || int(id) >= len(names) || (phase == phLogin && !loginIDExists(i, id, t.proto)) {
		p.Message = "Unknown packet"
		p.Nodes[idi].Text = "Unknown (" + strconv.FormatInt(int64(id), 10) + ")"
		p.Info = "Unknown packet " + strconv.FormatInt(int64(id), 10) + " in " + phaseName(phase) + " state"
		cur.Malformed(idi, ExpertUnknownID, "slp.packet_id at offset "+strconv.Itoa(idOff)+": "+strconv.FormatInt(int64(id), 10)+" is not a "+dirName(i)+" packet of the "+phaseName(phase)+" state")
		if r := rest(cur); r > 0 {
			cur.Take(FieldData, r)
		}
		return link{}
	}
	name := names[id]
	p.Message, p.Info = name, name
	p.SetTextFunc(idi, func() string { return idTexts[name] })
	switch phase {
	case phHandshake:
		c.handshake(cur, m)
	case phStatus:
		return c.status(cur, i, id, guessed)
	case phLogin:
		c.login(cur, i, id)
		switch {
		case i == 0 && id == 0:
			return link{op: linkHoldLogin}
		case i == 1:
			return link{op: linkAnswerLogin}
		}
	}
	return link{}
}

// headerFailed names a frame whose header did not read: cut short by the
// capture when the bytes ran out before the PDU's end, else malformed.
func headerFailed(cur *dissect.Cursor, what string) (msg, info string) {
	if cur.P.Cut() {
		return "Cut packet", "Packet cut before its " + what
	}
	return "Malformed packet", "Malformed " + what
}

func loginIDExists(i int, id, proto int32) bool {
	if proto == 0 {
		return true
	}
	switch {
	case i == 0 && id == 2, i == 1 && id == 4: // login plugin messages: 1.13+
		return proto >= 393
	case i == 0 && id == 3: // Login Acknowledged: 1.20.2+
		return proto >= 764
	case i == 0 && id == 4, i == 1 && id == 5: // cookies: 1.20.5+
		return proto >= 766
	case i == 1 && id == 3: // Set Compression: 1.8+
		return proto >= 47
	}
	return true
}

func phaseName(ph uint8) string {
	switch ph {
	case phHandshake:
		return "handshaking"
	case phStatus:
		return "status"
	case phLogin:
		return "login"
	}
	return "configuration/play"
}

func dirName(i int) string {
	if i == 0 {
		return "client-to-server"
	}
	return "server-to-client"
}

// rest is how many bytes of the PDU, on the wire, follow the cursor: a
// "rest of the packet" field read with it fails as truncated when the
// capture cut the PDU.
func rest(cur *dissect.Cursor) int { return cur.Rest() }

// str reads a protocol string (VarInt length in bytes, UTF-8) of at most
// maxChars UTF-16 characters; the length gets lf.
func str(cur *dissect.Cursor, lf, f *dissect.Field, maxChars int) ([]byte, int32) {
	off := cur.Off()
	n, li, ok := varInt(cur, lf)
	if !ok {
		return nil, -1
	}
	if n < 0 {
		cur.Malformed(li, dissect.ExpertMalformed, lf.Name+" at offset "+strconv.Itoa(off)+": negative length "+strconv.FormatInt(int64(n), 10))
		cur.Invalid(f, "no string after a negative length")
		return nil, -1
	}
	so := cur.Off()
	b, si := cur.Take(f, int(n))
	if si < 0 {
		return nil, -1
	}
	checkString(cur, si, so, f, b, maxChars)
	return b, si
}

// checkString flags invalid UTF-8 and strings over their maximum; so is
// the string's offset.
func checkString(cur *dissect.Cursor, si int32, so int, f *dissect.Field, b []byte, maxChars int) {
	if !utf8.Valid(b) {
		cur.Expert(si, ExpertStringUTF8, f.Name+" at offset "+strconv.Itoa(so)+": not valid UTF-8")
	}
	if len(b) > maxChars {
		if n := utf16Len(b); n > maxChars {
			cur.Expert(si, ExpertStringTooLong, f.Name+" at offset "+strconv.Itoa(so)+": "+strconv.Itoa(n)+" characters, the protocol allows "+strconv.Itoa(maxChars))
		}
	}
}

// utf16Len counts b's UTF-16 code units, as Java's String.length does.
func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r >= 0x10000 {
			n++
		}
		n++
		b = b[size:]
	}
	return n
}

// Forge markers appended to the handshake's address.
var forgeMarkers = []string{"\x00FML\x00", "\x00FML2\x00", "\x00FML3\x00", "\x00FORGE"}

func (c *Conn) handshake(cur *dissect.Cursor, m dissect.Meta) {
	p := cur.P
	pv, pvi, _ := varInt(cur, FieldHsProtocol)
	p.SetTextFunc(pvi, func() string {
		if s := protocolText(int64(pv)); s != "" || pv >= -1 {
			return s
		}
		return strconv.FormatInt(int64(pv), 10) + " (Unknown (" + strconv.FormatInt(int64(pv), 10) + "))"
	})
	off := cur.Off()
	al, ali, ok := varInt(cur, FieldHsAddrLen)
	if !ok {
		return
	}
	if al < 0 {
		cur.Malformed(ali, dissect.ExpertMalformed, "slp.handshake.address_length at offset "+strconv.Itoa(off)+": negative length "+strconv.FormatInt(int64(al), 10))
		cur.Invalid(FieldHsAddress, "no address after a negative length")
		return
	}
	raw := cur.Peek(int(al))
	if len(raw) < int(al) {
		cur.Take(FieldHsAddress, int(al)) // fails: cut short
		return
	}
	addrOff := cur.Off()
	host := raw
	rest := raw[:0]
	if z := bytes.IndexByte(raw, 0); z >= 0 {
		host, rest = raw[:z], raw[z:]
	}
	hi := cur.Field(FieldHsAddress, len(host), dissect.B(host))
	if !utf8.Valid(raw) {
		cur.Expert(hi, ExpertStringUTF8, "slp.handshake.server_address at offset "+strconv.Itoa(addrOff)+": not valid UTF-8")
	}
	if len(raw) > maxAddressChars {
		if n := utf16Len(raw); n > maxAddressChars {
			cur.Expert(hi, ExpertAddrTooLong, "slp.handshake.server_address at offset "+strconv.Itoa(addrOff)+": "+strconv.Itoa(n)+" characters with what follows the host, vanilla allows 255 (proxies with IP forwarding allow more)")
		}
	}
	marker := ""
	for _, mk := range forgeMarkers {
		if bytes.HasSuffix(rest, []byte(mk)) {
			marker = mk
			break
		}
	}
	fwd := rest[:len(rest)-len(marker)]
	fields := [...]*dissect.Field{FieldHsFwdIP, FieldHsFwdUUID, FieldHsFwdProps}
	for k := 0; len(fwd) > 0; k++ {
		// each part is a NUL and the text up to the next NUL
		e := bytes.IndexByte(fwd[1:], 0)
		if e < 0 {
			e = len(fwd)
		} else {
			e++
		}
		f := FieldHsAddrExtra
		if k < len(fields) {
			f = fields[k]
		}
		n := cur.Field(f, e, dissect.B(fwd[1:e]))
		if k == 0 {
			cur.Expert(n, ExpertForwarding, "slp.handshake.server_address at offset "+strconv.Itoa(addrOff)+": NUL-separated data after the host, as BungeeCord/Velocity legacy IP forwarding sends it")
		}
		fwd = fwd[e:]
	}
	if marker != "" {
		cur.Field(FieldHsForge, len(marker), dissect.S(strings.Trim(marker, "\x00")))
	}
	portOff := cur.Off()
	port, porti := cur.Uint16(FieldHsPort)
	if porti >= 0 {
		if le, why := portLE(port, m.Server); why != "" {
			p.AddGenerated(porti, FieldHsPortLE, dissect.U(uint64(le)), "")
			cur.Expert(porti, ExpertPortLE, "slp.handshake.server_port at offset "+strconv.Itoa(portOff)+": "+strconv.Itoa(int(port))+" big-endian, "+strconv.Itoa(int(le))+" little-endian, "+why+"; the client wrote the port little-endian (servers ignore the field and answer anyway)")
		}
	}
	nsOff := cur.Off()
	ns, nsi, ok := varInt(cur, FieldHsNextState)
	if ok && (ns < 1 || ns > 3) {
		cur.Malformed(nsi, ExpertNextState, "slp.handshake.next_state at offset "+strconv.Itoa(nsOff)+": "+strconv.FormatInt(int64(ns), 10)+", expected 1 (status), 2 (login) or 3 (transfer)")
	}
	if cur.Failed() {
		return
	}
	// built in one buffer: the string is the one allocation for the usual
	// (named) versions and states
	var buf [160]byte
	b := append(buf[:0], "Handshake, protocol "...)
	b = dissect.AppendInt(b, int64(pv))
	b = append(b, " ("...)
	b = append(b, VersionName(int64(pv))...)
	b = append(b, "), "...)
	b = appendShort(b, host)
	b = append(b, ':')
	b = dissect.AppendInt(b, int64(port))
	b = append(b, ", next state "...)
	b = append(b, NextStates.Name(uint64(uint32(ns)))...)
	p.Info = string(b)
}

// portLE applies the little-endian port rule: the port big-endian is p, the
// same bytes little-endian le. The field is flagged when le is the port the
// connection really reached and p is not, or, when that port is not known
// (or differs from both), when le is the default 25565 and p is not.
func portLE(p uint16, server string) (uint16, string) {
	le := p<<8 | p>>8
	if le == p {
		return le, ""
	}
	actual := -1
	if k := strings.LastIndexByte(server, ':'); k >= 0 {
		if v, err := strconv.Atoi(server[k+1:]); err == nil {
			actual = v
		}
	}
	switch {
	case actual >= 0 && int(le) == actual && int(p) != actual:
		return le, "which is the port the connection reached"
	case int(p) != actual && le == 25565:
		return le, "which is the default port"
	}
	return le, ""
}

// safeShort cuts wire text for the Info column (escaping is the
// renderers' job).
func safeShort(b []byte) string {
	const max = 64
	if len(b) > max {
		n := max
		for n > 0 && !utf8.RuneStart(b[n]) {
			n--
		}
		return string(b[:n]) + "…"
	}
	return string(b)
}

func (c *Conn) status(cur *dissect.Cursor, i int, id int32, guessed bool) link {
	p := cur.P
	switch {
	case i == 0 && id == 0:
		return link{op: linkHoldStatus}
	case i == 1 && id == 0:
		c.statusResponse(cur)
		return link{op: linkAnswerStatus}
	case id == 1:
		off := cur.Off()
		v, vi := cur.Uint64(FieldPingPayload)
		if vi < 0 {
			return link{}
		}
		var buf [48]byte
		if i == 0 {
			p.Info = string(dissect.AppendUint(append(buf[:0], "Ping Request, payload "...), v))
			return link{op: linkHoldPing, v: v}
		}
		p.Info = string(dissect.AppendUint(append(buf[:0], "Pong Response, payload "...), v))
		return link{op: linkAnswerPing, v: v, vOff: off, vi: vi}
	}
	return link{}
}

func (c *Conn) holdPing(p *dissect.PDU, m dissect.Meta, v uint64) {
	if c.nPings == len(c.pings) {
		// a fifth ping before any pong: the oldest is no longer waited for
		c.pings[0].End(dissect.End{}, &pingOutcomes, c.Later)
		copy(c.pings[:], c.pings[1:])
		c.nPings--
	}
	q := &c.pings[c.nPings]
	*q = pingReq{payload: v}
	q.Hold(p, m, kindPing)
	c.nPings++
}

func (c *Conn) answerPing(p *dissect.PDU, m dissect.Meta, l link) {
	v := l.v
	for j := 0; j < c.nPings; j++ {
		q := &c.pings[j]
		if q.payload != v {
			continue
		}
		if q.P == p {
			q.P = nil
		}
		q.Answer(p, m, &pingOutcomes, c.Later)
		copy(c.pings[j:], c.pings[j+1:c.nPings])
		c.nPings--
		c.pings[c.nPings] = pingReq{}
		return
	}
	p.AddExpert(l.vi, ExpertPongUnmatched, "slp.ping.payload at offset "+strconv.Itoa(l.vOff)+": no earlier ping carried "+strconv.FormatUint(v, 10))
}

func (c *Conn) login(cur *dissect.Cursor, i int, id int32) {
	p := cur.P
	pv := c.dec.proto
	if i == 0 {
		switch id {
		case 0: // Login Start
			name, _ := str(cur, FieldStrLen, FieldLoginName, maxNameChars)
			if cur.Failed() {
				return
			}
			p.Info = "Login Start, name " + safeShort(name)
			switch {
			case pv == 759 || pv == 760:
				if has, _ := boolean(cur, FieldLoginHasSig); has {
					cur.Int64(FieldLoginTimestamp)
					byteArray(cur, FieldLoginPubKeyLen, FieldLoginPubKey)
					byteArray(cur, FieldLoginSigLen, FieldLoginSig)
				}
				if pv == 760 {
					if has, _ := boolean(cur, FieldLoginHasUUID); has {
						uuid(cur, FieldLoginUUID)
					}
				}
			case pv >= 761 && pv <= 763:
				if has, _ := boolean(cur, FieldLoginHasUUID); has {
					uuid(cur, FieldLoginUUID)
				}
			case pv >= 764:
				uuid(cur, FieldLoginUUID)
			case pv == 0 && rest(cur) == 16:
				uuid(cur, FieldLoginUUID)
			case pv == 0 && rest(cur) == 17 && len(cur.Peek(1)) == 1 && cur.Peek(1)[0] <= 1:
				if has, _ := boolean(cur, FieldLoginHasUUID); has {
					uuid(cur, FieldLoginUUID)
				}
			}
		case 1: // Encryption Response
			var n int32 // the node the expert item hangs on: the last array read
			if pv > 0 && pv < 47 {
				shortArray(cur, FieldLoginSecretLen, FieldLoginSecret)
				n = shortArray(cur, FieldLoginTokenLen, FieldLoginToken)
			} else {
				byteArray(cur, FieldLoginSecretLen, FieldLoginSecret)
				if pv == 759 || pv == 760 {
					if has, _ := boolean(cur, FieldLoginHasToken); has {
						n = byteArray(cur, FieldLoginTokenLen, FieldLoginToken)
					} else {
						cur.Int64(FieldLoginSalt)
						n = byteArray(cur, FieldLoginSigLen, FieldLoginSig)
					}
				} else {
					n = byteArray(cur, FieldLoginTokenLen, FieldLoginToken)
				}
			}
			if n < 0 {
				n = 0
			}
			cur.Expert(n, ExpertEncryption, "Encryption Response: from here on both directions are AES/CFB8-encrypted with the shared secret; unless a key log (--keylog) opens it, the rest of the connection is reported as encrypted, undissected bytes")
			p.Info = "Encryption Response: encryption starts"
		case 2: // Login Plugin Response
			mid, _, _ := varInt(cur, FieldLoginMessageID)
			ok, _ := boolean(cur, FieldLoginSuccessful)
			if r := rest(cur); r > 0 {
				cur.Take(FieldLoginData, r)
			}
			if !cur.Failed() {
				p.Info = "Login Plugin Response, message " + strconv.FormatInt(int64(mid), 10) + ", understood " + strconv.FormatBool(ok)
			}
		case 3:
			p.Info = "Login Acknowledged: configuration starts"
		case 4: // Cookie Response
			str(cur, FieldStrLen, FieldLoginCookieKey, maxIdentifier)
			if has, _ := boolean(cur, FieldLoginHasPayload); has {
				byteArray(cur, FieldLoginPayloadLen, FieldLoginPayload)
			}
		}
		return
	}
	switch id {
	case 0: // Disconnect
		b, si := str(cur, FieldStrLen, FieldLoginReason, 262144)
		if si >= 0 {
			text := c.chatText(b)
			if text != "" {
				p.AddGenerated(si, FieldLoginReasonText, dissect.S(text), "")
			}
			p.Info = "Disconnect (login): " + safeShort([]byte(text))
		}
	case 1: // Encryption Request
		sid, _ := str(cur, FieldStrLen, FieldLoginServerID, maxServerID)
		if pv > 0 && pv < 47 {
			shortArray(cur, FieldLoginPubKeyLen, FieldLoginPubKey)
			shortArray(cur, FieldLoginTokenLen, FieldLoginToken)
		} else {
			byteArray(cur, FieldLoginPubKeyLen, FieldLoginPubKey)
			byteArray(cur, FieldLoginTokenLen, FieldLoginToken)
			if pv >= 766 || pv == 0 && rest(cur) == 1 {
				boolean(cur, FieldLoginShouldAuth)
			}
		}
		if !cur.Failed() {
			p.Info = "Encryption Request, server ID \"" + safeShort(sid) + "\""
		}
	case 2: // Login Success
		if pv > 0 && pv < 735 {
			id, _ := str(cur, FieldStrLen, FieldLoginUUID, 36)
			name, _ := str(cur, FieldStrLen, FieldLoginName, maxNameChars)
			p.Info = "Login Success, " + safeShort(name)
			c.player, c.playerID = string(name), string(id)
			return
		}
		idb := cur.Peek(16)
		uuid(cur, FieldLoginUUID)
		name, _ := str(cur, FieldStrLen, FieldLoginName, maxNameChars)
		if cur.Failed() {
			return
		}
		p.Info = "Login Success, " + safeShort(name)
		c.player, c.playerID = string(name), formatUUID(idb)
		if pv > 0 && pv < 759 {
			return
		}
		if pv == 0 && rest(cur) == 0 {
			return
		}
		c.properties(cur)
		if pv == 766 || pv == 767 || pv == 0 && rest(cur) == 1 {
			boolean(cur, FieldLoginStrict)
		}
	case 3: // Set Compression
		th, thi, ok := varInt(cur, FieldLoginThreshold)
		if ok {
			if th >= 0 {
				cur.Expert(thi, ExpertCompressionOn, "Set Compression: packets of "+strconv.FormatInt(int64(th), 10)+" bytes or more are zlib-compressed from here on, both ways; every frame now carries a data length")
			}
			p.Info = "Set Compression, threshold " + strconv.FormatInt(int64(th), 10)
		}
	case 4: // Login Plugin Request
		mid, _, _ := varInt(cur, FieldLoginMessageID)
		ch, _ := str(cur, FieldStrLen, FieldLoginChannel, maxIdentifier)
		if r := rest(cur); r > 0 {
			cur.Take(FieldLoginData, r)
		}
		if !cur.Failed() {
			p.Info = "Login Plugin Request, message " + strconv.FormatInt(int64(mid), 10) + ", channel " + safeShort(ch)
		}
	case 5: // Cookie Request
		str(cur, FieldStrLen, FieldLoginCookieKey, maxIdentifier)
	}
}

// properties reads Login Success's profile properties.
func (c *Conn) properties(cur *dissect.Cursor) {
	n, _, ok := varInt(cur, FieldLoginPropCount)
	if !ok {
		return
	}
	for k := int32(0); k < n && !cur.Failed() && rest(cur) > 0; k++ {
		cur.Open(FieldLoginProp, -1)
		str(cur, FieldStrLen, FieldLoginPropName, 64)
		str(cur, FieldStrLen, FieldLoginPropValue, maxIdentifier)
		if signed, _ := boolean(cur, FieldLoginPropSigned); signed {
			str(cur, FieldStrLen, FieldLoginPropSig, 1024)
		}
		cur.Close()
	}
}

func boolean(cur *dissect.Cursor, f *dissect.Field) (bool, int32) {
	off := cur.Off()
	v, i := cur.Uint8(f)
	if i < 0 {
		return false, i
	}
	cur.P.Nodes[i].Value = dissect.Bool(v != 0)
	if v > 1 {
		cur.Malformed(i, dissect.ExpertMalformed, f.Name+" at offset "+strconv.Itoa(off)+": boolean byte "+strconv.Itoa(int(v))+", expected 0 or 1")
	}
	return v != 0, i
}

// byteArray reads a VarInt length and that many bytes.
func byteArray(cur *dissect.Cursor, lf, f *dissect.Field) int32 {
	off := cur.Off()
	n, li, ok := varInt(cur, lf)
	if !ok {
		return -1
	}
	if n < 0 {
		cur.Malformed(li, dissect.ExpertMalformed, lf.Name+" at offset "+strconv.Itoa(off)+": negative length")
		cur.Invalid(f, "no bytes after a negative length")
		return -1
	}
	_, i := cur.Take(f, int(n))
	return i
}

// shortArray reads a big-endian short length and that many bytes (1.7).
func shortArray(cur *dissect.Cursor, lf, f *dissect.Field) int32 {
	n, li := cur.Int16(lf)
	if li < 0 {
		return -1
	}
	cur.P.Nodes[li].Value = dissect.U(uint64(uint16(n)))
	if n < 0 {
		cur.Invalid(f, "negative length")
		return -1
	}
	_, i := cur.Take(f, int(n))
	return i
}

// uuid reads a 16-byte UUID and shows it in its usual form.
func uuid(cur *dissect.Cursor, f *dissect.Field) int32 {
	b, i := cur.Take(f, 16)
	cur.P.Annotate(i, func() { cur.P.Nodes[i].Value = dissect.S(formatUUID(b)) })
	return i
}

func formatUUID(b []byte) string {
	const digits = "0123456789abcdef"
	var out [36]byte
	j := 0
	for k, x := range b[:16] {
		if k == 4 || k == 6 || k == 8 || k == 10 {
			out[j] = '-'
			j++
		}
		out[j], out[j+1] = digits[x>>4], digits[x&15]
		j += 2
	}
	return string(out[:])
}

// Inflation limits.
const (
	// MaxDataLength is the protocol's limit on a compressed packet's
	// declared (inflated) length.
	MaxDataLength = 8 << 20
	// InflateCap is how much of one packet the dissector inflates.
	InflateCap = 2 << 20
)

// compressed reads a compressed frame's zlib body and inflates it: the
// inflated packet is laid after the frame's bytes (Cursor.Derive) and the
// cursor left at its start, and compressed reports true. Inflation stops
// at the declared length (a zlib bomb is reported, not obeyed) and at
// InflateCap; a body that does not inflate, or a frame the capture cut,
// is shown as it is and compressed reports false.
func (c *Conn) compressed(cur *dissect.Cursor, dli int32, dlOff int, dl int32, phase uint8, i int) bool {
	p := cur.P
	// the position prefixes are built only for an expert item
	dlPos := func() string { return "slp.data_length at offset " + strconv.Itoa(dlOff) + ": " }
	if dl < 0 {
		cur.Malformed(dli, dissect.ExpertMalformed, dlPos()+"negative data length "+strconv.FormatInt(int64(dl), 10))
	} else if dl > MaxDataLength {
		cur.Malformed(dli, ExpertCompressLarge, dlPos()+strconv.FormatInt(int64(dl), 10)+" bytes declared, the protocol allows at most 8388608")
	} else if th := c.dec.threshold; dl < th {
		cur.Expert(dli, ExpertCompressSmall, dlPos()+strconv.FormatInt(int64(dl), 10)+" bytes is below the compression threshold "+strconv.FormatInt(int64(th), 10)+" (vanilla rejects such packets)")
	}
	zoff := cur.Off()
	body, zi := cur.Take(FieldCompressed, rest(cur))
	if zi < 0 {
		p.Message, p.Info = "Compressed packet", "Compressed packet (cut)"
		return false
	}
	if cur.P.Cut() {
		p.Message, p.Info = "Compressed packet", "Compressed packet (cut), "+strconv.Itoa(len(body))+" bytes of zlib data"
		return false
	}
	limit := int64(InflateCap)
	if dl >= 0 && int64(dl) < limit {
		limit = int64(dl)
	}
	if phase == phPlay && p.Lite && limit+1 > liteHead {
		// A summary inflates a head; when it holds what Info shows, that
		// is all (zlib errors further on are the tree's to show). The one
		// Lite branch left in a decoder, for what it saves where play
		// traffic is: on the play mix it skips 188 of 189 MB of
		// inflation, and with dissect/inflate stopping at the head, the
		// summary takes about a quarter of the CPU; other mixes skip
		// under 10 MB and gain within their noise (bench/fastpaths.md).
		for _, n := range liteHeads {
			head, err := c.inflateHead(body, n)
			if err != nil || len(head) < n {
				break
			}
			if c.infoFits(i, head) {
				c.liteCut = len(p.Experts)
				cur.Derive(FieldInflatedPacket, head)
				return true
			}
		}
	}
	out, err := c.inflateAll(body, limit+1)
	n := int64(len(out))
	zpos := func() string { return "slp.compressed at offset " + strconv.Itoa(zoff) + ": " }
	p.AddGenerated(zi, FieldInflated, dissect.U(uint64(n)), "")
	ok := true
	switch {
	case err != nil:
		cur.Malformed(zi, ExpertCompressInvalid, zpos()+"zlib error after "+strconv.FormatInt(n, 10)+" inflated bytes: "+err.Error())
		ok = false
	case n > limit && limit == int64(dl):
		cur.Malformed(zi, ExpertCompressBomb, zpos()+strconv.Itoa(len(body))+" bytes of zlib data inflate past the declared "+strconv.FormatInt(int64(dl), 10)+" bytes; stopped there")
		ok = false
	case n > limit:
		cur.Expert(zi, ExpertCompressCapped, zpos()+"inflation stopped at the "+strconv.Itoa(InflateCap)+"-byte cap of "+strconv.FormatInt(int64(dl), 10)+" declared")
		ok = false
	case n < int64(dl):
		cur.Malformed(zi, ExpertCompressShort, zpos()+"inflates to "+strconv.FormatInt(n, 10)+" bytes, "+strconv.FormatInt(int64(dl), 10)+" declared")
	}
	if !ok && phase == phPlay && n > 0 {
		// the packet is named and read as far as it inflated, so that a
		// summary, which inflates no more than Info needs, says the same
		cur.Derive(FieldInflatedPacket, out[:min(n, limit)])
		return true
	}
	if !ok {
		name := "Compressed packet"
		if id, _, st := readVarInt(out); st == viOK {
			names := packetNames(phase, i)
			switch {
			case phase == phPlay:
				name = playName
			case id >= 0 && int(id) < len(names):
				name = names[id]
			}
			p.AddGeneratedFunc(zi, FieldInnerID, func() (dissect.Value, string) {
				return dissect.U(uint64(uint32(id))), hexByte(byte(id)) + " (" + name + ")"
			})
		}
		p.Message = name
		p.Info = name + " (compressed " + strconv.Itoa(len(body)) + " → " + strconv.FormatInt(min(n, limit), 10) + " bytes)"
		return false
	}
	cur.Derive(FieldInflatedPacket, out)
	return true
}

// inflateAll inflates zlib data z into the connection's inflate buffer,
// at most limit bytes, and returns them (valid until the next call) with
// the error compress/zlib would give after them (dissect/inflate, which
// stops at the limit and reads from the bytes themselves; the package
// comment says how its errors match zlib's). The same decoder inflates a
// summary's heads (inflateHead) and whole packets.
func (c *Conn) inflateAll(z []byte, limit int64) ([]byte, error) {
	c.borrow()
	if c.inf == nil {
		c.inf = new(inflate.Decoder)
	}
	out, err := c.inf.Prefix(c.ibuf[:0], z, int(min(limit, math.MaxInt32)))
	if cap(out) <= maxSpareInflate {
		c.ibuf = out[:0]
	}
	return out, err
}

// Binary helpers for legacy packets.
func be16(b []byte) uint16 { return binary.BigEndian.Uint16(b) }

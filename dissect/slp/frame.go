package slp

import (
	"encoding/binary"
	"encoding/hex"
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/inflate"
	"github.com/mcdissect/mcdissect/dissect/java"
)

// kind is what a PDU is, as framing sees it.
type kind uint8

const (
	kModern      kind = iota // VarInt length + packet ID + data
	kLegacyPing              // FE, FE 01, or FE 01 FA + MC|PingHost (one PDU)
	kLegacyPlug              // a plugin message FA that came apart from its FE 01
	kLegacyKick              // FF + UTF-16BE string
	kLegacyExtra             // bytes after a legacy exchange, which no peer reads
)

// Connection phases, per direction.
const (
	phHandshake = iota
	phStatus
	phLogin
	phPlay // configuration and play: framed, bodies not dissected
)

// dirState is what framing or decoding knows of one direction.
type dirState struct {
	started  bool  // a PDU of this direction has been consumed
	seen     bool  // bytes of this direction were offered at a boundary (even an incomplete PDU)
	lost     bool  // framing gave up on this direction
	enc      bool  // encrypted from here on
	compress bool  // frames carry a data length (after Set Compression)
	phase    uint8 // phHandshake...
	reason   string
	cfb      *cfb8 // when enc and the key log opened the session: the direction's cipher
	opened   bool  // framing consumed a decrypted frame of the direction
}

// track follows a connection's state from the PDUs it is shown. Frame and
// Decode each keep one, advanced by the same rules, so that framing may run
// ahead of decoding (several PDUs framed from one buffer before any is
// decoded) without the two disagreeing.
type track struct {
	d      [2]dirState // [0] client to server, [1] server to client
	legacy int8        // 1 legacy pings, -1 modern, 0 not known yet
	next   int32       // handshake next state (0: not seen)
	// proto is the handshake's protocol version as a release's number,
	// which the login's forms and the states are decided by: a
	// snapshot's (2^30 and up) is the release's before it
	// (java.ReleaseProtocol); wire is the number as sent, by which the
	// protocol data is looked up. 0: not seen.
	proto, wire int32
	hsSeen      bool
	threshold   int32
	encReq      bool // the server sent Encryption Request
	encResp     bool // the client sent Encryption Response
	loginDone   bool // the server sent Login Success

	// encryption (keylog.go): the key log, the encrypted shared secret
	// the client sent, and how the secret was found ("" if not)
	keys      *KeyLog
	secretEnc []byte
	secret    []byte
	secretHow string

	// the handshake version's data, for resynchronising the play state
	jv     *java.Version
	jtried bool

	// mid[i]: direction i was picked up mid-way and read as play
	// (Options.Version); its compression is guessed from its first packet
	mid [2]bool

	// resync (framing only, resync.go)
	resyncing [2]bool   // looking for a frame boundary after missing bytes
	pings     [4]uint64 // the payloads of the client's last pings
	nPings    int
}

// midway puts direction i of a session whose handshake was not captured
// in the configuration/play phase (Options.Version).
func (t *track) midway(i int) {
	t.d[i].phase = phPlay
	t.mid[i] = true
}

// guessCompressed tells from a direction's first packet of a session
// picked up mid-way whether frames carry a data length: a 0 (not
// compressed) followed by a packet ID, or a data length followed by a
// zlib header (78). Uncompressed packets rarely start with ID 0 and a
// length of at least 2.
func guessCompressed(b []byte) bool {
	_, n, st := readVarInt(b)
	if st != viOK || n >= len(b) {
		return false
	}
	if b[n] == 0 {
		return len(b)-n >= 2
	}
	dl, k, st := readVarInt(b[n:])
	return st == viOK && dl > 0 && n+k < len(b) && b[n+k] == 0x78
}

// keyHint says which key would open an encrypted session, for the
// record of its undissected bytes.
func (t *track) keyHint() string {
	if len(t.secretEnc) == 0 {
		return ""
	}
	h := hex.EncodeToString(t.secretEnc)
	if len(h) > 16 {
		h = h[:16] + "…"
	}
	return "; the key log line MC_SHARED_SECRET for the encrypted secret " + h + " (Encryption Response's slp.login.shared_secret) or the server's RSA private key would open it (--keylog)"
}

// openCipher reads the encrypted shared secret from an Encryption
// Response's body and, when the key log opens it, sets up both directions'
// ciphers (key = IV = the secret).
func (t *track) openCipher(body []byte) {
	var enc []byte
	if t.proto > 0 && t.proto < 47 {
		if len(body) >= 2 {
			n := int(binary.BigEndian.Uint16(body))
			if n <= len(body)-2 {
				enc = body[2 : 2+n]
			}
		}
	} else if n, k, st := readVarInt(body); st == viOK && n >= 0 && int(n) <= len(body)-k {
		enc = body[k : k+int(n)]
	}
	t.secretEnc = append([]byte(nil), enc...)
	sec, how, ok := t.keys.Secret(enc)
	if !ok {
		return
	}
	c2s, err1 := newCFB8(sec)
	s2c, err2 := newCFB8(sec)
	if err1 != nil || err2 != nil {
		return
	}
	t.secret, t.secretHow = sec, how
	t.d[0].cfb, t.d[1].cfb = c2s, s2c
}

// wrongKey is what a decrypted frame that does not read adds to the
// reason when it is the direction's first: the secret opened nothing.
func (t *track) wrongKey(i int) string {
	if t.d[i].opened {
		return ""
	}
	return "; the first bytes after Encryption Response: the secret (from the " + t.secretHow + ") may be wrong for this session"
}

// firstDecrypted checks the head h of direction i's first decrypted frame
// (all of it when the frame is shorter): a frame length, then a data
// length and a zlib header when the direction is compressed, or a packet
// ID the login state has while the direction is in it (a client of a
// version before 1.20.2 goes on to play after Login Success: any ID).
// why says what does not read; sure is false when h is too short to tell.
func (t *track) firstDecrypted(i int, h []byte) (why string, sure bool) {
	d := &t.d[i]
	_, n, st := readVarInt(h)
	if st != viOK {
		return "", false
	}
	h = h[n:]
	if d.compress {
		dl, k, st := readVarInt(h)
		switch {
		case st == viTooLong || st == viOK && (dl < 0 || dl > MaxDataLength):
			return "decrypted data length " + lengthText(dl, k, st) + " is not one a packet has", true
		case st != viOK:
			return "", false
		case dl != 0:
			if len(h) < k+2 {
				return "", false
			}
			if cmf, flg := h[k], h[k+1]; cmf&0x0f != 8 || cmf>>4 > 7 || (uint16(cmf)<<8|uint16(flg))%31 != 0 {
				return "decrypted packet declares " + strconv.Itoa(int(dl)) + " compressed bytes but has no zlib header (" + hexPrefix(h[k:], 2) + ")", true
			}
			return "", true
		}
		h = h[k:]
	}
	if d.phase != phLogin || i == 0 && t.loginDone && t.proto < 764 {
		return "", true
	}
	id, _, st := readVarInt(h)
	if st != viOK {
		return "", st == viTooLong
	}
	if names := packetNames(phLogin, i); id < 0 || int(id) >= len(names) || !loginIDExists(i, id, t.proto) {
		return "decrypted packet ID " + strconv.FormatInt(int64(id), 10) + " is not a " + dirName(i) + " packet of the login state", true
	}
	return "", true
}

func (t *track) reset() {
	keys := t.keys
	*t = track{keys: keys}
	t.d[1].phase = phStatus // the server never sends in handshaking state
}

func di(d dissect.Dir) int {
	if d == dissect.DirS2C {
		return 1
	}
	return 0
}

// isLegacyStart: a client's first bytes are a pre-1.7 ping. FE is never the
// first byte of a modern handshake unless its length is 254 (FE 01), and
// then the packet ID 00 follows where a 1.6 ping has FA.
func isLegacyStart(b []byte) bool {
	return len(b) > 0 && b[0] == 0xFE && !(len(b) >= 3 && b[1] == 0x01 && b[2] == 0x00)
}

// looksLegacyKick guesses, for a server stream whose client side was not
// seen, whether FF starts a legacy kick rather than a VarInt length: a
// modern status response reads as length, 00, JSON length, '{'.
func looksLegacyKick(b []byte) bool {
	if len(b) == 0 || b[0] != 0xFF {
		return false
	}
	_, n, st := readVarInt(b)
	if st == viOK && n < len(b) && b[n] == 0x00 {
		if _, m, st2 := readVarInt(b[n+1:]); st2 == viOK && n+1+m < len(b) && b[n+1+m] == '{' {
			return false
		}
	}
	return true
}

// isLegacy tells whether the bytes b at the front of direction i are
// framed the pre-1.7 way.
func (t *track) isLegacy(i int, b []byte) bool {
	if t.d[i].started || t.legacy != 0 {
		return t.legacy == 1
	}
	if i == 0 {
		return isLegacyStart(b)
	}
	return looksLegacyKick(b)
}

// frameResult is the framing of the PDU at the front of a buffer.
type frameResult struct {
	k      kind
	n      int // PDU length when st is FrameOK, the length needed (or 0) for FrameNeedMore
	st     dissect.FrameStatus
	reason string
}

func needMore(n int) frameResult { return frameResult{n: n, st: dissect.FrameNeedMore} }

// legacyString16 frames a short length (UTF-16 characters) and its string
// at b[off:]: the offset after it, or a need-more/invalid answer.
func legacyString16(b []byte, off int) (end int, need int, bad bool) {
	if len(b) < off+2 {
		return 0, 0, false
	}
	n := int(int16(binary.BigEndian.Uint16(b[off:])))
	if n < 0 {
		return 0, 0, true
	}
	end = off + 2 + 2*n
	if len(b) < end {
		return 0, end, false
	}
	return end, 0, false
}

// frameAt frames the PDU at the front of b for direction i.
func (t *track) frameAt(i int, b []byte) frameResult {
	if len(b) == 0 {
		return needMore(0)
	}
	if t.isLegacy(i, b) {
		return t.frameLegacy(i, b)
	}
	v, n, st := readVarInt(b)
	switch {
	case st == viShort && n < 3:
		return needMore(0)
	case st == viTooLong:
		return frameResult{st: dissect.FrameLost, reason: "malformed packet length: VarInt longer than 5 bytes (" + hexPrefix(b, 6) + ")"}
	case st == viShort || n > 3 || v < 0 || v > MaxFrameLength:
		return frameResult{st: dissect.FrameLost, reason: "packet length over the protocol maximum of " + strconv.Itoa(MaxFrameLength) + " (3-byte VarInt): " + lengthText(v, n, st) + "; not buffered"}
	}
	total := n + int(v)
	if len(b) < total {
		return needMore(total)
	}
	return frameResult{k: kModern, n: total}
}

func lengthText(v int32, n, st int) string {
	if st != viOK {
		return "a VarInt of more than " + strconv.Itoa(n) + " bytes"
	}
	return strconv.FormatInt(int64(v), 10) + " in a " + strconv.Itoa(n) + "-byte VarInt"
}

func hexPrefix(b []byte, n int) string {
	out := make([]byte, 0, 3*n+3)
	for j := 0; j < n && j < len(b); j++ {
		if j > 0 {
			out = append(out, ' ')
		}
		h := hexByte(b[j])
		out = append(out, h[2:]...)
	}
	if len(b) > n {
		out = append(out, " …"...)
	}
	return string(out)
}

func (t *track) frameLegacy(i int, b []byte) frameResult {
	bad := func(what string) frameResult {
		return frameResult{st: dissect.FrameLost, reason: "legacy " + what + " with a negative string length"}
	}
	switch {
	case i == 0 && b[0] == 0xFE:
		// FE alone is a beta 1.8-1.3 ping and FE 01 a 1.4-1.5 one: those
		// clients send nothing more and wait. The 1.6 client sends FE 01 FA
		// ... in one write. A vanilla server decides on the bytes its first
		// read returns; framing does the same with the bytes it has.
		if len(b) < 3 || b[1] != 0x01 || b[2] != 0xFA {
			if len(b) >= 2 && b[1] == 0x01 {
				return frameResult{k: kLegacyPing, n: 2}
			}
			return frameResult{k: kLegacyPing, n: 1}
		}
		if len(b) < 6 {
			return needMore(6)
		}
		if asciiChannel(b[2:]) {
			// minecraft-server-util's MC|PingHost in ASCII: no server
			// reads it as one message. FE 01 is the ping the server
			// answers; the FA follows as a plugin message of its own.
			return frameResult{k: kLegacyPing, n: 2}
		}
		end, need, isBad := pluginEnd(b, 2)
		if isBad {
			return bad("MC|PingHost")
		}
		if end == 0 {
			return needMore(need)
		}
		return frameResult{k: kLegacyPing, n: end}
	case i == 0 && b[0] == 0xFA:
		if len(b) < 4 {
			return needMore(4)
		}
		if asciiChannel(b) {
			return asciiPluginFrame(b)
		}
		end, need, isBad := pluginEnd(b, 0)
		if isBad {
			return bad("plugin message")
		}
		if end == 0 {
			return needMore(need)
		}
		return frameResult{k: kLegacyPlug, n: end}
	case i == 1 && b[0] == 0xFF:
		end, need, isBad := legacyString16(b, 1)
		if isBad {
			return bad("kick")
		}
		if end == 0 {
			return needMore(need)
		}
		return frameResult{k: kLegacyKick, n: end}
	}
	return frameResult{k: kLegacyExtra, n: len(b)}
}

// asciiChannel tells whether the plugin message FA at b[0] has its
// channel in ASCII (one byte a character) rather than UTF-16BE, whose first
// byte for any channel name in use (MC|PingHost) is 00.
func asciiChannel(b []byte) bool {
	return len(b) >= 4 && b[3] != 0 && binary.BigEndian.Uint16(b[1:]) > 0
}

// asciiPluginFrame frames a plugin message written with one-byte
// characters (minecraft-server-util's 1.6 ping): channel, data length, and
// the data as far as the sender's write goes. Its data length counts for
// other field sizes than it writes (a 4-byte port, 2 written), so a vanilla
// server, which decides on what its first read returns, is followed: the
// PDU ends where the bytes do when the length points past them.
func asciiPluginFrame(b []byte) frameResult {
	e := 3 + int(binary.BigEndian.Uint16(b[1:]))
	if len(b) < e+2 {
		return needMore(e + 2)
	}
	end := e + 2 + int(binary.BigEndian.Uint16(b[e:]))
	return frameResult{k: kLegacyPlug, n: min(end, len(b))}
}

// pluginEnd frames a legacy plugin message (FA, channel, data length, data)
// starting at b[off].
func pluginEnd(b []byte, off int) (end, need int, bad bool) {
	e, need, bad := legacyString16(b, off+1)
	if bad || e == 0 {
		return 0, need, bad
	}
	if len(b) < e+2 {
		return 0, e + 2, false
	}
	end = e + 2 + int(binary.BigEndian.Uint16(b[e:]))
	if len(b) < end {
		return 0, end, false
	}
	return end, 0, false
}

// header is a modern PDU's header: where the ID is and what it is.
type header struct {
	length   int32
	lenBytes int
	dataLen  int32 // after Set Compression; -1 when the frame has none
	dlBytes  int
	id       int32
	idOff    int // offset of the packet ID, -1 when it is inside zlib data
	idBytes  int
}

// parseHeader reads a complete modern PDU's header; ok is false when the
// header itself is cut or malformed.
func parseHeader(b []byte, compressed bool) (h header, ok bool) {
	var st int
	h.length, h.lenBytes, st = readVarInt(b)
	if st != viOK {
		return h, false
	}
	off := h.lenBytes
	h.dataLen = -1
	if compressed {
		h.dataLen, h.dlBytes, st = readVarInt(b[off:])
		if st != viOK {
			return h, false
		}
		off += h.dlBytes
		if h.dataLen != 0 {
			h.idOff = -1
			return h, true
		}
	}
	h.idOff = off
	h.id, h.idBytes, st = readVarInt(b[off:])
	return h, st == viOK
}

// compressedHead inflates the head of a compressed packet of direction i
// (zlib data z, dl bytes declared) when a packet of the direction's phase
// may change the connection's state, and reports whether it read a packet
// ID. Only so much is inflated as the state change reads (the ID and, for
// Set Compression, the threshold; for Encryption Response the encrypted
// secret), and only where it can happen: in the login state, and in 1.8's
// play state for a packet small enough to be its Set Compression. Framing
// sees every play packet and inflates no other: the configuration and
// play transitions are the decoder's (javaBody), and framing needs none
// of them.
func (t *track) compressedHead(i int, z []byte, dl int32) ([]byte, bool) {
	var n int32
	switch d := &t.d[i]; {
	case dl <= 0:
		return nil, false
	case d.phase == phLogin && i == 0 && !t.loginDone:
		n = maxEncRespHead // Encryption Response
	case d.phase == phLogin:
		n = 10 // Login Success, Login Acknowledged, Set Compression: ID and threshold
	case d.phase == phPlay && i == 1 && t.proto == 47 && dl <= 6:
		n = 6 // 1.8's Set Compression: ID 0x46 and a threshold
	default:
		return nil, false
	}
	var buf [16]byte
	head, _ := inflate.Prefix(buf[:0], z, int(min(n, dl)))
	_, _, st := readVarInt(head)
	return head, st == viOK
}

// maxEncRespHead is how much of a compressed Encryption Response framing
// inflates: the encrypted secret of a 4096-bit RSA key (512 bytes) with
// its length and the packet ID fits.
const maxEncRespHead = 1024

// advance updates the state after the PDU b of kind k in direction i.
func (t *track) advance(i int, k kind, b []byte) {
	d := &t.d[i]
	first := !d.started
	d.started = true
	if k != kModern {
		if first && t.legacy == 0 {
			t.legacy = 1
		}
		return
	}
	if first && t.legacy == 0 {
		t.legacy = -1
	}
	h, ok := parseHeader(b, d.compress)
	if !ok {
		return
	}
	var body []byte
	if h.idOff >= 0 {
		body = b[h.idOff+h.idBytes:]
	} else if body, ok = t.compressedHead(i, b[h.lenBytes+h.dlBytes:], h.dataLen); ok {
		h.id, h.idBytes, _ = readVarInt(body)
		body = body[h.idBytes:]
	} else {
		return
	}
	switch {
	case i == 0 && d.phase == phStatus:
		t.notePing(b)
	case i == 0 && d.phase == phHandshake:
		if h.id != 0 {
			return
		}
		t.hsSeen = true
		pv, n, st := readVarInt(body)
		if st != viOK {
			return
		}
		t.proto, t.wire = releaseOf(pv), pv
		body = body[n:]
		al, n, st := readVarInt(body)
		if st != viOK || al < 0 || int(al) > len(body)-n-2 {
			return
		}
		body = body[n+int(al)+2:]
		ns, _, st := readVarInt(body)
		if st != viOK {
			return
		}
		t.next = ns
		switch ns {
		case 1:
			d.phase, t.d[1].phase = phStatus, phStatus
		case 2, 3:
			d.phase, t.d[1].phase = phLogin, phLogin
		}
	case i == 0 && d.phase == phLogin:
		switch {
		case h.id == 1 && !t.loginDone:
			// Encryption Response: every later byte, both ways, is
			// AES/CFB8. The server only sends after reading it, so the
			// server bytes framed from now on are encrypted too.
			t.encResp = true
			d.enc = true
			t.d[1].enc = true
			t.openCipher(body)
		case t.loginDone:
			if t.proto < 764 || h.id == 3 {
				d.phase = phPlay
			}
		}
	case i == 1 && d.phase == phPlay && t.proto == 47 && h.id == 0x46:
		// 1.8's play state has its own Set Compression (gone in 1.9)
		if th, _, st := readVarInt(body); st == viOK {
			t.threshold = th
			on := th >= 0
			d.compress, t.d[0].compress = on, on
		}
	case i == 1 && d.phase == phLogin:
		switch h.id {
		case 1:
			t.encReq = true
		case 2:
			t.loginDone = true
			d.phase = phPlay
			if t.proto != 0 && t.proto < 764 {
				t.d[0].phase = phPlay
			}
		case 3:
			th, _, st := readVarInt(body)
			if st == viOK {
				t.threshold = th
				on := th >= 0
				d.compress, t.d[0].compress = on, on
			}
		}
	}
}

// Detection is Detect's answer: the one type of every protocol's.
type Detection = dissect.Detection

const (
	DetectNo       = dissect.DetectNo       // not a Server List Ping client
	DetectYes      = dissect.DetectYes      // a VarInt-framed handshake or a legacy FE ping
	DetectNeedMore = dissect.DetectNeedMore // too few bytes to tell
)

// Detect tells whether a client's first bytes open a Server List Ping
// connection: a VarInt-framed handshake (length 1..300, ID 0x00, a
// protocol VarInt, an address string, a port, next state 1..3, ending where
// its length says) or a legacy FE ping. Classic's `00 07` identification
// fails the length test (a length of 0), HTTP and TLS fail the ID test.
func Detect(firstC2S []byte) Detection {
	b := firstC2S
	if len(b) == 0 {
		return DetectNeedMore
	}
	if isLegacyStart(b) {
		if len(b) == 1 || b[1] == 0x01 {
			return DetectYes
		}
		return DetectNo
	}
	l, n, st := readVarInt(b)
	if st == viShort && n < 2 {
		return DetectNeedMore
	}
	if st != viOK || l < 1 || l > 300 {
		return DetectNo
	}
	end := n + int(l)
	if len(b) < end {
		// check what is there already, to say no early
		if r := checkHandshake(b[n:]); r == DetectNo {
			return DetectNo
		}
		return DetectNeedMore
	}
	body := b[n:end]
	if checkHandshake(body) != DetectYes {
		return DetectNo
	}
	return DetectYes
}

// checkHandshake validates a handshake's ID and fields. It answers
// DetectNeedMore when b ends before the fields do, DetectYes only when the
// fields end exactly at the end of b.
func checkHandshake(b []byte) Detection {
	if len(b) == 0 {
		return DetectNeedMore
	}
	if b[0] != 0x00 {
		return DetectNo
	}
	off := 1
	_, n, st := readVarInt(b[off:])
	if st == viShort {
		return DetectNeedMore
	}
	if st != viOK {
		return DetectNo
	}
	off += n
	al, n, st := readVarInt(b[off:])
	if st == viShort {
		return DetectNeedMore
	}
	if st != viOK || al < 0 || al > 300*3 {
		return DetectNo
	}
	off += n + int(al) + 2
	if len(b) < off+1 {
		return DetectNeedMore
	}
	ns := b[off]
	if ns < 1 || ns > 3 || off+1 != len(b) {
		return DetectNo
	}
	return DetectYes
}

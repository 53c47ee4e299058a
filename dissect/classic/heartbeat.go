package classic

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
)

// Session is what a whole capture teaches about Classic servers: the salts
// their heartbeats exposed. A heartbeat and a player's connection are
// different TCP connections (to the list server and from the player), so the
// salt learned from one is kept here for the other.
//
// Matching a player's connection (its server address "ip:port") to a salt,
// in order: a heartbeat whose port parameter is the server's port, sent from
// the server's IP; then one whose port parameter is the server's port from
// any IP (the heartbeat leaves by the public address, players may come in by
// another: NAT, loopback); then the salt set by SetSalt (--classic-salt);
// then, if the capture holds exactly one heartbeat salt, that one. The most
// recent heartbeat wins among equals (a server picks a new salt when it
// restarts). Only heartbeats decoded before the identification count.
type Session struct {
	salts  []learnedSalt
	manual string
	levels levelHolders // the levels its connections are joining (levels.go)
}

type learnedSalt struct {
	ip, port, salt string
	frame          uint64
}

// maxSalts bounds the salts remembered from heartbeats.
const maxSalts = 1024

// NewSession returns an empty session.
func NewSession() *Session { return &Session{} }

// SetSalt supplies a server's salt when its heartbeat was not captured.
func (s *Session) SetSalt(salt string) { s.manual = salt }

// AddSalt records a salt a heartbeat exposed: the heartbeat came from ip and
// named port as the server's port.
func (s *Session) AddSalt(ip, port, salt string, frame uint64) {
	for i := range s.salts {
		if e := &s.salts[i]; e.ip == ip && e.port == port {
			e.salt, e.frame = salt, frame
			return
		}
	}
	if len(s.salts) < maxSalts {
		s.salts = append(s.salts, learnedSalt{ip, port, salt, frame})
	}
}

// SaltFor finds the salt for the server at addr ("ip:port") and says how.
func (s *Session) SaltFor(addr string) (salt, source string, ok bool) {
	if s == nil {
		return "", "", false
	}
	ip, port := splitHostPort(addr)
	for i := len(s.salts) - 1; i >= 0; i-- {
		if e := s.salts[i]; e.port == port && e.ip == ip {
			return e.salt, "heartbeat in frame " + strconv.FormatUint(e.frame, 10) + " (same IP and port)", true
		}
	}
	for i := len(s.salts) - 1; i >= 0; i-- {
		if e := s.salts[i]; e.port == port {
			return e.salt, "heartbeat in frame " + strconv.FormatUint(e.frame, 10) + " (same port, from " + e.ip + ")", true
		}
	}
	if s.manual != "" {
		return s.manual, "--classic-salt", true
	}
	if len(s.salts) == 1 {
		return s.salts[0].salt, "heartbeat in frame " + strconv.FormatUint(s.salts[0].frame, 10) + " (the only salt in the capture; its port " + s.salts[0].port + " differs)", true
	}
	return "", "", false
}

func splitHostPort(a string) (host, port string) {
	i := strings.LastIndexByte(a, ':')
	if i < 0 {
		return a, ""
	}
	host = a[:i]
	if len(host) > 1 && host[0] == '[' && host[len(host)-1] == ']' {
		host = host[1 : len(host)-1]
	}
	return host, a[i+1:]
}

// KeyFor is the verification key a name gets from the list server:
// hex(md5(salt + name)).
func KeyFor(salt, name string) string {
	sum := md5.Sum([]byte(salt + name))
	return hex.EncodeToString(sum[:])
}

// checkKey adds classic.key_valid under the key node when a salt is known.
// It takes the key's text from the decoder, not from the node, which a Lite
// PDU does not keep; the Info says whether the key is valid either way.
func (d *dec) checkKey(name, key string, ki int32) {
	p := d.pdu()
	salt, src, ok := d.conn.sess.SaltFor(d.server)
	if !ok {
		p.ExpertFunc(ki, ExpertKeyNoSalt, func() string {
			return "classic.verification_key at offset 66: no heartbeat salt for " + d.server + " seen before this login (--classic-salt supplies one)"
		})
		return
	}
	want := KeyFor(salt, name)
	valid := strings.EqualFold(key, want)
	if !valid {
		d.info = append(d.info, ", key forged"...)
	} else {
		d.info = append(d.info, ", key valid"...)
	}
	p.Annotate(ki, func() { d.keyNodes(name, ki, valid, want, salt, src) })
}

// keyNodes adds under key node ki what checkKey found: whether the key
// is valid, the key expected and the salt it came from.
func (d *dec) keyNodes(name string, ki int32, valid bool, want, salt, src string) {
	p := d.pdu()
	text := "False: forged, the key is not md5(salt + username)"
	if valid {
		text = "True: the key is md5(salt + username), the list server vouched for the name"
	}
	p.AddGenerated(ki, FieldKeyValid, dissect.Bool(valid), text)
	e := p.AddGenerated(ki, FieldKeyExpected, dissect.S(want), "")
	p.Nodes[e].Flags |= dissect.FlagSensitive
	s := p.AddGenerated(ki, FieldKeySalt, dissect.S(salt), "")
	p.Nodes[s].Flags |= dissect.FlagSensitive
	p.Nodes[s].Text = salt + " (from " + src + ")"
	if !valid {
		d.c.Expert(ki, ExpertKeyForged, "classic.verification_key at offset 66: "+strconv.Quote(name)+"'s key is not md5(salt + username) with the salt from "+src)
	}
}

// Detection is Detect's answer: the one type of every protocol's.
type Detection = dissect.Detection

const (
	DetectNo       = dissect.DetectNo
	DetectYes      = dissect.DetectYes
	DetectNeedMore = dissect.DetectNeedMore
)

// Detect tells whether the first client→server bytes of a TCP connection
// are a Classic player identification: 0x00, a protocol version (7; 6 and
// the 130-byte 3–5 are accepted too), a 64-byte space-padded username of
// printable text that does not start with padding, a 64-byte key of
// printable text. The ID, the version and the whole username field (66
// bytes, all checked) decide: an identification cut inside its key, by a
// gap or the connection's end, is still recognised and decoded as cut.
func Detect(b []byte) Detection {
	if len(b) < 2 {
		if len(b) == 1 && b[0] != 0 {
			return DetectNo
		}
		return DetectNeedMore
	}
	if b[0] != 0x00 || b[1] < 3 || b[1] > 7 {
		return DetectNo
	}
	for i := 2; i < min(len(b), 130); i++ {
		if ch := b[i]; ch < 0x20 && ch != 0 || ch >= 0x7f {
			return DetectNo
		}
	}
	if len(b) > 2 && (b[2] == ' ' || b[2] == 0) {
		return DetectNo
	}
	if len(b) < detectLen {
		return DetectNeedMore
	}
	return DetectYes
}

// detectLen is how many bytes of an identification Detect needs: the ID,
// the version and the 64-byte username, whose printable text no other
// protocol on these ports starts with.
const detectLen = 66

// HeartbeatStarts are the ways a heartbeat request starts; one of the
// bytes of HeartbeatThen follows (DetectHeartbeat). A live capture's kernel
// filter passes the connections on port 80 that start so, and no other.
var HeartbeatStarts = []string{"GET /heartbeat.jsp", "POST /heartbeat.jsp", "GET /server/heartbeat", "POST /server/heartbeat"}

// HeartbeatThen holds the bytes that may follow a HeartbeatStarts.
const HeartbeatThen = "? /\r\n"

// DetectHeartbeat tells whether the first client→server bytes are an HTTP
// heartbeat: GET or POST of /heartbeat.jsp (minecraft.net's), or
// /server/heartbeat (classicube.net's).
func DetectHeartbeat(b []byte) Detection {
	for _, p := range HeartbeatStarts {
		n := min(len(b), len(p))
		if string(b[:n]) == p[:n] {
			if n == len(p) {
				if len(b) == n {
					return DetectNeedMore
				}
				if strings.IndexByte(HeartbeatThen, b[n]) >= 0 {
					return DetectYes
				}
				continue
			}
			return DetectNeedMore
		}
	}
	return DetectNo
}

// HTTP caps.
const (
	MaxHTTPHeader = 16 << 10
	MaxHTTPBody   = 64 << 10
)

// Heartbeat is one heartbeat connection (HTTP to the list server). It
// frames and decodes both directions and records the salts it sees in its
// Session. Decoding keeps no state of its own (head is the framer's), so
// a Heartbeat that only decodes needs no word of gaps: after one the framer
// gives the direction up and nothing more is decoded.
type Heartbeat struct {
	protocols.Defaults // what it does not do
	sess               *Session
	head               bool // the last request was HEAD (no response body)
	// asked: a request was framed and no response since: the server's
	// next bytes start the response, also where the capture missed the
	// start of the server's stream.
	asked bool
	// req is the decoded request waiting for its response (outcome.go);
	// Later, a two-pass run's record (-2).
	req   dissect.Wait
	Later *dissect.Later
}

// NewHeartbeat returns the state of a heartbeat connection reporting to s.
func NewHeartbeat(s *Session) *Heartbeat { return &Heartbeat{sess: s} }

// Frame delimits HTTP messages: the head up to the empty line (16 KiB at
// most), then a Content-Length or chunked body (64 KiB at most). An HTTP/0.9
// request (no version: the seed's "GET /heartbeat.jsp?...\r\n") ends at its
// line; an HTTP/0.9 response or a body delimited by the connection's close
// needs FrameAtEnd. After a gap, or at a stream whose start was not
// captured (a live kernel filter passes a heartbeat's connection from its
// request on), a message starts only where the bytes begin as one: a
// heartbeat request (DetectHeartbeat) from the client, a status line
// ("HTTP/") from the server, or any response to a request just framed;
// other bytes are FrameLost.
func (h *Heartbeat) Frame(dir dissect.Dir, buf []byte, afterGap bool) dissect.Frame {
	if afterGap && !(dir == dissect.DirS2C && h.asked) {
		switch {
		case dir == dissect.DirC2S && DetectHeartbeat(buf) == dissect.DetectYes:
		case dir == dissect.DirS2C && len(buf) >= len("HTTP/") && startsHTTP(buf):
		case dir == dissect.DirC2S && DetectHeartbeat(buf) == dissect.DetectNeedMore,
			dir == dissect.DirS2C && len(buf) < len("HTTP/") && startsHTTP(buf):
			return dissect.Frame{Status: dissect.FrameNeedMore}
		default:
			return dissect.Frame{Status: dissect.FrameLost, Reason: "heartbeat: no HTTP message starts after the gap"}
		}
	}
	f := h.frame(dir, buf)
	if f.Status == dissect.FrameOK {
		h.asked = dir == dissect.DirC2S
	}
	return f
}

func (h *Heartbeat) frame(dir dissect.Dir, buf []byte) dissect.Frame {
	if len(buf) == 0 {
		return dissect.Frame{Status: dissect.FrameNeedMore}
	}
	if dir == dissect.DirS2C && !startsHTTP(buf) {
		if len(buf) >= MaxHTTPBody {
			return dissect.Frame{Status: dissect.FrameLost, Reason: "heartbeat: HTTP/0.9 response longer than " + strconv.Itoa(MaxHTTPBody) + " bytes"}
		}
		return dissect.Frame{Status: dissect.FrameNeedMore} // HTTP/0.9: ends with the connection
	}
	eol := bytes.IndexByte(buf, '\n')
	if eol < 0 {
		return h.needHead(buf)
	}
	if dir == dissect.DirC2S && !bytes.Contains(buf[:eol], []byte(" HTTP/")) {
		return dissect.Frame{Status: dissect.FrameOK, Len: eol + 1} // HTTP/0.9 request line
	}
	end := headEnd(buf)
	if end < 0 {
		return h.needHead(buf)
	}
	if dir == dissect.DirC2S {
		h.head = bytes.HasPrefix(buf, []byte("HEAD "))
	}
	cl, chunked, hasCL := bodyFraming(buf[:end])
	switch {
	case dir == dissect.DirS2C && (h.head || noBodyStatus(buf)):
		return dissect.Frame{Status: dissect.FrameOK, Len: end}
	case chunked:
		n, st := chunkedLen(buf[end:])
		if st == dissect.FrameLost {
			return dissect.Frame{Status: dissect.FrameLost, Reason: "heartbeat: chunked body malformed or longer than " + strconv.Itoa(MaxHTTPBody) + " bytes"}
		}
		if st == dissect.FrameNeedMore {
			return dissect.Frame{Status: dissect.FrameNeedMore}
		}
		return dissect.Frame{Status: dissect.FrameOK, Len: end + n}
	case hasCL:
		if cl < 0 || cl > MaxHTTPBody {
			return dissect.Frame{Status: dissect.FrameLost, Reason: "heartbeat: Content-Length " + strconv.Itoa(cl) + " outside 0–" + strconv.Itoa(MaxHTTPBody)}
		}
		if len(buf) < end+cl {
			return dissect.Frame{Status: dissect.FrameNeedMore, Len: end + cl}
		}
		return dissect.Frame{Status: dissect.FrameOK, Len: end + cl}
	case dir == dissect.DirC2S:
		return dissect.Frame{Status: dissect.FrameOK, Len: end}
	}
	if len(buf)-end > MaxHTTPBody {
		return dissect.Frame{Status: dissect.FrameLost, Reason: "heartbeat: close-delimited body longer than " + strconv.Itoa(MaxHTTPBody) + " bytes"}
	}
	return dissect.Frame{Status: dissect.FrameNeedMore} // body until close
}

// FrameAtEnd is asked about the bytes left in a direction when it ends (FIN,
// RST or the end of the capture): an HTTP/0.9 response or a close-delimited
// body is complete then.
func (h *Heartbeat) FrameAtEnd(dir dissect.Dir, buf []byte) dissect.Frame {
	if len(buf) == 0 {
		return dissect.Frame{Status: dissect.FrameNeedMore}
	}
	if f := h.Frame(dir, buf, false); f.Status != dissect.FrameNeedMore || f.Len > len(buf) {
		// A message whose length is known and not reached (a
		// Content-Length body) is cut, not ended: DecodeCut shows it.
		return f
	}
	if len(buf) <= MaxHTTPHeader+MaxHTTPBody && lengthUnknown(dir, buf) {
		// Cut where no length says how much was due (a head without its
		// empty line, a chunked body). DecodeCut shows it as far as it
		// goes; a length past any message Frame accepts says it is not
		// known (nothing is allocated by it).
		return dissect.Frame{Status: dissect.FrameNeedMore, Len: len(buf) + wireUnknown}
	}
	if dir == dissect.DirS2C && len(buf) <= MaxHTTPHeader+MaxHTTPBody {
		return dissect.Frame{Status: dissect.FrameOK, Len: len(buf)}
	}
	return dissect.Frame{Status: dissect.FrameLost, Reason: "heartbeat: incomplete HTTP message at the end of the stream"}
}

// wireUnknown, added to the bytes there are, is the wire length of a cut
// message whose length nothing gave: more than Frame ever frames.
const wireUnknown = MaxHTTPHeader + MaxHTTPBody + 1

// lengthUnknown tells whether buf, an HTTP message that Frame could not
// end, was cut where nothing gives its length: its head is unfinished (a
// request's line included), or its body is chunked. A response without
// "HTTP/" (HTTP/0.9) and a body delimited by the close end with the
// connection, and are whole.
func lengthUnknown(dir dissect.Dir, buf []byte) bool {
	if dir == dissect.DirS2C && !startsHTTP(buf) {
		return false
	}
	end := headEnd(buf)
	if end < 0 {
		return true
	}
	_, chunked, _ := bodyFraming(buf[:end])
	return chunked
}

func (h *Heartbeat) needHead(buf []byte) dissect.Frame {
	if len(buf) >= MaxHTTPHeader {
		return dissect.Frame{Status: dissect.FrameLost, Reason: "heartbeat: HTTP head longer than " + strconv.Itoa(MaxHTTPHeader) + " bytes"}
	}
	return dissect.Frame{Status: dissect.FrameNeedMore}
}

func startsHTTP(b []byte) bool {
	const p = "HTTP/"
	n := min(len(b), len(p))
	return string(b[:n]) == p[:n]
}

// headEnd is the length of the head including its empty line, or -1.
func headEnd(b []byte) int {
	lim := min(len(b), MaxHTTPHeader)
	for i := 0; i < lim; {
		j := bytes.IndexByte(b[i:lim], '\n')
		if j < 0 {
			break
		}
		i += j + 1 // past a line's end: an empty line next ends the head
		switch {
		case i < lim && b[i] == '\n':
			return i + 1
		case i+1 < lim && b[i] == '\r' && b[i+1] == '\n':
			return i + 2
		}
	}
	return -1
}

func noBodyStatus(b []byte) bool {
	if len(b) < 12 {
		return false
	}
	code := string(b[9:12])
	return code[0] == '1' || code == "204" || code == "304"
}

// bodyFraming reads Content-Length and Transfer-Encoding from a head.
func bodyFraming(head []byte) (cl int, chunked, hasCL bool) {
	for _, line := range bytes.Split(head, []byte("\n")) {
		k, v, ok := bytes.Cut(bytes.TrimRight(line, "\r"), []byte(":"))
		if !ok {
			continue
		}
		v = bytes.TrimSpace(v)
		switch strings.ToLower(string(bytes.TrimSpace(k))) {
		case "content-length":
			n, err := strconv.Atoi(string(v))
			if err != nil || n < 0 {
				n = -1
			}
			cl, hasCL = n, true
		case "transfer-encoding":
			chunked = bytes.Contains(bytes.ToLower(v), []byte("chunked"))
		}
	}
	return
}

// chunkedLen is the length of a chunked body at the front of b.
func chunkedLen(b []byte) (int, dissect.FrameStatus) {
	off := 0
	for {
		if off > MaxHTTPBody {
			return 0, dissect.FrameLost
		}
		eol := bytes.IndexByte(b[off:], '\n')
		if eol < 0 {
			if len(b)-off > 64 {
				return 0, dissect.FrameLost
			}
			return 0, dissect.FrameNeedMore
		}
		line := bytes.TrimSpace(b[off : off+eol])
		if i := bytes.IndexByte(line, ';'); i >= 0 {
			line = line[:i]
		}
		n, err := strconv.ParseUint(string(line), 16, 32)
		if err != nil || n > MaxHTTPBody {
			return 0, dissect.FrameLost
		}
		off += eol + 1
		if n == 0 { // last chunk; then trailers until an empty line
			for {
				eol := bytes.IndexByte(b[off:], '\n')
				if eol < 0 {
					return 0, dissect.FrameNeedMore
				}
				empty := len(bytes.TrimSpace(b[off:off+eol])) == 0
				off += eol + 1
				if empty {
					return off, dissect.FrameOK
				}
				if off > MaxHTTPBody {
					return 0, dissect.FrameLost
				}
			}
		}
		off += int(n)
		if len(b) < off+1 {
			return 0, dissect.FrameNeedMore
		}
		if b[off] == '\r' {
			off++
		}
		if len(b) < off+1 {
			return 0, dissect.FrameNeedMore
		}
		if b[off] != '\n' {
			return 0, dissect.FrameLost
		}
		off++
	}
}

// Decode dissects one heartbeat HTTP message.
func (h *Heartbeat) Decode(p *dissect.PDU, data []byte, m dissect.Meta) {
	h.DecodeCut(p, data, len(data), m)
}

// DecodeCut is Decode for a message the capture cut (by a gap or by the
// connection's end): wireLen is its length on the wire, the length Frame
// asked for (a head and a Content-Length body), and data holds the first
// len(data) bytes. What is there is decoded as usual; the part the bytes
// end in (a header line, a parameter, the body) may be missing the rest of
// itself and is Truncated, with an expert item saying how much of the
// message the capture holds, and the Info ends in "[cut: N of M bytes]"
// as SLP's does. A salt cut short is still a secret (FlagSensitive, for
// --redact) but is not learned: keys are not checked against a piece of
// one. Parameters after the cut are not reported absent.
func (h *Heartbeat) DecodeCut(p *dissect.PDU, data []byte, wireLen int, m dissect.Meta) {
	c := dissect.Begin(p, Registry.Root(), data, wireLen)
	p.Dir = m.Dir
	c.Open(FieldHeartbeat, len(data))
	if m.Dir == dissect.DirC2S {
		h.decodeRequest(&c, p, data, m)
	} else {
		h.decodeResponse(&c, p, data)
	}
	defer func() {
		if m.Dir == dissect.DirC2S {
			h.req.End(dissect.End{}, &outcomes, h.Later) // a second request: the first is no longer waited for
			h.req.Hold(p, m, kindRequest)
		} else {
			h.req.Answer(p, m, &outcomes, h.Later)
		}
	}()
	if p.Cut() && !c.Failed() {
		// The bytes end between two parts: the one due next is missing.
		f := FieldHBBody
		if headEnd(data) < 0 {
			f = FieldHBHeader
		}
		c.Fail(f, cutMsg(0, len(data), wireLen))
	}
	c.Finish()
	if wireLen-len(data) >= wireUnknown {
		p.Info += " [cut: " + strconv.Itoa(len(data)) + " bytes, length unknown]"
		return
	}
	p.Info += cutNote(len(data), wireLen)
}

// cutMsg is the truncated expert's text for a part of a cut heartbeat
// message: n of its bytes are there, the message has have of its wire bytes
// (have+wireUnknown for a message whose length nothing gave: FrameAtEnd).
func cutMsg(n, have, wire int) string {
	where := "before this part"
	if n > 0 {
		where = "after " + strconv.Itoa(n) + " bytes of this part"
	}
	of := strconv.Itoa(have) + " of its " + strconv.Itoa(wire) + " bytes captured"
	if wire-have >= wireUnknown {
		of = strconv.Itoa(have) + " bytes captured, and nothing says how many were due"
	}
	return "the message was cut (by a gap or the connection's end) " + where + ": " + of
}

// putHB adds f over the next n bytes with value v, as Cursor.Field does; but
// in a cut message a part that runs to the end of the bytes (nothing after
// it says where it ends: no line end, no '&') may be missing the rest of
// itself, and is added Truncated.
func putHB(c *dissect.Cursor, f *dissect.Field, n int, v dissect.Value) int32 {
	if !c.P.Cut() || c.Failed() || n != c.Remaining() {
		return c.Field(f, n, v)
	}
	i := c.Fail(f, cutMsg(n, len(c.P.Data), c.P.WireLen))
	if i > 0 {
		c.P.Nodes[i].Value = v
	}
	return i
}

// lineHB adds a line of eol bytes' line end: without one, at the end of a
// cut message, it is Truncated (putHB).
func lineHB(c *dissect.Cursor, f *dissect.Field, line []byte, eol int) int32 {
	if eol > 0 {
		return c.Field(f, len(line)+eol, dissect.B(line))
	}
	return putHB(c, f, len(line), dissect.B(line))
}

func lineAt(b []byte, off int) (line []byte, eolLen int) {
	rest := b[off:]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		return rest, 0
	}
	if i > 0 && rest[i-1] == '\r' {
		return rest[:i-1], 2
	}
	return rest[:i], 1
}

func (h *Heartbeat) decodeRequest(c *dissect.Cursor, p *dissect.PDU, data []byte, m dissect.Meta) {
	line, eol := lineAt(data, 0)
	method, rest, _ := bytes.Cut(line, []byte(" "))
	target, version, hasVer := bytes.Cut(rest, []byte(" "))
	ln := c.Open(FieldHBLine, len(line)+eol)
	if ln > 0 {
		p.Nodes[ln].Value = dissect.B(line)
	}
	putHB(c, FieldHBMethod, len(method), dissect.B(method))
	if len(rest) > 0 || len(line) > len(method) {
		c.Field(FieldHBSeparator, 1, dissect.S(" "))
	}
	path, query, hasQ := bytes.Cut(target, []byte("?"))
	putHB(c, FieldHBPath, len(path), dissect.B(path))
	var params []param
	if hasQ {
		c.Field(FieldHBSeparator, 1, dissect.S("?"))
		params = h.params(c, p, query, params)
	}
	cut := p.Cut()
	if hasVer {
		c.Field(FieldHBSeparator, 1, dissect.S(" "))
		putHB(c, FieldHTTPVersion, len(version), dissect.B(version))
	} else if !cut || eol > 0 {
		p.Info = "Heartbeat " + string(method) + " (HTTP/0.9)"
	}
	if eol > 0 {
		c.Take(FieldHBEOL, eol)
	}
	c.Close()
	off := len(line) + eol
	end := headEnd(data)
	if hasVer && end < 0 && cut {
		end = len(data) // the head is cut: its lines as far as they go
	}
	if hasVer && end > 0 {
		for off < end {
			l, e := lineAt(data, off)
			if len(l) == 0 && e > 0 {
				c.Take(FieldHBEOL, e)
				off += e
				break
			}
			lineHB(c, FieldHBHeader, l, e)
			off += len(l) + e
		}
		if len(data) > off && !c.Failed() {
			body := data[off:]
			bn := c.Open(FieldHBBody, len(body))
			if bn > 0 {
				p.Nodes[bn].Value = dissect.B(body)
			}
			if _, chunked, _ := bodyFraming(data[:off]); chunked {
				params = h.chunkedParams(c, p, bn, body, params)
			} else {
				params = h.params(c, p, bytes.TrimRight(body, "\r\n"), params)
				if r := c.Remaining(); r > 0 && c.Off() < len(data) {
					c.Take(FieldHBEOL, r)
				}
			}
			c.Close()
		}
	}
	// Missing parameters and the salt.
	var port, salt string
	whole := true // the salt is all there
	for _, pr := range params {
		switch pr.key {
		case "port":
			if !pr.cut {
				port = pr.val
			}
		case "salt":
			salt, whole = pr.val, !pr.cut
		}
	}
	for _, k := range []string{"port", "max", "name", "public", "version", "salt", "users"} {
		if cut {
			break // the parameters after the cut are unknown, not absent
		}
		found := false
		for _, pr := range params {
			if pr.key == k {
				found = true
			}
		}
		if !found {
			c.Expert(0, ExpertHBMissing, "classic.heartbeat: parameter "+k+" is absent")
		}
	}
	if salt != "" {
		// The line (or form body) holding the salt is a secret as a whole.
		for i := range p.Nodes {
			if n := &p.Nodes[i]; (n.Field == FieldHBLine || n.Field == FieldHBBody || n.Field == FieldHBDechunked) && bytes.Contains(n.Value.B, []byte(salt)) {
				n.Flags |= dissect.FlagSensitive
			}
		}
	}
	if salt != "" && whole && h.sess != nil {
		ip, _ := splitHostPort(m.Client)
		h.sess.AddSalt(ip, port, salt, m.Frame)
	}
	p.Message = "Heartbeat"
	if p.Info == "" {
		p.Info = "Heartbeat " + string(method)
	}
	for _, pr := range params {
		if pr.key == "name" {
			p.Info += " " + strconv.Quote(pr.val)
			break // the first: a name per parameter would make Info grow with their square
		}
	}
	if port != "" {
		p.Info += ", port " + port
	}
	if salt != "" {
		p.Info += ", salt exposed"
	}
}

type param struct {
	key, val string
	cut      bool // the capture ends inside it
	at, n    int  // where its pair lies in the text it was read from
}

var paramFields = map[string]*dissect.Field{
	"port": FieldHBPort, "max": FieldHBMax, "name": FieldHBName, "public": FieldHBPublic, "version": FieldHBVersion,
	"salt": FieldHBSalt, "users": FieldHBUsers, "software": FieldHBSoftware, "web": FieldHBWeb,
}

var paramMeaning = map[string]string{
	"port": "the port players connect to", "max": "maximum players", "name": "the server's name in the list",
	"public": "shown in the public list (True/False, case-sensitive)", "version": "protocol version, should be 7",
	"salt": "16 random base-62 characters; keys are md5(salt + name): must stay secret", "users": "players online now",
	"software": "server software", "web": "accepts ClassiCube web clients",
}

// params dissects a query string (or form body) of key=value pairs, as
// many as there are: each pair is at least one byte and a separator of
// the message's bytes, which the framer bounds (MaxHTTPHeader,
// MaxHTTPBody), so nothing grows but with bytes that exist.
func (h *Heartbeat) params(c *dissect.Cursor, p *dissect.PDU, q []byte, out []param) []param {
	return h.paramsOf(c, p, q, -1, false, out)
}

// paramsOf is params on the wire (gen < 0: each pair is the cursor's next
// bytes) or, under the generated node gen, on text the message holds only
// in pieces (a de-chunked body): each pair a generated node. cutEnd says
// that text ends where the capture cut the message: its last pair may lack
// the rest of its value.
func (h *Heartbeat) paramsOf(c *dissect.Cursor, p *dissect.PDU, q []byte, gen int32, cutEnd bool, out []param) []param {
	at := 0
	for len(q) > 0 {
		pair, rest, more := bytes.Cut(q, []byte("&"))
		k, v, _ := bytes.Cut(pair, []byte("="))
		key, _ := urlDecode(k)
		val, ok := urlDecode(v)
		f, known := paramFields[key]
		if !known {
			f = FieldHBParam
		}
		// In a cut message, a pair that runs to the end may lack the rest of its value.
		var open bool
		var i int32
		var where string
		if gen < 0 {
			open = c.P.Cut() && !c.Failed() && len(pair) == c.Remaining()
			i = putHB(c, f, len(pair), dissect.S(val))
			if i > 0 {
				where = " at offset " + strconv.Itoa(int(p.Nodes[i].Offset))
			}
		} else {
			open = cutEnd && !more
			i = p.AddGenerated(gen, f, dissect.S(val), "")
			where = " at offset " + strconv.Itoa(at) + " of the de-chunked body"
		}
		if i > 0 {
			if !known {
				p.Nodes[i].Key = sanitizeKey(key) // 0: a Lite PDU's root, which keeps its own name
			}
			t := strconv.Quote(val)
			if mn := paramMeaning[key]; mn != "" {
				t += ": " + mn
			}
			p.Nodes[i].Text = t
			if !ok {
				c.Expert(i, ExpertHBEncoding, "classic.heartbeat."+key+where+": a %-escape is not two hex digits")
			}
			if key == "salt" {
				p.Nodes[i].Flags |= dissect.FlagSensitive
				c.Expert(i, ExpertSaltExposed, "classic.heartbeat.salt"+where+": the salt crossed the network in clear text; anyone holding it can make valid keys for any name")
				if !base62(val) && !open {
					c.Expert(i, ExpertHBSalt, "classic.heartbeat.salt: "+strconv.Itoa(len(val))+" characters, expected 16 base-62 characters")
				}
			}
		}
		out = append(out, param{key, val, open, at, len(pair)})
		if more && gen < 0 {
			c.Field(FieldHBSeparator, 1, dissect.S("&"))
		}
		at += len(pair) + 1
		q = rest
	}
	return out
}

// chunkedParams dissects a chunked form body (Transfer-Encoding: chunked):
// its size lines, pieces and line ends on the wire, then the pieces joined
// as a generated de-chunked body under bn, the body's node, with the
// parameters read from it as generated nodes under that (a pair, the salt
// too, may be split between two pieces). Each piece holding a byte of a
// salt is a secret as a whole. A body cut short is de-chunked as far as it
// goes; its last pair may lack the rest of its value (and a salt cut so is
// not learned).
func (h *Heartbeat) chunkedParams(c *dissect.Cursor, p *dissect.PDU, bn int32, body []byte, out []param) []param {
	type piece struct {
		node  int32
		at, n int // in the de-chunked body
	}
	var joined []byte
	var pieces []piece
	complete := false
	off := 0
	for off < len(body) && !c.Failed() {
		l, e := lineAt(body, off)
		size := bytes.TrimSpace(l)
		if i := bytes.IndexByte(size, ';'); i >= 0 {
			size = size[:i]
		}
		n, err := strconv.ParseUint(string(size), 16, 32)
		if e == 0 {
			putHB(c, FieldHBTransfer, len(l), dissect.B(l))
			break
		}
		ti := c.Field(FieldHBTransfer, len(l)+e, dissect.B(l))
		off += len(l) + e
		if err != nil || n > MaxHTTPBody {
			c.Malformed(ti, dissect.ExpertMalformed, "classic.heartbeat.chunk_framing at offset "+strconv.Itoa(int(p.Nodes[max(ti, 0)].Offset))+": not a chunk size in hex")
			break
		}
		if n == 0 {
			// The last chunk: trailer lines until an empty one.
			for off < len(body) {
				l, e := lineAt(body, off)
				if len(l) == 0 && e > 0 {
					c.Take(FieldHBEOL, e)
					off += e
					complete = true
					break
				}
				lineHB(c, FieldHBHeader, l, e)
				off += len(l) + e
			}
			break
		}
		k := min(int(n), len(body)-off)
		di := putHB(c, FieldHBChunk, k, dissect.B(body[off:off+k]))
		pieces = append(pieces, piece{di, len(joined), k})
		joined = append(joined, body[off:off+k]...)
		off += k
		if k < int(n) {
			break
		}
		if _, e := lineAt(body, off); e > 0 && (body[off] == '\n' || body[off] == '\r') {
			c.Take(FieldHBEOL, e)
			off += e
		}
	}
	if r := c.Remaining(); r > 0 && !c.Failed() {
		putHB(c, FieldHBTransfer, r, dissect.B(body[len(body)-r:]))
	}
	dn := p.AddGenerated(bn, FieldHBDechunked, dissect.B(joined), "")
	from := len(out)
	out = h.paramsOf(c, p, bytes.TrimRight(joined, "\r\n"), dn, !complete, out)
	for _, pr := range out[from:] {
		if pr.key != "salt" {
			continue
		}
		for _, pc := range pieces {
			if pc.node > 0 && pc.at < pr.at+pr.n && pr.at < pc.at+pc.n {
				p.Nodes[pc.node].Flags |= dissect.FlagSensitive
				p.Nodes[bn].Flags |= dissect.FlagSensitive
			}
		}
	}
	return out
}

func sanitizeKey(k string) string {
	b := []byte(k)
	for i, ch := range b {
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b)
}

func base62(s string) bool {
	if len(s) != 16 {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9') {
			return false
		}
	}
	return true
}

// urlDecode decodes %XX and '+'; ok is false when an escape is bad (kept
// as is).
func urlDecode(b []byte) (string, bool) {
	if bytes.IndexByte(b, '%') < 0 && bytes.IndexByte(b, '+') < 0 {
		return string(b), true
	}
	out := make([]byte, 0, len(b))
	ok := true
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '+':
			out = append(out, ' ')
		case b[i] == '%' && i+2 < len(b)+0 && i+2 <= len(b)-1 && isHex(b[i+1]) && isHex(b[i+2]):
			out = append(out, unhex(b[i+1])<<4|unhex(b[i+2]))
			i += 2
		case b[i] == '%':
			ok = false
			out = append(out, '%')
		default:
			out = append(out, b[i])
		}
	}
	return string(out), ok
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func (h *Heartbeat) decodeResponse(c *dissect.Cursor, p *dissect.PDU, data []byte) {
	p.Message = "Heartbeat Response"
	if !startsHTTP(data) {
		body := bytes.TrimSpace(data)
		i := c.Field(FieldHBPlayURL, len(data), dissect.B(body))
		_ = i
		p.Info = "Heartbeat Response (HTTP/0.9) " + strconv.Quote(string(body))
		return
	}
	line, eol := lineAt(data, 0)
	sl := lineHB(c, FieldHBStatus, line, eol)
	code := 0
	if len(line) >= 12 {
		code, _ = strconv.Atoi(string(line[9:12]))
	}
	if sl >= 0 {
		p.AddGenerated(sl, FieldHBCode, dissect.U(uint64(code)), "")
		if code >= 400 || code == 0 {
			c.Expert(sl, ExpertHBStatus, "classic.heartbeat.status_line at offset 0: "+strconv.Quote(string(line)))
		}
	}
	off := len(line) + eol
	end := headEnd(data)
	if end < 0 {
		end = len(data)
	}
	for off < end {
		l, e := lineAt(data, off)
		if len(l) == 0 && e > 0 {
			c.Take(FieldHBEOL, e)
			off += e
			break
		}
		lineHB(c, FieldHBHeader, l, e)
		off += len(l) + e
	}
	_, chunked, _ := bodyFraming(data[:off])
	var url []byte
	if chunked {
		for off < len(data) {
			l, e := lineAt(data, off)
			c.Field(FieldHBTransfer, len(l)+e, dissect.B(l))
			off += len(l) + e
			n, err := strconv.ParseUint(string(bytes.TrimSpace(l)), 16, 32)
			if err != nil || n == 0 || off+int(n) > len(data) {
				break
			}
			c.Field(FieldHBBody, int(n), dissect.B(data[off:off+int(n)]))
			url = append(url, data[off:off+int(n)]...)
			off += int(n)
			_, e2 := lineAt(data, off)
			if e2 > 0 {
				c.Take(FieldHBEOL, e2)
				off += e2
			}
		}
		if r := len(data) - off; r > 0 {
			putHB(c, FieldHBTransfer, r, dissect.Value{})
		}
	} else if off < len(data) {
		url = data[off:]
		putHB(c, FieldHBBody, len(url), dissect.B(url))
	}
	url = bytes.TrimSpace(url)
	if code >= 200 && code < 300 && len(url) > 0 && !p.Cut() { // a cut URL is not the URL
		p.AddGenerated(0, FieldHBPlayURL, dissect.S(string(url)), "")
	}
	p.Info = "Heartbeat Response " + strconv.Itoa(code)
	if len(url) > 0 && len(url) < 200 {
		p.Info += " " + strconv.Quote(string(url))
	}
}

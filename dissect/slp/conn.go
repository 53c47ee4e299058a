package slp

import (
	"sync"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/inflate"
	"github.com/mcdissect/mcdissect/protocols"
)

// Conn is the state of one TCP connection carrying Server List Ping: what
// framing and decoding have learnt (state, protocol version, compression,
// encryption) and the requests waiting for their responses. One Conn per
// connection; it is not safe for concurrent use.
type Conn struct {
	protocols.Defaults       // what it does not do
	fr                 track // framing's view
	// Later, when set, is a two-pass run's record of the requests given
	// up on (-2): the first pass notes how each ended, the second shows
	// the link when it gives up on one (GiveUp).
	Later *dissect.Later
	opts  Options
	// The decoding's memory, made at the first Decode: the pipeline keeps
	// one Conn for framing and another for decoding per connection, and
	// the framing one never needs it. On bench/realmix's capture (50,000
	// connections, many open at once) the framing Conns were 3/4 smaller
	// and the summary's live heap, which the collector scans over and over
	// under the soft memory limit, with them.
	*decoding
}

// decoding is a Conn's per-connection memory for decoding.
type decoding struct {
	dec track // decoding's view

	playNoted bool
	encNoted  bool
	player    string // the name Login Success gave, for Join Game (census)
	playerID  string // and its UUID, formatted
	java      javaState
	ibuf      []byte // inflated packets (inflateAll)
	// liteCut, when not -1: the Lite PDU being decoded reads an inflated
	// head only; its expert items from this index on are dropped
	liteCut   int
	statusReq dissect.Wait
	legacyReq dissect.Wait
	loginReq  dissect.Wait
	pings     [4]pingReq // pings waiting for their pong, oldest first
	nPings    int
	// early is a status response that came before any status request
	// (a server answering the handshake at once), waiting for the request
	// it answers; statusAsked: a status request was seen.
	early       dissect.Wait
	statusAsked bool

	// Buffers borrowed from spares for the connection's life (see borrow);
	// spare is the holder they came in, kept to give them back in.
	spare *spareBufs

	inf *inflate.Decoder // inflates compressed packets (inflateAll)

	// reused by the status JSON
	jp      jparser
	plain   []byte
	styled  []byte
	raw     []byte // a chat component's text as sent, § codes included
	scratch []byte
	dbuf    []byte
	vname   []byte // the status version name, for the Info column
	info    []byte // the status response's Info column, built here
}

// The kinds of request, which tell apart in a Later two requests of one
// frame (a Status Request and a Ping sent together).
const (
	kindStatus uint8 = 1 + iota
	kindLegacy
	kindPing
	kindLogin
	kindEarly // a status response waiting for its request
)

type pingReq struct {
	dissect.Wait
	payload uint64
}

// What a request's outcome adds to the trees: the status and legacy
// requests, the ping and Login Start, each with its response's links.
var (
	statusOutcomes = dissect.Outcomes{ResponseIn: FieldResponseIn, RequestIn: FieldRequestIn, Time: FieldTime,
		Missing: ExpertNoResponse, Closed: ExpertClosed, Early: ExpertEarly, Unlinked: ExpertUnlinked}
	pingOutcomes = dissect.Outcomes{ResponseIn: FieldResponseIn, RequestIn: FieldPingReqIn, Time: FieldRTT,
		Missing: ExpertNoResponse, Closed: ExpertClosed, Unlinked: ExpertUnlinked}
	loginOutcomes = dissect.Outcomes{ResponseIn: FieldResponseIn, RequestIn: FieldRequestIn, Time: FieldLoginTime,
		Missing: ExpertNoResponse, Closed: ExpertClosed, Unlinked: ExpertUnlinked}
)

// NewConn returns the state of a new connection.
func NewConn() *Conn {
	c := &Conn{}
	c.fr.reset()
	return c
}

// Options are a connection's settings from the command line; the
// pipeline gives the framing and the decoding Conn of a connection the
// same ones, before their first Frame or Decode.
type Options struct {
	// Keys opens encrypted Java sessions (--keylog): without them the
	// bytes after Encryption Response stay undissected.
	Keys *KeyLog
	// Version is the Java release ("1.20.4") of a session whose
	// handshake the capture does not have: its bytes are read as
	// packets of State from the first one on, with compression guessed
	// from the frames. Empty: such a session is resynchronised as a
	// status ping is, or left undissected.
	Version string
	// State is the state such a session is in: "play" (the default) or
	// "configuration".
	State string
}

// NewConnWith returns the state of a new connection with options o.
func NewConnWith(o Options) *Conn {
	c := &Conn{opts: o}
	c.fr.keys = o.Keys
	c.fr.reset()
	return c
}

// decoder makes the decoding's memory at the first use.
func (c *Conn) decoder() {
	if c.decoding == nil {
		c.decoding = &decoding{liteCut: -1}
		c.dec.keys = c.opts.Keys
		c.dec.reset()
	}
}

// Frame answers how long the PDU at the front of buf is, for the
// reassembler: FrameOK with its length, FrameNeedMore (with the length
// needed when known), FrameSkip with a reason while it looks for a frame
// boundary after missing bytes, or FrameLost with a reason when the rest of
// this direction cannot be framed (encrypted, an impossible length, a gap in
// the login or play state).
//
// FrameOK means the reassembler consumes those bytes: Frame advances its
// own copy of the connection state (handshake next state, Set Compression,
// Encryption Response) then, so it must not be asked twice about the same
// PDU. afterGap says bytes are missing before buf: the framer resyncs
// (resync.go) unless buf is recognisably the start of the conversation
// (the capture missed only the SYN).
func (c *Conn) Frame(dir dissect.Dir, buf []byte, afterGap bool) dissect.Frame {
	i := di(dir)
	t := &c.fr
	d := &t.d[i]
	if d.lost {
		return dissect.Frame{Status: dissect.FrameLost, Reason: d.reason}
	}
	if afterGap && c.opts.Version != "" && !d.started && !d.seen && !t.hsSeen {
		// a session picked up mid-way whose version the user named: read
		// from the first bytes on as configuration or play packets
		t.midway(i)
		afterGap = false
	}
	if afterGap && !t.resyncing[i] {
		switch {
		case d.started || d.seen:
			// The direction had begun (perhaps only an incomplete PDU):
			// the bytes after the gap are somewhere inside it.
			if !t.canResync(i) {
				return c.lose(d, "bytes missing from the stream in the "+phaseName(d.phase)+" state: Server List Ping has no boundary to resync on there, the rest of this direction is not dissected")
			}
			t.resyncing[i] = true
		case i == 0:
			switch Detect(buf) {
			case DetectNeedMore:
				return dissect.Frame{Status: dissect.FrameNeedMore}
			case DetectNo:
				t.resyncing[i] = true
			}
		case t.canResync(i):
			t.resyncing[i] = true
		}
	}
	if t.resyncing[i] {
		return c.resync(i, buf)
	}
	return c.frameNow(i, buf)
}

// frameNow frames the PDU at the front of buf, which starts at a boundary.
func (c *Conn) frameNow(i int, buf []byte) dissect.Frame {
	d := &c.fr.d[i]
	d.seen = true
	if d.enc {
		if d.cfb == nil {
			return c.lose(d, "encrypted: the client sent Encryption Response, every later byte is AES/CFB8 ciphertext"+c.fr.keyHint())
		}
		return c.frameEncrypted(i, buf)
	}
	r := c.fr.frameAt(i, buf)
	switch r.st {
	case dissect.FrameOK:
		c.fr.advance(i, r.k, buf[:r.n])
		return dissect.Frame{Len: r.n, Status: dissect.FrameOK}
	case dissect.FrameLost:
		return c.lose(d, r.reason)
	}
	return dissect.Frame{Len: r.n, Status: r.st}
}

// frameEncrypted frames the ciphertext at the front of buf with a copy of
// the direction's cipher, and commits the cipher to the PDU it consumes.
//
// The direction's first frame is checked further (firstDecrypted): with a
// wrong secret its length is as likely to be a plausible one as not, and
// framing would wait for bytes that never come; the reason then says that
// the key may be wrong.
func (c *Conn) frameEncrypted(i int, buf []byte) dissect.Frame {
	d := &c.fr.d[i]
	var hdr [16]byte
	n := copy(hdr[:], buf)
	try := *d.cfb
	try.decrypt(hdr[:n], hdr[:n])
	r := c.fr.frameAt(i, hdr[:n])
	if r.st == dissect.FrameLost {
		return c.lose(d, r.reason+" (decrypted)"+c.fr.wrongKey(i))
	}
	if !d.opened && (r.st == dissect.FrameOK || r.n > 0) {
		switch why, sure := c.fr.firstDecrypted(i, hdr[:min(n, max(r.n, 0))]); {
		case why != "":
			return c.lose(d, why+c.fr.wrongKey(i))
		case !sure && n < len(hdr) && r.st != dissect.FrameOK:
			return dissect.Frame{Status: dissect.FrameNeedMore} // ask again with more bytes
		}
	}
	switch {
	case r.st == dissect.FrameNeedMore && r.n == 0:
		return dissect.Frame{Status: dissect.FrameNeedMore}
	case r.n > len(buf):
		return dissect.Frame{Len: r.n, Status: dissect.FrameNeedMore}
	}
	total := r.n
	plain := make([]byte, total)
	d.cfb.decrypt(plain, buf[:total])
	d.opened = true
	c.fr.advance(i, kModern, plain)
	return dissect.Frame{Len: total, Status: dissect.FrameOK}
}

func (c *Conn) lose(d *dirState, reason string) dissect.Frame {
	d.lost, d.reason = true, reason
	return dissect.Frame{Status: dissect.FrameLost, Reason: reason}
}

// Gap tells the decoder that bytes of a direction are missing: a
// request still waiting when the server's bytes were lost has lost its
// response, perhaps, rather than none (dissect.Wait.Gap).
func (c *Conn) Gap(dir dissect.Dir) {
	if c.decoding == nil || dir != dissect.DirS2C {
		return
	}
	c.statusReq.Gap()
	c.legacyReq.Gap()
	c.loginReq.Gap()
	for j := 0; j < c.nPings; j++ {
		c.pings[j].Gap()
	}
}

// Close ends every request still waiting for its response with how the
// connection ended (closed or reset by the server, given up by the
// client, cut by the capture's end), clearing its Pending mark: the
// pipeline calls it when the connection ends, before it reuses held PDUs.
// The Conn keeps no PDU after Close.
func (c *Conn) Close(e dissect.ConnEnd) {
	if c.decoding == nil {
		return
	}
	end := e.Request()
	c.statusReq.End(end, &statusOutcomes, c.Later)
	c.legacyReq.End(end, &statusOutcomes, c.Later)
	c.loginReq.End(end, &loginOutcomes, c.Later)
	for j := 0; j < c.nPings; j++ {
		c.pings[j].End(end, &pingOutcomes, c.Later)
	}
	c.nPings = 0
	c.unasked()
	c.giveBack()
}

// spareBufs are the decoding buffers of one PDU (the inflater's tables,
// JSON nodes, text scratch), handed from one PDU's decoding to the next:
// buffers kept per connection were allocated anew for each and held for
// its life. A sync.Pool, because the Conns of different connections may
// be decoded on different goroutines.
type spareBufs struct {
	inf                                            *inflate.Decoder
	jn                                             []jnode
	plain, styled, raw, scratch, dbuf, vname, info []byte
}

var spares = sync.Pool{New: func() any { return new(spareBufs) }}

// A hostile status response can grow the buffers far beyond what real
// ones need (16384 JSON values, a megabyte of Forge data): such buffers
// are dropped rather than kept for the next connection.
const (
	// maxSpareInflate: a bigger inflate buffer is not kept for the next
	// packet
	maxSpareInflate = 256 << 10
	maxSpareNodes   = 4096
	maxSpareBytes   = 64 << 10
)

func spare(b []byte) []byte {
	if cap(b) > maxSpareBytes {
		return nil
	}
	return b[:0]
}

// borrow takes spare buffers for the PDU being decoded, once, before the
// first use of any of them; DecodeCut gives them back at its end.
func (c *Conn) borrow() {
	if c.spare != nil {
		return
	}
	sp := spares.Get().(*spareBufs)
	c.spare = sp
	c.inf, c.jp.n = sp.inf, sp.jn
	c.plain, c.styled, c.raw, c.scratch, c.dbuf, c.vname, c.info = sp.plain, sp.styled, sp.raw, sp.scratch, sp.dbuf, sp.vname, sp.info
	*sp = spareBufs{}
}

// giveBack returns the buffers for another connection. Nothing decoded
// points into them: node values copy what they keep.
func (c *Conn) giveBack() {
	sp := c.spare
	if sp == nil {
		return
	}
	c.spare = nil
	jn := c.jp.n[:0]
	if cap(jn) > maxSpareNodes {
		jn = nil
	}
	*sp = spareBufs{inf: c.inf, jn: jn, plain: spare(c.plain), styled: spare(c.styled), raw: spare(c.raw), scratch: spare(c.scratch), dbuf: spare(c.dbuf), vname: spare(c.vname), info: spare(c.info)}
	spares.Put(sp)
	c.inf = nil
	c.jp = jparser{}
	c.plain, c.styled, c.raw, c.scratch, c.dbuf, c.vname, c.info = nil, nil, nil, nil, nil, nil, nil
}

// GiveUp stops holding p for its outcome: the pipeline calls it when it
// must output p before the outcome is known, for the reason r (too many
// records held behind it, or held as long as the hold allows). p says so;
// the Conn keeps no pointer to it, but remembers the request, so that its
// response still links back to it (request_in and the time), as
// Wireshark's single pass does.
func (c *Conn) GiveUp(p *dissect.PDU, r dissect.Release) {
	if c.decoding == nil {
		return
	}
	if c.statusReq.GiveUp(p, r, &statusOutcomes, c.Later) || c.legacyReq.GiveUp(p, r, &statusOutcomes, c.Later) || c.loginReq.GiveUp(p, r, &loginOutcomes, c.Later) {
		return
	}
	for j := 0; j < c.nPings; j++ {
		if c.pings[j].GiveUp(p, r, &pingOutcomes, c.Later) {
			return
		}
	}
	if c.early.P == p && p != nil {
		c.giveUpEarly(p, r)
	}
}

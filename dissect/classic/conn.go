package classic

import (
	"strconv"
	"strings"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
)

// Conn is the state of one Classic TCP connection: what the two sides
// announced (CPE), how far each direction was framed, and the level being
// sent. One Conn frames and decodes both directions of its connection; or
// two do, one framing and the other decoding the same PDUs in the same
// order (the pipeline frames and decodes on different goroutines). Decode
// reads nothing that only Frame writes: the negotiation it needs it
// observes itself, and a gap reaches it through Gap.
type Conn struct {
	protocols.Defaults // what it does not do
	sess               *Session
	n                  neg

	ext        [3][]extAnn // announced extensions per direction (dissect.DirC2S, DirS2C)
	extDeclare [3]int      // the count each side's ExtInfo announced, -1 before it
	agreed     uint64      // extensions with packets both sides announced, by pkt.extBit
	framed     [3]uint64   // bytes framed so far per direction
	resyncing  [3]bool     // after a gap, until a resync point is found
	packets    [3]uint64   // packets framed per direction

	level level

	// d is the packet being decoded, taken from decs at the first Decode
	// and given back at Close: a framing Conn never has one, and the
	// buffers go on to the next connection (most are short)
	d *dec

	// held are the ExtEntries waiting for the other side's list to say
	// whether it announced them too (agreed.go).
	held []heldExt
	// Later, when set, is a two-pass run's record of what the first pass
	// learned after it had to output an entry or a request (-2).
	Later *dissect.Later

	// ident is the client's identification waiting for the server's
	// answer; asked: it was seen (outcome.go).
	ident dissect.Wait
	asked bool
}

type extAnn struct {
	name string // lower case
	ver  uint32
}

// maxExtensions bounds the extensions remembered per side: a hostile peer
// announcing millions of ExtEntries costs no memory beyond this.
const maxExtensions = 256

// NewConn returns the state of a new connection. s may be nil (no heartbeat
// salts known); a Conn holds on to s to check verification keys.
func NewConn(s *Session) *Conn {
	c := &Conn{sess: s}
	c.extDeclare = [3]int{-1, -1, -1}
	return c
}

// Negotiated reports whether both sides announced the extension name
// (case-insensitive, as the modern client compares) and the version they
// agreed on, the lower of the two.
func (c *Conn) Negotiated(name string) (uint32, bool) {
	a, okA := findExt(c.ext[dissect.DirC2S], name)
	b, okB := findExt(c.ext[dissect.DirS2C], name)
	if !okA || !okB {
		return 0, false
	}
	return min(a, b), true
}

// CPE reports whether the client identified as a CPE client (unused byte 0x42).
func (c *Conn) CPE() bool { return c.n.cpe }

// findLower finds an extension by its lower-case name.
func findLower(l []extAnn, name string) (uint32, bool) {
	for _, e := range l {
		if e.name == name {
			return e.ver, true
		}
	}
	return 0, false
}

func findExt(l []extAnn, name string) (uint32, bool) {
	for _, e := range l {
		if strings.EqualFold(e.name, name) {
			return e.ver, true
		}
	}
	return 0, false
}

// observe updates the negotiation from one complete packet. It is
// idempotent (announcing an extension twice changes nothing), so both the
// framer and the decoder call it and a framer asked twice about the same
// bytes does no harm.
func (c *Conn) observe(dir dissect.Dir, b []byte) {
	if len(b) == 0 {
		return
	}
	switch {
	case b[0] == 0x00 && dir == dissect.DirC2S && len(b) == 131:
		c.n.cpe = b[130] == 0x42
	case b[0] == 0x10 && len(b) == 67:
		c.extDeclare[dir] = int(b[65])<<8 | int(b[66])
	case b[0] == 0x11 && len(b) == 69:
		name := strings.ToLower(trimPadded(b[1:65]))
		ver := uint32(b[65])<<24 | uint32(b[66])<<16 | uint32(b[67])<<8 | uint32(b[68])
		l := c.ext[dir]
		for i := range l {
			if l[i].name == name {
				l[i].ver = ver
				c.recompute()
				return
			}
		}
		if len(l) < maxExtensions {
			c.ext[dir] = append(l, extAnn{name, ver})
			c.recompute()
			// Announced by both sides now? Names are stored lower case.
			other := dissect.DirS2C
			if dir == dissect.DirS2C {
				other = dissect.DirC2S
			}
			if b, ok := extBits[name]; ok {
				if _, both := findLower(c.ext[other], name); both {
					c.agreed |= 1 << b
				}
			}
		}
	}
}

func trimPadded(b []byte) string {
	n := len(b)
	for n > 0 && (b[n-1] == ' ' || b[n-1] == 0) {
		n--
	}
	return string(b[:n])
}

func (c *Conn) recompute() {
	// Names are stored lower case: compare with lower-case constants.
	agreed := func(name string) (uint32, bool) {
		var v [3]uint32
		for _, d := range []dissect.Dir{dissect.DirC2S, dissect.DirS2C} {
			found := false
			for _, e := range c.ext[d] {
				if e.name == name {
					v[d], found = e.ver, true
					break
				}
			}
			if !found {
				return 0, false
			}
		}
		return min(v[1], v[2]), true
	}
	has := func(name string) bool { _, ok := agreed(strings.ToLower(name)); return ok }
	v2 := func(name string) bool { v, ok := agreed(strings.ToLower(name)); return ok && v >= 2 }
	cpe := c.n.cpe
	c.n = neg{
		cpe:            cpe,
		extPos:         has("ExtEntityPositions"),
		extBlocks:      has("ExtendedBlocks"),
		fastMap:        has("FastMap"),
		heldBlock:      has("HeldBlock"),
		extTex:         has("ExtendedTextures"),
		mapApp2:        v2("EnvMapAppearance"),
		blockDefsExt2:  v2("BlockDefinitionsExt"),
		mapAspect2:     v2("EnvMapAspect"),
		models2:        v2("CustomModels"),
		longerMessages: has("LongerMessages"),
		messageTypes:   has("MessageTypes"),
		extPlayerList2: v2("ExtPlayerList"),
	}
}

// lookup finds the packet for id in dir, or says why there is none.
func (c *Conn) lookup(dir dissect.Dir, id byte) (*pkt, string) {
	if p := c.known(dir, id); p != nil {
		return p, ""
	}
	if dir != dissect.DirC2S && dir != dissect.DirS2C {
		return nil, "unknown direction"
	}
	if p := tables[dir][id]; p != nil {
		return nil, "packet ID " + hex2(id) + " is a CPE " + p.ext + " packet but the client did not identify as a CPE client"
	}
	return nil, "packet ID " + hex2(id) + " is not a " + dirName(dir) + " packet"
}

// known is lookup without the reason. The resync's chain test calls it at
// every candidate offset of a stream picked up mid-way, where building the
// reason string cost a quarter of the summary's CPU on bench/realmix's
// capture of the real samples (concatstrings, then the GC).
func (c *Conn) known(dir dissect.Dir, id byte) *pkt {
	if dir != dissect.DirC2S && dir != dissect.DirS2C {
		return nil
	}
	p := tables[dir][id]
	if p == nil || p.ext != "" && !c.n.cpe {
		return nil
	}
	return p
}

func dirName(d dissect.Dir) string {
	if d == dissect.DirC2S {
		return "client→server"
	}
	return "server→client"
}

func hex2(b byte) string {
	const digits = "0123456789abcdef"
	return "0x" + string([]byte{digits[b>>4], digits[b&15]})
}

// pktLen is the length of the packet at the front of b, or -1 when more
// bytes are needed to tell (the identification's length follows from its
// protocol version byte).
func (c *Conn) pktLen(p *pkt, b []byte) int {
	if p.id == 0x00 {
		if len(b) < 2 {
			return -1
		}
		if b[1] <= 5 { // protocol 0.0.19a and older: no user type / unused byte
			return 130
		}
		return 131
	}
	return p.length(&c.n)
}

// Frame answers how long the packet at the front of buf is. The length of a
// Classic packet follows from its ID and direction, widened by what both
// sides negotiated (CPE). An unknown ID loses the framing: the answer is
// FrameLost, naming the ID and where it was.
//
// After a gap (afterGap, or any call until the framer has resynchronised)
// the framer looks for a position in buf where resyncRun consecutive
// plausible packets follow (3 client→server, 5 server→client) (or two that end exactly at the end of buf, or
// one that does at buf's start) and answers FrameSkip for the bytes before
// it; with no such position in resyncWindow bytes it gives up (FrameLost),
// before that it asks for more (FrameNeedMore).
//
// Frame updates the negotiation from the ExtInfo, ExtEntry and
// identification packets it frames; it must see each direction's packets in
// capture order (the reassembler's normal behaviour).
func (c *Conn) Frame(dir dissect.Dir, buf []byte, afterGap bool) dissect.Frame {
	if dir != dissect.DirC2S && dir != dissect.DirS2C {
		return dissect.Frame{Status: dissect.FrameLost, Reason: "classic: unknown direction"}
	}
	if afterGap {
		c.resyncing[dir] = true
		c.Gap(dir) // for a Conn that frames and decodes
	}
	if c.resyncing[dir] {
		return c.resync(dir, buf)
	}
	return c.frame(dir, buf)
}

// Gap tells the decoding side that bytes of dir were lost before the PDUs
// that follow. It is what Decode needs to know of a gap: a level the
// server was sending across it is not inflated (its data has a hole), it
// is reported. The pipeline calls it on the decoding Conn, in order with
// the PDUs, when a direction has a gap; a Conn that also frames has it
// called by Frame, and a second call changes nothing.
func (c *Conn) Gap(dir dissect.Dir) {
	if dir == dissect.DirS2C {
		c.level.gap = true
		c.ident.Gap()
	}
}

func (c *Conn) frame(dir dissect.Dir, buf []byte) dissect.Frame {
	if len(buf) == 0 {
		return dissect.Frame{Status: dissect.FrameNeedMore, Len: 1}
	}
	p, why := c.lookup(dir, buf[0])
	if p == nil {
		return dissect.Frame{Status: dissect.FrameLost, Reason: "unknown " + dirName(dir) + " packet ID " + hex2(buf[0]) +
			" at stream offset " + strconv.FormatUint(c.framed[dir], 10) + " (" + why + "): the rest of this direction is undissected"}
	}
	n := c.pktLen(p, buf)
	if n < 0 {
		// An identification whose version byte has not come: 131 bytes
		// (protocol 7, every client since 0.30) until it says 130, so
		// that one cut right after its ID is still decoded as cut.
		return dissect.Frame{Status: dissect.FrameNeedMore, Len: 131}
	}
	if len(buf) < n {
		return dissect.Frame{Status: dissect.FrameNeedMore, Len: n}
	}
	c.observe(dir, buf[:n])
	c.framed[dir] += uint64(n)
	c.packets[dir]++
	return dissect.Frame{Status: dissect.FrameOK, Len: n}
}

// resyncWindow is how many bytes after a gap the framer searches for a
// resync point before it gives up on the direction.
const resyncWindow = 8192

func (c *Conn) resync(dir dissect.Dir, buf []byte) dissect.Frame {
	for off := 0; off < len(buf); off++ {
		if !c.chainOK(dir, buf[off:], off == 0) {
			continue
		}
		c.resyncing[dir] = false
		if off == 0 {
			return c.frame(dir, buf)
		}
		c.framed[dir] += uint64(off)
		return dissect.Frame{Status: dissect.FrameSkip, Len: off,
			Reason: "resynchronised after a gap: " + strconv.Itoa(off) + " bytes before the next run of valid " + dirName(dir) + " packets"}
	}
	if len(buf) >= resyncWindow {
		c.resyncing[dir] = false
		return dissect.Frame{Status: dissect.FrameLost, Reason: "no run of valid " + dirName(dir) + " packets in the " +
			strconv.Itoa(len(buf)) + " bytes after a gap: the rest of this direction is undissected"}
	}
	return dissect.Frame{Status: dissect.FrameNeedMore}
}

// resyncRun is how many plausible packets in a row prove a resync point,
// per direction. Measured on random bytes (what the tail of lost level
// data looks like), TestResyncFalseBoundaries: client→server, whose 4 core
// IDs of 256 rarely parse, gives 1.6e-5 false boundaries per offset with
// runs of 2 and 2.4e-7 with 3; server→client, with 17 core IDs and short
// packets, 1.5e-3 with 2, 5.9e-5 with 3 (one false resync in 17 KB of
// junk), 1.7e-6 with 4 and none in 4 MiB with 5. So 3 and 5: a false
// boundary in under one gap in a thousand, while a real server, which
// sends a stream of packets, gives 5 in a row at once.
func resyncRun(dir dissect.Dir) int {
	if dir == dissect.DirS2C {
		return 5
	}
	return 3
}

// chainOK reports whether a resync point starts at b: resyncRun plausible
// packets in a row, or two (of minShortRun bytes together) that reach the
// end of b or a packet not all there yet, or (at the gap's exact end,
// atStart) one that ends exactly where b does: the end of what the sender
// wrote. One packet followed by the start of another proves nothing: a
// play-state keep-alive of the modern protocol on the same port
// (`0a 00 26` + 8 bytes) reads as a Classic Position Update followed by
// the first bytes of a Server Identification (slp-play-midstream.pcap).
func (c *Conn) chainOK(dir dissect.Dir, b []byte, atStart bool) bool {
	count, run, bytes := 0, resyncRun(dir), 0
	short := func(exact bool) bool {
		return count >= 2 && bytes >= minShortRun || atStart && exact && count >= 1
	}
	for count < run {
		if len(b) == 0 {
			return short(true)
		}
		p := c.known(dir, b[0])
		if p == nil {
			return false
		}
		n := c.pktLen(p, b)
		if n < 0 || n > len(b) {
			return short(false)
		}
		if !c.plausible(p, b[:n]) {
			return false
		}
		b = b[n:]
		count++
		bytes += n
	}
	return true
}

// minShortRun is the least a run cut short by the end of the bytes must
// cover: two one-byte packets (0x01, a ping, both ways) are two bytes that
// happen to be packet IDs, as a Server List Ping's `01 01` (next state,
// then a status request's length) is.
const minShortRun = 8

// plausible checks what a packet's bytes can be checked for without a
// context: strings of text, flag bytes with two values, lengths in range.
func (c *Conn) plausible(p *pkt, b []byte) bool {
	switch {
	case p.id == 0x00:
		if b[1] < 3 || b[1] > 7 {
			return false
		}
		return textOK(b[2:66]) && (len(b) < 130 || textOK(b[66:130]))
	case p.dir == dissect.DirC2S && p.id == 0x08:
		return c.n.heldBlock || b[1] == 0xff
	case p.dir == dissect.DirC2S && p.id == 0x0d:
		return (b[1] == 0xff || c.n.longerMessages && b[1] <= 1) && textOK(b[2:])
	case p.dir == dissect.DirS2C && p.id == 0x0d:
		return textOK(b[2:])
	case p.dir == dissect.DirC2S && p.id == 0x05:
		return b[7] <= 1
	case p.dir == dissect.DirS2C && p.id == 0x03:
		return int(b[1])<<8|int(b[2]) <= 1024 && b[1027] <= 100
	}
	off := 1
	for i := range p.items {
		it := &p.items[i]
		if it.cond != nil && !it.cond(&c.n) {
			continue
		}
		sz := it.k.size(&c.n)
		if it.k == kStr && off+sz <= len(b) && !textOK(b[off:off+sz]) {
			return false
		}
		off += sz
	}
	return true
}

// textOK: a 64-byte string field holds no control bytes but NUL padding.
func textOK(b []byte) bool {
	for _, ch := range b {
		if ch < 0x20 && ch != 0 || ch == 0x7f {
			return false
		}
	}
	return true
}

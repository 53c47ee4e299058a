package slp

import (
	"encoding/binary"
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/java"
)

// Resynchronisation after missing bytes, and on a stream the capture picked
// up mid-way. SLP has no marker: a frame is a VarInt length, and any byte
// reads as one. So the framer scans forward for an offset it can prove is a
// frame boundary, as Wireshark's heuristic resync does behind
// tcp_dissect_pdus: a VarInt length whose frame parses as a packet of the
// status state, which is the state of every short connection a capture
// loses bytes of (a status ping is one round trip). What proves a boundary:
//
//   - a status response whose lengths agree: length, 00, string length
//     that ends exactly where the frame does, then '{' (a random offset
//     passes this with odds of about 2^-24 or less);
//   - a handshake, whose fields must end exactly where its length says;
//   - a pong carrying the payload of a ping this connection's client sent;
//   - a packet of fixed form that proves little alone (a status request
//     `01 00`, a ping or pong `09 01` + 8 bytes), confirmed by what follows:
//     another such frame, or the end of what the sender wrote (the frame
//     ends where the captured bytes end, a segment boundary, as at the end
//     of the connection: clients and servers write one packet per write).
//
// Bytes before the boundary are skipped (reported undissected, with the
// reason); a stream whose handshake was not seen is read in the status
// state, and its packets carry slp.state.guessed.
//
// The configuration and play states are resynchronised when the handshake
// was seen (so the version's data is known) and the session is not
// encrypted: a boundary is a length whose frame holds a packet the
// version has in that direction, read to its last byte without a failure
// (strong when it has a body), or a compressed frame whose declared size
// is at least the threshold and whose body starts with a zlib header
// (weak: confirmed by the frame after it). The login state is not: its
// few packets have no form to prove, so a gap there loses the direction.

// proof is how far the bytes at an offset prove a frame boundary.
type proof uint8

const (
	prNo     proof = iota // not a frame of the state
	prNeed                // perhaps one: more bytes are needed to tell
	prWeak                // a frame of fixed form, to be confirmed
	prStrong              // a frame whose inner lengths or payload prove it
)

// probe tells whether b starts a frame of direction i in the status state
// (or a handshake, on the client side of a connection whose handshake was
// not seen): its length n (the total length needed, or 0, with prNeed).
func (t *track) probe(i int, b []byte) (int, proof) {
	n, pr := t.probe1(i, b)
	if pr == prNeed && n != 0 && n <= len(b) {
		return 0, prNo // the bytes are there, and are not a frame
	}
	return n, pr
}

func (t *track) probe1(i int, b []byte) (int, proof) {
	if t.d[i].phase == phPlay {
		return t.probePlay(i, b)
	}
	l, n, st := readVarInt(b)
	switch {
	case st == viShort && n < 3:
		return 0, prNeed
	case st != viOK || n > 3 || l < 1 || l > MaxFrameLength:
		// n > 3: a longer VarInt whose top bits fall off int32 can read
		// as a length in range (ff ff ff 80 30 as 2097151), which frameAt
		// refuses; a probe that took it asked for 2 MiB more (FuzzFrame).
		return 0, prNo
	}
	total := n + int(l)
	if len(b) < n+1 {
		return total, prNeed
	}
	id := b[n]
	switch {
	case id == 0x01:
		if l != 9 {
			return 0, prNo
		}
		if len(b) < total {
			return total, prNeed
		}
		if i == 1 && t.pingSent(binary.BigEndian.Uint64(b[n+1:])) {
			return total, prStrong
		}
		return total, prWeak
	case id != 0x00:
		return 0, prNo
	case i == 0 && l == 1:
		return total, prWeak // status request
	case i == 0:
		if t.hsSeen || l > 300 {
			return 0, prNo
		}
		if len(b) < total {
			if checkHandshake(b[n:]) == DetectNo {
				return 0, prNo
			}
			return total, prNeed
		}
		if checkHandshake(b[n:total]) != DetectYes {
			return 0, prNo
		}
		return total, prStrong
	}
	// a status response: length, 00, string length, '{'
	if l < 4 {
		return 0, prNo
	}
	s, m, st := readVarInt(b[n+1:])
	switch {
	case st == viShort && n+1+m == len(b):
		return total, prNeed
	case st != viOK || s < 2 || n+1+m+int(s) != total:
		return 0, prNo
	case len(b) <= n+1+m:
		return total, prNeed
	case b[n+1+m] != '{':
		return 0, prNo
	case len(b) < total:
		return total, prNeed
	}
	return total, prStrong
}

// pingSent tells whether the client sent a ping with payload v (framing's
// view: the client's ping is framed before the server's pong in capture
// order).
func (t *track) pingSent(v uint64) bool {
	for k := 0; k < t.nPings; k++ {
		if t.pings[k] == v {
			return true
		}
	}
	return false
}

// notePing remembers a ping the client sent, for pongs to prove their
// boundary with.
func (t *track) notePing(b []byte) {
	h, ok := parseHeader(b, false)
	if !ok || h.idOff < 0 || h.id != 1 || len(b) != h.idOff+h.idBytes+8 {
		return
	}
	if t.nPings == len(t.pings) {
		copy(t.pings[:], t.pings[1:])
		t.nPings--
	}
	t.pings[t.nPings] = binary.BigEndian.Uint64(b[h.idOff+h.idBytes:])
	t.nPings++
}

// canResync tells whether direction i may be resynchronised: only in the
// status state, or before any state is known.
func (t *track) canResync(i int) bool {
	if t.legacy == 1 || t.d[i].enc {
		return false
	}
	switch t.d[i].phase {
	case phStatus:
		return true
	case phPlay:
		return t.hsSeen && t.javaData() != nil
	case phHandshake:
		return !t.hsSeen
	}
	return false
}

// resync scans buf, the bytes of direction i after missing ones, for a
// boundary it can prove.
func (c *Conn) resync(i int, buf []byte) dissect.Frame {
	t := &c.fr
	for k := 0; k < len(buf); k++ {
		n, pr := t.probe(i, buf[k:])
		if pr == prWeak && k+n < len(buf) {
			// confirmed by the next frame, refuted when none starts there
			switch _, next := t.probe(i, buf[k+n:]); next {
			case prNo:
				pr = prNo
			case prNeed:
				pr, n = prNeed, 0 // how much the next frame needs is not known
			}
		}
		switch pr {
		case prNo:
			continue
		case prNeed:
			if t.d[i].phase == phPlay {
				// a frame that would run past the bytes there are is a
				// guess; a proven one later in them wins over it
				if k2 := t.provenAfter(i, buf, k+1); k2 > 0 {
					return c.skipTo(i, k2)
				}
			}
			if _, vn, _ := readVarInt(buf[k:]); k > 0 && len(buf)-k <= vn {
				// Only a length, at the end of what the sender wrote
				// after other bytes: a sender writes a packet at once
				// (or its length alone, mcutil), so this is not waited
				// for, and the bytes before it are not held back.
				continue
			}
			if k > 0 {
				return c.skipTo(i, k)
			}
			return dissect.Frame{Status: dissect.FrameNeedMore, Len: n}
		}
		if k > 0 {
			return c.skipTo(i, k)
		}
		// A boundary: the frame at the front is framed the usual way.
		t.resyncing[i] = false
		if !t.hsSeen && t.d[0].phase == phHandshake && !(i == 0 && isHandshakeFrame(buf)) {
			t.d[0].phase, t.d[1].phase = phStatus, phStatus
		}
		return c.frameNow(i, buf)
	}
	if len(buf) == 0 {
		return dissect.Frame{Status: dissect.FrameNeedMore}
	}
	return c.skipTo(i, len(buf))
}

func (c *Conn) skipTo(i, k int) dissect.Frame {
	what := "a status response, ping or pong"
	if i == 0 {
		what = "a handshake, status request or ping"
	}
	return dissect.Frame{Status: dissect.FrameSkip, Len: k,
		Reason: "resynchronising: " + strconv.Itoa(k) + " bytes before the next frame boundary that can be proved (" + what + ")"}
}

// isHandshakeFrame tells whether the whole of b is one handshake frame.
func isHandshakeFrame(b []byte) bool {
	l, n, st := readVarInt(b)
	return st == viOK && n+int(l) == len(b) && checkHandshake(b[n:]) == DetectYes
}

// DetectServer tells whether a server's first bytes open a Server List Ping
// connection: a status response whose lengths agree (length, 00, string
// length ending where the frame ends, '{'). It decides a connection whose
// client bytes did not (a handshake the capture lost).
func DetectServer(firstS2C []byte) Detection {
	var t track
	t.reset()
	t.hsSeen = true // a handshake is not a server packet
	switch n, pr := t.probe(1, firstS2C); {
	case pr == prNeed:
		return DetectNeedMore
	case pr == prStrong && firstS2C[n-1] == '}':
		return DetectYes
	}
	return DetectNo
}

// DetectPingPong tells whether client, all a client sent after bytes the
// capture lost, is one ping (`09 01` and 8 bytes of payload), and server,
// the server's bytes from the same point, starts with the pong that echoes
// it: the payload (a timestamp, or any 8 bytes) coming back unchanged is
// proof, where a ping or pong alone is not (on a port that is not SLP's,
// one frame of fixed form proves nothing, and the pong of a ping seen is
// known only once the ping has been framed).
func DetectPingPong(client, server []byte) Detection {
	if len(client) != 10 || client[0] != 9 || client[1] != 1 {
		return DetectNo
	}
	if len(server) < len(client) {
		return DetectNo
	}
	if string(server[:len(client)]) != string(client) {
		return DetectNo
	}
	return DetectYes
}

// provenAfter finds, from offset k on, a play frame boundary the bytes of
// buf prove (a strong frame, or a weak one followed by another frame),
// or returns 0.
func (t *track) provenAfter(i int, buf []byte, k int) int {
	for ; k < len(buf); k++ {
		n, pr := t.probe(i, buf[k:])
		switch {
		case pr == prStrong:
			return k
		case pr == prWeak && k+n < len(buf):
			if _, next := t.probe(i, buf[k+n:]); next == prStrong || next == prWeak {
				return k
			}
		case pr == prWeak && k+n == len(buf):
			return k // the frame ends where the sender's bytes do
		}
	}
	return 0
}

// javaData is the protocol data of the handshake's version, for
// resynchronising the configuration and play states (nil when none).
func (t *track) javaData() *java.Version {
	if !t.jtried {
		t.jtried = true
		if t.proto > 0 {
			t.jv, _ = java.ForProtocol(int(t.wire))
		}
	}
	return t.jv
}

// maxGuessWait bounds an uncompressed frame a resynchronisation waits for
// on a guess: in compressed framing such frames are under the threshold.
const maxGuessWait = 1 << 16

// probePlay tells whether b starts a configuration or play frame of
// direction i: its length n and how far the bytes prove it.
func (t *track) probePlay(i int, b []byte) (int, proof) {
	l, n, st := readVarInt(b)
	switch {
	case st == viShort && n < 3:
		return 0, prNeed
	case st != viOK || n > 3 || l <= 0 || l > MaxFrameLength:
		return 0, prNo
	}
	total := n + int(l)
	body := b[n:min(total, len(b))]
	more := total > len(b) // the frame goes on past the bytes there are
	if t.d[i].compress {
		dl, k, st := readVarInt(body)
		switch {
		case st == viShort && more:
			return total, prNeed
		case st != viOK:
			return 0, prNo
		case dl != 0:
			// a compressed packet: a size the threshold allows, a zlib header
			if dl < t.threshold || dl > MaxDataLength || k < len(body) && body[k] != 0x78 {
				return 0, prNo
			}
			if more || k >= len(body) {
				return total, prNeed
			}
			return total, prWeak
		}
		body = body[k:]
	}
	v := t.javaData()
	if v == nil {
		return 0, prNo
	}
	dir := dissect.DirC2S
	if i == 1 {
		dir = dissect.DirS2C
	}
	id, _, st := readVarInt(body)
	if st != viOK {
		if st == viShort && more {
			return total, prNeed
		}
		return 0, prNo
	}
	if !v.Knows(java.Play, dir, id) && !v.Knows(java.Config, dir, id) {
		return 0, prNo
	}
	if more {
		if l > maxGuessWait {
			return 0, prNo
		}
		return total, prNeed
	}
	for _, js := range [...]java.State{java.Play, java.Config} {
		if v.Reads(js, dir, body) {
			if len(body) >= 4 {
				return total, prStrong
			}
			return total, prWeak
		}
	}
	return 0, prNo
}

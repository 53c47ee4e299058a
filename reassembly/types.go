package reassembly

import (
	"net/netip"
	"time"
)

// Dir is the direction of a byte stream within a connection.
type Dir uint8

const (
	// ClientToServer is the stream sent by the client (the side that sent
	// the SYN, or the side guessed by the rule documented on ConnInfo).
	ClientToServer Dir = 0
	// ServerToClient is the stream sent by the server.
	ServerToClient Dir = 1
)

// String names the direction for debugging output.
func (d Dir) String() string {
	if d == ClientToServer {
		return "client->server"
	}
	return "server->client"
}

// Endpoint is one side of a TCP connection.
type Endpoint struct {
	IP   netip.Addr
	Port uint16
}

// ConnInfo describes one TCP connection. The pointer stays the same for the
// whole life of the connection, so handlers may keep it.
type ConnInfo struct {
	// Stream numbers connections 0, 1, 2... in order of their first
	// segment, like Wireshark's tcp.stream.
	Stream int
	// Client and Server are the two ends; see doc.go for how they are
	// chosen. A Factory may swap them before returning.
	Client, Server Endpoint
	// SawSYN tells whether a SYN was seen from either side.
	SawSYN bool
	// Frame and Time are the connection's latest frame and its capture
	// time: while a segment of it is fed, that segment's frame, which
	// decides whatever the handler is told then; in a sweep, an eviction
	// or Close, its own last frame.
	Frame uint64
	Time  time.Time
}

// Part is one frame's contribution to a unit: Bytes stream bytes taken from
// frame Frame.
type Part struct {
	Frame uint64
	Bytes int
}

// Kind says what a Unit holds.
type Kind uint8

const (
	// KindPDU is one complete PDU, as framed by the handler.
	KindPDU Kind = iota
	// KindUndissected is stream bytes the handler could not frame; Reason
	// says why.
	KindUndissected
	// KindGap is bytes missing from the capture; Data is nil and Length is
	// the number of missing bytes. Nothing is ever parsed across a gap.
	KindGap
	// KindConflict is a notice, not stream content: a retransmission
	// carried bytes different from the copy already used (the first copy
	// wins). Data is the retransmitted copy of the differing span.
	KindConflict
)

// String names the kind for debugging output.
func (k Kind) String() string {
	switch k {
	case KindPDU:
		return "pdu"
	case KindUndissected:
		return "undissected"
	case KindGap:
		return "gap"
	case KindConflict:
		return "conflict"
	}
	return "unknown"
}

// Reasons given in Unit.Reason. They are plain strings so callers can print
// them; compare against these constants rather than literals.
const (
	ReasonFramingLost = "framing lost"
	ReasonIncomplete  = "connection closed with incomplete PDU"
	ReasonMidStream   = "capture started mid-stream"
	ReasonNotCaptured = "segment not captured"
	ReasonBufferLimit = "buffer limit"
	ReasonConflict    = "retransmitted bytes differ from the bytes already used"
)

// Unit is what a ConnHandler receives: a PDU, undissected bytes, a gap or a
// conflict notice.
//
// A Unit and everything it points to except Conn (Data, Parts) belong to the
// Reassembler and are only valid during the Deliver call: Data usually points
// straight into the captured packet, which the capture layer reuses. Copy
// what you keep.
type Unit struct {
	Conn *ConnInfo
	Dir  Dir
	Kind Kind
	// Data holds the bytes; nil for KindGap.
	Data []byte
	// Length is len(Data), or the number of missing bytes for KindGap.
	Length int
	// StreamOffset is the offset of the first byte within this direction's
	// stream, counted from ISN+1 when the SYN was seen, else from the first
	// byte seen.
	StreamOffset int64
	// Parts lists the frames the bytes came from, in stream order; their
	// Bytes add up to Length. Empty for KindGap.
	Parts []Part
	// Frame and Time identify the frame that decides the unit: the frame
	// being fed when it was made, or, for units made by FlushIdle, an
	// eviction or Close, the connection's own last frame.
	Frame uint64
	Time  time.Time
	// Reason says why bytes are undissected, missing or in conflict; empty
	// for KindPDU.
	Reason string
	// Need is, for undissected bytes that are the start of a PDU cut by
	// the connection's end (ReasonIncomplete) or by a gap
	// (ReasonNotCaptured), the PDU's length as the framer gave it, when it
	// did; 0 otherwise. A handler may decode them as a cut PDU.
	Need int
}

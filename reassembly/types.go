package reassembly

import (
	"net/netip"
	"time"

	"github.com/gopacket/gopacket/layers"
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
	// User and Ends are the caller's state of the connection (its last
	// frame's headers; how it opened and ended, from its SYN, FIN and RST
	// segments): they live as long as the connection's entry does, and
	// Limits.EntryCost charges for them.
	User any
	Ends any

	// What tshark's relative sequence numbers count from, per direction
	// of the key (0: the first segment's source), and the window scale
	// each side's SYN announced (-1 not seen, -2 none announced).
	seqBase [2]uint32
	seqSet  [2]bool
	wscale  [2]int8
	// seqFrom is the direction of the key the segment being fed went.
	seqFrom int
}

// Relative is the sequence and acknowledgement numbers of the segment
// being fed, counted as tshark counts them by default: from the ISN of
// its direction when the SYN was seen, else from one before the first
// sequence number seen; an acknowledgement seen before the other
// direction's first segment sets that direction's base.
func (c *ConnInfo) Relative(seq, ack uint32) (rseq, rack uint32) {
	d := c.seqFrom
	return seq - c.seqBase[d], ack - c.seqBase[1-d]
}

// WindowScale is the window scale of the segment being fed's direction,
// when both SYNs announced theirs (tshark scales the window only then),
// or -1.
func (c *ConnInfo) WindowScale() int8 {
	if c.wscale[0] >= 0 && c.wscale[1] >= 0 {
		return c.wscale[c.seqFrom]
	}
	return -1
}

// seqSegment updates the bases with a segment of direction d (of the key).
func (c *ConnInfo) seqSegment(d int, tcp *layers.TCP) {
	c.seqFrom = d
	if tcp.SYN {
		c.seqBase[d], c.seqSet[d] = tcp.Seq, true
		c.wscale[d] = -2
		for _, o := range tcp.Options {
			if o.OptionType == layers.TCPOptionKindWindowScale && len(o.OptionData) == 1 {
				c.wscale[d] = int8(min(o.OptionData[0], 14))
			}
		}
		if tcp.ACK {
			c.seqBase[1-d], c.seqSet[1-d] = tcp.Ack-1, true
		}
	} else if !c.seqSet[d] {
		c.seqBase[d], c.seqSet[d] = tcp.Seq-1, true
	}
	if tcp.ACK && !c.seqSet[1-d] {
		c.seqBase[1-d], c.seqSet[1-d] = tcp.Ack-1, true
	}
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

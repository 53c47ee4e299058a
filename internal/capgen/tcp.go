package capgen

import (
	"net/netip"
	"time"

	"github.com/gopacket/gopacket/layers"
)

// TCPConn writes the segments of one TCP connection. Sequence numbers are
// tracked per direction so that tests can place a segment anywhere in the
// stream (SegmentAt) to make reordering, duplicates, overlaps and gaps.
type TCPConn struct {
	w              *Writer
	Client, Server netip.AddrPort
	Now            time.Time
	isn            [2]uint32 // initial sequence numbers: [0] client, [1] server
	next           [2]int    // next stream offset each side sends
	// MSS, when > 0, makes Send split data into segments of at most MSS bytes.
	MSS int
}

// TCP starts a connection at time t. Its initial sequence numbers are
// derived from the ports, and chosen near the top of the sequence space
// so that every connection's streams wrap around.
func (w *Writer) TCP(client, server netip.AddrPort, t time.Time) *TCPConn {
	c := &TCPConn{w: w, Client: client, Server: server, Now: t}
	c.isn[0] = 0xffffff00 - uint32(client.Port())*7
	c.isn[1] = 0x7fffff00 + uint32(server.Port())*13
	return c
}

// SetISN sets both initial sequence numbers (before Handshake).
func (c *TCPConn) SetISN(client, server uint32) { c.isn = [2]uint32{client, server} }

func side(fromClient bool) int {
	if fromClient {
		return 0
	}
	return 1
}

func (c *TCPConn) seg(fromClient bool, seq, ack uint32, flags func(*layers.TCP), payload []byte, capLen int) {
	src, dst := c.Client, c.Server
	if !fromClient {
		src, dst = dst, src
	}
	t := &layers.TCP{SrcPort: layers.TCPPort(src.Port()), DstPort: layers.TCPPort(dst.Port()),
		Seq: seq, Ack: ack, Window: 65535, DataOffset: 5}
	if flags != nil {
		flags(t)
	}
	c.w.write(c.Now, src.Addr(), dst.Addr(), layers.IPProtocolTCP, t, payload, capLen)
	c.Now = c.Now.Add(c.w.Step)
}

// seqAt is the sequence number of stream offset off of one side (the SYN
// takes ISN, the first data byte ISN+1).
func (c *TCPConn) seqAt(s int, off int) uint32 { return c.isn[s] + 1 + uint32(off) }

func (c *TCPConn) ackFor(fromClient bool) uint32 {
	o := 1 - side(fromClient)
	return c.seqAt(o, c.next[o])
}

// Handshake writes SYN, SYN-ACK, ACK.
func (c *TCPConn) Handshake() {
	c.seg(true, c.isn[0], 0, func(t *layers.TCP) { t.SYN = true }, nil, -1)
	c.seg(false, c.isn[1], c.isn[0]+1, func(t *layers.TCP) { t.SYN, t.ACK = true, true }, nil, -1)
	c.seg(true, c.isn[0]+1, c.isn[1]+1, func(t *layers.TCP) { t.ACK = true }, nil, -1)
}

// Send writes data as the next bytes of one side's stream: one segment, or
// several of at most MSS bytes.
func (c *TCPConn) Send(fromClient bool, data []byte) {
	for len(data) > 0 {
		n := len(data)
		if c.MSS > 0 && n > c.MSS {
			n = c.MSS
		}
		c.SegmentAt(fromClient, c.next[side(fromClient)], data[:n])
		data = data[n:]
	}
}

// SendSplit writes data as the next bytes of one side's stream, cut into
// segments at the given offsets within data.
func (c *TCPConn) SendSplit(fromClient bool, data []byte, cuts ...int) {
	prev := 0
	for _, cut := range append(cuts, len(data)) {
		if cut > prev && cut <= len(data) {
			c.SegmentAt(fromClient, c.next[side(fromClient)], data[prev:cut])
			prev = cut
		}
	}
}

// SegmentAt writes one segment carrying data at stream offset off of one
// side, whatever was sent before: writing offsets out of order, twice, or
// not at all makes reordering, retransmissions and gaps. The side's next
// offset moves to the end of this segment if that is further.
func (c *TCPConn) SegmentAt(fromClient bool, off int, data []byte) {
	c.SegmentAtCut(fromClient, off, data, -1)
}

// SegmentAtCut is SegmentAt with the frame cut to capLen captured bytes.
func (c *TCPConn) SegmentAtCut(fromClient bool, off int, data []byte, capLen int) {
	s := side(fromClient)
	c.seg(fromClient, c.seqAt(s, off), c.ackFor(fromClient), func(t *layers.TCP) { t.ACK, t.PSH = true, true }, data, capLen)
	if end := off + len(data); end > c.next[s] {
		c.next[s] = end
	}
}

// Skip moves one side's next offset forward by n bytes without writing
// them: a segment the capture missed.
func (c *TCPConn) Skip(fromClient bool, n int) { c.next[side(fromClient)] += n }

// Offset is the next stream offset of one side.
func (c *TCPConn) Offset(fromClient bool) int { return c.next[side(fromClient)] }

// Close writes FIN from the client, FIN from the server and the last ACK.
func (c *TCPConn) Close() {
	c.fin(true)
	c.fin(false)
	c.seg(true, c.seqAt(0, c.next[0])+1, c.seqAt(1, c.next[1])+1, func(t *layers.TCP) { t.ACK = true }, nil, -1)
}

func (c *TCPConn) fin(fromClient bool) {
	s := side(fromClient)
	ack := c.ackFor(fromClient)
	if !fromClient {
		ack++ // the client's FIN took one sequence number
	}
	c.seg(fromClient, c.seqAt(s, c.next[s]), ack, func(t *layers.TCP) { t.FIN, t.ACK = true, true }, nil, -1)
}

// Reset writes an RST from one side.
func (c *TCPConn) Reset(fromClient bool) {
	s := side(fromClient)
	c.seg(fromClient, c.seqAt(s, c.next[s]), c.ackFor(fromClient), func(t *layers.TCP) { t.RST, t.ACK = true, true }, nil, -1)
}

// Advance moves the connection's clock.
func (c *TCPConn) Advance(d time.Duration) { c.Now = c.Now.Add(d) }

// SYNOnly writes the client's SYN and nothing else.
func (c *TCPConn) SYNOnly() {
	c.seg(true, c.isn[0], 0, func(t *layers.TCP) { t.SYN = true }, nil, -1)
}

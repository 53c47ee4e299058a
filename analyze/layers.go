package analyze

import (
	"net/netip"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/reassembly"
	"github.com/mcdissect/mcdissect/record"
)

// head is what a record keeps of the frame that decided it, for its
// layers' tree (record.Record.SetLayers): the frame's header bytes, from the
// link layer to the end of the TCP or UDP header, and what they do not
// hold. It holds no pointer: a table of them is not scanned by the
// collector.
type head struct {
	headFacts
	b [maxHead]byte
}

// headFacts is what a head says of its frame besides the header bytes:
// begin sets it whole, and leaves the bytes, of which n are the frame's.
type headFacts struct {
	frame         uint64
	t, rel, delta int64 // capture time, Unix nanoseconds; since the first frame; since the previous one
	wire, capl    uint32
	link          uint32
	relative      bool // seq and ack are relative to each direction's first
	seq, ack      uint32
	wscale        int8
	n             uint8
}

// maxHead bounds the header bytes kept: Ethernet, two VLAN tags, IPv4 and
// TCP with full options fit; what is past it shows as cut.
const maxHead = 192

// frameOf is the head's netlayers.Frame for a record of the given stream
// (-1 for UDP), its client and its protocol.
func (h *head) frameOf(stream int, client netip.AddrPort, proto string) netlayers.Frame {
	return netlayers.Frame{Number: h.frame, Time: time.Unix(0, h.t).UTC(), Rel: time.Duration(h.rel), Delta: time.Duration(h.delta),
		WireLen: int(h.wire), CapLen: int(h.capl), Link: h.link, Protocols: proto,
		Stream: stream, Client: client, Relative: h.relative, RelSeq: h.seq, RelAck: h.ack, WScale: h.wscale}
}

// netLayers is the front end's view of the frame being fed. A TCP
// connection's relative numbers and its last frame's head are the
// reassembler's connection's (reassembly.ConnInfo.Relative, User): there
// is one connection table.
type netLayers struct {
	cur  head // the frame being fed
	prev time.Time
}

// begin starts a frame's head: its number, time and lengths; first is the
// capture's first frame's time. Its header bytes are left as they are
// (headFacts.n says how many are the frame's): clearing them cost more
// than anything else begin does.
func (n *netLayers) begin(frame uint64, ci gopacket.CaptureInfo, link layers.LinkType, first time.Time) {
	n.cur.headFacts = headFacts{frame: frame, t: ci.Timestamp.UnixNano(), rel: int64(since(ci.Timestamp, first)),
		wire: uint32(ci.Length), capl: uint32(ci.CaptureLength), link: uint32(link), wscale: -1}
	if !n.prev.IsZero() {
		n.cur.delta = int64(since(ci.Timestamp, n.prev))
	}
	n.prev = ci.Timestamp
}

// bytes keeps the frame's header bytes: data up to the end of the
// transport header at end.
func (n *netLayers) bytes(data []byte, end int) {
	end = min(end, len(data), maxHead)
	n.cur.n = uint8(copy(n.cur.b[:end], data))
}

// segment sets the head's sequence and acknowledgement numbers and window
// scale from the segment's connection (reassembly.Reassembler.OnSegment),
// and keeps the head as the connection's last, for the records decided
// at it later (a sweep, an eviction, the end).
func (n *netLayers) segment(c *reassembly.ConnInfo, tcp *layers.TCP) {
	cur := &n.cur
	cur.relative = true
	cur.seq, cur.ack = c.Relative(tcp.Seq, tcp.Ack)
	if !tcp.ACK {
		cur.ack = 0
	}
	cur.wscale = c.WindowScale()
	last, _ := c.User.(*head)
	if last == nil {
		last = new(head)
		c.User = last
	}
	*last = *cur
}

// headOf is the head of frame: the frame being fed, or the last of the
// connection c (a record decided by a sweep or the end), or nil when it
// is neither.
func (n *netLayers) headOf(frame uint64, c *reassembly.ConnInfo) *head {
	if frame == n.cur.frame {
		return &n.cur
	}
	if h, ok := c.User.(*head); ok && h.frame == frame {
		return h
	}
	return nil
}

// setLayers gives r what its layers' tree is made of (h), for a record
// whose conversation's client is client: the tree is made when it is read
// (record.Record.Layers).
func setLayers(r *record.Record, h *head, client netip.AddrPort) {
	stream := r.Stream
	if !r.TCP {
		stream = -1
	}
	f := h.frameOf(stream, client, r.Proto)
	r.SetLayers(h.b[:h.n], &f)
}

// addHead puts h in the current batch, once per frame, and returns its
// index there (job.head).
func (a *Analyzer) addHead(h *head) int32 {
	if h == nil || a.opts.NoLayers {
		return -1
	}
	b := a.pp.cur
	if n := len(b.heads); n > 0 && b.heads[n-1].frame == h.frame {
		return int32(n - 1)
	}
	b.heads = append(b.heads, *h)
	return int32(len(b.heads) - 1)
}

package analyze

import (
	"bytes"
	"net/netip"
	"slices"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/reassembly"
	"github.com/mcdissect/mcdissect/record"
)

// head is what a record keeps of the frame that decided it, for its
// layers' tree (netlayers.Dissect): the frame's header bytes, from the
// link layer to the end of the TCP or UDP header, and what they do not
// hold. It holds no pointer: a table of them is not scanned by the
// collector.
type head struct {
	frame         uint64
	t, rel, delta int64 // capture time, Unix nanoseconds; since the first frame; since the previous one
	wire, capl    uint32
	link          uint32
	relative      bool // seq and ack are relative to each direction's first
	seq, ack      uint32
	wscale        int8
	n             uint8
	b             [maxHead]byte
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

// netLayers is the front end's view of the frame being fed, and the TCP
// state its relative numbers need, with each connection's last frame.
type netLayers struct {
	cur  head // the frame being fed
	prev time.Time
	// The sequence bases, by connection: an index into bases. Neither
	// holds a pointer, so the collector does not scan the table, which
	// holds up to maxSeqBases of them (seqKey).
	conns map[seqKey]int32
	bases []seqBase
	free  []int32 // indexes of bases forgotten, to reuse
}

// seqKey is a TCP connection's two ends, the lower first, as bytes: a
// netip.AddrPort holds a pointer.
type seqKey struct {
	a, b seqEnd
	v4   bool // both ends are IPv4 (a v4-mapped IPv6 address is another end)
}

type seqEnd struct {
	ip   [16]byte
	port uint16
}

func endOf(ap netip.AddrPort) seqEnd {
	return seqEnd{ap.Addr().As16(), ap.Port()}
}

// less orders ends by address, then port.
func (e *seqEnd) less(o *seqEnd) bool {
	if c := bytes.Compare(e.ip[:], o.ip[:]); c != 0 {
		return c < 0
	}
	return e.port < o.port
}

// keyOf is the key of the connection between x and y, and the direction
// (0 or 1) of a segment from x.
func keyOf(x, y netip.AddrPort) (seqKey, int) {
	k, d := seqKey{a: endOf(x), b: endOf(y), v4: x.Addr().Is4() && y.Addr().Is4()}, 0
	if k.b.less(&k.a) {
		k.a, k.b, d = k.b, k.a, 1
	}
	return k, d
}

// seqBase is what tshark's relative numbers count from, per direction
// (index 0 for segments from seqKey.a), and the connection's last frame.
type seqBase struct {
	base   [2]uint32
	set    [2]bool
	wscale [2]int8 // from the SYN's option: -1 not seen yet, -2 none announced
	last   head    // the connection's last frame, for records decided at it later
}

// maxSeqBases bounds the connections whose bases are kept: when full, the
// half least recently seen are forgotten (forget), and those of them seen
// again count from their next segment, as when a capture starts
// mid-stream. As many as the reassembler tracks at once.
var maxSeqBases = reassembly.DefaultMaxConns

// begin starts a frame's head: its number, time and lengths; first is the
// capture's first frame's time.
func (n *netLayers) begin(frame uint64, ci gopacket.CaptureInfo, link layers.LinkType, first time.Time) {
	n.cur = head{frame: frame, t: ci.Timestamp.UnixNano(), rel: int64(since(ci.Timestamp, first)), wire: uint32(ci.Length), capl: uint32(ci.CaptureLength), link: uint32(link), wscale: -1}
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

// tcpSegment sets the segment's sequence and acknowledgement numbers
// relative to each direction's first, as tshark counts them: from the ISN
// when the SYN was seen, else from one before the first sequence number
// seen; an acknowledgement seen before the other direction's first
// segment sets that direction's base. The connection keeps the frame as
// its last.
func (n *netLayers) tcpSegment(src, dst netip.AddrPort, tcp *layers.TCP) {
	k, d := keyOf(src, dst)
	s := n.base(k)
	if tcp.SYN {
		s.base[d], s.set[d] = tcp.Seq, true
		s.wscale[d] = -2
		for _, o := range tcp.Options {
			if o.OptionType == layers.TCPOptionKindWindowScale && len(o.OptionData) == 1 {
				s.wscale[d] = int8(min(o.OptionData[0], 14))
			}
		}
		if tcp.ACK {
			s.base[1-d], s.set[1-d] = tcp.Ack-1, true
		}
	} else if !s.set[d] {
		s.base[d], s.set[d] = tcp.Seq-1, true
	}
	if tcp.ACK && !s.set[1-d] {
		s.base[1-d], s.set[1-d] = tcp.Ack-1, true
	}
	c := &n.cur
	c.relative, c.seq = true, tcp.Seq-s.base[d]
	if tcp.ACK {
		c.ack = tcp.Ack - s.base[1-d]
	}
	if s.wscale[0] >= 0 && s.wscale[1] >= 0 {
		c.wscale = s.wscale[d]
	}
	s.last = *c
}

// headOf is the head of frame, the frame being fed or the last of the
// connection between x and y (a record decided by a sweep or the end), or
// nil when it is neither.
func (n *netLayers) headOf(frame uint64, x, y netip.AddrPort) *head {
	if frame == n.cur.frame {
		return &n.cur
	}
	if i, ok := n.conns[mustKey(x, y)]; ok && n.bases[i].last.frame == frame {
		return &n.bases[i].last
	}
	return nil
}

func mustKey(x, y netip.AddrPort) seqKey {
	k, _ := keyOf(x, y)
	return k
}

// base is the sequence bases of connection k, new if it has none.
func (n *netLayers) base(k seqKey) *seqBase {
	if i, ok := n.conns[k]; ok {
		return &n.bases[i]
	}
	if n.conns == nil {
		n.conns = make(map[seqKey]int32, 64)
	}
	if len(n.conns) >= maxSeqBases {
		n.forget()
	}
	var i int32
	if f := len(n.free); f > 0 {
		i, n.free = n.free[f-1], n.free[:f-1]
	} else {
		i = int32(len(n.bases))
		n.bases = append(n.bases, seqBase{})
	}
	n.bases[i] = seqBase{wscale: [2]int8{-1, -1}}
	n.conns[k] = i
	return &n.bases[i]
}

// forget drops the half of the table least recently seen: the median of
// the frames last seen splits it. A connection that is still talking keeps
// its relative numbers; one idle long enough to be among the oldest half
// of the table has most likely ended.
func (n *netLayers) forget() {
	lasts := make([]uint64, 0, len(n.conns))
	for _, i := range n.conns {
		lasts = append(lasts, n.bases[i].last.frame)
	}
	slices.Sort(lasts)
	median := lasts[len(lasts)/2]
	for k, i := range n.conns {
		if n.bases[i].last.frame < median {
			delete(n.conns, k)
			n.free = append(n.free, i)
		}
	}
}

// buildLayers builds r's layers' tree from h (netlayers.Dissect), for a record
// whose conversation's client is client.
func buildLayers(r *record.Record, h *head, client netip.AddrPort) {
	stream := r.Stream
	if !r.TCP {
		stream = -1
	}
	f := h.frameOf(stream, client, r.Proto)
	netlayers.Dissect(&r.Net, r.SetNet(h.b[:h.n]), &f)
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

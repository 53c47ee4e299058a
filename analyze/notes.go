package analyze

import (
	"strconv"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/reassembly"
	"github.com/mcdissect/mcdissect/record"
)

// Nothing silent: records for what the pipeline saw but no protocol
// explains. A retransmitted or out-of-order TCP segment is a record of its
// own at its frame (as Wireshark marks the frame itself: the retransmitted
// bytes are in no PDU, the first copy was used), with the field
// tcp.analysis.retransmission or tcp.analysis.out_of_order; a connection
// evicted to bound memory, and IP fragments never completed, are notes
// too; a stream on a Minecraft port that no protocol claims is reported
// once per direction, when the connection ends, with its byte count and
// first bytes.

var (
	FieldRetransmission = netlayers.RegTCP.Label("tcp.analysis.retransmission", "This frame is a (suspected) retransmission")
	FieldOutOfOrder     = netlayers.RegTCP.Label("tcp.analysis.out_of_order", "This frame is a (suspected) out-of-order segment")
	FieldLostSegment    = netlayers.RegTCP.Label("tcp.analysis.lost_segment", "Previous segment(s) not captured")
	FieldEvicted        = dissect.Core.Label("mc.conn.evicted", "Connection no longer tracked (too many connections)")
	FieldFragments      = netlayers.RegIP.Label("ip.fragments.incomplete", "IPv4 datagram whose fragments never all arrived")
	FieldFragments6     = netlayers.RegIPv6.Label("ipv6.fragments.incomplete", "IPv6 datagram whose fragments never all arrived")

	ExpertRetransmission = netlayers.RegTCP.Expert("tcp.analysis.retransmission", dissect.SevNote, "a segment carrying bytes already seen; the first copy was used")
	ExpertOutOfOrder     = netlayers.RegTCP.Expert("tcp.analysis.out_of_order", dissect.SevWarn, "a segment carrying new bytes below the highest sequence number seen: it fills a hole")
	ExpertEvicted        = dissect.Core.Expert("mc.conn.evicted", dissect.SevNote, "the connection was dropped from the connection table to bound memory; later segments start a new stream")
	ExpertFragments      = netlayers.RegIP.Expert("ip.fragments.incomplete", dissect.SevWarn, "IPv4 fragments never completed: the datagram is not dissected")
	ExpertFragments6     = netlayers.RegIPv6.Expert("ipv6.fragments.incomplete", dissect.SevWarn, "IPv6 fragments never completed: the datagram is not dissected")
)

// noteKind is a record.KindNote record's kind: job.gapLen indexes noteKinds.
type noteKind struct {
	field   *dissect.Field
	expert  *dissect.ExpertInfo
	message string // mc.message, and the Info column's bracket
}

const (
	noteRetransmission = iota
	noteOutOfOrder
	noteEvicted
	noteFragments
	noteFragments6
	// the watch's records (watch.go), made by connPDU
	noteSYN
	noteRST
	noteWatchLost
)

var noteKinds = [...]noteKind{
	noteRetransmission: {FieldRetransmission, ExpertRetransmission, "TCP Retransmission"},
	noteOutOfOrder:     {FieldOutOfOrder, ExpertOutOfOrder, "TCP Out-Of-Order"},
	noteEvicted:        {FieldEvicted, ExpertEvicted, "Connection evicted"},
	noteFragments:      {FieldFragments, ExpertFragments, "Unreassembled IPv4 fragments"},
	noteFragments6:     {FieldFragments6, ExpertFragments6, "Unreassembled IPv6 fragments"},
}

func notePDU(p *dissect.PDU, proto string, dir dissect.Dir, kind int, msg string) {
	nk := &noteKinds[min(max(kind, 0), len(noteKinds)-1)]
	c := dissect.Begin(p, rootField(proto), nil, 0)
	i := p.AddGenerated(0, nk.field, dissect.Value{}, "")
	p.AddExpert(i, nk.expert, msg)
	c.Finish()
	p.Dir = dir
	p.Message = nk.message
	p.Info = "[" + nk.message + "] " + msg
}

// note makes a record.KindNote job for one direction of h's connection.
// Before the protocol is named, it waits for it, as units do (deferUnit).
func (h *tcpConn) note(c *reassembly.ConnInfo, d reassembly.Dir, kind int, frame uint64, t time.Time, off int64, msg string) {
	if h.proto == nil && h.deferRec(0, func() { h.noteJob(c, d, kind, c.Frame, c.Time, off, msg) }) {
		return
	}
	h.noteJob(c, d, kind, frame, t, off, msg)
}

func (h *tcpConn) noteJob(c *reassembly.ConnInfo, d reassembly.Dir, kind int, frame uint64, t time.Time, off int64, msg string) {
	a := h.t.a
	j := a.newJob()
	j.op, j.kind, j.frame, j.time, j.dir = opEmit, record.KindNote, frame, t, ddir(d)
	j.head = a.addHead(h.headAt(frame))
	j.side = h.side(d, c)
	j.off, j.gapLen, j.reason = off, kind, msg
	a.commit(nil)
}

// Noted reports a retransmitted or out-of-order segment (reassembly.Noter).
func (h *tcpConn) Noted(c *reassembly.ConnInfo, n reassembly.Note) {
	if h.ignore && h.proto == nil {
		return // not ours: reported as a whole, if on our port (unclaimed)
	}
	kind := noteOutOfOrder
	msg := strconv.Itoa(n.Length) + " bytes at stream offset " + strconv.FormatInt(n.Offset, 10) + " below the highest byte seen"
	if n.Kind == reassembly.NoteRetransmission {
		kind = noteRetransmission
		msg = strconv.Itoa(n.Length) + " bytes at stream offset " + strconv.FormatInt(n.Offset, 10) + ", " + strconv.Itoa(n.Seen) + " of them already seen; the first copy was used"
	}
	h.note(c, n.Dir, kind, n.Frame, n.Time, n.Offset, msg)
}

// Evicted reports a connection dropped to bound memory (reassembly.Evicter).
func (h *tcpConn) Evicted(c *reassembly.ConnInfo, idle time.Time) {
	if h.ignore && h.proto == nil {
		return
	}
	msg := "more than " + strconv.Itoa(reassembly.DefaultMaxConns) + " connections tracked; this one was idle since " +
		idle.UTC().Format("15:04:05.000000") + "; its incomplete PDUs are reported now and later segments start a new stream"
	h.note(c, reassembly.ClientToServer, noteEvicted, c.Frame, c.Time, 0, msg)
}

// unclaimedBytes is one direction of a stream that no protocol claims.
type unclaimedBytes struct {
	bytes, gap  int64
	first       [32]byte
	nFirst      int
	firstFrame  uint64
	lastFrame   uint64
	frames      int
	seenAnyUnit bool
}

// onOurPort tells whether the connection uses a Minecraft protocol's port
// (so that its bytes, claimed by none, are worth reporting): a port shared
// with other traffic (the heartbeat's 80) is not one.
func (h *tcpConn) onOurPort() bool {
	for _, c := range h.cands {
		if c.byPort && c.p.Shared == nil {
			return true
		}
	}
	return false
}

// unclaimed counts a unit of a stream no protocol claims.
func (h *tcpConn) unclaimed(u *reassembly.Unit) {
	if h.lost == nil {
		if !h.onOurPort() {
			return
		}
		h.lost = new([2]unclaimedBytes)
	}
	l := &h.lost[u.Dir]
	if u.Kind == reassembly.KindGap {
		l.gap += int64(u.Length)
		return
	}
	if u.Kind == reassembly.KindConflict {
		return
	}
	if !l.seenAnyUnit {
		l.seenAnyUnit = true
		l.firstFrame = u.Frame
	}
	l.nFirst += copy(l.first[l.nFirst:], u.Data)
	l.bytes += int64(u.Length)
	for _, p := range u.Parts {
		if p.Frame != l.lastFrame {
			l.frames++
			l.lastFrame = p.Frame
		}
	}
}

// reportUnclaimed makes one record per direction of a stream no protocol
// claimed, at the frame that ended the connection: its byte count and its
// first bytes (shown as undissected bytes).
func (h *tcpConn) reportUnclaimed(c *reassembly.ConnInfo) {
	if h.lost == nil {
		return
	}
	for d := range h.lost {
		l := &h.lost[d]
		if l.bytes == 0 && l.gap == 0 {
			continue
		}
		a := h.t.a
		j := a.newJob()
		j.op, j.kind, j.frame, j.time, j.dir = opEmit, record.KindUndissected, c.Frame, c.Time, ddir(reassembly.Dir(d))
		j.head = a.addHead(h.headAt(c.Frame))
		j.side = h.side(reassembly.Dir(d), c)
		reason := "a stream on a Minecraft port that no protocol claims: " + strconv.FormatInt(l.bytes, 10) + " bytes in "
		if l.frames == 1 {
			reason += "frame " + strconv.FormatUint(l.firstFrame, 10)
		} else {
			reason += strconv.Itoa(l.frames) + " frames (" + strconv.FormatUint(l.firstFrame, 10) + " to " + strconv.FormatUint(l.lastFrame, 10) + ")"
		}
		if l.gap > 0 {
			reason += ", " + strconv.FormatInt(l.gap, 10) + " bytes not captured"
		}
		reason += "; the first " + strconv.Itoa(l.nFirst) + " shown"
		j.reason = reason
		a.commit(l.first[:l.nFirst])
	}
	h.lost = nil
}

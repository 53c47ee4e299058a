package dissect

import (
	"strconv"
	"strings"
	"time"
)

// Outcomes: how each request ended, in every protocol, as data. A request
// that can have a response (a Query handshake or stat, an SLP status
// request, ping, legacy ping or Login Start, a Classic identification or
// heartbeat, a RakNet ping, a TCP SYN) waits for it in a Wait; when its
// fate is known the request's tree gets mc.outcome, one word every
// protocol shares, with what decided it under it:
//
//	[Outcome: closed by the server before a response]  mc.outcome: closed
//	    [Outcome decided in frame: 12]                   mc.outcome.frame: the response, FIN, RST or ICMP (absent: a window passed)
//	    [Time from the request to its outcome: 0.000311 s]  mc.outcome.time
//	    [Connection ended by: "server"]                  mc.outcome.by: client or server, for a FIN or RST
//
// mc.outcome's values: answered, early, unanswered, closed, reset,
// refused, lost, ended (Outcome).
//
// and an expert item of its protocol (query.response.missing,
// slp.response.closed, ...). A record that ends a request without being
// its response (an ICMP destination unreachable, a TCP RST) names it with
// mc.request_in. An outcome not known when the record goes out (held too
// long) is absent, never guessed, and -2 fills it in from the first pass
// (Later).
//
// Readers (statistics, exchange rows) read these four fields, never the
// protocols' own link fields: filter `mc.outcome != "answered"` for every
// request that went wrong, in any protocol.

// Outcome is how a request ended.
type Outcome uint8

const (
	OutcomeUnknown Outcome = iota // not known (yet): no field is added
	// Answered: its response came after it (mc.outcome.frame is the
	// response's frame).
	Answered
	// AnsweredEarly: its response came before it (a server that answers
	// what it expects before it is asked); the time is negative.
	AnsweredEarly
	// Unanswered: no response within the protocol's window, or the client
	// closed or reset the connection without one (mc.outcome.by client).
	Unanswered
	// Closed: the server closed the connection (FIN) before responding.
	Closed
	// Reset: the server reset the connection (RST) before responding, or
	// refused it (a SYN answered by RST).
	Reset
	// Refused: an ICMP destination unreachable answered it (mc.outcome.frame
	// is the ICMP's frame), or a RST answered a SYN.
	Refused
	// Lost: no response was seen, but the capture lost bytes of the
	// server's side while the request waited: it may have been among them.
	Lost
	// Ended: the capture ended before a response, or before the window
	// passed: nobody can tell.
	Ended
)

var outcomeNames = [...]string{"", "answered", "early", "unanswered", "closed", "reset", "refused", "lost", "ended"}

// NumOutcomes is how many values mc.outcome takes.
const NumOutcomes = len(outcomeNames) - 1

// String is the outcome as mc.outcome holds it.
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "unknown"
}

// OutcomeNames is every value mc.outcome takes, in the order of the
// Outcome constants.
func OutcomeNames() []string { return append([]string(nil), outcomeNames[1:]...) }

// The fields every request's outcome is told with (see above).
var (
	FieldOutcome      = Core.Str("mc.outcome", "Outcome")
	FieldOutcomeFrame = Core.FrameNum("mc.outcome.frame", "Outcome decided in frame")
	FieldOutcomeTime  = Core.Float("mc.outcome.time", "Time from the request to its outcome", "s")
	FieldOutcomeBy    = Core.Str("mc.outcome.by", "Connection ended by")
	FieldRequestIn    = Core.FrameNum("mc.request_in", "Request in frame")
)

// End is how one request ended: what the protocol, or the pipeline, saw.
type End struct {
	Outcome Outcome
	// Frame is the frame that decided it (its response, the FIN, RST or
	// ICMP), 0 when none did (a window passed, the capture ended).
	Frame uint64
	Time  time.Time // that frame's time
	// By is who closed or reset the connection (Closed, Reset, an
	// Unanswered request whose client gave up); DirUnknown otherwise.
	By Dir
	// Via names what Frame holds when it is not the response: "FIN",
	// "RST", "ICMP port unreachable".
	Via string
	// Why says more, for the outcome's line and its expert item ("no
	// response within 5s"); empty when the words above say it all.
	Why string
}

// ConnHow is what ended a TCP connection.
type ConnHow uint8

const (
	ConnOpen ConnHow = iota // still open when the capture ended
	ConnIdle                // idle past the reassembler's timeout, or evicted
	ConnFIN                 // a FIN (the first one sent)
	ConnRST                 // a RST
)

// ConnEnd is how a TCP connection ended, as the pipeline tells a
// protocol's Conn when it closes: the first FIN or the RST, which side
// sent it and in which frame.
type ConnEnd struct {
	How   ConnHow
	By    Dir // the side that sent the FIN or RST
	Frame uint64
	Time  time.Time
}

// Request is what a request still waiting for its response when the
// connection ended ended with: the server's FIN or RST closed or reset it,
// the client's gave up on it, an idle connection left it unanswered, the
// capture's end left it unknown.
func (c ConnEnd) Request() End {
	e := End{Frame: c.Frame, Time: c.Time, By: c.By, Via: "FIN"}
	if c.How == ConnRST {
		e.Via = "RST"
	}
	switch {
	case c.How == ConnOpen:
		return End{Outcome: Ended, Why: "no response seen before the capture ended (the connection was still open)"}
	case c.How == ConnIdle:
		return End{Outcome: Unanswered, Why: "no response seen before the connection went idle"}
	case c.By == DirC2S:
		e.Outcome = Unanswered
	case c.How == ConnRST:
		e.Outcome = Reset
	default:
		e.Outcome = Closed
	}
	return e
}

// Outcomes are a protocol's names for what a request's outcome adds to
// its trees: its link fields and its expert items. A nil expert adds none.
type Outcomes struct {
	ResponseIn *Field // on the request: its response's frame
	RequestIn  *Field // on the response: its request's frame
	Time       *Field // on the response: seconds since the request (nil: none)

	Missing    *ExpertInfo // no response: the window passed, the client gave up, the capture ended
	Closed     *ExpertInfo // the server closed or reset the connection first
	Refused    *ExpertInfo // an ICMP destination unreachable (or a RST to a SYN) answered it
	Early      *ExpertInfo // the response came before the request (on both)
	Unlinked   *ExpertInfo // output before its outcome was known (held too long)
	Unanswered string      // Missing's words when a window passed ("no response within 5s")
	// UnlinkedNote makes Unlinked's note, by reason (nil: a standard one).
	UnlinkedNote *ReleaseTexts
}

// Wait is one request waiting for its response: the PDU held back
// (PDU.Pending) while it waits, and what names it in a Later (its frame
// and a kind of its protocol's choosing). The zero Wait waits for nothing.
//
// A protocol calls Hold when the request is decoded, Answer when its
// response is, End when something else decides it (a window, the
// connection's end, an ICMP error) and GiveUp when the pipeline must
// output the request before any of these (too many records held behind
// it): the request is then out, p is let go, and a later Answer or End
// still links the response back to it, or, in a first pass, notes the
// outcome in the Later for the second (-2).
type Wait struct {
	P     *PDU // the held request, nil once out or when it was Lite
	Frame uint64
	Time  time.Time
	Kind  uint8
	On    bool // a request waits (held, out or Lite)
	Out   bool // given up on: its record went out without its outcome
	// Gapped: the capture lost bytes of the answering side while it
	// waited (Gap): a response may have been among them.
	Gapped bool
}

// Gap tells a waiting request that the capture lost bytes of the side
// that answers it: if no response is seen, its outcome is lost, not
// unanswered or closed.
func (w *Wait) Gap() {
	if w.On {
		w.Gapped = true
	}
}

// Hold makes p, the request of frame m.Frame, the one that waits, Pending
// until its outcome is known. A Lite p is not held (nothing would be added
// to it) but remembered, so that its response still links back.
func (w *Wait) Hold(p *PDU, m Meta, kind uint8) {
	*w = Wait{Frame: m.Frame, Time: m.Time, Kind: kind, On: true}
	if p != nil && p.Hold() {
		w.P = p
	}
}

// Waiting reports whether a request waits.
func (w *Wait) Waiting() bool { return w.On }

// Answer links resp, seen in m.Frame, to the waiting request: the request
// gets its response's frame and the outcome answered, the response its
// request's frame and the time between them. It reports whether a request
// waited. The Wait is empty afterwards.
func (w *Wait) Answer(resp *PDU, m Meta, o *Outcomes, later *Later) bool {
	if !w.On {
		return false
	}
	e := End{Outcome: Answered, Frame: m.Frame, Time: m.Time}
	w.settle(e, o, later)
	if resp != nil {
		resp.AddGenerated(0, o.RequestIn, U(w.Frame), "")
		if o.Time != nil && !m.Time.IsZero() && !w.Time.IsZero() {
			resp.AddGenerated(0, o.Time, F(m.Time.Sub(w.Time).Seconds()), "")
		}
	}
	*w = Wait{}
	return true
}

// End decides the waiting request with e (not Answered: Answer links a
// response). The Wait is empty afterwards.
func (w *Wait) End(e End, o *Outcomes, later *Later) {
	if !w.On {
		return
	}
	switch e.Outcome {
	case Unanswered, Closed, Reset, Ended:
		if w.Gapped {
			e = End{Outcome: Lost, Frame: e.Frame, Time: e.Time, By: e.By, Via: e.Via,
				Why: "bytes of the server's side were not captured while this request waited: its response may have been among them"}
		}
	}
	w.settle(e, o, later)
	*w = Wait{}
}

// settle writes e into the held request and lets it go, or notes it in
// the first pass's Later for a request already out.
func (w *Wait) settle(e End, o *Outcomes, later *Later) {
	if p := w.P; p != nil {
		o.Mark(p, w.Time, e)
		p.Pending = false
	} else if w.Out {
		later.RecordEnd(w.Frame, w.Kind, e, w.Time)
	}
}

// GiveUp lets go of p if it is the held request, and reports whether it
// was: its record goes out now, for the reason r. In a second pass (-2)
// it shows the outcome the first pass noted, as if it had waited;
// otherwise its note says why it cannot (Outcomes.Unlinked). The request
// stays On, so that its response still links back.
func (w *Wait) GiveUp(p *PDU, r Release, o *Outcomes, later *Later) bool {
	if w.P == nil || w.P != p {
		return false
	}
	if e, ok := later.LookupEnd(w.Frame, w.Kind, w.Time); ok {
		o.Mark(p, w.Time, e)
	} else if o.Unlinked != nil {
		note := o.UnlinkedNote
		if note == nil {
			note = unlinkedNote
		}
		p.AddExpert(0, o.Unlinked, note.Of(r))
	}
	p.Pending = false
	w.P, w.Out = nil, true
	return true
}

// unlinkedNote is the note of a request given up on, by reason, unless
// its protocol words it (Outcomes.UnlinkedNote).
var unlinkedNote = NewReleaseTexts(func(r Release) string {
	return "output before its response came (" + r.Reason() + "): a response links back to this request, but this record cannot show it (" + r.Remedy() + " can)"
})

// Mark writes outcome e of the request p, sent at t, into p's tree: the
// protocol's response link when answered, mc.outcome with what decided it,
// and the protocol's expert item for an outcome other than answered.
func (o *Outcomes) Mark(p *PDU, t time.Time, e End) {
	if e.Outcome == OutcomeUnknown {
		return
	}
	if (e.Outcome == Answered || e.Outcome == AnsweredEarly) && o.ResponseIn != nil && e.Frame != 0 {
		p.AddGenerated(0, o.ResponseIn, U(e.Frame), "")
	}
	var dt time.Duration
	timed := e.Frame != 0 && !e.Time.IsZero() && !t.IsZero()
	if timed {
		dt = e.Time.Sub(t)
	}
	// The line is the word and what decided it; the frame and time are
	// the children's, and the line stops at a " (" of its own too.
	word := outcomeHead(e)
	if k := strings.Index(word, " ("); k > 0 && e.Frame != 0 {
		word = word[:k]
	}
	i := p.AddGenerated(0, FieldOutcome, S(e.Outcome.String()), word)
	if e.Frame != 0 {
		p.AddGenerated(i, FieldOutcomeFrame, U(e.Frame), "")
		if timed {
			p.AddGenerated(i, FieldOutcomeTime, F(dt.Seconds()), "")
		}
	}
	if e.By != DirUnknown {
		p.AddGenerated(i, FieldOutcomeBy, S(sideName(e.By)), "")
	}
	if p.Lite {
		i = 0
	}
	var ex *ExpertInfo
	switch e.Outcome {
	case AnsweredEarly:
		ex = o.Early
	case Unanswered, Ended, Lost:
		ex = o.Missing
	case Closed, Reset:
		ex = o.Closed
	case Refused:
		ex = o.Refused
	}
	if ex == nil {
		return
	}
	msg := outcomeText(e, dt, timed)
	switch {
	case e.Outcome == Unanswered && e.Frame == 0 && e.Why == "" && o.Unanswered != "":
		msg = o.Unanswered
	case e.Why != "":
		msg = msg[len(e.Outcome.String())+2:] // the protocol's own words, without the outcome's
	}
	p.AddExpert(i, ex, msg)
}

func sideName(d Dir) string {
	if d == DirC2S {
		return "client"
	}
	return "server"
}

// outcomeText is the whole text of outcome e: the word, what decided it,
// and the frame and time (the expert item's message).
func outcomeText(e End, dt time.Duration, timed bool) string {
	b := make([]byte, 0, 96)
	b = appendOutcomeHead(b, e)
	if e.Frame != 0 {
		b = append(b, " ("...)
		if e.Via != "" {
			b = append(b, e.Via...)
		} else {
			b = append(b, "response"...)
		}
		b = append(b, " in frame "...)
		b = strconv.AppendUint(b, e.Frame, 10)
		if timed {
			b = append(b, ", "...)
			if dt < 0 {
				b = strconv.AppendFloat(b, -dt.Seconds(), 'f', 6, 64)
				b = append(b, " s before"...)
			} else {
				b = strconv.AppendFloat(b, dt.Seconds(), 'f', 6, 64)
				b = append(b, " s later"...)
			}
		}
		b = append(b, ')')
	}
	return string(b)
}

// outcomeHead is outcomeText without the frame and time, made on the
// stack: the word alone, for an answered request (most of them), costs no
// allocation.
func outcomeHead(e End) string {
	var buf [96]byte
	b := appendOutcomeHead(buf[:0], e)
	if w := e.Outcome.String(); len(b) == len(w) {
		return w
	}
	return string(b)
}

// appendOutcomeHead appends the word of outcome e and what decided it.
func appendOutcomeHead(b []byte, e End) []byte {
	b = append(b, e.Outcome.String()...)
	switch {
	case e.Why != "":
		b = append(b, ": "...)
		b = append(b, e.Why...)
	case e.Outcome == AnsweredEarly:
		b = append(b, ": answered before it was asked"...)
	case e.Outcome == Unanswered && e.By != DirUnknown:
		b = append(b, ": the "...)
		b = append(b, sideName(e.By)...)
		b = append(b, " ended the connection first"...)
	case e.Outcome == Closed || e.Outcome == Reset:
		b = append(b, " by the "...)
		b = append(b, sideName(e.By)...)
		b = append(b, " before a response"...)
	case e.Outcome == Ended:
		b = append(b, ": the capture ended first"...)
	}
	return b
}

func init() {
	Core.Explain(map[string]string{
		"mc.outcome":       "How the request ended, one word in every protocol: answered (its response came), early (the response came before the request: the server answered what it expected), unanswered (no response within the protocol's window, or the client closed the connection without one), closed or reset (the server closed or reset the connection instead of responding), refused (an ICMP destination unreachable, or a RST to a SYN, answered it), lost (no response seen, but the capture lost bytes of the server's side meanwhile: it may have been among them) or ended (the capture ended first, so nobody can tell). Absent while not known. Filter mc.outcome != \"answered\" for every request that went wrong.",
		"mc.outcome.frame": "The frame that decided the outcome: the response, the FIN or RST that ended the connection, or the ICMP error. Absent when a window passed with nothing.",
		"mc.outcome.time":  "Seconds from the request to the frame that decided its outcome, from the capture's timestamps: the response time when answered, how long the server took to hang up when closed. Negative for an early answer.",
		"mc.outcome.by":    "Which side ended the connection, for an outcome decided by a FIN or a RST: server (it closed or reset on the request) or client (it gave up waiting).",
		"mc.request_in":    "The frame of the request this record answers without being its response: the Query request an ICMP port unreachable refuses, the SYN a RST refuses.",
	}, nil)
}

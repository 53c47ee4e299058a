package slp

import (
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
)

// A status response before its request: some servers (msh, hibernating
// a real one) send the status as soon as the handshake says "status",
// before the client's Status Request arrives. The response waits, held,
// for the request it answers; both then name each other, flagged
// slp.response.early, and the request's outcome is "early". A response
// whose request never comes says so at the connection's end
// (slp.response.unsolicited).

// holdEarly keeps p, a status response with no status request before it,
// waiting for its request. Only on a connection whose handshake was seen
// and asked for the status: without it, the request may simply not have
// been captured.
func (c *Conn) holdEarly(p *dissect.PDU, m dissect.Meta) bool {
	if c.statusAsked || !c.dec.hsSeen {
		return false
	}
	c.unasked()
	c.early.Hold(p, m, kindEarly)
	return true
}

// answerEarly links the status request p to the response waiting for it,
// and reports whether there was one.
func (c *Conn) answerEarly(p *dissect.PDU, m dissect.Meta) bool {
	w := &c.early
	if !w.On {
		return false
	}
	before := m.Time.Sub(w.Time).Seconds()
	if r := w.P; r != nil {
		r.AddGenerated(0, FieldRequestIn, dissect.U(m.Frame), "")
		r.AddExpert(0, ExpertEarly, "sent "+strconv.FormatFloat(before, 'f', 6, 64)+" s before the status request it answers (frame "+strconv.FormatUint(m.Frame, 10)+")")
		r.Pending = false
	} else if w.Out {
		c.Later.RecordEnd(w.Frame, kindEarly, dissect.End{Outcome: dissect.AnsweredEarly, Frame: m.Frame, Time: m.Time}, w.Time)
	}
	statusOutcomes.Mark(p, m.Time, dissect.End{Outcome: dissect.AnsweredEarly, Frame: w.Frame, Time: w.Time})
	*w = dissect.Wait{}
	return true
}

// unasked lets go of a response whose request never came.
func (c *Conn) unasked() {
	w := &c.early
	if r := w.P; r != nil {
		r.AddExpert(0, ExpertUnsolicited, "no status request was seen on this connection before it ended")
		r.Pending = false
	} else if w.Out {
		c.Later.RecordEnd(w.Frame, kindEarly, dissect.End{Outcome: dissect.Unanswered}, w.Time)
	}
	*w = dissect.Wait{}
}

// giveUpEarly lets go of the early response p, which the pipeline must
// output: a second pass shows what the first learned.
func (c *Conn) giveUpEarly(p *dissect.PDU, r dissect.Release) {
	w := &c.early
	switch e, ok := c.Later.LookupEnd(w.Frame, kindEarly, w.Time); {
	case ok && e.Outcome == dissect.AnsweredEarly:
		before := e.Time.Sub(w.Time).Seconds()
		p.AddGenerated(0, FieldRequestIn, dissect.U(e.Frame), "")
		p.AddExpert(0, ExpertEarly, "sent "+strconv.FormatFloat(before, 'f', 6, 64)+" s before the status request it answers (frame "+strconv.FormatUint(e.Frame, 10)+")")
	case ok:
		p.AddExpert(0, ExpertUnsolicited, "no status request was seen on this connection before it ended")
	default:
		p.AddExpert(0, ExpertUnlinked, "output before its status request came ("+r.Reason()+"): the request still links back to this response, but this record cannot show it ("+r.Remedy()+" can)")
	}
	p.Pending = false
	w.P, w.Out = nil, true
}

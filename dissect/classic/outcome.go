package classic

import "github.com/mcdissect/mcdissect/dissect"

// Requests and their answers (dissect.Wait): a client's Player
// Identification waits for the server's first packet (its Server
// Identification, a CPE server's ExtInfo, or a Disconnect), and a
// heartbeat request for its HTTP response. Each says how it ended
// (mc.outcome): answered, or the connection closed, reset or given up
// first.

// Fields and expert items of the links.
var (
	FieldResponseIn = Registry.FrameNum("classic.response_in", "Response in frame")
	FieldRequestIn  = Registry.FrameNum("classic.request_in", "Request in frame")
	FieldTime       = Registry.Float("classic.time", "Time since request", "s")

	ExpertNoResponse = Registry.Expert("classic.response.missing", dissect.SevWarn, "no answer seen to this identification or heartbeat: the client gave up, the connection went idle or the capture ended")
	ExpertClosed     = Registry.Expert("classic.response.closed", dissect.SevWarn, "the server closed or reset the connection after this identification or heartbeat, without answering")
	ExpertUnlinked   = Registry.Expert("classic.response.unlinked", dissect.SevNote, "output before its outcome was known (too many PDUs held back): the answer still links back to it")
)

var outcomes = dissect.Outcomes{ResponseIn: FieldResponseIn, RequestIn: FieldRequestIn, Time: FieldTime,
	Missing: ExpertNoResponse, Closed: ExpertClosed, Unlinked: ExpertUnlinked}

// kindRequest names a connection's request in a Later: one per frame.
const kindRequest = 1

// linkIdent holds the client's first identification, and answers it with
// the server's first packet after it.
func (c *Conn) linkIdent(p *dissect.PDU, data []byte, cut bool, m dissect.Meta) {
	switch {
	case m.Dir == dissect.DirC2S && !c.asked && len(data) > 0 && data[0] == 0x00 && !cut:
		c.asked = true
		c.ident.Hold(p, m, kindRequest)
	case m.Dir == dissect.DirS2C && c.ident.On:
		c.ident.Answer(p, m, &outcomes, c.Later)
	}
}

// Close ends the heartbeat request still waiting with how the connection
// ended.
func (h *Heartbeat) Close(e dissect.ConnEnd) {
	h.req.End(e.Request(), &outcomes, h.Later)
}

// GiveUp lets go of the request p, which the pipeline must output before
// its response, for the reason r.
func (h *Heartbeat) GiveUp(p *dissect.PDU, r dissect.Release) { h.req.GiveUp(p, r, &outcomes, h.Later) }

// Gap tells the heartbeat that bytes of a direction are missing: a
// request waiting when the server's were lost may have lost its response.
func (h *Heartbeat) Gap(dir dissect.Dir) {
	if dir == dissect.DirS2C {
		h.req.Gap()
	}
}

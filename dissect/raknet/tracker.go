package raknet

import (
	"encoding/binary"
	"strconv"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
)

// Window is how long, in packet time, an unconnected ping waits for its
// pong before it is unanswered.
const Window = 5 * time.Second

// MaxPending bounds the pings waiting at once: past it the oldest is no
// longer waited for.
const MaxPending = 1024

// Tracker links each unconnected ping to its pong: the pong echoes the
// ping's time (raknet.time), sent back to the client's address and port.
// Pings wait held (PDU.Pending) until their pong, the window, an ICMP
// error or the capture's end decides them (mc.outcome); the pong gets
// raknet.request_in and the round trip. Pure: times are packet times
// from dissect.Meta. Not safe for concurrent use.
type Tracker struct {
	pending []ping // oldest first
	// Later, when set, is a two-pass run's record of the pings given up
	// on (-2).
	Later *dissect.Later
}

type ping struct {
	dissect.Wait
	client, server string
	time           uint64 // the ping's time field, as its 8 bytes
}

var outcomes = dissect.Outcomes{ResponseIn: fResponseIn, RequestIn: fRequestIn, Time: fRTT,
	Missing: eNoResponse, Refused: eRefused, Unlinked: eUnlinked,
	Unanswered: "no pong seen within " + Window.String() + " (packet time) of this ping"}

// NewTracker returns an empty tracker.
func NewTracker() *Tracker { return &Tracker{} }

// Observe links a ping or a pong Decode has just filled, seen in m.Frame
// between m.Client and m.Server. A Lite PDU is not held.
func (t *Tracker) Observe(m dissect.Meta, p *dissect.PDU) {
	switch {
	case len(p.Data) < 9:
	case p.Message == MsgPing || p.Message == MsgPingOpn:
		if len(t.pending) >= MaxPending {
			t.pending[0].End(dissect.End{}, &outcomes, t.Later) // no longer waited for: not known
			t.pending = t.pending[1:]
		}
		w := ping{client: m.Client, server: m.Server, time: binary.BigEndian.Uint64(p.Data[1:9])}
		w.Hold(p, m, 0)
		t.pending = append(t.pending, w)
	case p.Message == MsgPong:
		v := binary.BigEndian.Uint64(p.Data[1:9])
		for i := range t.pending {
			w := &t.pending[i]
			if w.client == m.Client && w.server == m.Server && w.time == v {
				w.Answer(p, m, &outcomes, t.Later)
				t.pending = append(t.pending[:i], t.pending[i+1:]...)
				return
			}
		}
		p.AddExpert(0, eUnsolicited, "no ping from "+m.Client+" with time "+strconv.FormatInt(int64(v), 10)+" seen in the last "+Window.String()+" for this pong")
	}
}

// Expire gives up on the pings that waited past Window at now.
func (t *Tracker) Expire(now time.Time) {
	keep := t.pending[:0]
	for i := range t.pending {
		w := &t.pending[i]
		if now.Sub(w.Time) > Window {
			w.End(dissect.End{Outcome: dissect.Unanswered}, &outcomes, t.Later)
			continue
		}
		keep = append(keep, *w)
	}
	clear(t.pending[len(keep):])
	t.pending = keep
}

// GiveUp lets go of p, which the pipeline must output before its pong,
// for the reason r: a pong still links back to it.
func (t *Tracker) GiveUp(p *dissect.PDU, r dissect.Release) {
	for i := range t.pending {
		if t.pending[i].GiveUp(p, r, &outcomes, t.Later) {
			return
		}
	}
}

// Close ends every ping still waiting: the capture ended.
func (t *Tracker) Close() {
	for i := range t.pending {
		t.pending[i].End(dissect.End{Outcome: dissect.Ended, Why: "no pong seen before the capture ended"}, &outcomes, t.Later)
	}
	clear(t.pending)
	t.pending = t.pending[:0]
}

// Refused ends the newest ping still waiting from m.Client to m.Server
// with an ICMP error seen in m.Frame, and returns the ping's frame.
func (t *Tracker) Refused(m dissect.Meta, via string) (uint64, bool) {
	for i := len(t.pending) - 1; i >= 0; i-- {
		w := &t.pending[i]
		if w.client == m.Client && w.server == m.Server {
			f := w.Frame
			w.End(dissect.End{Outcome: dissect.Refused, Frame: m.Frame, Time: m.Time, Via: via}, &outcomes, t.Later)
			t.pending = append(t.pending[:i], t.pending[i+1:]...)
			return f, true
		}
	}
	return 0, false
}

package query

// The tracker as it was before its pending requests got an index by
// conversation: a linear list scanned for every response, expiry and
// give-up. TestTrackerReference runs both on the same random
// conversations and compares the trees they leave. A request given up
// (GiveUp) stays in the list with p nil until its response or its window.

import (
	"encoding/binary"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
)

type refTracker struct {
	pending   []refHeld
	clients   map[string]clientTokens
	lastPrune time.Time
	dropped   time.Time
	aged      []aged // shrink's scratch
}

type refHeld struct {
	p       *dissect.PDU // nil once given up: its record is out
	conv    conv
	typ     uint8
	session uint32
	frame   uint64
	time    time.Time
}

// newRefTracker returns an empty tracker.
func newRefTracker() *refTracker {
	return &refTracker{clients: make(map[string]clientTokens)}
}

// Observe adds what the conversation says about p, a PDU Decode has just
// filled, seen in frame m.Frame at m.Time between m.Client and m.Server.
//
// A Lite PDU is not tracked: what tracking adds (the links between requests
// and responses, token and timing expert items) is in the tree only, and
// holding requests back would keep records waiting for nothing.
func (t *refTracker) Observe(m dissect.Meta, p *dissect.PDU) {
	if p.Lite {
		return
	}
	cv := conv{m.Client, m.Server}
	switch p.Message {
	case MsgHandshakeRequest, MsgBasicStatRequest, MsgFullStatRequest, MsgStatRequest:
		if len(p.Data) < 7 {
			return
		}
		if p.Message != MsgHandshakeRequest && len(p.Data) >= 11 {
			t.checkToken(m, p, int32(binary.BigEndian.Uint32(p.Data[7:11])))
		}
		if len(t.pending) >= MaxPending {
			if h := t.pending[0]; h.p != nil {
				h.p.AddExpert(0, eUntracked, "the tracker holds "+strconv.Itoa(MaxPending)+" requests already: it no longer waits for this one's response, which will not be linked")
				h.p.Pending = false
			}
			t.pending = append(t.pending[:0], t.pending[1:]...)
			t.dropped = m.Time
		}
		p.Pending = true
		t.pending = append(t.pending, refHeld{p: p, conv: cv, typ: p.Data[2], session: binary.BigEndian.Uint32(p.Data[3:7]), frame: m.Frame, time: m.Time})
	case MsgHandshakeResponse, MsgBasicStatResponse, MsgFullStatResponse, MsgStatResponse:
		if len(p.Data) < 5 {
			return
		}
		typ, sess := p.Data[0], binary.BigEndian.Uint32(p.Data[1:5])
		if typ == TypeHandshake {
			if tok, ok := handshakeToken(p); ok {
				t.issue(m.Client, issued{token: tok, frame: m.Frame, time: m.Time})
			}
		}
		t.match(m, p, cv, typ, sess)
	}
	t.prune(m.Time)
}

// match links response p to the oldest pending request of the same type in
// its conversation, preferring one with the same session ID.
func (t *refTracker) match(m dissect.Meta, p *dissect.PDU, cv conv, typ uint8, sess uint32) {
	best := -1
	for i := range t.pending {
		h := &t.pending[i]
		if h.conv != cv || h.typ != typ {
			continue
		}
		if h.session == sess {
			best = i
			break
		}
		if best < 0 {
			best = i
		}
	}
	if best < 0 {
		if !t.dropped.IsZero() && m.Time.Sub(t.dropped) <= ResponseWindow {
			p.AddExpert(0, eUntracked, "no "+typeNames.Name(uint64(typ))+" request from "+m.Client+" held for this response: past "+strconv.Itoa(MaxPending)+" waiting requests the tracker dropped the oldest within the last "+ResponseWindow.String()+", perhaps this one's")
			return
		}
		p.AddExpert(0, eUnsolicited, "no "+typeNames.Name(uint64(typ))+" request from "+m.Client+" seen in the last "+ResponseWindow.String()+" for this response")
		return
	}
	h := t.pending[best]
	if h.p != nil {
		outcomes.Mark(h.p, h.time, dissect.End{Outcome: dissect.Answered, Frame: m.Frame, Time: m.Time})
		h.p.Pending = false
	}
	p.AddGenerated(0, fRequestIn, dissect.U(h.frame), "")
	p.AddGenerated(0, fTime, dissect.F(m.Time.Sub(h.time).Seconds()), "")
	t.pending = append(t.pending[:best], t.pending[best+1:]...)
}

// checkToken says where the token of a stat request was issued.
func (t *refTracker) checkToken(m dissect.Meta, p *dissect.PDU, tok int32) {
	node := p.Find(fToken.Name)
	if node < 0 {
		node = 0
	}
	ct, ok := t.clients[m.Client]
	for i := ct.n - 1; ok && i >= 0; i-- {
		is := ct.toks[i]
		if is.token != tok {
			continue
		}
		age := m.Time.Sub(is.time)
		p.AddGenerated(0, fTokenIssued, dissect.U(is.frame), "")
		p.AddGenerated(0, fTokenAge, dissect.F(age.Seconds()), "")
		switch {
		case age > TokenLifetime:
			p.AddExpert(node, eTokenStale, "token "+strconv.Itoa(int(tok))+" was issued "+secs(age)+" ago (frame "+strconv.FormatUint(is.frame, 10)+"): tokens live at most 30 s, the server will not answer")
		case i != ct.n-1:
			nw := ct.toks[ct.n-1]
			p.AddExpert(node, eTokenStale, "token "+strconv.Itoa(int(tok))+" (frame "+strconv.FormatUint(is.frame, 10)+") was replaced by token "+strconv.Itoa(int(nw.token))+" (frame "+strconv.FormatUint(nw.frame, 10)+"): vanilla keeps only a client's latest token")
		}
		return
	}
	// Issued to another port of the same IP? Deterministic: the newest wins.
	ip := hostOf(m.Client)
	var found issued
	var who string
	for k, ct := range t.clients {
		if k == m.Client || hostOf(k) != ip {
			continue
		}
		for _, is := range ct.toks[:ct.n] {
			if is.token == tok && (who == "" || is.frame > found.frame) {
				found, who = is, k
			}
		}
	}
	if who != "" {
		p.AddGenerated(0, fTokenIssued, dissect.U(found.frame), "")
		p.AddGenerated(0, fTokenAge, dissect.F(m.Time.Sub(found.time).Seconds()), "")
		p.AddExpert(node, eTokenUnknown, "token "+strconv.Itoa(int(tok))+" was issued to "+who+" (frame "+strconv.FormatUint(found.frame, 10)+"), not to "+m.Client+": vanilla binds tokens to IP and port and will not answer")
		return
	}
	p.AddExpert(node, eTokenUnknown, "token "+strconv.Itoa(int(tok))+" was not issued to "+m.Client+" in this capture (before it began, or wrong)")
}

func (t *refTracker) issue(client string, is issued) {
	ct, ok := t.clients[client]
	if !ok && len(t.clients) >= MaxClients {
		t.shrink(is.time)
	}
	ct.add(is)
	t.clients[client] = ct
}

// Expire gives up on requests that have waited more than ResponseWindow at
// packet time now: each gets "no response seen" and is released.
func (t *refTracker) Expire(now time.Time) {
	keep := t.pending[:0]
	for _, h := range t.pending {
		if now.Sub(h.time) > ResponseWindow {
			if h.p != nil {
				outcomes.Mark(h.p, h.time, dissect.End{Outcome: dissect.Unanswered, Why: "no response seen within " + ResponseWindow.String() + " (packet time) of this " + typeNames.Name(uint64(h.typ)) + " request"})
				h.p.Pending = false
			}
			continue
		}
		keep = append(keep, h)
	}
	clear(t.pending[len(keep):])
	t.pending = keep
	t.prune(now)
}

// Close gives up on every request still waiting: the capture has ended.
func (t *refTracker) Close() {
	for _, h := range t.pending {
		if h.p != nil {
			outcomes.Mark(h.p, h.time, dissect.End{Outcome: dissect.Ended, Why: "no response seen before the capture ended for this " + typeNames.Name(uint64(h.typ)) + " request"})
			h.p.Pending = false
		}
	}
	clear(t.pending)
	t.pending = t.pending[:0]
	clear(t.clients)
}

// prune forgets clients whose newest token is older than TokenMemory, at
// most once every pruneEvery of packet time.
func (t *refTracker) prune(now time.Time) {
	if now.Sub(t.lastPrune) < pruneEvery && !t.lastPrune.IsZero() {
		return
	}
	t.lastPrune = now
	t.pruneClients(now)
}

func (t *refTracker) pruneClients(now time.Time) {
	for k, ct := range t.clients {
		if now.Sub(ct.last()) > TokenMemory {
			delete(t.clients, k)
		}
	}
}

// shrink makes room when MaxClients clients are known: first those whose
// tokens are older than TokenMemory go, then, if that was not enough, the
// quarter with the oldest newest tokens (ties broken by address, so runs
// are reproducible). Evicting a quarter at once keeps the cost per new
// client constant on average; one at a time would scan every client for
// each new one, which on a busy capture cost most of the run.
func (t *refTracker) shrink(now time.Time) {
	t.pruneClients(now)
	if len(t.clients) < MaxClients {
		return
	}
	all := t.aged[:0]
	for k, ct := range t.clients {
		all = append(all, aged{k, ct.last()})
	}
	// Only which quarter is oldest matters, not its order: a selection
	// costs linear time where sorting all of them cost n log n. The
	// scratch slice is kept for the next time.
	n := len(all) / 4
	selectOldest(all, n)
	for _, a := range all[:n] {
		delete(t.clients, a.key)
	}
	clear(all) // drop the key strings
	t.aged = all[:0]
}

// TestTrackerReference runs the tracker and the reference on the same
// random conversations (few clients and sessions, so that responses find
// several candidates; requests left unanswered; time going back now and
// then; give-ups of the oldest request as the analyzer does them; the
// MaxPending cap) and compares every PDU's tree and pending state after
// each step.
func TestTrackerReference(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 34))
	for trial := range 60 {
		tr, ref := NewTracker(), newRefTracker()
		var ps, rps []*dissect.PDU
		now := t0
		steps := 400
		capped := trial%20 == 19 // mostly requests, time standing still: past the cap
		if capped {
			steps = 2 * MaxPending
		}
		check := func(step int) {
			t.Helper()
			if err := hostsAgree(tr); err != nil {
				t.Fatalf("trial %d, step %d: %v", trial, step, err)
			}
			for k := range ps {
				if a, b := dump(ps[k])+fmt.Sprint(ps[k].Pending), dump(rps[k])+fmt.Sprint(rps[k].Pending); a != b {
					t.Fatalf("trial %d, step %d, PDU %d:\n%s\nreference:\n%s", trial, step, k, a, b)
				}
			}
		}
		for step := range steps {
			switch d := r.IntN(100); {
			case capped:
			case d < 3:
				now = now.Add(-time.Duration(r.IntN(2000)) * time.Millisecond)
			case d < 40:
				now = now.Add(time.Duration(r.IntN(50)) * time.Millisecond)
			case d < 43:
				now = now.Add(time.Duration(r.IntN(8000)) * time.Millisecond)
			}
			switch op := r.IntN(100); {
			case op < 5 && !capped:
				tr.Expire(now)
				ref.Expire(now)
			case op < 10:
				// Give up on the oldest still pending, as release does.
				for k := range ps {
					if ps[k].Pending {
						why := dissect.Release{Why: dissect.ReleaseWhy(r.IntN(3)), Max: 1024, Hold: time.Second}
						tr.GiveUp(ps[k], why)
						ref.GiveUp(rps[k], why)
						break
					}
				}
			default:
				client := "10.0.0." + strconv.Itoa(1+r.IntN(3)) + ":" + strconv.Itoa(1000+r.IntN(3))
				sess := uint32(r.IntN(3))
				tok := 1000 + r.IntN(4)
				var data []byte
				dir := dissect.DirC2S
				k := r.IntN(6)
				if capped && r.IntN(10) > 0 {
					k = 0
				}
				switch k {
				case 0:
					data = handshakeReq(sess)
				case 1:
					data = statReq(sess, uint32(tok), r.IntN(2) == 0)
				case 2:
					data, dir = handshakeResp(sess, tok), dissect.DirS2C
				case 3:
					data, dir = cat(0, be32(sess), kvs("hostname", "x")), dissect.DirS2C
				case 4:
					data, dir = seedBasicResp, dissect.DirS2C
				default:
					if trial%20 == 19 {
						data = handshakeReq(sess)
					} else {
						data, dir = handshakeResp(sess, tok), dissect.DirS2C
					}
				}
				p, rp := new(dissect.PDU), new(dissect.PDU)
				Decode(p, data, len(data), dir)
				Decode(rp, data, len(data), dir)
				m := dissect.Meta{Frame: uint64(step + 1), Time: now, Client: client, Server: "10.0.0.9:25565", Dir: dir}
				tr.Observe(m, p)
				ref.Observe(m, rp)
				ps, rps = append(ps, p), append(rps, rp)
			}
			if steps <= 1000 && step%37 == 0 || step%500 == 0 {
				check(step)
			}
		}
		tr.Close()
		ref.Close()
		check(steps)
		if capped {
			n := 0
			for _, p := range ps {
				if slices.Contains(expertNames(p), "query.response.untracked") {
					n++
				}
			}
			if n == 0 {
				t.Fatalf("trial %d: the cap of %d waiting requests was never reached", trial, MaxPending)
			}
		}
		if tr.pending.live != 0 || len(tr.pending.byConv) != 0 {
			t.Fatalf("trial %d: after Close, %d live, %d conversations", trial, tr.pending.live, len(tr.pending.byConv))
		}
	}
}

func (t *refTracker) GiveUp(p *dissect.PDU, why dissect.Release) {
	for i := range t.pending {
		if t.pending[i].p == p {
			p.AddExpert(0, eUnlinked, "output before its response came, if one comes within "+ResponseWindow.String()+" ("+why.Reason()+"): a response links back to this request, but this record cannot show it ("+why.Remedy()+" can)")
			p.Pending = false
			t.pending[i].p = nil
			return
		}
	}
}

// hostsAgree checks the tracker's count of clients per IP against its
// clients.
func hostsAgree(tr *Tracker) error {
	want := map[string]int32{}
	for k := range tr.clients {
		want[hostOf(k)]++
	}
	if !maps.Equal(want, tr.hosts) {
		return fmt.Errorf("clients per host %v, counted %v", want, tr.hosts)
	}
	return nil
}

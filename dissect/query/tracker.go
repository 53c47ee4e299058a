package query

import (
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
)

// Conversation analysis limits, all in packet time.
const (
	// ResponseWindow is how long a request waits for its response before
	// Expire gives up on it ("no response seen").
	ResponseWindow = 5 * time.Second
	// TokenLifetime: vanilla rotates every challenge token every 30 s, so a
	// token older than this gets no answer.
	TokenLifetime = 30 * time.Second
	// TokenMemory is how long issued tokens are remembered, to tell a stale
	// token from one never issued.
	TokenMemory = 5 * time.Minute
	// MaxClients and MaxPending bound the tracker's memory whatever the
	// capture holds.
	MaxClients = 4096
	MaxPending = 4096

	tokensPerClient = 4
	pruneEvery      = 10 * time.Second
)

// windowText is ResponseWindow as the expert items say it; unlinked makes
// GiveUp's message, the same each time for a reason (a busy capture has
// it for many requests).
var (
	windowText = ResponseWindow.String()
	untracked  = "the tracker holds " + strconv.Itoa(MaxPending) + " requests already: it no longer waits for this one's response, which will not be linked"
	unlinked   = dissect.NewReleaseTexts(func(r dissect.Release) string {
		return "output before its response came, if one comes within " + windowText + " (" + r.Reason() + "): a response links back to this request, but this record cannot show it (" + r.Remedy() + " can)"
	})
)

// Tracker links requests and responses within Query conversations, the way
// Wireshark's DNS dissector does, and follows the challenge tokens issued to
// each client. It is pure: times come from dissect.Meta (packet time) and
// nothing else. It is not safe for concurrent use.
//
// Requests are held: Observe sets p.Pending on a request and keeps the *PDU;
// when the response arrives it appends "Response in frame N" to the request's
// tree (under the root, so pre-order holds) and clears Pending. The caller
// releases PDUs in order as soon as the head is not Pending, and must keep a
// pending PDU (and its Data) alive and unchanged until then.
//
// Tokens are bound to the client's IP address and port, as vanilla does
// (Dinnerbone's post: "bound to your IP and port"; the server's map is keyed
// by the socket address). A token that matches one issued to another port of
// the same IP is reported as such: Geyser binds to the IP only.
type Tracker struct {
	pending pendingQueue
	clients map[string]clientTokens
	// hosts counts the clients of each IP address, so that a token
	// unknown to its client is looked for among the clients of the same
	// IP only when there are some.
	hosts     map[string]int32
	lastPrune time.Time
	dropped   time.Time // when the MaxPending cap last dropped a request
	aged      []aged    // shrink's scratch
	forgot    forgotten // the clients shrink evicted (forgot.go)
	// Later, when set, is a two-pass run's record of the requests given
	// up on (-2): the first pass notes how each ended, the second writes
	// that into the request when it gives up on it (GiveUp).
	Later *dissect.Later
}

type conv struct{ client, server string }

// held is a request waiting: its Wait (the PDU while held; Out once its
// record went out before its response, GiveUp, when a response within
// ResponseWindow still links back to it, so that it is not called
// unsolicited) and what its response is matched by.
type held struct {
	dissect.Wait
	conv    conv
	typ     uint8
	session uint32
}

// outcomes is what a request's outcome adds to Query's trees.
var outcomes = dissect.Outcomes{ResponseIn: fResponseIn, RequestIn: fRequestIn, Time: fTime,
	Missing: eNoResponse, Refused: eRefused, Unlinked: eUnlinked, UnlinkedNote: unlinked}

type issued struct {
	token int32
	frame uint64
	time  time.Time
}

// clientTokens holds the last few tokens issued to one client, newest last.
type clientTokens struct {
	toks [tokensPerClient]issued
	n    int
}

func (ct *clientTokens) add(t issued) {
	if ct.n == len(ct.toks) {
		copy(ct.toks[:], ct.toks[1:])
		ct.n--
	}
	ct.toks[ct.n] = t
	ct.n++
}

func (ct *clientTokens) last() time.Time { return ct.toks[ct.n-1].time }

// NewTracker returns an empty tracker.
func NewTracker() *Tracker {
	return &Tracker{clients: make(map[string]clientTokens), hosts: make(map[string]int32)}
}

// Observe adds what the conversation says about p, a PDU Decode has just
// filled, seen in frame m.Frame at m.Time between m.Client and m.Server.
//
// What tracking adds (the links between requests and responses, token and
// timing expert items) is in the tree only: it is the root's Annotate, so a
// Lite PDU is not tracked, and no request is held back for nothing.
func (t *Tracker) Observe(m dissect.Meta, p *dissect.PDU) {
	p.Annotate(0, func() { t.observe(m, p) })
}

func (t *Tracker) observe(m dissect.Meta, p *dissect.PDU) {
	cv := conv{m.Client, m.Server}
	switch p.Message {
	case MsgHandshakeRequest, MsgBasicStatRequest, MsgFullStatRequest, MsgStatRequest:
		if len(p.Data) < 7 {
			return
		}
		if p.Message != MsgHandshakeRequest && len(p.Data) >= 11 {
			t.checkToken(m, p, int32(binary.BigEndian.Uint32(p.Data[7:11])))
		}
		if t.pending.live >= MaxPending {
			t.giveUp(t.pending.head, eUntracked, untracked)
			t.dropped = m.Time
		}
		h := held{conv: cv, typ: p.Data[2], session: binary.BigEndian.Uint32(p.Data[3:7])}
		h.Hold(p, m, 0)
		t.pending.add(h)
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
func (t *Tracker) match(m dissect.Meta, p *dissect.PDU, cv conv, typ uint8, sess uint32) {
	q := &t.pending
	best := -1
	if l := q.byConv[cv]; l != nil {
		for _, seq := range l.seqs {
			i := q.index(seq)
			h := &q.q[i]
			if h.typ != typ {
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
	}
	if best < 0 {
		if !t.dropped.IsZero() && m.Time.Sub(t.dropped) <= ResponseWindow {
			// Its request may be one the cap dropped: nobody can tell.
			p.AddExpert(0, eUntracked, "no "+typeNames.Name(uint64(typ))+" request from "+m.Client+" held for this response: past "+strconv.Itoa(MaxPending)+" waiting requests the tracker dropped the oldest within the last "+windowText+", perhaps this one's")
			return
		}
		p.AddExpert(0, eUnsolicited, "no "+typeNames.Name(uint64(typ))+" request from "+m.Client+" seen in the last "+windowText+" for this response")
		return
	}
	q.q[best].Answer(p, m, &outcomes, t.Later)
	q.remove(best)
}

// checkToken says where the token of a stat request was issued.
func (t *Tracker) checkToken(m dissect.Meta, p *dissect.PDU, tok int32) {
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
	others := t.hosts[ip]
	if ok {
		others-- // m.Client itself
	}
	if others <= 0 {
		t.notFound(node, m, p, tok)
		return
	}
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
	t.notFound(node, m, p, tok)
}

// notFound says that no token the tracker remembers is tok: not issued,
// unless the client's tokens may have been dropped to stay within
// MaxClients, in which case nobody can tell.
func (t *Tracker) notFound(node int32, m dissect.Meta, p *dissect.PDU, tok int32) {
	if t.forgot.has(m.Client, m.Time) {
		p.AddExpert(node, eTokenUnchecked, "token "+strconv.Itoa(int(tok))+" could not be checked: past "+strconv.Itoa(MaxClients)+" clients the tracker forgot the least recently active, most likely "+m.Client+" among them")
		return
	}
	p.AddExpert(node, eTokenUnknown, "token "+strconv.Itoa(int(tok))+" was not issued to "+m.Client+" in this capture (before it began, or wrong)")
}

func (t *Tracker) issue(client string, is issued) {
	ct, ok := t.clients[client]
	if !ok && len(t.clients) >= MaxClients {
		t.shrink(is.time)
	}
	if !ok {
		t.hosts[hostOf(client)]++
	}
	ct.add(is)
	t.clients[client] = ct
}

// Expire gives up on requests that have waited more than ResponseWindow at
// packet time now: each gets "no response seen" and is released.
func (t *Tracker) Expire(now time.Time) {
	q := &t.pending
	// The analyzer calls Expire for every record it must output before
	// its response came: the list is scanned only when one may be due.
	if q.live > 0 && now.Sub(q.oldest) > ResponseWindow {
		oldest := time.Time{}
		for i := q.head; i < len(q.q); i++ {
			h := &q.q[i]
			if h.removed() {
				continue
			}
			if now.Sub(h.Time) > ResponseWindow {
				h.End(dissect.End{Outcome: dissect.Unanswered, Why: noResponse(h.typ)}, &outcomes, t.Later)
				q.remove(i)
				continue
			}
			if oldest.IsZero() || h.Time.Before(oldest) {
				oldest = h.Time
			}
		}
		q.oldest = oldest
	}
	t.prune(now)
}

// Close gives up on every request still waiting: the capture has ended.
func (t *Tracker) Close() {
	q := &t.pending
	for i := q.head; i < len(q.q); i++ {
		h := &q.q[i]
		if !h.removed() {
			h.End(dissect.End{Outcome: dissect.Ended, Why: noResponseEnded(h.typ)}, &outcomes, t.Later)
			q.remove(i)
		}
	}
	clear(t.clients)
	clear(t.hosts)
}

// giveUp releases the pending request at index i of the queue with
// expert item e, and forgets it (one already out, silently).
func (t *Tracker) giveUp(i int, e *dissect.ExpertInfo, msg string) {
	h := &t.pending.q[i]
	if h.P != nil {
		h.P.AddExpert(0, e, msg)
		h.P.Pending = false
	}
	t.pending.remove(i)
}

// prune forgets clients whose newest token is older than TokenMemory, at
// most once every pruneEvery of packet time.
func (t *Tracker) prune(now time.Time) {
	if now.Sub(t.lastPrune) < pruneEvery && !t.lastPrune.IsZero() {
		return
	}
	t.lastPrune = now
	t.pruneClients(now)
}

func (t *Tracker) pruneClients(now time.Time) {
	for k, ct := range t.clients {
		if now.Sub(ct.last()) > TokenMemory {
			t.forget(k)
		}
	}
}

// forget drops a client and its tokens.
func (t *Tracker) forget(client string) {
	delete(t.clients, client)
	h := hostOf(client)
	if t.hosts[h] <= 1 {
		delete(t.hosts, h)
	} else {
		t.hosts[h]--
	}
}

// shrink makes room when MaxClients clients are known: first those whose
// tokens are older than TokenMemory go, then, if that was not enough, the
// quarter with the oldest newest tokens (ties broken by address, so runs
// are reproducible). Evicting a quarter at once keeps the cost per new
// client constant on average; one at a time would scan every client for
// each new one, which on a busy capture cost most of the run.
func (t *Tracker) shrink(now time.Time) {
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
		t.forget(a.key)
		t.forgot.add(a.key, now)
	}
	clear(all) // drop the key strings
	t.aged = all[:0]
}

// aged is a client and the time of its newest token, for shrink.
type aged struct {
	key string
	at  time.Time
}

// agedCmp orders clients oldest first, ties broken by address, so that
// which clients go does not depend on map order.
func agedCmp(a, b *aged) int {
	if c := a.at.Compare(b.at); c != 0 {
		return c
	}
	return strings.Compare(a.key, b.key)
}

// selectOldest moves the k oldest of a (distinct keys) to a[:k], in no
// particular order: Hoare's quickselect with a median-of-three pivot. A
// range still unsettled after 64 rounds (a hostile capture's times) is
// sorted instead, which bounds the work at n log n.
func selectOldest(a []aged, k int) {
	if k <= 0 || k >= len(a) {
		return
	}
	lo, hi := 0, len(a)-1
	for round := 0; lo < hi; round++ {
		if round == 64 {
			slices.SortFunc(a[lo:hi+1], func(x, y aged) int { return agedCmp(&x, &y) })
			return
		}
		mid := lo + (hi-lo)/2
		if agedCmp(&a[mid], &a[lo]) < 0 {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if agedCmp(&a[hi], &a[lo]) < 0 {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if agedCmp(&a[hi], &a[mid]) < 0 {
			a[hi], a[mid] = a[mid], a[hi]
		}
		pivot := a[mid]
		i, j := lo, hi
		for i <= j {
			for agedCmp(&a[i], &pivot) < 0 {
				i++
			}
			for agedCmp(&pivot, &a[j]) < 0 {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		// now a[lo:j+1] <= pivot <= a[i:hi+1]
		switch {
		case k-1 <= j:
			hi = j
		case k-1 >= i:
			lo = i
		default:
			return
		}
	}
}

// hostOf strips the port from "ip:port" or "[ip6]:port".
func hostOf(addr string) string {
	if i := strings.LastIndexByte(addr, ':'); i >= 0 {
		return strings.TrimSuffix(strings.TrimPrefix(addr[:i], "["), "]")
	}
	return addr
}

// noResponse and noResponseEnded are the "no response" items' messages,
// for a request of type typ, at its window's end and at the capture's.
func noResponse(typ uint8) string {
	return "no response seen within " + windowText + " (packet time) of this " + typeNames.Name(uint64(typ)) + " request"
}

func noResponseEnded(typ uint8) string {
	return "no response seen before the capture ended for this " + typeNames.Name(uint64(typ)) + " request"
}

func secs(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + " s"
}

// GiveUp stops holding p for its response, with an expert item saying
// so and why (r): the pipeline calls it when it must output p before the
// response window has passed (too many records held, or held as long as
// its hold allows). The tracker keeps no pointer
// to p afterwards, but remembers the request until its window passes: a
// response that comes then links back to it (Request in frame, time), as
// Wireshark's first pass links a response to its request. Forgetting it
// made every such response "unsolicited", which on a busy capture was
// most of them.
func (t *Tracker) GiveUp(p *dissect.PDU, r dissect.Release) {
	// The analyzer gives up on the oldest record it holds, so p is
	// nearly always the first entry still held, past those out already:
	// heldFrom skips them (scanning them cost a fifth of the Query mix's
	// -V CPU time).
	q := &t.pending
	i := q.head
	if q.heldFrom > q.base {
		i = max(i, int(q.heldFrom-q.base))
	}
	for i < len(q.q) && q.q[i].P == nil {
		i++
	}
	q.heldFrom = q.base + uint64(i)
	for ; i < len(q.q); i++ {
		// A second pass (-2) knows how the request ended, and says it as
		// if it had waited; the entry stays out all the same, for its
		// response to link back to.
		if q.q[i].GiveUp(p, r, &outcomes, t.Later) {
			return
		}
	}
}

// Refused ends the newest request still waiting from client to server
// (m.Client, m.Server) with an ICMP destination unreachable seen in
// m.Frame (via: "ICMP port unreachable"), and returns the request's
// frame, for the ICMP's record to name. ok is false when none waited.
func (t *Tracker) Refused(m dissect.Meta, via string) (request uint64, ok bool) {
	q := &t.pending
	l := q.byConv[conv{m.Client, m.Server}]
	if l == nil || len(l.seqs) == 0 {
		return 0, false
	}
	i := q.index(l.seqs[len(l.seqs)-1])
	h := &q.q[i]
	request = h.Frame
	h.End(dissect.End{Outcome: dissect.Refused, Frame: m.Frame, Time: m.Time, Via: via}, &outcomes, t.Later)
	q.remove(i)
	return request, true
}

// pendingQueue holds the requests awaiting their responses, oldest first,
// with an index by conversation: a busy capture has hundreds waiting (the
// analyzer gives up on one only after a thousand records), and a response
// looked for its request among all of them, a given-up request was
// removed by moving all the others down, and every expiry read the time
// of each.
//
// A request's entry is q[seq-base], seq being the number the queue gave it
// (base counts the entries dropped from the front). A live entry is held
// (p set) or out (GiveUp: its record went, its response may still come).
// Removed entries stay, with p nil and out false (held.removed), until no
// live entry is before them, or the queue compacts.
type pendingQueue struct {
	q      []held
	head   int    // q[:head] are removed entries; q[head] is live if live > 0
	base   uint64 // the seq of q[0]
	live   int
	byConv map[conv]*seqList // each conversation's live entries, oldest first
	free   []*seqList        // emptied lists, for the next conversations
	oldest time.Time         // no live entry's time is before it
	// heldFrom: no entry before the one numbered heldFrom holds its PDU
	// (GiveUp's start).
	heldFrom uint64
}

// removed reports whether the entry is out of the queue: neither held nor
// out (GiveUp).
func (h *held) removed() bool { return !h.On }

// seqList is the seqs of one conversation's pending requests, in order.
type seqList struct{ seqs []uint64 }

// index is the position in q of the entry numbered seq.
func (q *pendingQueue) index(seq uint64) int { return int(seq - q.base) }

// add queues h as the newest request.
func (q *pendingQueue) add(h held) {
	if q.byConv == nil {
		q.byConv = make(map[conv]*seqList)
	}
	if q.live == 0 || h.Time.Before(q.oldest) {
		q.oldest = h.Time
	}
	if q.head > 0 && q.head >= len(q.q)/2 {
		// Compact: the removed entries at the front are at least half.
		n := copy(q.q, q.q[q.head:])
		clear(q.q[n:])
		q.q = q.q[:n]
		q.base += uint64(q.head)
		q.head = 0
	}
	seq := q.base + uint64(len(q.q))
	q.q = append(q.q, h)
	q.live++
	l := q.byConv[h.conv]
	if l == nil {
		if n := len(q.free); n > 0 {
			l = q.free[n-1]
			q.free = q.free[:n-1]
		} else {
			l = new(seqList)
		}
		q.byConv[h.conv] = l
	}
	l.seqs = append(l.seqs, seq)
}

// remove takes the live entry at index i out of the queue.
func (q *pendingQueue) remove(i int) {
	h := &q.q[i]
	seq := q.base + uint64(i)
	if l := q.byConv[h.conv]; l != nil {
		for k, s := range l.seqs {
			if s == seq {
				l.seqs = append(l.seqs[:k], l.seqs[k+1:]...)
				break
			}
		}
		if len(l.seqs) == 0 {
			delete(q.byConv, h.conv)
			if cap(l.seqs) <= 8 {
				q.free = append(q.free, l)
			}
		}
	}
	*h = held{} // let go of the PDU and the keys
	q.live--
	for q.head < len(q.q) && q.q[q.head].removed() {
		q.head++
	}
	if q.live == 0 {
		q.base += uint64(len(q.q))
		q.q = q.q[:0]
		q.head = 0
	}
}

package query

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
)

var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// conversation drives a tracker the way the analyzer does.
type conversation struct {
	t     *testing.T
	tr    *Tracker
	frame uint64
	pdus  map[uint64]*dissect.PDU
}

func newConversation(t *testing.T) *conversation {
	return &conversation{t: t, tr: NewTracker(), pdus: map[uint64]*dissect.PDU{}}
}

// send decodes data sent at t0+at between client and server and observes it.
func (c *conversation) send(at time.Duration, client string, dir dissect.Dir, data []byte) *dissect.PDU {
	c.t.Helper()
	c.frame++
	p := decode(c.t, data, 0, dir)
	c.tr.Observe(dissect.Meta{Frame: c.frame, Time: t0.Add(at), Client: client, Server: "127.0.0.1:25565", Dir: dir}, p)
	if err := dissect.Check(p); err != nil {
		c.t.Fatalf("frame %d: %v", c.frame, err)
	}
	c.pdus[c.frame] = p
	return p
}

func handshakeReq(sess uint32) []byte {
	return cat(hx("FE FD 09"), be32(sess))
}

func handshakeResp(sess uint32, tok int) []byte {
	return cat(9, be32(sess), fmt.Sprint(tok), 0)
}

func statReq(sess uint32, tok uint32, full bool) []byte {
	b := cat(hx("FE FD 00"), be32(sess), be32(tok))
	if full {
		b = append(b, 0, 0, 0, 0)
	}
	return b
}

func be32(v uint32) []byte { return []byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)} }

func TestTrackerExchange(t *testing.T) {
	c := newConversation(t)
	const a = "127.0.0.1:40000"
	hreq := c.send(0, a, dissect.DirC2S, handshakeReq(1))
	if !hreq.Pending {
		t.Fatal("handshake request not held")
	}
	hresp := c.send(2*time.Millisecond, a, dissect.DirS2C, seedHandshakeResp)
	if hreq.Pending {
		t.Error("handshake request still held after its response")
	}
	freq := c.send(3*time.Millisecond, a, dissect.DirC2S, seedFullReq)
	fresp := c.send(4500*time.Microsecond, a, dissect.DirS2C, seedFullResp0)
	for _, w := range []struct {
		p          *dissect.PDU
		name, want string
	}{
		{hreq, "query.response_in", "2"},
		{hresp, "query.request_in", "1"},
		{hresp, "query.time", "0.002 s"},
		{freq, "query.token_issued_in", "2"},
		{freq, "query.token_age", "0.001 s"},
		{freq, "query.response_in", "4"},
		{fresp, "query.request_in", "3"},
		{fresp, "query.time", "0.0015 s"},
	} {
		if got := disp(w.p, w.name); got != w.want {
			t.Errorf("%s = %s, want %s", w.name, got, w.want)
		}
	}
	for f, p := range c.pdus {
		if len(p.Experts) != 0 || p.Pending {
			t.Errorf("frame %d: pending %v, experts\n%s", f, p.Pending, expertMsgs(p))
		}
	}
}

func TestTrackerTokens(t *testing.T) {
	c := newConversation(t)
	const a, b = "10.0.0.1:40000", "10.0.0.1:40001"
	c.send(0, a, dissect.DirC2S, handshakeReq(1))
	c.send(time.Millisecond, a, dissect.DirS2C, handshakeResp(1, 9513307))
	// 40 s later the same token: stale.
	stale := c.send(40*time.Second, a, dissect.DirC2S, statReq(1, 9513307, false))
	if got := disp(stale, "query.token_age"); got != "39.999 s" {
		t.Errorf("token age %s", got)
	}
	c.tr.Expire(t0.Add(46 * time.Second))
	if stale.Pending {
		t.Error("stale request still held after Expire")
	}
	if got := expertNames(stale); !slices.Equal(got, []string{"query.token.stale", "query.response.missing"}) {
		t.Errorf("stale: %q\n%s", got, expertMsgs(stale))
	}
	// A token never issued.
	never := c.send(50*time.Second, a, dissect.DirC2S, statReq(1, 12345, true))
	// The other port of the same IP.
	c.send(51*time.Second, a, dissect.DirC2S, handshakeReq(2))
	c.send(51*time.Second, a, dissect.DirS2C, handshakeResp(2, 777))
	other := c.send(52*time.Second, b, dissect.DirC2S, statReq(2, 777, true))
	// A second handshake replaces the first token.
	c.send(53*time.Second, a, dissect.DirC2S, handshakeReq(3))
	c.send(53*time.Second, a, dissect.DirS2C, handshakeResp(3, 888))
	replaced := c.send(54*time.Second, a, dissect.DirC2S, statReq(3, 777, true))
	c.tr.Expire(t0.Add(60 * time.Second))
	// A response nobody asked for (Geyser answers a handshake twice).
	unsolicited := c.send(55*time.Second, a, dissect.DirS2C, seedFullResp0)
	c.tr.Close()
	for _, w := range []struct {
		name string
		p    *dissect.PDU
		want []string
		msg  string
	}{
		{"never issued", never, []string{"query.token.unknown", "query.response.missing"}, "token 12345 was not issued to 10.0.0.1:40000 in this capture"},
		{"other port", other, []string{"query.token.unknown", "query.response.missing"}, "token 777 was issued to 10.0.0.1:40000 (frame 6), not to 10.0.0.1:40001"},
		{"replaced", replaced, []string{"query.token.stale", "query.response.missing"}, "token 777 (frame 6) was replaced by token 888 (frame 9)"},
		{"unsolicited", unsolicited, []string{"query.response.unsolicited"}, "no Stat request from 10.0.0.1:40000"},
	} {
		if got := expertNames(w.p); !slices.Equal(got, w.want) {
			t.Errorf("%s: %q, want %q\n%s", w.name, got, w.want, expertMsgs(w.p))
		}
		if !strings.Contains(expertMsgs(w.p), w.msg) {
			t.Errorf("%s: messages\n%s\nlack %q", w.name, expertMsgs(w.p), w.msg)
		}
		if w.p.Pending {
			t.Errorf("%s: still pending after Close", w.name)
		}
		if err := dissect.Check(w.p); err != nil {
			t.Errorf("%s: %v", w.name, err)
		}
	}
	if got := disp(other, "query.token_issued_in"); got != "6" {
		t.Errorf("other port: token issued in %s", got)
	}
}

// TestTrackerMatching: responses go to the request of their own type and
// session, even out of order.
func TestTrackerMatching(t *testing.T) {
	c := newConversation(t)
	const a = "10.0.0.2:5000"
	r1 := c.send(0, a, dissect.DirC2S, handshakeReq(1))
	r2 := c.send(0, a, dissect.DirC2S, handshakeReq(2))
	c.send(time.Millisecond, a, dissect.DirS2C, handshakeResp(2, 5))
	if !r1.Pending || r2.Pending {
		t.Errorf("after the response to session 2: pending %v %v", r1.Pending, r2.Pending)
	}
	// Another client's response does not match.
	c.send(time.Millisecond, "10.0.0.3:5000", dissect.DirS2C, handshakeResp(1, 6))
	if !r1.Pending {
		t.Error("matched across clients")
	}
	c.send(2*time.Millisecond, a, dissect.DirS2C, handshakeResp(1, 7))
	if r1.Pending || disp(r1, "query.response_in") != "5" {
		t.Errorf("r1: %s", dump(r1))
	}
}

// TestTrackerGiveUp: a request the pipeline had to output early (GiveUp)
// says so, is never written to again, and its response, if it comes within
// the window, links back to it instead of being called unsolicited.
func TestTrackerGiveUp(t *testing.T) {
	const a = "10.0.0.4:6000"
	for _, tc := range []struct {
		name    string
		respAt  time.Duration // when the response comes (0: never)
		expire  bool          // Expire runs past the window before it
		linked  bool          // the response links back
		respExp []string      // the response's expert items
	}{
		{"response in the window", 800 * time.Millisecond, false, true, nil},
		{"response after the window", 6 * time.Second, true, false, []string{"query.response.unsolicited"}},
		{"no response", 0, false, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newConversation(t)
			req := c.send(0, a, dissect.DirC2S, handshakeReq(3))
			c.tr.GiveUp(req, dissect.Release{Why: dissect.ReleaseCount, Max: 1024})
			if req.Pending {
				t.Fatal("still pending after GiveUp")
			}
			before := dump(req)
			if got := expertNames(req); !slices.Equal(got, []string{"query.response.unlinked"}) {
				t.Errorf("request's experts %v", got)
			}
			if tc.expire {
				c.tr.Expire(t0.Add(tc.respAt - time.Millisecond))
			}
			if tc.respAt > 0 {
				resp := c.send(tc.respAt, a, dissect.DirS2C, handshakeResp(3, 42))
				if got := disp(resp, "query.request_in"); (got == "1") != tc.linked {
					t.Errorf("response's request_in %q, want linked %v\n%s", got, tc.linked, dump(resp))
				}
				if tc.linked && disp(resp, "query.time") != "0.8 s" {
					t.Errorf("response time %q", disp(resp, "query.time"))
				}
				if got := expertNames(resp); !slices.Equal(got, tc.respExp) {
					t.Errorf("response's experts %v, want %v", got, tc.respExp)
				}
			}
			c.tr.Close()
			if after := dump(req); after != before {
				t.Errorf("the request was written to after GiveUp:\n%s\nbefore:\n%s", after, before)
			}
			if c.tr.pending.live != 0 {
				t.Errorf("%d still in the queue after Close", c.tr.pending.live)
			}
		})
	}
}

// TestTrackerForgotten: a client whose tokens were dropped to stay within
// MaxClients is not told its token was never issued: it could not be
// checked. A client never seen still gets "not issued".
func TestTrackerForgotten(t *testing.T) {
	tr := NewTracker()
	client := func(i int) string { return fmt.Sprintf("10.2.%d.%d:1", i/256, i%256) }
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Millisecond) }
	n := MaxClients + 100
	for i := 0; i < n; i++ {
		p := decode(t, handshakeResp(1, 1000+i), 0, dissect.DirS2C)
		tr.Observe(dissect.Meta{Frame: uint64(i + 1), Time: at(i), Client: client(i), Server: "s"}, p)
	}
	if _, ok := tr.clients[client(0)]; ok {
		t.Fatal("the oldest client was kept: nothing evicted, nothing to test")
	}
	for _, c := range []struct {
		client string
		tok    uint32
		want   string
	}{
		{client(0), 1000, "query.token.unchecked"}, // evicted: its token was issued
		{client(n - 1), uint32(1000 + n - 1), ""},  // remembered: issued
		{"10.9.9.9:1", 77, "query.token.unknown"},  // never seen
		{client(n - 1), 5, "query.token.unknown"},  // remembered, another token
	} {
		p := decode(t, statReq(1, c.tok, false), 0, dissect.DirC2S)
		tr.Observe(dissect.Meta{Frame: uint64(n + 1), Time: at(n), Client: c.client, Server: "s"}, p)
		got := expertNames(p)
		if c.want == "" && len(got) != 0 || c.want != "" && !slices.Contains(got, c.want) {
			t.Errorf("%s token %d: experts %v, want %q", c.client, c.tok, got, c.want)
		}
	}
	// The filter forgets with TokenMemory: still there one TokenMemory
	// on, gone two on, whether time moves in steps or at once.
	if !tr.forgot.has(client(0), at(n).Add(TokenMemory+time.Second)) {
		t.Error("an eviction one generation old is forgotten")
	}
	if tr.forgot.has(client(0), at(n).Add(2*TokenMemory+2*time.Second)) {
		t.Error("an eviction two generations old is still remembered")
	}
	tr2 := NewTracker()
	tr2.forgot.add(client(0), t0)
	if tr2.forgot.has(client(0), t0.Add(time.Hour)) {
		t.Error("an eviction an hour old is still remembered")
	}
}

// TestTrackerBounds: memory stays bounded whatever the capture holds.
func TestTrackerBounds(t *testing.T) {
	tr := NewTracker()
	for i := 0; i < MaxClients+100; i++ {
		p := decode(t, handshakeResp(1, i), 0, dissect.DirS2C)
		tr.Observe(dissect.Meta{Frame: uint64(i + 1), Time: t0.Add(time.Duration(i) * time.Millisecond), Client: fmt.Sprintf("10.1.%d.%d:1", i/256, i%256), Server: "s"}, p)
	}
	if len(tr.clients) > MaxClients {
		t.Errorf("%d clients remembered, cap %d", len(tr.clients), MaxClients)
	}
	if _, ok := tr.clients["10.1.0.0:1"]; ok {
		t.Error("the oldest client was kept")
	}
	if err := hostsAgree(tr); err != nil {
		t.Error(err)
	}
	// Requests: the oldest is given up when the cap is reached.
	var first *dissect.PDU
	for i := 0; i < MaxPending+1; i++ {
		p := decode(t, handshakeReq(uint32(i)), 0, dissect.DirC2S)
		if i == 0 {
			first = p
		}
		tr.Observe(dissect.Meta{Frame: uint64(i + 1), Time: t0, Client: "c:1", Server: "s"}, p)
	}
	if tr.pending.live != MaxPending || first.Pending {
		t.Errorf("%d pending, first pending %v", tr.pending.live, first.Pending)
	}
	if got := expertNames(first); !slices.Equal(got, []string{"query.response.untracked"}) {
		t.Errorf("the request the cap dropped: experts %v", got)
	}
	// A response that matches no request held, soon after the cap
	// dropped one, may be that one's: it is not called unsolicited.
	late := decode(t, handshakeResp(0, 7), 0, dissect.DirS2C)
	tr.Observe(dissect.Meta{Frame: MaxPending + 2, Time: t0.Add(time.Second), Client: "d:1", Server: "s"}, late)
	if got := expertNames(late); !slices.Equal(got, []string{"query.response.untracked"}) {
		t.Errorf("the response of a dropped request: experts %v", got)
	}
	// Tokens are forgotten after TokenMemory of packet time.
	tr.Expire(t0.Add(time.Hour))
	if err := hostsAgree(tr); err != nil {
		t.Error(err)
	}
	if len(tr.clients) != 0 || tr.pending.live != 0 {
		t.Errorf("after an hour: %d clients, %d pending", len(tr.clients), tr.pending.live)
	}
}

// FuzzTracker feeds the tracker a sequence of datagrams chosen by the fuzzer:
// whatever the order, every PDU keeps its invariants and none stays pending
// after Close.
func FuzzTracker(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 0x80, 6, 7})
	f.Add([]byte{0, 2, 0xc0, 1, 3, 0xc0, 0xc0, 4, 0x85, 5}) // give-ups, then their responses
	msgs := [][]byte{seedHandshakeReq, seedHandshakeResp, seedBasicReq, seedBasicResp, seedFullReq, seedFullResp0,
		handshakeResp(1, 5), statReq(1, 5, true), geyserFull, hx("FE FD 00 00 00 00 01 00")}
	f.Fuzz(func(t *testing.T, script []byte) {
		// same() compares every PDU made so far after each step: a script
		// of tens of thousands of steps took the worker past the fuzzer's
		// time limit on a busy host, a failure with no input to replay.
		// Longer scripts find nothing a thousand steps do not.
		if len(script) > 1000 {
			script = script[:1000]
		}
		tr := NewTracker()
		ltr := NewTracker() // the same datagrams decoded in Lite mode
		now := t0
		var ps, lps []*dissect.PDU
		gone := map[int]string{} // given up: the tree then, never written again
		same := func() {
			for k, p := range ps {
				if lp := lps[k]; lp.Message != p.Message || lp.Info != p.Info || lp.Dir != p.Dir || lp.Pending {
					t.Fatalf("PDU %d: Lite %q %q %v pending %v, full %q %q %v (a Lite PDU is never Pending)", k, lp.Message, lp.Info, lp.Dir, lp.Pending, p.Message, p.Info, p.Dir)
				}
			}
		}
		for i, op := range script {
			now = now.Add(time.Duration(op&0x7f) * 100 * time.Millisecond)
			if op&0xc0 == 0xc0 { // the analyzer gives up on the oldest held
				for k, p := range ps {
					if p.Pending {
						tr.GiveUp(p, dissect.Release{Why: dissect.ReleaseHold, Hold: time.Second})
						if p.Pending {
							t.Fatal("pending after GiveUp")
						}
						gone[k] = dump(p)
						break
					}
				}
				continue
			}
			if op&0x80 != 0 {
				tr.Expire(now)
				ltr.Expire(now)
				same()
				continue
			}
			m := msgs[int(op)%len(msgs)]
			p, lp := new(dissect.PDU), &dissect.PDU{Lite: true}
			Decode(p, m, len(m), dissect.DirUnknown)
			Decode(lp, m, len(m), dissect.DirUnknown)
			client := "10.0.0.1:" + fmt.Sprint(1000+int(op)%3)
			meta := dissect.Meta{Frame: uint64(i + 1), Time: now, Client: client, Server: "10.0.0.9:25565"}
			tr.Observe(meta, p)
			ltr.Observe(meta, lp)
			ps, lps = append(ps, p), append(lps, lp)
			same()
		}
		tr.Close()
		ltr.Close()
		same()
		for k, d := range gone {
			if got := dump(ps[k]); got != d {
				t.Fatalf("PDU %d written to after GiveUp:\n%s\nthen:\n%s", k, got, d)
			}
		}
		for _, p := range ps {
			if p.Pending {
				t.Fatal("pending after Close")
			}
			if err := dissect.Check(p); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestSelectOldest checks the selection shrink uses against a full sort:
// the same quarter, whatever the times (equal ones too) and sizes.
func TestSelectOldest(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := range 400 {
		n := 1 + r.IntN(300)
		if trial%50 == 0 {
			n = MaxClients
		}
		spread := 1 + r.IntN(50) // few distinct times: many ties broken by key
		a := make([]aged, n)
		for i := range a {
			a[i] = aged{key: fmt.Sprintf("10.0.%d.%d:%d", r.IntN(256), r.IntN(256), i), at: t0.Add(time.Duration(r.IntN(spread)) * time.Second)}
		}
		if trial%7 == 0 { // already sorted, or reversed: bad pivots for a naive quickselect
			slices.SortFunc(a, func(x, y aged) int { return agedCmp(&x, &y) })
			if trial%2 == 0 {
				slices.Reverse(a)
			}
		}
		sorted := slices.Clone(a)
		slices.SortFunc(sorted, func(x, y aged) int { return agedCmp(&x, &y) })
		for _, k := range []int{0, 1, n / 4, n / 2, n - 1, n} {
			b := slices.Clone(a)
			selectOldest(b, k)
			got := slices.Clone(b[:max(k, 0)])
			slices.SortFunc(got, func(x, y aged) int { return agedCmp(&x, &y) })
			if k > 0 && k < n && !slices.Equal(got, sorted[:k]) {
				t.Fatalf("trial %d, n %d, k %d: selected\n%v\nwant\n%v", trial, n, k, got, sorted[:k])
			}
		}
	}
}

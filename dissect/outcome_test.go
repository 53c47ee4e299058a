package dissect

import (
	"strings"
	"testing"
	"time"
)

var (
	testOutReg      = NewRegistry("outtest", "Outcome test")
	testOutResp     = testOutReg.FrameNum("outtest.response_in", "Response in frame")
	testOutReq      = testOutReg.FrameNum("outtest.request_in", "Request in frame")
	testOutTime     = testOutReg.Float("outtest.time", "Time", "s")
	testOutMissing  = testOutReg.Expert("outtest.missing", SevWarn, "missing")
	testOutClosed   = testOutReg.Expert("outtest.closed", SevWarn, "closed")
	testOutUnlinked = testOutReg.Expert("outtest.unlinked", SevNote, "unlinked")
	testOutcomes    = Outcomes{ResponseIn: testOutResp, RequestIn: testOutReq, Time: testOutTime, Missing: testOutMissing, Closed: testOutClosed, Unlinked: testOutUnlinked, Unanswered: "no response within 5s"}
)

// outcomeOf reads what Mark wrote: mc.outcome and its children, the
// expert item.
func outcomeOf(p *PDU) string {
	var b []string
	for i := range p.Nodes {
		n := &p.Nodes[i]
		switch n.Field {
		case FieldOutcome, FieldOutcomeBy:
			b = append(b, n.Field.Name+"="+n.Value.Text())
		case FieldOutcomeFrame, testOutResp:
			b = append(b, n.Field.Name+"="+string(AppendUint(nil, n.Value.N)))
		case FieldOutcomeTime:
			b = append(b, n.Field.Name+"="+string(AppendValue(nil, n)))
		}
	}
	for _, e := range p.Experts {
		b = append(b, "!"+e.Info.Name)
	}
	return strings.Join(b, " ")
}

// TestWait: a request held, then decided each way, writes the outcome
// every protocol shares; the connection's end says which; a gap of the
// server's side makes a missing answer lost; a response links both ways.
func TestWait(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	m := Meta{Frame: 3, Time: t0}
	for _, tc := range []struct {
		name string
		run  func(w *Wait, p *PDU)
		want string
	}{
		{"answered", func(w *Wait, p *PDU) {
			r := &PDU{Nodes: []Node{{Field: testOutReg.Root(), Parent: -1}}}
			w.Answer(r, Meta{Frame: 5, Time: at(2)}, &testOutcomes, nil)
			if r.Find("outtest.request_in") < 0 || r.Find("outtest.time") < 0 {
				t.Error("the response does not name its request")
			}
		}, "outtest.response_in=5 mc.outcome=answered mc.outcome.frame=5 mc.outcome.time=0.002 s"},
		{"window", func(w *Wait, p *PDU) { w.End(End{Outcome: Unanswered}, &testOutcomes, nil) }, "mc.outcome=unanswered !outtest.missing"},
		{"the server closes", func(w *Wait, p *PDU) {
			w.End(ConnEnd{How: ConnFIN, By: DirS2C, Frame: 9, Time: at(1)}.Request(), &testOutcomes, nil)
		}, "mc.outcome=closed mc.outcome.frame=9 mc.outcome.time=0.001 s mc.outcome.by=server !outtest.closed"},
		{"the server resets", func(w *Wait, p *PDU) {
			w.End(ConnEnd{How: ConnRST, By: DirS2C, Frame: 9, Time: at(1)}.Request(), &testOutcomes, nil)
		}, "mc.outcome=reset mc.outcome.frame=9 mc.outcome.time=0.001 s mc.outcome.by=server !outtest.closed"},
		{"the client gives up", func(w *Wait, p *PDU) {
			w.End(ConnEnd{How: ConnFIN, By: DirC2S, Frame: 9, Time: at(5000)}.Request(), &testOutcomes, nil)
		}, "mc.outcome=unanswered mc.outcome.frame=9 mc.outcome.time=5 s mc.outcome.by=client !outtest.missing"},
		{"the capture ends", func(w *Wait, p *PDU) { w.End(ConnEnd{How: ConnOpen}.Request(), &testOutcomes, nil) }, "mc.outcome=ended !outtest.missing"},
		{"a gap of the server's side", func(w *Wait, p *PDU) {
			w.Gap()
			w.End(ConnEnd{How: ConnFIN, By: DirS2C, Frame: 9, Time: at(1)}.Request(), &testOutcomes, nil)
		}, "mc.outcome=lost mc.outcome.frame=9 mc.outcome.time=0.001 s mc.outcome.by=server !outtest.missing"},
		{"not known", func(w *Wait, p *PDU) { w.End(End{}, &testOutcomes, nil) }, ""},
		{"given up on", func(w *Wait, p *PDU) { w.GiveUp(p, Release{}, &testOutcomes, nil) }, "!outtest.unlinked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &PDU{Nodes: []Node{{Field: testOutReg.Root(), Parent: -1}}}
			var w Wait
			w.Hold(p, m, 1)
			if !p.Pending {
				t.Fatal("a held request is not Pending")
			}
			tc.run(&w, p)
			if p.Pending {
				t.Error("still Pending")
			}
			if got := outcomeOf(p); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if err := Check(p); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestWaitTwoPass: a request given up on in a first pass notes its end;
// the second pass, giving it up too, writes it as if it had waited.
func TestWaitTwoPass(t *testing.T) {
	t0 := time.Unix(1000, 0)
	later := new(Later)
	run := func() *PDU {
		p := &PDU{Nodes: []Node{{Field: testOutReg.Root(), Parent: -1}}}
		var w Wait
		w.Hold(p, Meta{Frame: 3, Time: t0}, 2)
		w.GiveUp(p, Release{}, &testOutcomes, later)
		w.End(ConnEnd{How: ConnRST, By: DirS2C, Frame: 8, Time: t0.Add(time.Second)}.Request(), &testOutcomes, later)
		return p
	}
	if got := outcomeOf(run()); got != "!outtest.unlinked" {
		t.Errorf("first pass: %s", got)
	}
	later.Seal()
	if got, want := outcomeOf(run()), "mc.outcome=reset mc.outcome.frame=8 mc.outcome.time=1 s mc.outcome.by=server !outtest.closed"; got != want {
		t.Errorf("second pass: %s\nwant %s", got, want)
	}
}

// TestMarkLine: Mark's mc.outcome line is the outcome's whole text
// (outcomeText) up to its first " (", the frame and time being the
// children's, and its expert item the whole text, for every outcome, with
// and without a frame, a side, what the frame holds and words of the
// protocol's (with a " (" of their own).
func TestMarkLine(t *testing.T) {
	t0 := time.Unix(1700000000, 0)
	for o := Answered; int(o) <= NumOutcomes; o++ {
		for _, frame := range []uint64{0, 7} {
			for _, by := range []Dir{DirUnknown, DirC2S, DirS2C} {
				for _, via := range []string{"", "FIN"} {
					for _, why := range []string{"", "no response (within 5s)", "no response"} {
						e := End{Outcome: o, Frame: frame, By: by, Via: via, Why: why}
						if frame != 0 {
							e.Time = t0.Add(1500 * time.Millisecond)
						}
						text := outcomeText(e, 1500*time.Millisecond, frame != 0)
						want := text
						if k := strings.Index(text, " ("); k > 0 && frame != 0 {
							want = text[:k]
						}
						var p PDU
						p.Reset([]byte{1}, 1)
						p.AddNode(-1, testOutReg.Root(), 0, 1, Value{})
						testOutcomes.Mark(&p, t0, e)
						got := ""
						for i := range p.Nodes {
							if p.Nodes[i].Field == FieldOutcome {
								got = p.Nodes[i].Text
							}
						}
						if got != want {
							t.Errorf("%+v: line %q, want %q", e, got, want)
						}
						for _, x := range p.Experts {
							if !strings.Contains(text, x.Msg) && x.Msg != testOutcomes.Unanswered {
								t.Errorf("%+v: expert item %q, not in %q", e, x.Msg, text)
							}
						}
					}
				}
			}
		}
	}
}

// BenchmarkMark is what an answered request's outcome costs: the link,
// mc.outcome and its frame and time.
func BenchmarkMark(b *testing.B) {
	t0 := time.Unix(1700000000, 0)
	e := End{Outcome: Answered, Frame: 9, Time: t0.Add(40 * time.Millisecond)}
	var p PDU
	b.ReportAllocs()
	for b.Loop() {
		p.Reset([]byte{1}, 1)
		p.AddNode(-1, testOutReg.Root(), 0, 1, Value{})
		testOutcomes.Mark(&p, t0, e)
	}
}

package raknet

import (
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
)

// TestTracker: a ping waits (Pending) until its pong, which echoes its
// time, links the two; a ping nobody answers is unanswered once the
// window passes, refused by an ICMP error, or not known at the end; a pong
// with no ping says so.
func TestTracker(t *testing.T) {
	t0 := time.Unix(1700000000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	const client, server, other = "10.0.0.1:40000", "10.0.0.2:19132", "10.0.0.3:40000"
	type step struct {
		frame    uint64
		ms       int
		client   string
		data     []byte
		expire   int  // Expire at this many ms instead of a PDU (when data is nil)
		refuse   bool // an ICMP error about client's datagrams (when data is nil)
		closeAll bool
	}
	for _, tc := range []struct {
		name  string
		steps []step
		// want: per frame of a PDU, its outcome (mc.outcome) or, for a
		// pong, the ping it names (raknet.request_in); "" none
		want map[uint64]string
	}{
		{"answered", []step{{1, 0, client, Ping(1, 42, 7), 0, false, false}, {2, 3, client, Pong(42, 9, bedrock), 0, false, false}},
			map[uint64]string{1: "answered", 2: "ping 1"}},
		{"the pong echoes another time: not this ping's", []step{{1, 0, client, Ping(1, 42, 7), 0, false, false}, {2, 3, client, Pong(43, 9, bedrock), 0, false, false}, {0, 0, "", nil, 0, false, true}},
			map[uint64]string{1: "ended", 2: "unsolicited"}},
		{"another client's pong", []step{{1, 0, client, Ping(1, 42, 7), 0, false, false}, {2, 3, other, Pong(42, 9, bedrock), 0, false, false}, {0, 0, "", nil, 6000, false, false}},
			map[uint64]string{1: "unanswered", 2: "unsolicited"}},
		{"window passes", []step{{1, 0, client, Ping(1, 42, 7), 0, false, false}, {0, 0, "", nil, 4000, false, false}, {0, 0, "", nil, 5001, false, false}},
			map[uint64]string{1: "unanswered"}},
		{"refused", []step{{1, 0, client, Ping(1, 42, 7), 0, false, false}, {3, 1, client, nil, 0, true, false}},
			map[uint64]string{1: "refused"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := NewTracker()
			pdus := map[uint64]*dissect.PDU{}
			for _, s := range tc.steps {
				switch {
				case s.data != nil:
					p := new(dissect.PDU)
					Decode(p, s.data, len(s.data), dissect.DirUnknown)
					tr.Observe(dissect.Meta{Frame: s.frame, Time: at(s.ms), Client: s.client, Server: server, Dir: p.Dir}, p)
					pdus[s.frame] = p
				case s.refuse:
					if f, ok := tr.Refused(dissect.Meta{Frame: s.frame, Time: at(s.ms), Client: s.client, Server: server}, "ICMP port unreachable"); !ok || f != 1 {
						t.Errorf("Refused = %d, %v; want the ping of frame 1", f, ok)
					}
				case s.closeAll:
					tr.Close()
				default:
					tr.Expire(at(s.expire))
				}
			}
			for f, p := range pdus {
				got := ""
				if i := p.Find("mc.outcome"); i >= 0 {
					got = p.Nodes[i].Value.Text()
				}
				if i := p.Find("raknet.request_in"); i >= 0 {
					got = "ping " + string(dissect.AppendUint(nil, p.Nodes[i].Value.N))
				}
				for _, e := range p.Experts {
					if e.Info == eUnsolicited {
						got = "unsolicited"
					}
				}
				if got != tc.want[f] {
					t.Errorf("frame %d: %q, want %q", f, got, tc.want[f])
				}
				if p.Pending {
					t.Errorf("frame %d still pending", f)
				}
				if err := dissect.Check(p); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// TestTrackerTwoPass: a ping given up on (output before its pong) notes
// its outcome in a first pass; the second shows it as if it had waited.
func TestTrackerTwoPass(t *testing.T) {
	t0 := time.Unix(1700000000, 0)
	later := new(dissect.Later)
	run := func() *dissect.PDU {
		tr := NewTracker()
		tr.Later = later
		ping, pong := new(dissect.PDU), new(dissect.PDU)
		Decode(ping, Ping(1, 42, 7), lenPing, dissect.DirC2S)
		tr.Observe(dissect.Meta{Frame: 1, Time: t0, Client: "c", Server: "s"}, ping)
		tr.GiveUp(ping, dissect.Release{})
		Decode(pong, Pong(42, 9, bedrock), 100, dissect.DirS2C)
		tr.Observe(dissect.Meta{Frame: 5, Time: t0.Add(time.Millisecond), Client: "c", Server: "s"}, pong)
		if pong.Find("raknet.request_in") < 0 {
			t.Error("the pong of a ping given up on does not link back")
		}
		return ping
	}
	first := run()
	if first.Find("mc.outcome") >= 0 || first.Find("raknet.response_in") >= 0 {
		t.Error("a single pass showed an outcome it could not know")
	}
	later.Seal()
	second := run()
	if i := second.Find("raknet.response_in"); i < 0 || second.Nodes[i].Value.N != 5 {
		t.Error("the second pass does not show the pong's frame")
	}
	if i := second.Find("mc.outcome.time"); i < 0 || second.Nodes[i].Value.Float() != 0.001 {
		t.Error("the second pass does not show the round trip as the outcome's time")
	}
}

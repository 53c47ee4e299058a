package golden

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/budget"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// The outcome samples (samples/README.md, "Outcomes"): real clients
// against msh, against a server that holds its answers, and against a
// port where nothing listens and a host that does not exist. Each test
// holds mcdissect's outcomes (mc.outcome) to what the clients themselves
// logged.

// outcomeRec is what the tests read of a record.
type outcomeRec struct {
	frame           uint64
	proto, message  string
	sport, dport    uint16
	client          uint16 // the conversation's client port
	outcome, by     string
	outFrame        uint64
	outTime         float64
	requestIn       uint64 // mc.request_in
	syn, rst        bool   // the layers' flags (the frame's)
	parts, protover int
}

// outcomes runs pcap as if every request waited for its outcome (the
// records -2 shows, TestTwoPassIsAsIfItWaited) and reads the records.
func outcomes(t *testing.T, pcap string) []outcomeRec {
	t.Helper()
	f, err := os.Open(pcap)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	src, err := analyze.OpenFile(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []outcomeRec
	a := analyze.New(analyze.Options{MaxHeld: 1 << 30, Budget: budget.New(1 << 40), HoldWindow: 1 << 62}, analyze.SinkFunc(func(r *record.Record) error {
		o := outcomeRec{frame: r.Frame, proto: r.Proto, message: r.PDU.Message, sport: r.Src.Port(), dport: r.Dst.Port(), parts: len(r.Parts), protover: -2}
		o.client = o.sport
		if r.PDU.Dir == dissect.DirS2C {
			o.client = o.dport
		}
		for _, p := range [2]*dissect.PDU{r.Layers(), &r.PDU} {
			for i := range p.Nodes {
				n := &p.Nodes[i]
				switch n.Field.Name {
				case "mc.outcome":
					o.outcome = n.Value.Text()
				case "mc.outcome.by":
					o.by = n.Value.Text()
				case "mc.outcome.frame":
					o.outFrame = n.Value.N
				case "mc.outcome.time":
					o.outTime = n.Value.Float()
				case "mc.request_in":
					o.requestIn = n.Value.N
				case "slp.handshake.protocol_version":
					o.protover = int(n.Value.Int())
				}
			}
		}
		o.syn, o.rst = tcpFlag(r, "tcp.flags.syn"), tcpFlag(r, "tcp.flags.reset")
		out = append(out, o)
		return nil
	}))
	if _, err := analyze.Run(src, a); err != nil {
		t.Fatal(err)
	}
	return out
}

// tcpFlag is the value of a TCP flag of the frame's own header (not of one
// an ICMP error quotes).
func tcpFlag(r *record.Record, name string) bool {
	net := r.Layers()
	for i := range net.Nodes {
		if n := &net.Nodes[i]; n.Field.Name == name {
			return n.Value.Bool()
		}
	}
	return false
}

func readLog(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../samples/" + name + ".log")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// clientRuns splits a sample's log into its client runs: the "## " line
// naming the client, then what it printed.
func clientRuns(log string) [][2]string {
	var runs [][2]string
	for _, part := range strings.Split(log, "\n## ")[1:] {
		head, body, _ := strings.Cut(part, "\n")
		if strings.HasPrefix(head, "tcpdump") || strings.HasPrefix(head, "server log") {
			break
		}
		runs = append(runs, [2]string{head, body})
	}
	return runs
}

// byClient groups the SLP requests by the client port of their connection.
func byClient(recs []outcomeRec) map[uint16][]outcomeRec {
	m := map[uint16][]outcomeRec{}
	for _, o := range recs {
		if o.proto == "slp" {
			m[o.client] = append(m[o.client], o)
		}
	}
	return m
}

func find(recs []outcomeRec, msg string) (outcomeRec, bool) {
	for _, o := range recs {
		if o.message == msg {
			return o, true
		}
	}
	return outcomeRec{}, false
}

var timedOut = regexp.MustCompile(`read tcp 127\.0\.0\.1:(\d+)->127\.0\.0\.1:25565: i/o timeout`)

// TestOutcomesMsh: msh 2.5.0 hibernating a server (slp-msh). Its own
// clients' logs are the truth: every ping mcutil saw end in EOF was
// closed by the server right after it (msh reads mcutil's random ping
// payload as an unknown ping and hangs up), every mcutil request that
// timed out was left unanswered until the client gave up, and the pings
// of the clients that succeeded were answered. msh sends its status when
// the handshake arrives, before the status request: at least one status
// response is early.
func TestOutcomesMsh(t *testing.T) {
	recs := outcomes(t, "../samples/slp-msh.pcap")
	log := readLog(t, "slp-msh")
	conns := byClient(recs)

	// A client's connection, by the protocol version its handshake says:
	// msu 47 (gamedig's too, which sends no ping), craftping 4, nmp 767,
	// mcutil -1.
	ofVersion := func(v int) (all [][]outcomeRec) {
		for _, c := range conns {
			if hs, ok := find(c, "Handshake"); ok && hs.protover == v {
				all = append(all, c)
			}
		}
		return all
	}
	for _, run := range clientRuns(log) {
		client, body := run[0], run[1]
		ok := !strings.Contains(body, "error") && !strings.Contains(body, "failed")
		var v int
		switch {
		case strings.Contains(client, "msu-status"):
			v = 47
		case strings.Contains(client, "craftping-status"):
			v = 4
		case strings.Contains(client, "nmp-ping"):
			v = 767
		default:
			continue
		}
		for _, c := range ofVersion(v) {
			ping, pinged := find(c, "Ping Request")
			if !pinged {
				continue // gamedig's status ping has no ping
			}
			want := "answered"
			if !ok {
				want = "closed"
			}
			if ping.outcome != want {
				t.Errorf("%s logged %q: its ping (frame %d) is %q, want %q", client, firstLine(body), ping.frame, ping.outcome, want)
			}
			st, _ := find(c, "Status Request")
			if ok && st.outcome != "answered" && st.outcome != "early" {
				t.Errorf("%s succeeded: its status request (frame %d) is %q", client, st.frame, st.outcome)
			}
		}
	}

	eof := strings.Count(log, "error: EOF")
	reset := strings.Count(log, "connection reset by peer")
	closed, resets, early := 0, 0, 0
	for _, c := range ofVersion(-1) {
		if p, ok := find(c, "Ping Request"); ok {
			switch p.outcome {
			case "closed":
				closed++
				if p.by != "server" || p.outFrame == 0 {
					t.Errorf("ping of frame %d closed, but by %q in frame %d", p.frame, p.by, p.outFrame)
				}
			case "reset":
				resets++
			}
		}
	}
	for _, o := range recs {
		if o.outcome == "early" {
			early++
			if o.outTime >= 0 {
				t.Errorf("early answer of frame %d at %f s: an early response comes before its request", o.frame, o.outTime)
			}
		}
	}
	if closed != eof || resets != reset {
		t.Errorf("mcutil's pings: %d closed and %d reset by the server; its log has %d EOF and %d resets", closed, resets, eof, reset)
	}
	if early == 0 {
		t.Error("no status response before its request: msh sends it on the handshake")
	}
	timeouts := timedOut.FindAllStringSubmatch(log, -1)
	if len(timeouts) == 0 {
		t.Log("no mcutil timeout in this capture's log")
	}
	for _, m := range timeouts {
		port, _ := strconv.Atoi(m[1])
		c := conns[uint16(port)]
		st, ok := find(c, "Status Request")
		if !ok {
			t.Errorf("port %d timed out, but its status request is not in the capture", port)
			continue
		}
		if st.outcome != "unanswered" || st.by != "client" {
			t.Errorf("port %d timed out waiting: its status request (frame %d) is %q by %q, want unanswered by the client", port, st.frame, st.outcome, st.by)
		}
	}

	// Query: msu's requests were answered.
	for _, o := range recs {
		if o.proto == "query" && strings.HasSuffix(o.message, "Stat Request") && o.outcome != "answered" {
			t.Errorf("msu's %s (frame %d) is %q: msu printed the stat", o.message, o.frame, o.outcome)
		}
	}
}

// TestOutcomesUnanswered: minecraft-protocol holding its status answers
// (slp-status-unanswered): msu gave up ("offline or unreachable" after its
// 5 s timeout) with its status request unanswered, closing first; nmp's
// ping waited long enough and got both answers.
func TestOutcomesUnanswered(t *testing.T) {
	recs := outcomes(t, "../samples/slp-status-unanswered.pcap")
	log := readLog(t, "slp-status-unanswered")
	if !strings.Contains(log, "msu-status failed") || !strings.Contains(log, "nmp-ping: {") {
		t.Fatalf("the log is not what this test reads:\n%s", log)
	}
	for _, c := range byClient(recs) {
		hs, _ := find(c, "Handshake")
		st, _ := find(c, "Status Request")
		switch hs.protover {
		case 47: // msu
			if st.outcome != "unanswered" || st.by != "client" || st.outTime < 4 || st.outTime > 6 {
				t.Errorf("msu gave up after 5 s: its status request is %q by %q after %f s", st.outcome, st.by, st.outTime)
			}
		case 767: // nmp
			ping, _ := find(c, "Ping Request")
			if st.outcome != "answered" || ping.outcome != "answered" {
				t.Errorf("nmp got its status and pong: %q, %q", st.outcome, ping.outcome)
			}
		default:
			t.Errorf("a connection of protocol %d", hs.protover)
		}
	}
}

// TestOutcomesUnreachable: nothing listens on 127.0.0.1:25565 and
// 192.0.2.1 does not exist (outcomes-unreachable). Every TCP client the log
// shows refused (ECONNREFUSED, "connection refused") has a SYN record
// refused by the kernel's RST, which is a record naming it; every Query
// there is refused by an ICMP port unreachable, linked both ways; the SYN
// to the host that does not exist was sent again and again and never
// answered, as the Query to it.
func TestOutcomesUnreachable(t *testing.T) {
	recs := outcomes(t, "../samples/outcomes-unreachable.pcap")
	log := readLog(t, "outcomes-unreachable")
	byFrame := map[uint64]outcomeRec{}
	for _, o := range recs {
		byFrame[o.frame] = o
	}
	refusedTCP := strings.Count(log, "ECONNREFUSED") + strings.Count(log, "connect: connection refused") + 1 // + gamedig's TCP ping
	var syns, rsts, queries, icmps, raknet int
	for _, o := range recs {
		switch {
		case o.proto == "tcp" && o.syn && o.outcome == "refused":
			syns++
			r := byFrame[o.outFrame]
			if !r.rst || r.requestIn != o.frame {
				t.Errorf("SYN of frame %d refused in frame %d, which is not a RST naming it: %+v", o.frame, o.outFrame, r)
			}
		case o.proto == "tcp" && o.rst:
			rsts++
		case o.proto == "query" && o.dport == 25565 && o.message == "Handshake Request":
			if strings.HasPrefix(o.message, "Handshake") && byFrame[o.outFrame].proto == "icmp" {
				queries++
				if o.outcome != "refused" || byFrame[o.outFrame].requestIn != o.frame {
					t.Errorf("Query of frame %d: %q in frame %d, not linked both ways", o.frame, o.outcome, o.outFrame)
				}
			} else if o.outcome != "unanswered" {
				t.Errorf("Query of frame %d to the host that does not exist: %q", o.frame, o.outcome)
			}
		case o.proto == "icmp":
			icmps++
		case o.proto == "raknet" && o.outcome == "refused":
			raknet++
		case o.proto == "tcp" && o.syn && o.outcome == "unanswered":
			if o.parts < 2 {
				t.Errorf("the unanswered SYN of frame %d lists %d transmissions; the client sent it again", o.frame, o.parts)
			}
		}
	}
	wantQ := 0 // the Query clients to 127.0.0.1, gamedig included
	for _, run := range clientRuns(log) {
		if strings.Contains(run[0], "127.0.0.1") && (strings.Contains(run[0], "query") || strings.Contains(run[0], "gamedig")) {
			wantQ++
		}
	}
	if syns != refusedTCP || rsts != refusedTCP {
		t.Errorf("%d SYNs refused and %d RSTs; the log has %d refused TCP clients", syns, rsts, refusedTCP)
	}
	if queries != wantQ || icmps != wantQ+1 || raknet != 1 {
		t.Errorf("%d Queries refused by ICMP, %d ICMP records, %d RakNet pings refused; want %d, %d, 1", queries, icmps, raknet, wantQ, wantQ+1)
	}
	unansweredSYN := false
	for _, o := range recs {
		if o.proto == "tcp" && o.syn && o.outcome == "unanswered" && o.dport == 25565 {
			unansweredSYN = true
		}
	}
	if !unansweredSYN {
		t.Error("no unanswered SYN to 192.0.2.1")
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	if len(l) > 80 {
		l = l[:80]
	}
	return l
}

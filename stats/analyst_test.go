package stats

import (
	"bytes"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
	_ "github.com/mcdissect/mcdissect/protocols/all"
	"github.com/mcdissect/mcdissect/record"
)

// The analyst's statistics (issue 29) on hand-made inputs; the e2e tests
// in cmd/mcdissect hold them to tshark and to the peers' logs on the
// samples.

var (
	cli = netip.MustParseAddrPort("10.0.0.2:40000")
	srv = netip.MustParseAddrPort("10.0.0.1:25565")
	t0  = time.Unix(1795342780, 0)
)

// seg is a TCP frame of stream 0 for the follow tests.
func seg(frame uint64, fromClient bool, seq, ack uint32, payload string) record.FrameInfo {
	f := record.FrameInfo{Frame: frame, Time: t0.Add(time.Duration(frame) * time.Millisecond), Len: 54 + len(payload),
		Src: cli, Dst: srv, Transport: 6, IP: true, Payload: []byte(payload),
		TCP: record.TCPInfo{Seq: seq, Ack: ack, Len: len(payload), ACK: true}}
	if !fromClient {
		f.Src, f.Dst = srv, cli
	}
	return f
}

func followOut(t *testing.T, spec string, frames ...record.FrameInfo) string {
	t.Helper()
	s, err := newFollowStat(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range frames {
		s.Frame(f)
	}
	var b bytes.Buffer
	s.Print(&b)
	return b.String()
}

// TestFollowSegments: tshark's follow rules, on segments real captures
// have: in order, retransmitted, overlapping, out of order, and missing
// bytes the other side acknowledged.
func TestFollowSegments(t *testing.T) {
	syn := seg(1, true, 0, 0, "")
	syn.TCP.SYN, syn.TCP.ACK = true, false
	synack := seg(2, false, 0, 1, "")
	synack.TCP.SYN = true
	for _, c := range []struct {
		name   string
		frames []record.FrameInfo
		want   string // the chunks, raw mode
	}{
		{"in order", []record.FrameInfo{syn, synack, seg(3, true, 1, 1, "ab"), seg(4, false, 1, 3, "xyz"), seg(5, true, 3, 4, "c")},
			"6162\n\t78797a\n63\n"},
		{"a retransmission is dropped", []record.FrameInfo{syn, synack, seg(3, true, 1, 1, "ab"), seg(4, true, 1, 1, "ab")},
			"6162\n"},
		{"an overlap keeps its new bytes", []record.FrameInfo{syn, synack, seg(3, true, 1, 1, "ab"), seg(4, true, 2, 1, "bcd")},
			"6162\n6364\n"},
		{"out of order waits for the bytes before it", []record.FrameInfo{syn, synack, seg(3, true, 3, 1, "cd"), seg(4, true, 1, 1, "ab")},
			"6162\n6364\n"},
		{"missing bytes acknowledged by the peer", []record.FrameInfo{syn, synack, seg(3, true, 1, 1, "ab"), seg(4, true, 6, 1, "fg"), seg(5, false, 1, 8, "")},
			"6162\n" + hexOf("[3 bytes missing in capture file]\x00") + "\n6667\n"},
		{"missing bytes never acknowledged stay out", []record.FrameInfo{syn, synack, seg(3, true, 1, 1, "ab"), seg(4, true, 6, 1, "fg")},
			"6162\n"},
		{"picked up mid-way", []record.FrameInfo{seg(7, false, 1, 1, "zz"), seg(8, true, 1, 3, "a")},
			"7a7a\n\t61\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := followOut(t, "tcp,raw,0", c.frames...)
			body := out[strings.Index(out, "Node 1:"):]
			body = body[strings.Index(body, "\n")+1 : strings.LastIndex(body, "=======\n")-60]
			if body != c.want {
				t.Errorf("chunks %q, want %q\n%s", body, c.want, out)
			}
		})
	}
}

func hexOf(s string) string { return string(appendHexLower(nil, []byte(s))) }

// TestFollowHexLayout: tshark's hex dump: offsets per direction in
// uppercase hex, two groups of eight, the ASCII column at 60, a line of
// exactly eight bytes without the group space after its ASCII.
func TestFollowHexLayout(t *testing.T) {
	out := followOut(t, "tcp,hex,0", seg(1, true, 1, 1, "0123456789abcdefXYZ"), seg(2, false, 1, 20, "12345678"), seg(3, false, 9, 20, "\x00"))
	want := "00000000  30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66  01234567 89abcdef\n" +
		"00000010  58 59 5a                                          XYZ\n" +
		"\t00000000  31 32 33 34 35 36 37 38                           12345678\n" +
		"\t00000008  00                                                .\n"
	if !strings.Contains(out, want) {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestFollowBounded: a stream past the follow's cap is cut, and says so.
func TestFollowBounded(t *testing.T) {
	defer func(n int) { maxFollowBytes = n }(maxFollowBytes)
	maxFollowBytes = 10
	out := followOut(t, "tcp,ascii,0", seg(1, true, 1, 1, "abcdef"), seg(2, true, 7, 1, "ghijkl"), seg(3, true, 13, 1, "mn"))
	if !strings.Contains(out, "abcdef") || strings.Contains(out, "ghijkl") || !strings.Contains(out, "the rest is not shown") {
		t.Errorf("%s", out)
	}
}

// TestFollowUDPNumbering: udp.stream numbers conversations in order of
// first frame, either direction the same stream.
func TestFollowUDPNumbering(t *testing.T) {
	udp := func(frame uint64, src, dst netip.AddrPort, p string) record.FrameInfo {
		return record.FrameInfo{Frame: frame, Src: src, Dst: dst, Transport: 17, IP: true, Payload: []byte(p)}
	}
	other := netip.MustParseAddrPort("10.0.0.3:40001")
	frames := []record.FrameInfo{udp(1, cli, srv, "a"), udp(2, other, srv, "b"), udp(3, srv, cli, "c"), udp(4, srv, other, "d")}
	if out := followOut(t, "udp,raw,1", frames...); !strings.Contains(out, "Node 0: 10.0.0.3:40001\nNode 1: 10.0.0.1:25565\n62\n\t64\n") {
		t.Errorf("%s", out)
	}
	if out := followOut(t, "udp,raw,0", frames...); !strings.Contains(out, "\n61\n\t63\n") {
		t.Errorf("%s", out)
	}
}

// TestExpertArgs: tshark's -z expert arguments: a severity (any case),
// then a filter; a filter alone.
func TestExpertArgs(t *testing.T) {
	for _, c := range []struct {
		args   string
		lowest dissect.Severity
		filter bool
		err    bool
	}{
		{"", dissect.SevNote, false, false},
		{",error", dissect.SevError, false, false},
		{",WARN", dissect.SevWarn, false, false},
		{",note,slp", dissect.SevNote, true, false},
		{",chat", dissect.SevNote, false, false},
		{",comment", dissect.SevNote, false, false},
		{",query", dissect.SevNote, true, false},
		{",warn,slp.nope ==", 0, false, true},
		{"x", 0, false, true},
	} {
		s, err := newExpertStat(c.args)
		if (err != nil) != c.err {
			t.Errorf("%q: error %v", c.args, err)
			continue
		}
		if err == nil && (s.lowest != c.lowest || (s.flt != nil) != c.filter) {
			t.Errorf("%q: lowest %v, filter %v", c.args, s.lowest, s.flt != nil)
		}
	}
}

// TestExpertGroups: every expert item mcdissect registers gets one of
// Wireshark's groups.
func TestExpertGroups(t *testing.T) {
	known := map[string]bool{"Sequence": true, "Malformed": true, "Undecoded": true, "Security": true, "Protocol": true}
	for _, r := range dissect.Registries() {
		for _, e := range r.Experts() {
			if g := expertGroup(e.Name); !known[g] {
				t.Errorf("%s: group %q", e.Name, g)
			}
		}
	}
	for name, want := range map[string]string{"mc.gap": "Sequence", "mc.malformed": "Malformed", "mc.stream.undissected": "Undecoded",
		"query.response.missing": "Sequence", "classic.key_forged": "Security", "slp.varint.too_long": "Malformed"} {
		if g := expertGroup(name); g != want {
			t.Errorf("%s: %s, want %s", name, g, want)
		}
	}
}

// TestExchangeKindsCoverProtocols: every protocol registered has a
// request or session in exchangeKinds, so that -z mc,exchanges does not
// leave a new protocol out without a test saying so.
func TestExchangeKindsCoverProtocols(t *testing.T) {
	for _, p := range protocols.All() {
		found := false
		for k, v := range exchangeKinds {
			if k[0] == p.Registry.Proto && (v.request != "" || v.session != "") {
				found = true
			}
		}
		if !found {
			t.Errorf("protocol %s: no request or session in exchangeKinds", p.Name)
		}
	}
}

// TestExchangesBounded: past maxStatRows rows, records of new exchanges
// are counted, not kept.
func TestExchangesBounded(t *testing.T) {
	x := NewExchanges()
	n := maxStatRows + 50
	for i := range n {
		r := &record.Record{Kind: record.KindPDU, Frame: uint64(i + 1), Proto: "query", Stream: -1,
			Src: netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}), 40000), Dst: srv}
		r.PDU.Dir, r.PDU.Message = dissect.DirC2S, "Handshake Request"
		x.Record(r)
	}
	if rows := x.Rows(); len(rows) != maxStatRows || x.others != 50 || len(x.udp) != maxStatRows {
		t.Errorf("%d rows, %d others, %d conversations", len(rows), x.others, len(x.udp))
	}
}

// TestShortenDataURIs: a favicon in a transcript keeps its start.
func TestShortenDataURIs(t *testing.T) {
	long := `{"favicon":"data:image/png;base64,` + strings.Repeat("A", 100) + `"}`
	want := `{"favicon":"data:image/png;base64,` + strings.Repeat("A", 32) + `… (68 more characters)"}`
	if got := shortenDataURIs(long); got != want {
		t.Errorf("%s", got)
	}
	if s := `{"favicon":"data:image/png;base64,AAAA"}`; shortenDataURIs(s) != s {
		t.Error("a short data URI changed")
	}
}

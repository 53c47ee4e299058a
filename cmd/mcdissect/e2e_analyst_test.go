package main

import (
	"encoding/json"
	"net/netip"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

// The analyst's questions of issue 29: follow a conversation (as tshark's
// -z follow and as a Minecraft transcript), the network tables tshark
// prints (conversations, endpoints, the protocol hierarchy), and one row
// per exchange with its outcome, checked against the peers' own logs.

// tsharkTables splits the output of one or more statistics into their
// tables: the lines from a line of '=' (60 or more) to the next one, each
// table whole. tshark prints several statistics in another order than
// mcdissect, so runs are compared as sets of tables.
func tsharkTables(out string) []string {
	var tables []string
	var cur []string
	in := false
	for _, l := range lines(out) {
		rule := len(l) >= 60 && strings.Trim(l, "=") == ""
		switch {
		case rule && !in:
			in, cur = true, []string{l}
		case rule && in:
			tables = append(tables, strings.Join(append(cur, l), "\n"))
			in = false
		case in:
			cur = append(cur, l)
		}
	}
	slices.Sort(tables)
	return tables
}

// compareWithTshark runs both tools with args on file and wants the same
// tables, each line for line.
func compareWithTshark(t *testing.T, file string, args ...string) {
	t.Helper()
	got, stderr, code := mcd(t, nil, append([]string{"-r", file, "-q"}, args...)...)
	if code != 0 {
		t.Fatalf("mcdissect %v: exit %d: %s", args, code, stderr)
	}
	out, err := exec.Command("tshark", append([]string{"-r", file, "-q"}, args...)...).Output()
	if err != nil {
		t.Fatalf("tshark %v: %v", args, err)
	}
	gt, wt := tsharkTables(got), tsharkTables(string(out))
	if len(gt) != len(wt) {
		t.Fatalf("%d tables, tshark %d:\n%s\ntshark:\n%s", len(gt), len(wt), got, out)
	}
	for i := range gt {
		if gt[i] != wt[i] {
			t.Errorf("mcdissect:\n%s\ntshark:\n%s", gt[i], wt[i])
		}
	}
}

// ipv6Capture writes a hand-made capture over IPv6 and IPv4 (real peers
// on this machine's loopback use IPv4): an SLP status ping and a Query
// handshake over IPv6, one over IPv4, for the tables and follows that
// name addresses.
func ipv6Capture(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ipv6.pcap")
	w, err := capgen.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	srv6 := netip.MustParseAddrPort("[2001:db8::1]:25565")
	c := w.TCP(netip.MustParseAddrPort("[2001:db8::2]:41000"), srv6, t0)
	c.Handshake()
	c.Send(true, []byte{0x10, 0x00, 0xff, 0x05, 0x09, 'l', 'o', 'c', 'a', 'l', 'h', 'o', 's', 't', 0x63, 0xdd, 0x01, 0x01, 0x00})
	json := `{"version":{"name":"1.21.1","protocol":767},"players":{"max":20,"online":1},"description":{"text":"v6"}}`
	body := append([]byte{0x00, byte(len(json))}, json...)
	c.Send(false, append([]byte{byte(len(body))}, body...))
	c.Close()
	q := netip.MustParseAddrPort("[2001:db8::3]:50000")
	w.UDP(t0.Add(time.Second), q, netip.MustParseAddrPort("[2001:db8::1]:25575"), []byte{0xfe, 0xfd, 0x09, 0, 0, 0, 1})
	w.UDP(t0.Add(time.Second+time.Millisecond), netip.MustParseAddrPort("[2001:db8::1]:25575"), q, []byte{0x09, 0, 0, 0, 1, '4', '2', 0})
	c4 := w.TCP(netip.MustParseAddrPort("10.0.0.2:41001"), netip.MustParseAddrPort("10.0.0.1:25565"), t0.Add(2*time.Second))
	c4.Handshake()
	c4.Send(true, []byte{0x01, 0x00})
	c4.Close()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestNetStatsAgainstTshark: the conversation and endpoint tables print
// what tshark prints, table for table and line for line, rows in tshark's
// order (the most frames first, then first seen).
func TestNetStatsAgainstTshark(t *testing.T) {
	needTshark(t)
	zs := []string{"-z", "conv,tcp", "-z", "conv,udp", "-z", "conv,ip", "-z", "conv,ipv6",
		"-z", "endpoints,ip", "-z", "endpoints,ipv6", "-z", "endpoints,tcp", "-z", "endpoints,udp", "-z", "io,stat,0.5"}
	files := []string{sample("query-25565"), sample("slp-status-concurrent"), sample("slp-legacy"), sample("slp-status-gomc"),
		sample("classic-session"), sample("handmade-slp-reorder"), sample("slp-status-losses"), ipv6Capture(t)}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			compareWithTshark(t, f, zs...)
		})
	}
}

// TestFollowAgainstTshark: -z follow,tcp and follow,udp print what
// tshark 4.0's follow prints, byte for byte, for every stream of captures
// with losses, retransmissions, reordering, snap-length cuts and streams
// picked up mid-way; ascii and raw on some of them.
func TestFollowAgainstTshark(t *testing.T) {
	needTshark(t)
	streams := func(t *testing.T, f, field string) int {
		out, err := exec.Command("tshark", "-r", f, "-T", "fields", "-e", field).Output()
		if err != nil {
			t.Fatal(err)
		}
		n := -1
		for _, l := range lines(string(out)) {
			if v, err := strconv.Atoi(l); err == nil && v > n {
				n = v
			}
		}
		return n
	}
	files := []string{sample("slp-status-losses"), sample("slp-status-midstream"), sample("handmade-classic-secrets"),
		sample("handmade-slp-reorder"), sample("login-offline"), sample("slp-legacy"), sample("query-clients"),
		sample("slp-status-gamedig"), sample("handmade-slp-status-losses"), sample("handmade-classic-gap"), ipv6Capture(t)}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			var args []string
			for _, tp := range []string{"tcp", "udp"} {
				last := streams(t, f, tp+".stream")
				for i := 0; i <= last; i++ {
					args = append(args, "-z", "follow,"+tp+",hex,"+strconv.Itoa(i))
					if i < 2 {
						args = append(args, "-z", "follow,"+tp+",ascii,"+strconv.Itoa(i), "-z", "follow,"+tp+",raw,"+strconv.Itoa(i))
					}
				}
			}
			compareWithTshark(t, f, args...)
		})
	}
	t.Run("by addresses", func(t *testing.T) {
		compareWithTshark(t, sample("query-clients"), "-z", "follow,udp,ascii,127.0.0.1:34559,127.0.0.1:25585",
			"-z", "follow,tcp,raw,127.0.0.1:25585,127.0.0.1:40000")
		compareWithTshark(t, ipv6Capture(t), "-z", "follow,tcp,hex,[2001:db8::2]:41000,[2001:db8::1]:25565")
	})
	t.Run("a stream that is not there", func(t *testing.T) {
		compareWithTshark(t, sample("slp-status-msu"), "-z", "follow,tcp,ascii,7", "-z", "follow,udp,hex,0")
	})
}

// TestFollowRefusesBadSpecs: a follow that cannot mean anything is a
// usage error that says what to write.
func TestFollowRefusesBadSpecs(t *testing.T) {
	for _, z := range []string{"follow,tcp,ascii", "follow,tcp,ebcdic,0", "follow,sctp,hex,0", "follow,tcp,hex,x", "follow,udp,raw,1.2.3.4,5", "follow,mc", "follow,mc,a,b,c"} {
		_, stderr, code := mcd(t, nil, "-r", sample("slp-status-msu"), "-q", "-z", z)
		if code != 1 || !strings.Contains(stderr, "follow") {
			t.Errorf("-z %s: exit %d, stderr %q", z, code, stderr)
		}
	}
}

// TestProtocolHierarchyAgainstTshark: -z io,phs counts the frames of each
// layer as tshark does, down to TCP and UDP; below them tshark, which
// dissects no Minecraft protocol, says data (or takes segments as parts
// of PDUs its own heuristics reassemble), where mcdissect names the
// protocol: there the frames with payload are compared in total.
func TestProtocolHierarchyAgainstTshark(t *testing.T) {
	needTshark(t)
	for _, f := range []string{sample("query-25565"), sample("slp-status-gamedig"), sample("slp-status-msu"), ipv6Capture(t)} {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			got, _, code := mcd(t, nil, "-r", f, "-q", "-z", "io,phs")
			out, err := exec.Command("tshark", "-r", f, "-q", "-z", "io,phs").Output()
			if code != 0 || err != nil {
				t.Fatalf("exit %d, tshark %v", code, err)
			}
			split := func(s string) (upper []string, payload [2]int) {
				re := regexp.MustCompile(`^( *)(\S+) +frames:(\d+) bytes:(\d+)$`)
				for _, l := range lines(s) {
					m := re.FindStringSubmatch(l)
					if m == nil {
						upper = append(upper, l)
						continue
					}
					if len(m[1]) < 6 { // link, network, transport
						upper = append(upper, l)
						continue
					}
					n, _ := strconv.Atoi(m[3])
					b, _ := strconv.Atoi(m[4])
					payload[0] += n
					payload[1] += b
				}
				return
			}
			gu, gp := split(got)
			wu, wp := split(string(out))
			if !slices.Equal(gu, wu) || gp != wp {
				t.Errorf("mcdissect:\n%s\ntshark:\n%s", got, out)
			}
			if strings.Contains(f, "query-25565") && !strings.Contains(got, "      query ") {
				t.Errorf("no query under udp:\n%s", got)
			}
		})
	}
}

// TestExpertTable: -z expert prints tshark's table (a section per
// severity, most severe first, with frequency, group, protocol and
// message), keeps the severities asked for and the PDUs a filter keeps,
// and refuses a filter that does not compile.
func TestExpertTable(t *testing.T) {
	run := func(z string) string {
		out, stderr, code := mcd(t, nil, "-r", sample("slp-status-losses"), "-q", "-z", z)
		if code != 0 {
			t.Fatalf("-z %s: exit %d: %s", z, code, stderr)
		}
		return out
	}
	all := run("expert")
	for _, want := range []string{"\nWarns (", "\nNotes (", "=============\n   Frequency      Group           Protocol  Summary\n",
		"   Sequence                SLP  518 bytes missing at stream offset 0"} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in\n%s", want, all)
		}
	}
	if strings.Index(all, "Warns") > strings.Index(all, "Notes") {
		t.Errorf("warnings after notes:\n%s", all)
	}
	if warn := run("expert,warn"); !strings.Contains(warn, "Warns (") || strings.Contains(warn, "Notes (") {
		t.Errorf("-z expert,warn:\n%s", warn)
	}
	if e := run("expert,error"); e != "" {
		t.Errorf("-z expert,error on a capture without errors printed\n%s", e)
	}
	if chat := run("expert,chat"); chat != all {
		t.Errorf("-z expert,chat differs from -z expert (mcdissect has no chats)")
	}
	if f := run("expert,note,slp.ping.payload"); !strings.Contains(f, "no earlier ping") || strings.Contains(f, "bytes missing") {
		t.Errorf("-z expert,note,slp.ping.payload:\n%s", f)
	}
	if _, stderr, code := mcd(t, nil, "-r", sample("slp-status-msu"), "-q", "-z", "expert,warn,slp.nope =="); code != 1 || !strings.Contains(stderr, "expert") {
		t.Errorf("a bad filter: exit %d, %q", code, stderr)
	}
}

// exRow is a row of -z mc,exchanges,json.
type exRow struct {
	Frame         uint64
	Client        string
	Server        string
	Protocol      string
	Stream        *int
	Asked         string
	Outcome       string
	Reason        string
	ResponseFrame uint64 `json:"response_frame"`
	BytesC2S      int    `json:"bytes_c2s"`
	BytesS2C      int    `json:"bytes_s2c"`
	Version       string
	ProtoVersion  *int `json:"protocol_version"`
	Player        string
}

func exchanges(t *testing.T, file string) []exRow {
	t.Helper()
	out, stderr, code := mcd(t, nil, "-r", file, "-q", "-z", "mc,exchanges,json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []exRow
	for _, l := range lines(out) {
		var r exRow
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		rows = append(rows, r)
	}
	return rows
}

// TestExchangesAgainstQueryd: the Query server of the samples (queryd)
// logs every datagram it answered or ignored: each is a row, answered
// with the bytes it logged, or unanswered.
func TestExchangesAgainstQueryd(t *testing.T) {
	line := regexp.MustCompile(`^\S+ (127\.0\.0\.1:\d+): (handshake session=.* -> token (\d+)|(basic|full) stat .*-> (\d+) bytes.*|stat with bad/unknown token \((\d+) bytes.*no reply|ignoring (\d+) bytes not starting FE FD \((..) .*)$`)
	for _, s := range []string{"query-clients", "query-gamedig", "query-25565", "query-full-300players"} {
		t.Run(s, func(t *testing.T) {
			rows := exchanges(t, sample(s))
			log := readSample(t, s+".log")
			n := 0
			for _, l := range lines(log) {
				m := line.FindStringSubmatch(l)
				if m == nil {
					continue
				}
				n++
				want := exRow{Client: m[1], Outcome: "answered"}
				switch {
				case m[3] != "":
					want.Asked, want.BytesS2C = "handshake", 5+len(m[3])+1
				case m[4] != "":
					want.Asked = m[4] + " stat"
					want.BytesS2C, _ = strconv.Atoi(m[5])
				case m[6] != "":
					want.Asked, want.Outcome = "full stat", "unanswered"
					if m[6] == "11" {
						want.Asked = "basic stat"
					}
				case m[8] == "01":
					want.Asked, want.Outcome = "RakNet ping", "unanswered"
				default:
					t.Fatalf("a log line this test does not know: %q", l)
				}
				found := false
				for i, r := range rows {
					// "no reply" is unanswered, or ended when the capture
					// ended within the response window: the capture alone
					// cannot tell those apart, and says so.
					same := r.Outcome == want.Outcome || want.Outcome == "unanswered" && r.Outcome == "ended"
					if r.Client == want.Client && r.Asked == want.Asked && same && (want.Outcome != "answered" || r.BytesS2C == want.BytesS2C) {
						rows = slices.Delete(rows, i, i+1)
						found = true
						break
					}
				}
				if !found {
					t.Errorf("the log's %q: no row %+v", l, want)
				}
			}
			if n == 0 {
				t.Fatal("no server log lines")
			}
			for _, r := range rows {
				if r.Protocol == "Query" || r.Protocol == "RakNet" {
					t.Errorf("a row the server log does not have: %+v", r)
				}
			}
		})
	}
}

// TestExchangesAgainstPeers: the SLP and Classic rows against what the
// clients and servers logged.
func TestExchangesAgainstPeers(t *testing.T) {
	t.Run("slp-status-concurrent", func(t *testing.T) {
		// The server logs each connection's port; the clients say all
		// 100 pings were answered.
		rows := exchanges(t, sample("slp-status-concurrent"))
		ports := regexp.MustCompile(`\[server\] (127\.0\.0\.1:\d+) state handshaking -> status`).FindAllStringSubmatch(readSample(t, "slp-status-concurrent.log"), -1)
		if len(ports) != 100 {
			t.Fatalf("%d ports in the server log", len(ports))
		}
		for _, p := range ports {
			status := 0
			for _, r := range rows {
				if r.Client == p[1] && r.Asked == "status" && r.Outcome == "answered" && r.Version == "1.21.1" && *r.ProtoVersion == 767 {
					status++
				}
			}
			if status != 1 {
				t.Errorf("%s: %d answered status rows", p[1], status)
			}
		}
		if len(rows) != 200 { // a status and a ping each
			t.Errorf("%d rows, want 200", len(rows))
		}
	})
	t.Run("slp-status-losses", func(t *testing.T) {
		// Every nmp client logged its status response (513 JSON bytes:
		// 518 on the wire) and its pong. A row may say the capture lost
		// the response, or the request, never that the server stayed
		// silent, except on the two connections whose capture ends with
		// their request (samples/README.md): nothing after it was
		// captured, so nothing says an answer came.
		rows := exchanges(t, sample("slp-status-losses"))
		ports := regexp.MustCompile(`nmp-ping-many #\d+ port (\d+): status response 513 JSON bytes \(version 1\.21\.1/767, players 0/100\), pong received`).FindAllStringSubmatch(readSample(t, "slp-status-losses.log"), -1)
		if len(ports) != 50 {
			t.Fatalf("%d nmp lines in the log", len(ports))
		}
		unanswered := 0
		for _, p := range ports {
			client := "127.0.0.1:" + p[1]
			for _, r := range rows {
				if r.Client != client || r.Asked != "status" {
					continue
				}
				switch r.Outcome {
				case "answered", "no request":
					if r.BytesS2C != 518 {
						t.Errorf("%s: %+v: the response is 518 bytes", client, r)
					}
				case "lost":
				case "unanswered", "ended": // the capture ends with them: ended
					unanswered++
				default:
					t.Errorf("%s: %+v", client, r)
				}
			}
		}
		if unanswered != 2 {
			t.Errorf("%d status requests unanswered, want the 2 whose capture ends with them", unanswered)
		}
	})
	t.Run("slp-legacy", func(t *testing.T) {
		// Eight legacy pings, all answered (the clients printed the
		// replies); those after 1.4 with the server's version.
		rows := exchanges(t, sample("slp-legacy"))
		withVersion := 0
		for _, r := range rows {
			if r.Asked != "legacy ping" || r.Outcome != "answered" {
				t.Errorf("%+v", r)
			}
			if r.Version == "1.21.1" && r.ProtoVersion != nil && *r.ProtoVersion == 767 {
				withVersion++
			}
		}
		if len(rows) != 8 || withVersion != 5 {
			t.Errorf("%d rows, %d with the version: %+v", len(rows), withVersion, rows)
		}
	})
	t.Run("login", func(t *testing.T) {
		// login-offline: "login mcdissect", "playerJoin mcdissect";
		// login-online: the server refused the name, encrypted.
		for _, c := range []struct{ sample, outcome string }{{"login-offline", "joined"}, {"login-online", "encrypted"}} {
			rows := exchanges(t, sample(c.sample))
			if len(rows) != 1 || rows[0].Asked != "login" || rows[0].Outcome != c.outcome || rows[0].Player != "mcdissect" || *rows[0].ProtoVersion != 767 {
				t.Errorf("%s: %+v", c.sample, rows)
			}
		}
	})
	t.Run("play", func(t *testing.T) {
		// The bots' sessions: the server logs the player who joined and
		// the kick; the bot logs the kick's text.
		logged := regexp.MustCompile(`playerJoin (\S+)`)
		kick := regexp.MustCompile(`bot\] .*kicked .*(Kicked by mcdissect: bye \w+)`)
		for _, s := range []string{"play-1-8-8", "play-1-12-2", "play-1-16-5", "play-1-20-4", "play-1-21-4", "play-1-21-11", "play-gomc-1-20-2", "play-1-21-4-threshold0"} {
			log := readSample(t, s+".log")
			who, why := logged.FindStringSubmatch(log), kick.FindStringSubmatch(log)
			if who == nil || why == nil {
				t.Fatalf("%s: no playerJoin or kick in the log", s)
			}
			rows := exchanges(t, sample(s))
			if len(rows) != 1 || rows[0].Asked != "login" || rows[0].Player != who[1] || rows[0].Outcome != "kicked" || rows[0].Reason != why[1] {
				t.Errorf("%s: %+v; the log: %v, %v", s, rows, who, why)
			}
		}
	})
	t.Run("classic-session", func(t *testing.T) {
		// The truth file: alice on stream 0, bob on stream 1, and the
		// payload bytes each way.
		var truth struct {
			Streams []struct {
				Stream   int
				C2S      int `json:"payload_bytes_client_to_server"`
				S2C      int `json:"payload_bytes_server_to_client"`
				ClientPt int `json:"client_port"`
			} `json:"tcp_streams"`
		}
		if err := json.Unmarshal([]byte(readSample(t, "classic-session.truth.json")), &truth); err != nil {
			t.Fatal(err)
		}
		rows := exchanges(t, sample("classic-session"))
		names := []string{"alice", "bob"}
		if len(rows) != 2 {
			t.Fatalf("%+v", rows)
		}
		for i, s := range truth.Streams {
			r := rows[i]
			if *r.Stream != s.Stream || r.Client != "127.0.0.1:"+strconv.Itoa(s.ClientPt) || r.BytesC2S != s.C2S || r.BytesS2C != s.S2C ||
				r.Player != names[i] || r.Outcome != "joined" || r.Asked != "Classic session" || *r.ProtoVersion != 7 {
				t.Errorf("stream %d: %+v, truth %+v", s.Stream, r, s)
			}
		}
	})
}

// TestExchangesTable: the table has a row per exchange, in its columns.
func TestExchangesTable(t *testing.T) {
	out, _, code := mcd(t, nil, "-r", sample("slp-status-msu"), "-q", "-z", "mc,exchanges")
	if code != 0 {
		t.Fatal(code)
	}
	want := []string{"Minecraft exchanges",
		"      4 127.0.0.1:59890       127.0.0.1:25566       SLP     status          answered       0.107595       18      518  1.21.1 (767)",
		"     10 127.0.0.1:59890       127.0.0.1:25566       SLP     ping            answered       0.000375       10       10"}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in\n%s", w, out)
		}
	}
}

// TestFollowMC: the transcript of a conversation, one line a message in
// both directions, with the status JSON as text and its favicon cut.
func TestFollowMC(t *testing.T) {
	out, _, code := mcd(t, nil, "-r", sample("slp-status-msu"), "-q", "-z", "follow,mc,0")
	if code != 0 {
		t.Fatal(code)
	}
	want := `
===================================================================
Follow: mc,transcript
Filter: tcp.stream eq 0
Node 0: 127.0.0.1:59890 (client)
Node 1: 127.0.0.1:25566 (server)
      4     0.002482  C → S  SLP Handshake, protocol 47 (1.8-1.8.9), 127.0.0.1:25566, next state Status
      6     0.002722  C → S  SLP Status Request
      8     0.110077  C ← S  SLP Status Response, 1.21.1 (767), 0/100 players, "mcdissect test server": {"version":{"name":"1.21.1","protocol":767},"players":{"max":100,"online":0,"sample":[]},"description":{"text":"mcdissect §atest§r server"},"favicon":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAEAAAABA… (304 more characters)"}
     10     0.112214  C → S  SLP Ping Request, payload 11627025666438460965
     12     0.112589  C ← S  SLP Pong Response, payload 11627025666438460965
===================================================================
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	// Classic chat as text; a UDP conversation by its ends.
	out, _, _ = mcd(t, nil, "-r", sample("classic-session"), "-q", "-z", "follow,mc,0")
	if !strings.Contains(out, `C → S  Classic Message "hello from alice"`) || !strings.Contains(out, `C ← S  Classic Message "<bob>: hi alice, bob here"`) {
		t.Errorf("classic transcript:\n%s", out)
	}
	out, _, _ = mcd(t, nil, "-r", sample("query-clients"), "-q", "-z", "follow,mc,127.0.0.1:25585,127.0.0.1:34559")
	if n := strings.Count(out, "  Query "); n != 4 {
		t.Errorf("%d Query lines:\n%s", n, out)
	}
}

package main

// End-to-end tests: they build the binary and run it as a user would, on
// the bundled samples, and check what it prints against what the peers
// that made the captures reported themselves (samples/*.truth.json).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcdissect-e2e")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "mcdissect")
	args := []string{"build", "-o", binary}
	if withPcap { // test the binary of the build being tested
		args = append(args, "-tags", "pcap")
	}
	if raceEnabled { // the concurrent code of the binary is race-tested too
		args = append(args, "-race")
	}
	if out, err := exec.Command("go", append(args, ".")...).CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const querySample = "../../samples/query-full.pcap"

// mcd runs the binary; it returns stdout, stderr and the exit status.
func mcd(t *testing.T, stdin []byte, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func lines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// TestQueryAgainstPeers compares mcdissect's reading of the real Query
// capture with what each client library reported it received.
func TestQueryAgainstPeers(t *testing.T) {
	var truth struct {
		Clients []struct {
			Client         string `json:"client"`
			ChallengeToken uint64 `json:"challenge_token"`
			SessionID      uint64 `json:"session_id"`
			Options        struct {
				SessionID uint64 `json:"sessionID"`
			} `json:"options"`
			Result struct {
				SessionID uint64 `json:"sessionId"`
				Map       string `json:"map"`
				Version   string `json:"version"`
			} `json:"result"`
			Ports []int `json:"udp_client_ports"`
		} `json:"clients"`
	}
	b, err := os.ReadFile("../../samples/query-full.truth.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &truth); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := mcd(t, nil, "-r", querySample, "-T", "fields",
		"-e", "udp.srcport", "-e", "udp.dstport", "-e", "mc.message", "-e", "query.session_id",
		"-e", "query.challenge_token", "-e", "query.map", "-e", "query.kv.version", "-e", "query.motd")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := lines(out)
	if len(rows) != 20 {
		t.Fatalf("got %d rows, want the 20 datagrams", len(rows))
	}
	checked := 0
	for _, c := range truth.Clients {
		if len(c.Ports) != 1 {
			continue
		}
		port := strconv.Itoa(c.Ports[0])
		var mine [][]string
		for _, r := range rows {
			f := strings.Split(r, "\t")
			if f[0] == port || f[1] == port {
				mine = append(mine, f)
			}
		}
		if len(mine) != 4 {
			t.Errorf("%s: %d datagrams on port %s, want 4", c.Client, len(mine), port)
			continue
		}
		want := []string{"Handshake Request", "Handshake Response", "Full Stat Request", "Full Stat Response"}
		for i, w := range want {
			if mine[i][2] != w {
				t.Errorf("%s: datagram %d is %q, want %q", c.Client, i, mine[i][2], w)
			}
		}
		sid := c.Options.SessionID
		if sid == 0 {
			sid = c.SessionID
		}
		if sid == 0 {
			sid = c.Result.SessionID
		}
		// query.session_id is hex-based: -T fields prints it as tshark
		// would, 0x and eight digits.
		if sid != 0 && mine[0][3] != fmt.Sprintf("0x%08x", sid) {
			t.Errorf("%s: session ID %s, the client used %d", c.Client, mine[0][3], sid)
		}
		if c.ChallengeToken != 0 && mine[2][4] != strconv.FormatUint(c.ChallengeToken, 10) {
			t.Errorf("%s: token %s, the client received %d", c.Client, mine[2][4], c.ChallengeToken)
		}
		if c.Result.Map != "" && mine[3][5] != c.Result.Map {
			t.Errorf("%s: map %q, the client read %q", c.Client, mine[3][5], c.Result.Map)
		}
		if c.Result.Version != "" && mine[3][6] != c.Result.Version {
			t.Errorf("%s: version %q, the client read %q", c.Client, mine[3][6], c.Result.Version)
		}
		// msh sends UTF-8; the wire (not the latin-1 readers) is the truth.
		if mine[3][7] != "§fmsh: §b§lHIBERNATING" {
			t.Errorf("%s: MOTD %q", c.Client, mine[3][7])
		}
		checked++
	}
	if checked < 4 {
		t.Errorf("only %d clients checked", checked)
	}
}

// TestVerboseShowsEveryQueryField: -V on the real capture shows every field
// the Query issue names, with offsets.
func TestVerboseShowsEveryQueryField(t *testing.T) {
	out, _, code := mcd(t, nil, "-r", querySample, "-T", "json")
	if code != 0 {
		t.Fatal("exit", code)
	}
	var recs []map[string]any
	if err := json.Unmarshal([]byte(out), &recs); err != nil {
		t.Fatalf("-T json is not JSON: %v", err)
	}
	names := map[string]bool{}
	var walk func(n map[string]any)
	walk = func(n map[string]any) {
		names[n["name"].(string)] = true
		if _, ok := n["offset"].(float64); !ok {
			t.Errorf("%v has no offset", n["name"])
		}
		for _, c := range n["children"].([]any) {
			walk(c.(map[string]any))
		}
	}
	for _, r := range recs {
		if tr, ok := r["tree"].(map[string]any); ok {
			if _, ok := tr["children"]; !ok {
				tr["children"] = []any{}
			}
			var fix func(n map[string]any)
			fix = func(n map[string]any) {
				if _, ok := n["children"]; !ok {
					n["children"] = []any{}
				}
				for _, c := range n["children"].([]any) {
					fix(c.(map[string]any))
				}
			}
			fix(tr)
			walk(tr)
		}
	}
	for _, f := range []string{"query.magic", "query.type", "query.session_id", "query.session_id_masked",
		"query.challenge_token", "query.motd", "query.gametype", "query.map", "query.numplayers",
		"query.maxplayers", "query.hostport", "query.hostip", "query.kv.hostname", "query.kv.plugins",
		"query.padding", "query.response_in", "query.request_in"} {
		if !names[f] {
			t.Errorf("no %s in the JSON trees", f)
		}
	}
}

func TestSummaryFilterCount(t *testing.T) {
	out, _, _ := mcd(t, nil, "-r", querySample)
	if n := len(lines(out)); n != 20 {
		t.Errorf("summary: %d lines, want 20", n)
	}
	out, _, _ = mcd(t, nil, "-r", querySample, "-Y", `query.type == "Handshake" && mc.direction == "s2c"`)
	if n := len(lines(out)); n != 5 {
		t.Errorf("-Y: %d lines, want the 5 handshake responses:\n%s", n, out)
	}
	out, _, _ = mcd(t, nil, "-r", querySample, "-c", "3")
	if n := len(lines(out)); n != 3 {
		t.Errorf("-c 3: %d lines", n)
	}
	capture, _ := os.ReadFile(querySample)
	out, _, code := mcd(t, capture, "-r", "-", "-c", "1")
	if code != 0 || !strings.Contains(out, "Handshake Request") {
		t.Errorf("-r -: exit %d, %q", code, out)
	}
}

func TestHexDump(t *testing.T) {
	out, _, _ := mcd(t, nil, "-r", querySample, "-x", "-c", "1")
	if !strings.Contains(out, "0000  fe fd") || !strings.Contains(out, "query.magic") {
		t.Errorf("-x output:\n%s", out)
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	all, sel := filepath.Join(dir, "all.pcapng"), filepath.Join(dir, "sel.pcapng")
	// As tshark: -w prints no records, unless -P.
	if o, e, code := mcd(t, nil, "-r", querySample, "-w", all); code != 0 || o != "" {
		t.Fatalf("-w: exit %d, output %q, %s", code, o, e)
	}
	if o, _, _ := mcd(t, nil, "-r", querySample, "-w", all, "-P"); !strings.Contains(o, "Handshake Request") {
		t.Errorf("-w -P printed %q", o)
	}
	a, _, _ := mcd(t, nil, "-r", querySample)
	b, _, _ := mcd(t, nil, "-r", all)
	if a != b {
		t.Errorf("re-reading the -w copy differs:\n%s\n%s", a, b)
	}
	if _, e, code := mcd(t, nil, "-r", querySample, "-Y", "query.type == 9", "-w", sel); code != 0 {
		t.Fatal(e)
	}
	out, _, _ := mcd(t, nil, "-r", sel, "-T", "fields", "-e", "query.type")
	for _, l := range lines(out) {
		if l != "9" {
			t.Errorf("-w with -Y kept a packet of type %s", l)
		}
	}
	if n := len(lines(out)); n != 10 {
		t.Errorf("-w with -Y kept %d packets, want 10", n)
	}
}

func TestErrors(t *testing.T) {
	notCap := filepath.Join(t.TempDir(), "x.pcap")
	os.WriteFile(notCap, []byte("<html>hello</html>"), 0o644)
	for _, c := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"missing file", []string{"-r", "/nonexistent.pcap"}, exitFail, "cannot read /nonexistent.pcap"},
		{"not a capture", []string{"-r", notCap}, exitFail, "not a pcap or pcapng capture"},
		{"bad -d", []string{"-r", querySample, "-d", "udp.port==x,query"}, exitUsage, "not a port number"},
		{"bad -d proto", []string{"-r", querySample, "-d", "udp.port==1,classic"}, exitUsage, "cannot be decoded over udp"},
		{"unknown field", []string{"-r", querySample, "-T", "fields", "-e", "query.nope"}, exitUsage, `"query.nope" is not a field name`},
		{"no input", []string{"-V"}, exitUsage, "no input"},
		{"bad -T", []string{"-r", querySample, "-T", "xml"}, exitUsage, "choose text, json, ek, fields, pdml, psml, html"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, stderr, code := mcd(t, nil, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d", code, c.code)
			}
			if n := len(lines(stderr)); n != 1 || !strings.Contains(stderr, c.msg) {
				t.Errorf("stderr %q: want one line saying %q", stderr, c.msg)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
		})
	}
}

// TestFilterError: a display filter that does not compile stops the run
// before any packet is read, with tshark's three lines: the message, the
// expression, a caret under the bad token, and exits 2 as tshark does.
func TestFilterError(t *testing.T) {
	out, stderr, code := mcd(t, nil, "-r", querySample, "-Y", "udp.port == 25575 && tcp.prot == 1")
	want := "mcdissect: \"tcp.prot\" is not a valid protocol or protocol field. Did you mean \"tcp.port\"?\n" +
		"    udp.port == 25575 && tcp.prot == 1\n" +
		"                         ^~~~~~~~\n"
	if code != exitFail || out != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr\n%s\nwant exit %d, no output, stderr\n%s", code, out, stderr, exitFail, want)
	}
}

// TestHelpHasExamples: every flag in --help comes with an example.
func TestHelpHasExamples(t *testing.T) {
	_, stderr, code := mcd(t, nil, "--help")
	if code != 0 {
		t.Fatal("exit", code)
	}
	for _, l := range lines(stderr) {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "-h, --help") && !strings.Contains(l, "e.g.") {
			t.Errorf("flag without an example: %s", l)
		}
	}
}

// TestDecodeSeedDumps: the example dumps of seed 001 decode on the command
// line into the messages the seed names.
func TestDecodeSeedDumps(t *testing.T) {
	for _, c := range []struct{ from, hex, want string }{
		{"client", "FE FD 09 00 00 00 01", "Handshake Request"},
		{"server", "09 00 00 00 01 39 35 31 33 33 30 37 00", "Handshake Response"},
		{"client", "FE FD 00 00 00 00 01 00 91 29 5B", "Basic Stat Request"},
		{"client", "FE FD 00 00 00 00 01 00 91 29 5B 00 00 00 00", "Full Stat Request"},
	} {
		out, stderr, code := mcd(t, nil, "decode", "--proto", "query", "--from", c.from, c.hex)
		if code != 0 {
			t.Errorf("%s: exit %d %s", c.hex, code, stderr)
		}
		if !strings.Contains(out, c.want) {
			t.Errorf("%s: no %q in\n%s", c.hex, c.want, out)
		}
	}
	out, _, _ := mcd(t, nil, "decode", "--proto", "query", "--from", "server", "09 00 00 00 01 39 35 31 33 33 30 37 00")
	if !strings.Contains(out, "9513307") {
		t.Errorf("the token 9513307 is not shown:\n%s", out)
	}
}

func TestGlossary(t *testing.T) {
	out, _, code := mcd(t, nil, "-G", "fields")
	if code != 0 {
		t.Fatal("exit", code)
	}
	for _, f := range []string{"frame.number", "mc.protocol", "mc.direction", "mc.message", "mc.expert",
		"query.session_id", "query.kv.<key>", "query.player", "tcp.stream"} {
		if !strings.Contains(out, "\t"+f+"\t") {
			t.Errorf("-G fields lacks %s", f)
		}
	}
}

func TestStatistics(t *testing.T) {
	out, _, code := mcd(t, nil, "-r", querySample, "-q", "-z", "mc,stat", "-z", "conv,mc", "-z", "expert")
	if code != 0 {
		t.Fatal("exit", code)
	}
	if !strings.Contains(out, "Full Stat Response") || !strings.Contains(out, "Minecraft conversations") {
		t.Errorf("statistics:\n%s", out)
	}
	if strings.Contains(out, "Handshake Request, session") {
		t.Errorf("-q printed PDU lines")
	}
}

// TestDecodeSeed002: seed 002's captured handshake, status request and
// ping, typed on the command line, decode into the values the seed works
// out by hand: 24-byte packet, protocol 766, mc.goodboyboy.top, port 25565
// big-endian, next state 1, and the ping payload 0x2e5d.
func TestDecodeSeed002(t *testing.T) {
	out, stderr, code := mcd(t, nil, "decode", "--proto", "slp", "--from", "client",
		"18 00 fe 05 11 6d 63 2e 67 6f 6f 64 62 6f 79 62 6f 79 2e 74 6f 70 63 dd 01 01 00 09 01 00 00 00 00 00 00 2e 5d")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"Length: 24 (1-byte VarInt) [off 0, len 1]",
		"Protocol version: 766 (1.20.5/1.20.6) [off 2, len 2]",
		"Server address length: 17 [off 4, len 1]",
		`Server address: "mc.goodboyboy.top" [off 5, len 17]`,
		"Server port: 25565 [off 22, len 2]",
		"Next state: Status (1) [off 24, len 1]",
		"SLP Status Request",
		"Payload: 11869 (0x0000000000002e5d) [off 2, len 8]",
		"Frame 1: bytes typed by hand\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	// The bytes end with the requests: none waits for a response.
	if strings.Contains(out, "unlinked") || strings.Contains(out, "held back") {
		t.Errorf("a request typed by hand is said to be held back:\n%s", out)
	}
}

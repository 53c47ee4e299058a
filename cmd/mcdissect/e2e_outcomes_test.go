package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOutcomeQuestions: issue 29's three questions, each answered by one
// command on the outcome samples, checked against the clients' logs
// (samples/*.log; golden/outcomes_test.go checks every outcome).
func TestOutcomeQuestions(t *testing.T) {
	msh := "../../samples/slp-msh.pcap"
	unreachable := "../../samples/outcomes-unreachable.pcap"

	// Which pings went unanswered? mcutil timed out on two ports.
	out, _, code := mcd(t, nil, "-r", msh, "-2", "-Y", `mc.outcome == "unanswered" && tcp`, "-T", "fields", "-e", "tcp.srcport", "-e", "mc.outcome.by")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	timedOut := regexp.MustCompile(`127\.0\.0\.1:(\d+)->127\.0\.0\.1:25565: i/o timeout`).FindAllStringSubmatch(readSample(t, "slp-msh.log"), -1)
	if got := lines(out); len(got) != len(timedOut) || len(got) == 0 {
		t.Errorf("unanswered: %q; the log has %d timeouts", got, len(timedOut))
	}
	for _, m := range timedOut {
		if !strings.Contains(out, m[1]+"\tclient") {
			t.Errorf("port %s timed out, not among the unanswered:\n%s", m[1], out)
		}
	}

	// Why did this ping fail? msh closed the connection on it.
	out, _, _ = mcd(t, nil, "-r", msh, "-Y", `slp.ping.payload && mc.outcome == "closed"`, "-V")
	if n, want := strings.Count(out, "[Outcome: closed by the server before a response]"), strings.Count(readSample(t, "slp-msh.log"), "error: EOF"); n != want || n == 0 {
		t.Errorf("%d pings closed by the server, the log has %d EOF", n, want)
	}
	if !strings.Contains(out, "Expert Info (Warning/slp.response.closed)") {
		t.Error("no slp.response.closed item")
	}

	// Who could not connect? The SYNs of every refused client, and the
	// one to the host that does not exist.
	out, _, _ = mcd(t, nil, "-r", unreachable, "-Y", "tcp.flags.syn == 1", "-T", "fields", "-e", "ip.dst", "-e", "mc.outcome")
	want := []string{"127.0.0.1\trefused", "127.0.0.1\trefused", "127.0.0.1\trefused", "127.0.0.1\trefused", "192.0.2.1\tunanswered"}
	if got := lines(out); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("SYN records %q, want %q", got, want)
	}
	// and why: the RST or the ICMP that answered
	out, _, _ = mcd(t, nil, "-r", unreachable, "-Y", "mc.request_in", "-T", "fields", "-e", "mc.protocol", "-e", "mc.request_in")
	if n := len(lines(out)); n != 4+6 {
		t.Errorf("%d records naming a request (4 RSTs, 6 ICMP), want 10:\n%s", n, out)
	}

	// -G experts lists SLP's, -z mc,rtt counts them.
	out, _, _ = mcd(t, nil, "-G", "experts")
	for _, e := range []string{"slp.response.missing", "slp.response.closed", "slp.response.early", "query.response.refused", "raknet.response.missing", "classic.response.missing", "tcp.connection.syn", "tcp.connection.rst", "icmp.unreachable"} {
		if !strings.Contains(out, e) {
			t.Errorf("-G experts lacks %s", e)
		}
	}
	out, _, _ = mcd(t, nil, "-r", unreachable, "-q", "-z", "mc,rtt")
	if !regexp.MustCompile(`192\.0\.2\.1:25565 +TCP Connection attempt +0 +0 +1 `).MatchString(out) {
		t.Errorf("-z mc,rtt does not count the unanswered SYN:\n%s", out)
	}
}

// TestICMPMatchesTshark: an ICMP port unreachable's fields, the quoted
// IP and UDP headers' included, are tshark's.
func TestICMPMatchesTshark(t *testing.T) {
	if _, err := exec.LookPath("tshark"); err != nil {
		t.Skip("tshark not installed")
	}
	path := filepath.Join("../../samples", "outcomes-unreachable.pcap")
	fields := []string{"frame.number", "icmp.type", "icmp.code", "icmp.checksum", "ip.src", "ip.dst", "ip.ttl", "ip.proto", "udp.srcport", "udp.dstport", "udp.length", "tcp.srcport", "tcp.dstport"} // booleans are True/False where tshark 4.0 prints 1/0: not compared
	var args []string
	for _, f := range fields {
		args = append(args, "-e", f)
	}
	mine, _, code := mcd(t, nil, append([]string{"-r", path, "-Y", "icmp || tcp", "-T", "fields"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	want := byFrame(tshark(t, append([]string{"-r", path, "-Y", "icmp || tcp", "-T", "fields"}, args...)...))
	got := byFrame(mine)
	if len(got) < 10 {
		t.Fatalf("%d ICMP and TCP records", len(got))
	}
	for frame, g := range got {
		w, ok := want[frame]
		if !ok {
			t.Errorf("frame %s: not an ICMP or TCP frame to tshark", frame)
			continue
		}
		for i, name := range fields {
			if g[i] != w[i] {
				t.Errorf("frame %s %s: mcdissect %q, tshark %q", frame, name, g[i], w[i])
			}
		}
	}
}

func readSample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../../samples", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

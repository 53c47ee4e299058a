package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestSLPAgainstPeers: for each real status capture, the version, protocol
// and player counts mcdissect reads from the status response are the ones
// the client library printed in the sample's log, and every exchange is
// complete (handshake, request, response; ping and pong where sent).
func TestSLPAgainstPeers(t *testing.T) {
	num := func(log, key string) string {
		m := regexp.MustCompile(`"` + key + `":(-?\d+)`).FindStringSubmatch(log)
		if m == nil {
			return ""
		}
		return m[1]
	}
	for _, name := range []string{"msu", "mcutil", "nmp", "craftping", "gamedig", "gomc"} {
		t.Run(name, func(t *testing.T) {
			logb, err := os.ReadFile("../../samples/slp-status-" + name + ".log")
			if err != nil {
				t.Fatal(err)
			}
			log := string(logb)
			out, stderr, code := mcd(t, nil, "-r", "../../samples/slp-status-"+name+".pcap", "-Y", "slp.status.json",
				"-T", "fields", "-e", "slp.status.version.protocol", "-e", "slp.status.players.max",
				"-e", "slp.status.players.online", "-e", "slp.status.version.name")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			rows := lines(out)
			if len(rows) == 0 {
				t.Fatal("no status response dissected")
			}
			for _, r := range rows {
				f := strings.Split(r, "\t")
				if p := num(log, "protocol"); p != "" && f[0] != p {
					t.Errorf("protocol %s, the client read %s", f[0], p)
				}
				if m := num(log, "max"); m != "" && f[1] != m {
					t.Errorf("players max %s, the client read %s", f[1], m)
				}
				if o := num(log, "online"); o != "" && f[2] != o {
					t.Errorf("players online %s, the client read %s", f[2], o)
				}
				if !strings.Contains(log, f[3]) {
					t.Errorf("version name %q is not in the client's log", f[3])
				}
			}
			// Every status request is answered and every ping ponged.
			all, _, _ := mcd(t, nil, "-r", "../../samples/slp-status-"+name+".pcap", "-T", "fields", "-e", "mc.message", "-e", "mc.expert")
			count := map[string]int{}
			for _, r := range lines(all) {
				f := strings.Split(r, "\t")
				count[f[0]]++
				if strings.Contains(f[1], "malformed") || strings.Contains(f[1], "undissected") {
					t.Errorf("unexpected expert items: %s", r)
				}
			}
			if count["Status Request"] != count["Status Response"] || count["Ping Request"] != count["Pong Response"] {
				t.Errorf("unpaired exchanges: %v", count)
			}
		})
	}
}

// TestConcurrentPings: 100 concurrent status pings, every one framed and
// answered, on 100 TCP streams.
func TestConcurrentPings(t *testing.T) {
	out, _, code := mcd(t, nil, "-r", "../../samples/slp-status-concurrent.pcap", "-T", "fields", "-e", "tcp.stream", "-e", "mc.message")
	if code != 0 {
		t.Fatal("exit", code)
	}
	streams := map[string]int{}
	for _, r := range lines(out) {
		f := strings.Split(r, "\t")
		streams[f[0]]++
	}
	if len(streams) != 100 {
		t.Errorf("%d streams, want 100", len(streams))
	}
	for s, n := range streams {
		if n != 5 {
			t.Errorf("stream %s: %d PDUs, want handshake, request, response, ping, pong", s, n)
		}
	}
}

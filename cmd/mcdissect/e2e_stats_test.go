package main

import (
	"strings"
	"testing"
)

// TestServersCensus: -z mc,servers names each server with what it said of
// itself, from real captures of three protocols.
func TestServersCensus(t *testing.T) {
	for _, tc := range []struct {
		sample string
		want   []string
	}{
		{"slp-status-gomc.pcap", []string{"127.0.0.1:25567  [SLP]", "MOTD:      go-mc status server", "Version:   1.19.4 (protocol 762)", "max players 42", "Favicon:   yes", "1 client addresses"}},
		{"query-full.pcap", []string{"127.0.0.1:25575  [Query]", "Players:   min"}},
		{"slp-legacy.pcap", []string{"[SLP, legacy ping]"}},
		{"classic-session.pcap", []string{"[Classic]", "MOTD:"}},
		{"handmade-slp-forge.pcap", []string{"Mods:"}},
	} {
		t.Run(tc.sample, func(t *testing.T) {
			out, stderr, code := mcd(t, nil, "-r", "../../samples/"+tc.sample, "-q", "-z", "mc,servers")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("no %q in\n%s", w, out)
				}
			}
		})
	}
}

// TestRTT: -z mc,rtt has a row per server and kind with a count that
// matches the responses in the capture.
func TestRTT(t *testing.T) {
	out, _, code := mcd(t, nil, "-r", "../../samples/slp-status-gomc.pcap", "-q", "-z", "mc,rtt")
	if code != 0 {
		t.Fatal(code)
	}
	n := 0
	times, _, _ := strings.Cut(out, "Requests by outcome")
	for _, l := range lines(times) {
		if strings.HasPrefix(l, "127.0.0.1:25567") {
			f := strings.Fields(l)
			// server, 3 or 4 kind words, count, min, median, p95, max
			if len(f) < 8 {
				t.Errorf("row %q", l)
				continue
			}
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d rows for the status server, want status response and ping:\n%s", n, out)
	}
	out, _, _ = mcd(t, nil, "-r", querySample, "-q", "-z", "mc,rtt")
	if !strings.Contains(out, "Query response") {
		t.Errorf("no Query response times:\n%s", out)
	}
}

// TestStatHelp: every statistic -z help lists is accepted.
func TestStatHelp(t *testing.T) {
	out, _, code := mcd(t, nil, "-z", "help")
	if code != 0 {
		t.Fatal(code)
	}
	n := 0
	for _, l := range lines(out)[1:] {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		// The forms help writes with placeholders, as a user fills them in.
		spec := strings.NewReplacer("INTERVAL[,FILTER...]", "1,slp", "SEVERITY[,FILTER]", "warn,query",
			"tcp|udp,ascii|hex|raw,N", "udp,hex,0", "mc,N", "mc,0").Replace(f[0])
		if _, _, code := mcd(t, nil, "-r", querySample, "-q", "-z", spec); code != 0 {
			t.Errorf("-z %s: exit %d", spec, code)
		}
		n++
	}
	if n < 10 {
		t.Errorf("-z help lists %d statistics:\n%s", n, out)
	}
	if _, _, code := mcd(t, nil, "-r", querySample, "-z", "nope"); code != 1 {
		t.Errorf("an unknown statistic exits %d", code)
	}
}

// TestFieldsQuote: -E quote=d quotes every field and the header, as tshark.
func TestFieldsQuote(t *testing.T) {
	out, stderr, code := mcd(t, nil, "-r", querySample, "-T", "fields", "-e", "frame.number", "-e", "mc.message", "-E", "quote=d", "-E", "separator=,", "-E", "header=y", "-c", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "\"frame.number\",\"mc.message\"\n\"1\",\"Handshake Request\"\n\"2\",\"Handshake Response\"\n"
	if out != want {
		t.Errorf("got\n%swant\n%s", out, want)
	}
	if _, _, code := mcd(t, nil, "-r", querySample, "-T", "fields", "-e", "frame.number", "-E", "quote=x"); code != 1 {
		t.Errorf("-E quote=x exits %d", code)
	}
}

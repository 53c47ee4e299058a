package main

import (
	"strings"
	"testing"
)

// TestIOStatFilters: io,stat's filter columns count the PDUs that match,
// in the interval of their time, and a bad filter or interval is an error.
func TestIOStatFilters(t *testing.T) {
	out, stderr, code := mcd(t, nil, "-r", querySample, "-q", "-z", "io,stat,1,query.type == 9,mc.direction == \"s2c\"")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// query-full.pcap: five clients, each one handshake request and one
	// response (type 9) and a full stat exchange; 1.57 s of capture.
	var pdus9, s2c int
	for _, l := range lines(out) {
		f := strings.Split(l, "|")
		if len(f) == 9 && strings.Contains(f[1], "<>") {
			var a, b int
			a = atoiTrim(f[4])
			b = atoiTrim(f[6])
			pdus9 += a
			s2c += b
		}
	}
	if pdus9 != 10 || s2c != 10 {
		t.Errorf("type 9 PDUs %d, server PDUs %d, want 10 and 10:\n%s", pdus9, s2c, out)
	}
	for _, bad := range []string{"io,stat", "io,stat,x", "io,stat,-1", "io,stat,1,query.nope == 1"} {
		if _, _, code := mcd(t, nil, "-r", querySample, "-q", "-z", bad); code != 1 {
			t.Errorf("-z %s: exit %d", bad, code)
		}
	}
}

func atoiTrim(s string) int {
	n := 0
	for _, c := range strings.TrimSpace(s) {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

package main

import (
	"path/filepath"
	"testing"

	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

// TestStatsGoldens keeps every -z table under review as the trees are:
// golden/<sample>.stats holds what -q with all of them prints for a sample
// of each protocol (MCDISSECT_UPDATE=1 rewrites them; read the diff).
func TestStatsGoldens(t *testing.T) {
	zs := []string{"-q", "-z", "mc,stat", "-z", "expert", "-z", "conv,mc", "-z", "mc,servers", "-z", "mc,rtt",
		"-z", "conv,tcp", "-z", "conv,udp", "-z", "endpoints,ip", "-z", "io,stat,1,mc.direction == \"s2c\"", "-z", "mc,exchanges", "-z", "io,phs"}
	for _, s := range []string{"query-full", "slp-status-gomc", "slp-legacy", "login-online", "classic-session", "handmade-slp-forge", "query-gamedig"} {
		t.Run(s, func(t *testing.T) {
			out, stderr, code := mcd(t, nil, append([]string{"-r", "../../samples/" + s + ".pcap"}, zs...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			dissecttest.Golden(t, filepath.Join("../../golden", s+".stats"), []byte(out), false)
		})
	}
}

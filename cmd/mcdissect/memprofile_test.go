package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestMemProfileHasSamples: with sampling off by default, --memprofile
// must still get a profile of the run's allocations.
func TestMemProfileHasSamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go tool pprof")
	}
	dir := t.TempDir()
	// A capture large enough that sampling, one allocation per 512 KB,
	// catches the run's for certain.
	pcap := mixedCapture(t, dir)
	for _, spelling := range [][]string{{"--memprofile", dir + "/a.out"}, {"--memprofile=" + dir + "/b.out"}} {
		_, stderr, code := mcd(t, nil, append([]string{"-r", pcap, "-V"}, spelling...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", spelling, code, stderr)
		}
		f := dir + "/a.out"
		if len(spelling) == 1 {
			f = dir + "/b.out"
		}
		out, err := exec.Command("go", "tool", "pprof", "-sample_index=alloc_space", "-top", binary, f).CombinedOutput()
		if err != nil {
			t.Fatalf("pprof: %v\n%s", err, out)
		}
		// Without sampling, the profile holds only what init allocated
		// before main (the field registry): no record was decoded.
		if !strings.Contains(string(out), "analyze.(*backEnd)") {
			t.Errorf("%v: no allocation of the run sampled:\n%s", spelling, out)
		}
	}
}

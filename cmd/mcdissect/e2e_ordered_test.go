package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/internal/mcgen"
)

// The output is a function of the input alone: on one core and on two
// the binary prints the same bytes, on a capture of every protocol
// interleaved, whatever reads the records: statistics that keep the first
// of something, -t dd's delta from the previous record shown, -c after a
// filter, the page.
func TestOneCoreAndTwo(t *testing.T) {
	pcap := mixedCapture(t, t.TempDir())
	// Every protocol, interleaved, or the test tests nothing.
	summary := runEnv(t, "1", "-r", pcap)
	for _, p := range []string{" Classic ", " SLP ", " Query "} {
		if n := strings.Count(summary, p); n < 20 {
			t.Fatalf("the capture has %d %q records: too few to test", n, p)
		}
	}
	for _, args := range [][]string{
		{"-q", "-z", "expert", "-z", "conv,mc", "-z", "mc,servers", "-z", "mc,stat", "-z", "mc,rtt", "-z", "io,stat,0.5,slp,classic"},
		{"-t", "dd"},
		{"-t", "dd", "-Y", "classic || query", "-z", "mc,stat", "-z", "conv,mc"},
		{"-V", "-z", "expert", "-Y", "!slp"},
		{"-T", "json", "-z", "conv,mc", "-c", "300"},
		{"-q", "-z", "expert", "-z", "mc,servers", "-Y", "slp || classic", "-c", "400"},
		{"-V", "-Y", "classic || query", "-c", "150"},
		{"-T", "json", "-z", "conv,tcp", "-z", "io,stat,0.5"},
		{"-T", "fields", "-e", "frame.number", "-e", "mc.message", "-Y", "slp || classic", "-c", "500"},
		{"-T", "html"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			a := append([]string{"-r", pcap}, args...)
			want := runEnv(t, "1", a...)
			if len(want) < 1000 {
				t.Fatalf("%d bytes of output: too little to test", len(want))
			}
			got := runEnv(t, "2", a...)
			if got != want {
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				t.Errorf("two cores differ from one at byte %d:\n got …%q\nwant …%q", i, got[max(0, i-80):min(len(got), i+80)], want[max(0, i-80):min(len(want), i+80)])
			}
		})
	}
}

// mixedCapture writes mcgen's small capture of every protocol (seed 11)
// into dir.
func mixedCapture(t *testing.T, dir string) string {
	t.Helper()
	var gen bytes.Buffer
	if _, err := mcgen.Generate(&gen, mcgen.SmallConfig(11)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "mixed.pcap")
	if err := os.WriteFile(path, gen.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

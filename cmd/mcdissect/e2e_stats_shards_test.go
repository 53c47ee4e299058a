package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStatsOnShardsEqualOneCore: on two cores the statistics that read
// records are counted on each shard and merged (stats_merge.go); what
// they print, alone or after -V, JSON, fields or a filter, must be what
// one core prints, which counts every record in order.
func TestStatsOnShardsEqualOneCore(t *testing.T) {
	mixed := mixedCapture(t, t.TempDir())
	files := []string{mixed}
	for _, s := range []string{"classic-session.pcap", "slp-status-concurrent.pcap", "query-full.pcap", "handmade-slp-forge.pcap",
		"handmade-classic-heartbeat.pcap", "slp-legacy.pcap", "handmade-slp-status-losses.pcap", "query-clients.pcap"} {
		files = append(files, "../../samples/"+s)
	}
	shared, _ := filepath.Glob("/work/shared/captures/*.pcap")
	files = append(files, shared...)
	all := []string{"-z", "mc,stat", "-z", "expert", "-z", "conv,mc", "-z", "mc,servers", "-z", "mc,rtt",
		"-z", "io,stat,0.5,slp,classic,query.type == 9", "-z", "conv,tcp"}
	for _, args := range [][]string{
		append([]string{"-q"}, all...),
		append([]string{"-V"}, all...),
		{"-T", "json", "-z", "mc,stat", "-z", "conv,tcp", "-z", "mc,servers"},
		{"-z", "io,stat,1,mc.direction == \"s2c\"", "-z", "mc,stat"},
		{"-T", "fields", "-e", "frame.number", "-e", "mc.message", "-z", "conv,mc", "-z", "expert"},
		append([]string{"-Y", "slp || classic", "-q"}, all...),
		append([]string{"-Y", "!query", "-T", "ek"}, all...),
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			for _, f := range files {
				a := append([]string{"-r", f}, args...)
				want := runEnv(t, "1", a...)
				if !strings.Contains(want, "=====") {
					t.Fatalf("%s: no statistic printed:\n%s", f, want)
				}
				if got := runEnv(t, "2", a...); got != want {
					i := 0
					for i < len(got) && i < len(want) && got[i] == want[i] {
						i++
					}
					t.Errorf("%s: two cores differ from one at byte %d:\n got …%q\nwant …%q", filepath.Base(f), i,
						got[max(0, i-200):min(len(got), i+120)], want[max(0, i-200):min(len(want), i+120)])
				}
			}
		})
	}
}

// TestSavedFramesOnShards: -w with -Y on two cores, each shard keeping
// the frames of the PDUs it shows, saves the file one core saves.
func TestSavedFramesOnShards(t *testing.T) {
	dir := t.TempDir()
	mixed := mixedCapture(t, dir)
	for _, f := range []string{mixed, "../../samples/classic-session.pcap", "../../samples/slp-status-concurrent.pcap"} {
		for _, flt := range []string{"slp || classic", "!query", "mc.direction == \"s2c\""} {
			var saved [2][]byte
			for i, procs := range []string{"1", "2"} {
				out := filepath.Join(dir, "saved-"+procs+".pcapng")
				if o, err := runCmd(procs, "-r", f, "-Y", flt, "-w", out, "-z", "mc,stat"); err != nil {
					t.Fatalf("%s -Y %q: %v: %s", f, flt, err, o)
				}
				b, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				saved[i] = b
			}
			if len(saved[0]) < 200 {
				t.Errorf("%s -Y %q: %d bytes saved: too few to test", filepath.Base(f), flt, len(saved[0]))
			}
			if !bytes.Equal(saved[0], saved[1]) {
				t.Errorf("%s -Y %q: two cores saved %d bytes, one core %d", filepath.Base(f), flt, len(saved[1]), len(saved[0]))
			}
		}
	}
}

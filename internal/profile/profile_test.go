package profile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProfiles: each profile asked for is written; a CPU profile that
// cannot be made is an error.
func TestProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.out"), filepath.Join(dir, "mem.out")
	p, err := Start(cpu, mem)
	if err != nil {
		t.Fatal(err)
	}
	p.WriteHeap()
	p.Stop()
	for _, f := range []string{cpu, mem} {
		if fi, err := os.Stat(f); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", filepath.Base(f), err)
		}
	}
	if _, err := Start(filepath.Join(dir, "no", "cpu.out"), ""); err == nil {
		t.Error("a CPU profile in a missing directory")
	}
}

// TestHeapAsked: --memprofile FILE or --memprofile=FILE, not past "--",
// nor a flag whose name only starts the same.
func TestHeapAsked(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"-r", "x.pcap", "-V"}, false},
		{[]string{"-r", "x.pcap", "--memprofile", "mem.out"}, true},
		{[]string{"--memprofile=mem.out", "-r", "x.pcap"}, true},
		{[]string{"-r", "x.pcap", "--cpuprofile", "cpu.out"}, false},
		{[]string{"-r", "x.pcap", "--", "--memprofile"}, false},
		{[]string{"decode", "--memprofilex"}, false},
	} {
		if got := HeapAsked(tc.args); got != tc.want {
			t.Errorf("HeapAsked(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

package memory

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestHugePagesMarked: the range preferHugePages returns lies in one
// mapping the kernel holds marked for huge pages ("hg" in its VmFlags),
// so the heap memory there comes in 2 MiB pieces.
func TestHugePagesMarked(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skip("transparent huge pages are off on this kernel")
	}
	t.Setenv("GODEBUG", "")
	start, end := preferHugePages(16 << 20)
	if start == 0 || end-start < hugePageBytes || start%hugePageBytes != 0 {
		t.Fatalf("preferHugePages gave [%#x, %#x)", start, end)
	}
	if flags := vmFlags(t, start, end); !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("the mapping of [%#x, %#x) has flags %q, without hg", start, end, flags)
	}

	t.Setenv("GODEBUG", "disablethp=1")
	if s, e := preferHugePages(16 << 20); s != 0 || e != 0 {
		t.Errorf("with GODEBUG=disablethp=1, preferHugePages marked [%#x, %#x)", s, e)
	}
}

// vmFlags is the VmFlags line of the mapping that holds [start, end).
func vmFlags(t *testing.T, start, end uintptr) string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := mapRange(line); ok {
			in = lo <= start && end <= hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:"))
		}
	}
	t.Fatalf("no mapping holds [%#x, %#x)", start, end)
	return ""
}

// mapRange parses the "lo-hi perms ..." line that starts a mapping.
func mapRange(line string) (lo, hi uintptr, ok bool) {
	r, _, found := strings.Cut(line, " ")
	a, b, dash := strings.Cut(r, "-")
	if !found || !dash {
		return 0, 0, false
	}
	x, err1 := strconv.ParseUint(a, 16, 64)
	y, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uintptr(x), uintptr(y), true
}

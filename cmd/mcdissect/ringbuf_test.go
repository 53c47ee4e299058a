package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/capture"
)

// framesIn counts the packets of a capture file.
func framesIn(t *testing.T, path string) int {
	t.Helper()
	src, err := capture.OpenFile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer src.Close()
	n := 0
	for {
		_, err := src.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatalf("%s after %d packets: %v", path, n, err)
		}
		n++
	}
}

// TestWriteCountsPackets: with -w, -c N and -a packets:N write N packets,
// as tshark (-c counts packets read; -Y then keeps the frames of matching
// PDUs among them); -a filesize:KB stops at the packet that reaches it.
func TestWriteCountsPackets(t *testing.T) {
	dir := t.TempDir()
	total := framesIn(t, querySample)
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"-c 5", []string{"-c", "5"}, 5},
		{"-a packets:7", []string{"-a", "packets:7"}, 7},
		{"-c 9 -a packets:4", []string{"-c", "9", "-a", "packets:4"}, 4},
		{"-c more than the file", []string{"-c", "100000"}, total},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".pcapng")
			if _, e, code := mcd(t, nil, append([]string{"-r", querySample, "-w", out}, tc.args...)...); code != 0 {
				t.Fatalf("exit %d: %s", code, e)
			}
			if n := framesIn(t, out); n != tc.want {
				t.Errorf("%d packets written, want %d", n, tc.want)
			}
		})
	}
	// -P prints the records of those packets only: the first 4 packets of
	// query-full are two handshakes and their answers.
	o, _, _ := mcd(t, nil, "-r", querySample, "-w", filepath.Join(dir, "p.pcapng"), "-c", "4", "-P")
	if n := len(lines(o)); n != 4 {
		t.Errorf("-c 4 -w -P printed %d records:\n%s", n, o)
	}
	// Without -w, -c still counts PDUs.
	if o, _, _ := mcd(t, nil, "-r", querySample, "-c", "3"); len(lines(o)) != 3 {
		t.Errorf("-c 3 printed %d records", len(lines(o)))
	}
	out := filepath.Join(dir, "size.pcapng")
	if _, e, code := mcd(t, nil, "-r", querySample, "-w", out, "-a", "filesize:2"); code != 0 {
		t.Fatalf("-a filesize: exit %d: %s", code, e)
	}
	fi, _ := os.Stat(out)
	if n := framesIn(t, out); fi.Size() < 2000 || n == 0 || n == total {
		t.Errorf("-a filesize:2: %d bytes, %d packets of %d", fi.Size(), n, total)
	}
}

// TestRingFlags: -b and -a combinations refused with one clear line.
func TestRingFlags(t *testing.T) {
	w := filepath.Join(t.TempDir(), "x.pcapng")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-r", querySample, "-w", w, "-b", "filesize:10"}, "-b writes a ring of files from a live capture"},
		{[]string{"-i", "lo", "-b", "filesize:10"}, "it needs -i and -w"},
		{[]string{"-i", "lo", "-w", w, "-b", "files:3"}, "say when a file ends"},
		{[]string{"-i", "lo", "-w", w, "-b", "filesize:x"}, `"x" is not a positive whole number`},
		{[]string{"-i", "lo", "-w", w, "-b", "size:10"}, "choose filesize:KB"},
		{[]string{"-i", "lo", "-w", w, "-b", "filesize:10", "-a", "filesize:10"}, "-a files:N"},
		{[]string{"-i", "lo", "-w", w, "-a", "files:2"}, "-a files:N stops after N files of -b"},
		{[]string{"-r", querySample, "-a", "filesize:10"}, "it needs -w"},
		{[]string{"-r", querySample, "-a", "duration:1"}, "-a duration: is for live captures"},
		{[]string{"-r", querySample, "-a", "bytes:1"}, "choose duration:S"},
	} {
		t.Run(strings.Join(tc.args[2:], " "), func(t *testing.T) {
			_, e, code := mcd(t, nil, tc.args...)
			if code != exitUsage || !strings.Contains(e, tc.want) {
				t.Errorf("exit %d, stderr %q, want %q", code, e, tc.want)
			}
		})
	}
}

// ringName is a file of -b's ring as dumpcap names it.
var ringName = regexp.MustCompile(`^ring_\d{5}_\d{14}\.pcapng$`)

// ringFiles lists the files of the ring in dir, checking their names.
func ringFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "ring*"))
	for _, f := range m {
		if !ringName.MatchString(filepath.Base(f)) {
			t.Errorf("%s is not named as dumpcap names the files of a ring", filepath.Base(f))
		}
	}
	return m
}

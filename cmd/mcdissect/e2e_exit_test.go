package main

import (
	bo "encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExitStatus: as tshark, 2 when the input is cut or damaged (after
// printing all it could read, with a warning), when it is a directory, or
// when it cannot be read, or when the display filter does not compile; 1
// for usage errors, -c 0 among them.
func TestExitStatus(t *testing.T) {
	whole, err := os.ReadFile(querySample)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	allOut, _, code := mcd(t, nil, "-r", querySample)
	if code != exitOK {
		t.Fatalf("a whole capture exits %d", code)
	}
	all := lines(allOut)
	// Cut in the middle of the 4th record: 24-byte file header, then
	// records of a 16-byte header and their bytes.
	off := 24
	for i := 0; i < 3; i++ {
		off += 16 + int(bo.LittleEndian.Uint32(whole[off+8:]))
	}
	cut := write("cut.pcap", whole[:off+16+5])
	// Damaged: the 4th record's header claims more bytes than any snap length.
	damaged := append([]byte(nil), whole...)
	bo.LittleEndian.PutUint32(damaged[off+8:], 1<<30)
	bo.LittleEndian.PutUint32(damaged[off+12:], 1<<30)
	bad := write("damaged.pcap", damaged)
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		stderr string
		shown  int // records printed: the first ones of the whole capture; -1 none
	}{
		{"cut short", []string{"-r", cut}, exitFail, "cut short in the middle of the packet after frame 3", 3},
		{"damaged", []string{"-r", bad}, exitFail, "damaged after frame 3", 3},
		{"cut short, -V", []string{"-r", cut, "-V"}, exitFail, "cut short", -2},
		{"a directory", []string{"-r", dir}, exitFail, `"` + dir + `" is a directory (folder), not a file`, -1},
		{"-c 0", []string{"-r", querySample, "-c", "0"}, exitUsage, "-c 0: the count must be positive", -1},
		{"-c -1", []string{"-r", querySample, "-c", "-1"}, exitUsage, "the count must be positive", -1},
		{"--redact with -w", []string{"-r", querySample, "--redact", "-w", filepath.Join(dir, "out.pcapng")}, exitUsage, "--redact cannot be used with -w", -1},
		{"--redact with -z follow,tcp", []string{"-r", querySample, "--redact", "-q", "-z", "follow,tcp,ascii,0"}, exitUsage, "--redact cannot be used with -z follow,tcp,ascii,0", -1},
		{"--redact with -z follow,udp", []string{"-r", querySample, "--redact", "-q", "-z", "conv,mc", "-z", "follow,udp,raw,0"}, exitUsage, "--redact cannot be used with -z follow,udp,raw,0", -1},
		{"-c 2", []string{"-r", querySample, "-c", "2"}, exitOK, "", 2},
		{"-Y syntax", []string{"-r", querySample, "-Y", "tcp.prot == 1"}, exitFail, `"tcp.prot" is not a valid protocol or protocol field`, -1},
		{"-Y bad time", []string{"-r", querySample, "-Y", `frame.time >= "foo"`}, exitFail, `"foo" is not a valid absolute time`, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, stderr, code := mcd(t, nil, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, c.code, stderr)
			}
			if c.stderr == "" && stderr != "" || !strings.Contains(stderr, c.stderr) {
				t.Errorf("stderr %q, want it to say %q", stderr, c.stderr)
			}
			switch {
			case c.shown == -1 && out != "":
				t.Errorf("stdout %q, want nothing", out)
			case c.shown == -2 && !strings.Contains(out, "Frame 3:"):
				t.Errorf("-V of a cut file does not show what it read: %q", out)
			case c.shown >= 0:
				got := lines(out)
				if len(got) < c.shown || strings.Join(got[:c.shown], "\n") != strings.Join(all[:c.shown], "\n") {
					t.Errorf("printed %q, want the first %d records of the whole capture", got, c.shown)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "out.pcapng")); err == nil {
		t.Error("-w with --redact wrote a file")
	}
}

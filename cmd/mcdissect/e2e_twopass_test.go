package main

import (
	"fmt"
	"net/netip"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

// busyQuery writes a capture in which two Query requests wait behind more
// records than the pipeline holds back (1024): A's response comes after
// 1,100 other clients' exchanges, C's never. Real servers under load do
// this; the samples are too quiet to.
func busyQuery(t *testing.T) (path string, aResp int) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "busy-query.pcap")
	w, err := capgen.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	server := netip.MustParseAddrPort("10.9.0.1:25565")
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	frame := 0
	udp := func(src, dst netip.AddrPort, b []byte) {
		now = now.Add(500 * time.Microsecond)
		w.UDP(now, src, dst, b)
		frame++
	}
	handshake := func(sess byte) []byte { return []byte{0xfe, 0xfd, 0x09, 0, 0, 0, sess} }
	answer := func(sess byte) []byte { return []byte{0x09, 0, 0, 0, sess, '4', '2', 0} }
	others := func(from int) {
		for i := range 1100 {
			c := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 8, byte((from + i) >> 8), byte(from + i)}), 50000)
			udp(c, server, handshake(7))
			udp(server, c, answer(7))
		}
	}
	a := netip.MustParseAddrPort("10.7.0.1:40001")
	cl := netip.MustParseAddrPort("10.7.0.3:40003")
	udp(a, server, handshake(1)) // frame 1
	others(0)
	udp(server, a, answer(1))
	aResp = frame
	udp(cl, server, handshake(3)) // never answered
	others(1100)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path, aResp
}

// TestTwoPass: on a capture busy enough that requests go out before their
// responses come, one pass says so (query.response.unlinked); -2 shows
// A's link and C's "no response" instead, as tshark -2 does, and every
// other record is unchanged, in -V and in the pseudo-fields of -T fields.
// -2 needs a file it can read twice.
func TestTwoPass(t *testing.T) {
	path, aResp := busyQuery(t)
	cFrame := aResp + 1
	one, errOne, code := mcd(t, nil, "-r", path, "-V")
	if code != exitOK || errOne != "" {
		t.Fatalf("one pass: exit %d, %s", code, errOne)
	}
	two, errTwo, code := mcd(t, nil, "-r", path, "-V", "-2")
	if code != exitOK || errTwo != "" {
		t.Fatalf("-2: exit %d, %s", code, errTwo)
	}
	recOne, recTwo := strings.Split(one, "\n\n"), strings.Split(two, "\n\n")
	if len(recOne) != len(recTwo) || len(recOne) < 4402 {
		t.Fatalf("%d records in one pass, %d with -2", len(recOne), len(recTwo))
	}
	unlinked := regexp.MustCompile(`query\.response\.unlinked`)
	for _, f := range []int{1, cFrame} {
		if !unlinked.MatchString(recOne[f-1]) {
			t.Errorf("one pass: frame %d does not say it is unlinked (the capture is not busy enough to test -2):\n%s", f, recOne[f-1])
		}
	}
	if want := fmt.Sprintf("[Response in frame: %d]", aResp); !strings.Contains(recTwo[0], want) || unlinked.MatchString(recTwo[0]) {
		t.Errorf("-2: frame 1 lacks %q, or is still unlinked:\n%s", want, recTwo[0])
	}
	if want := "no response seen before the capture ended for this Handshake request"; !strings.Contains(recTwo[cFrame-1], want) || unlinked.MatchString(recTwo[cFrame-1]) {
		t.Errorf("-2: frame %d lacks %q, or is still unlinked:\n%s", cFrame, want, recTwo[cFrame-1])
	}
	changed := 0
	for i := range recOne {
		if recOne[i] != recTwo[i] {
			changed++
			if i != 0 && i != cFrame-1 {
				t.Errorf("-2 changed record %d:\n%s\nto\n%s", i+1, recOne[i], recTwo[i])
			}
		}
	}
	if changed != 2 {
		t.Errorf("-2 changed %d records, want 2", changed)
	}
	fields, _, _ := mcd(t, nil, "-r", path, "-2", "-T", "fields", "-e", "frame.number", "-e", "query.response_in", "-c", "1")
	if want := fmt.Sprintf("1\t%d\n", aResp); fields != want {
		t.Errorf("-2 -T fields: %q, want %q", fields, want)
	}
	for _, c := range []struct{ name, args, stderr string }{
		{"standard input", "-r - -2", "-2 reads the capture twice: it needs -r FILE, not a live capture or standard input"},
		{"live", "-i lo -2", "-2 reads the capture twice"},
	} {
		_, stderr, code := mcd(t, []byte{}, strings.Fields(c.args)...)
		if code != exitUsage || !strings.Contains(stderr, c.stderr) {
			t.Errorf("%s: exit %d, %q; want %d and %q", c.name, code, stderr, exitUsage, c.stderr)
		}
	}
}

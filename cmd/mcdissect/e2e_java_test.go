package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestJavaFlags: --keylog (and -o slp.keylog_file) opens the encrypted
// sample with the driver's key log or the server's RSA key; --java-version
// reads a session picked up mid-way; -z mc,packets counts packet types
// each way; the census names who joined; bad values are one clear line before any packet is read.
func TestJavaFlags(t *testing.T) {
	enc := "../../samples/play-online-1-20-4.pcap"
	undissected := func(out string) int { return strings.Count(out, "undissected bytes") }
	plain, _, _ := mcd(t, nil, "-r", enc)
	if undissected(plain) == 0 {
		t.Fatal("the encrypted sample shows no undissected bytes without a key")
	}
	for _, args := range [][]string{
		{"--keylog", "../../samples/play-online-1-20-4.keylog"},
		{"--keylog", "../../samples/play-online-1-20-4.key.pem"},
		{"-o", "slp.keylog_file:../../samples/play-online-1-20-4.keylog"},
	} {
		out, stderr, code := mcd(t, nil, append([]string{"-r", enc}, args...)...)
		if code != 0 || undissected(out) != 0 || !strings.Contains(out, `Disconnect: "Kicked by mcdissect: bye flayer"`) {
			t.Errorf("%v: exit %d, %d undissected, stderr %q", args, code, undissected(out), stderr)
		}
	}
	if _, stderr, code := mcd(t, nil, "-r", enc, "--keylog", "../../samples/play-online-1-20-4.log"); code == 0 || !strings.HasPrefix(stderr, "mcdissect: --keylog ") {
		t.Errorf("a key log that is not one: exit %d, %q", code, stderr)
	}

	mid := "../../samples/slp-play-midstream.pcap"
	// without the version, the undissected bytes say what reads them
	if out, _, _ := mcd(t, nil, "-r", mid); !strings.Contains(out, "no PDU boundary found (--java-version VERSION reads a Java session picked up in its play state)]") {
		t.Errorf("no --java-version hint:\n%s", out)
	}
	out, _, _ := mcd(t, nil, "-r", mid, "--java-version", "1.21.1")
	if n := strings.Count(out, "SLP Keep alive"); n == 0 || undissected(out) != 0 {
		t.Errorf("--java-version 1.21.1: %d keep-alives, %d undissected:\n%s", n, undissected(out), out)
	}
	if out2, _, _ := mcd(t, nil, "-r", mid, "-o", "slp.version:767,play"); out2 != out {
		t.Error("-o slp.version:767,play differs from --java-version 1.21.1")
	}
	if _, stderr, code := mcd(t, nil, "-r", mid, "--java-version", "1.99"); code == 0 || !strings.Contains(stderr, "1.20.4") {
		t.Errorf("--java-version 1.99: exit %d, %q (want the releases listed)", code, stderr)
	}
	if _, stderr, code := mcd(t, nil, "-r", mid, "--java-version", "1.21.1,login"); code == 0 || !strings.Contains(stderr, "play or configuration") {
		t.Errorf("--java-version 1.21.1,login: exit %d, %q", code, stderr)
	}

	// The census counts the players who joined, not those who tried, with
	// the UUIDs the server gave them (its log: "playerJoin flayer c55e…"),
	// and the brands the peers said; also when Login Success came
	// compressed (threshold 0).
	for _, s := range []string{"play-1-20-4", "play-1-21-4-threshold0"} {
		if out, _, _ := mcd(t, nil, "-r", "../../samples/"+s+".pcap", "-q", "-z", "mc,servers"); !strings.Contains(out, "  Joined:    1: flayer (c55e7b45-6b8d-3791-8608-18e6f8c7b6c7)\n") ||
			!strings.Contains(out, "  Brand:     -; clients: vanilla\n") {
			t.Errorf("%s: -z mc,servers lacks the player who joined or the client's brand:\n%s", s, out)
		}
	}
	out, _, _ = mcd(t, nil, "-r", "../../samples/play-1-20-4.pcap", "-q", "-z", "mc,packets")
	for _, re := range []string{`slp +Finish configuration +s2c +1 +3\n`, `slp +Finish configuration +c2s +1 +3\n`, `slp +Chat message +c2s +\d+ +\d+\n`} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("-z mc,packets lacks %s:\n%s", re, out)
		}
	}
}

// TestJavaFieldNamesEveryVersion: a field's plain name is the newest
// release's (the Disconnect reason is NBT since 1.20.3: FT_NONE, with the
// hand-written explanation), and it filters the field in every version,
// the older JSON form (reason_string) included; -e shows each version's
// own value.
func TestJavaFieldNamesEveryVersion(t *testing.T) {
	fields, _, _ := mcd(t, nil, "-G", "fields")
	for _, want := range []string{
		"\tmc.play.kick_disconnect.reason\tFT_NONE\t",
		"\tmc.play.kick_disconnect.reason_string\tFT_STRING\t",
	} {
		if !strings.Contains(fields, want) {
			t.Errorf("-G fields lacks %q", want)
		}
	}
	for _, s := range []string{"1-8-8", "1-12-2", "1-16-5", "1-20-4", "1-21-4", "1-21-11"} {
		t.Run(s, func(t *testing.T) {
			pcap := "../../samples/play-" + s + ".pcap"
			out, _, _ := mcd(t, nil, "-r", pcap, "-Y", "mc.play.kick_disconnect.reason")
			if n := strings.Count(out, "Disconnect"); n != 1 {
				t.Errorf("-Y mc.play.kick_disconnect.reason: %d records:\n%s", n, out)
			}
			out, _, _ = mcd(t, nil, "-r", pcap, "-V", "--explain", "-Y", "mc.play.kick_disconnect")
			if !strings.Contains(out, "Why the player was disconnected") {
				t.Errorf("the reason lacks its hand-written explanation:\n%s", out)
			}
		})
	}
	out, _, _ := mcd(t, nil, "-r", "../../samples/play-1-8-8.pcap", "-T", "fields", "-e", "mc.play.kick_disconnect.reason", "-Y", "mc.play.kick_disconnect")
	if !strings.Contains(out, "bye flayer") {
		t.Errorf("-e mc.play.kick_disconnect.reason on 1.8 shows %q, want the JSON text", out)
	}
	// A comparison reads the name's string form where a version has one
	// (1.8 to 1.20.2), and never the NBT form, which has no value.
	for s, want := range map[string]int{"1-8-8": 1, "1-16-5": 1, "1-21-11": 0} {
		for _, expr := range []string{`mc.play.kick_disconnect.reason contains "bye"`, `mc.play.kick_disconnect.reason != ""`} {
			out, stderr, code := mcd(t, nil, "-r", "../../samples/play-"+s+".pcap", "-Y", expr)
			if n := strings.Count(out, "Disconnect"); code != 0 || n != want {
				t.Errorf("%s -Y %s: exit %d, %d records, want %d: %s%s", s, expr, code, n, want, out, stderr)
			}
		}
	}
}

// TestJavaSnapshot: a hand-made session (no real peer speaks a current
// snapshot's protocol: testdata/snapshot-26-4.pcap, made by the
// acceptance audit's mk.py) whose handshake names 26.4-snapshot-6
// (0x40000158): minecraft-data has no file for it, so it is read with the
// nearest release's data at or below it (26.1), flagged approximate, and
// the handshake names the snapshot. It was read with the 2021 snapshot
// 21w07a's data, which has no configuration state.
func TestJavaSnapshot(t *testing.T) {
	pcap := "testdata/snapshot-26-4.pcap"
	out, _, _ := mcd(t, nil, "-r", pcap)
	for _, want := range []string{"Handshake, protocol 1073742168 (26.4-snapshot-6, snapshot, protocol 0x40000000+344), ", "SLP Finish configuration"} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Unknown") {
		t.Errorf("unknown packets:\n%s", out)
	}
	out, _, _ = mcd(t, nil, "-r", pcap, "-V", "-Y", "mc.java.version")
	if !strings.Contains(out, "protocol 1073742168 (26.4-snapshot-6) has no data of its own in minecraft-data; read with pc/26.1") {
		t.Errorf("no approximate note naming the snapshot and pc/26.1:\n%s", out)
	}
}

// TestJavaDoc: doc/java.md says what is true: the options it names are
// wired (it said --keylog and the version option were "being wired"), and
// its example commands on the samples run and dissect.
func TestJavaDoc(t *testing.T) {
	doc, err := os.ReadFile("../../doc/java.md")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(doc), "being wired") {
		t.Error("doc/java.md says an option is being wired")
	}
	n := 0
	for _, line := range strings.Split(string(doc), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "mcdissect -r samples/") {
			continue
		}
		args := strings.Fields(line)[1:]
		for i, a := range args {
			if strings.HasPrefix(a, "samples/") {
				args[i] = "../../" + a
			}
		}
		out, stderr, code := mcd(t, nil, args...)
		if code != 0 || !strings.Contains(out, "SLP") || strings.Contains(out, "undissected bytes") {
			t.Errorf("%s: exit %d, stderr %q:\n%.2000s", line, code, stderr, out)
		}
		n++
	}
	if n < 2 {
		t.Errorf("%d example commands on the samples, want the --java-version and --keylog ones", n)
	}
}

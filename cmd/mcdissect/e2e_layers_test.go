package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// layerSamples are the captures the layer tests run on: TCP from the SYN,
// TCP from mid-stream, UDP, reassembled and reordered segments.
var layerSamples = []string{
	"slp-status-gomc", "slp-status-concurrent", "classic-session", "query-full", "query-clients",
	"handmade-slp-midstream", "handmade-slp-reorder", "handmade-slp-gap", "login-online", "handmade-classic-cpe",
}

// layerFields are the fields both tools have, compared as printed (ip.id
// and tcp.flags in hex, as tshark prints them, in both).
var layerFields = []string{
	"frame.number", "frame.time", "frame.time_epoch", "frame.time_relative", "frame.time_delta",
	"frame.len", "frame.cap_len", "ip.ttl", "ip.id", "ip.proto", "tcp.seq", "tcp.ack", "tcp.len",
	"tcp.flags", "tcp.window_size", "tcp.window_size_value", "udp.length", "tcp.srcport", "udp.dstport",
}

func tshark(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("tshark", args...).Output()
	if err != nil {
		t.Fatalf("tshark %v: %v", args, err)
	}
	return string(out)
}

// byFrame maps each line's first column (the frame number) to the line;
// mcdissect writes a line per PDU, and PDUs of one frame share its layers.
func byFrame(out string) map[string][]string {
	m := map[string][]string{}
	for _, l := range lines(out) {
		f := strings.Split(l, "\t")
		m[f[0]] = f
	}
	return m
}

// TestLayerFieldsMatchTshark: every layer field of every frame that
// completed a record is what tshark -T fields prints for that frame, times
// to the nanosecond and sequence numbers relative. Skipped without tshark.
func TestLayerFieldsMatchTshark(t *testing.T) {
	if _, err := exec.LookPath("tshark"); err != nil {
		t.Skip("tshark not installed")
	}
	var args []string
	for _, f := range layerFields {
		args = append(args, "-e", f)
	}
	for _, s := range layerSamples {
		t.Run(s, func(t *testing.T) {
			path := filepath.Join("../../samples", s+".pcap")
			out, _, code := mcd(t, nil, append([]string{"-r", path, "-T", "fields"}, args...)...)
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			want := byFrame(tshark(t, append([]string{"-r", path, "-T", "fields"}, args...)...))
			mine := byFrame(out)
			if len(mine) == 0 {
				t.Fatal("no records")
			}
			for frame, got := range mine {
				w, ok := want[frame]
				if !ok {
					t.Fatalf("frame %s: not in tshark's output", frame)
				}
				for i, name := range layerFields {
					if got[i] == w[i] {
						continue
					}
					t.Errorf("frame %s %s: mcdissect %q, tshark %q", frame, name, got[i], w[i])
				}
			}
		})
	}
}

// TestTimeFormatsMatchTshark: the summary's time column under each -t is
// tshark's column for the same frame. dd depends on which records are
// shown (several per frame here), so it has a test of its own.
func TestTimeFormatsMatchTshark(t *testing.T) {
	if _, err := exec.LookPath("tshark"); err != nil {
		t.Skip("tshark not installed")
	}
	for _, s := range []string{"slp-status-gomc", "query-full", "classic-session"} {
		path := filepath.Join("../../samples", s+".pcap")
		for _, format := range []string{"a", "ad", "adoy", "d", "e", "r", "u", "ud"} {
			t.Run(s+"/"+format, func(t *testing.T) {
				want := byFrame(tshark(t, "-r", path, "-t", format, "-T", "fields", "-e", "frame.number", "-e", "_ws.col.Time"))
				out, _, code := mcd(t, nil, "-r", path, "-t", format)
				if code != 0 {
					t.Fatalf("exit %d", code)
				}
				for _, l := range lines(out) {
					frame, rest, _ := strings.Cut(strings.TrimLeft(l, " "), " ")
					w := want[frame]
					if len(w) < 2 || !strings.HasPrefix(strings.TrimLeft(rest, " "), w[1]+" ") {
						t.Errorf("-t %s frame %s: %q, tshark's column %q", format, frame, l, w)
					}
				}
			})
		}
	}
}

// TestTimeDeltaDisplayed: -t dd is the time since the previous record
// shown, 0 for the first, with or without a filter.
func TestTimeDeltaDisplayed(t *testing.T) {
	path := "../../samples/slp-status-gomc.pcap"
	rel, _, _ := mcd(t, nil, "-r", path, "-Y", "mc.direction == \"c2s\"")
	dd, _, _ := mcd(t, nil, "-r", path, "-Y", "mc.direction == \"c2s\"", "-t", "dd")
	r, d := lines(rel), lines(dd)
	if len(r) < 3 || len(r) != len(d) {
		t.Fatalf("%d and %d lines", len(r), len(d))
	}
	prev := 0.0
	for i := range r {
		x, _ := strconv.ParseFloat(strings.Fields(r[i])[1], 64)
		y, _ := strconv.ParseFloat(strings.Fields(d[i])[1], 64)
		want := x - prev
		if i == 0 {
			want = 0
		}
		if diff := y - want; diff > 2e-6 || diff < -2e-6 {
			t.Errorf("line %d: dd %v, want %v (relative %v after %v)", i, y, want, x, prev)
		}
		prev = x
	}
}

// TestLayerLinesInVerbose: -V shows tshark's one-line headers before each
// tree; -O shows only the trees it names, and a layer's fields.
func TestLayerLinesInVerbose(t *testing.T) {
	path := "../../samples/slp-status-gomc.pcap"
	out, _, _ := mcd(t, nil, "-r", path, "-V", "-c", "1")
	for _, want := range []string{
		"Frame 4: 82 bytes on wire (656 bits), 82 bytes captured (656 bits), 2026-11-22 14:33:00.359425000 UTC, TCP stream 0, client → server\n",
		"Internet Protocol Version 4, Src: 127.0.0.1, Dst: 127.0.0.1\n",
		"Transmission Control Protocol, Src Port: 48614, Dst Port: 25567, Seq: 1, Ack: 1, Len: 16\nMinecraft Server List Ping",
		"    Next state: Status (1)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("-V lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = mcd(t, nil, "-r", path, "-O", "tcp", "-c", "1")
	if !strings.Contains(out, "    Sequence number (relative): 1 [off 38, len 4]\n") || !strings.Contains(out, "    [Calculated window size: 65536]\n") {
		t.Errorf("-O tcp lacks TCP's fields:\n%s", out)
	}
	if !strings.Contains(out, "\nMinecraft Server List Ping [off 0, len 16]\n\n") || strings.Contains(out, "Next state") {
		t.Errorf("-O tcp shows SLP's tree:\n%s", out)
	}
	out, _, _ = mcd(t, nil, "-r", path, "-O", "slp", "-c", "1")
	if !strings.Contains(out, "    Next state: Status (1)") || strings.Contains(out, "[Sequence number") {
		t.Errorf("-O slp:\n%s", out)
	}
	if _, errs, code := mcd(t, nil, "-r", path, "-O", "http"); code != exitUsage || !strings.Contains(errs, "not a protocol") {
		t.Errorf("-O http: exit %d, %q", code, errs)
	}
	if _, errs, code := mcd(t, nil, "-r", path, "-t", "x"); code != exitUsage || !strings.Contains(errs, "-t \"x\"") {
		t.Errorf("-t x: exit %d, %q", code, errs)
	}
}

// sgr matches the colour sequences mcdissect writes.
var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestColourOnlyOurs: with --color=always, taking mcdissect's SGR
// sequences out gives the --color=never output byte for byte, which holds
// no ESC at all: every escape sequence in the output is mcdissect's, and a
// hostile MOTD's ("\x1b[2J\x1b[31mPWNED") stays escaped. Colour is there:
// protocols, expert severities and § codes.
func TestColourOnlyOurs(t *testing.T) {
	for _, s := range []string{"handmade-query-motd", "query-full", "handmade-classic-secrets", "slp-status-concurrent", "handmade-slp-bad-json"} {
		t.Run(s, func(t *testing.T) {
			path := filepath.Join("../../samples", s+".pcap")
			for _, mode := range [][]string{{"-V", "-x"}, {}, {"-O", "tcp"}, {"-t", "ad"}} {
				plain, _, _ := mcd(t, nil, append([]string{"-r", path, "--color=never"}, mode...)...)
				col, _, _ := mcd(t, nil, append([]string{"-r", path, "--color=always"}, mode...)...)
				if strings.IndexByte(plain, 0x1b) >= 0 {
					t.Fatalf("%v: an ESC byte without colour", mode)
				}
				if !strings.Contains(col, "\x1b[") {
					t.Fatalf("%v: no colour with --color=always", mode)
				}
				if got := sgr.ReplaceAllString(col, ""); got != plain {
					t.Fatalf("%v: without its SGR sequences the coloured output differs from the plain one", mode)
				}
			}
		})
	}
	out, _, _ := mcd(t, nil, "-r", "../../samples/handmade-query-motd.pcap", "-V", "--color=always")
	for _, want := range []string{`\x1b[2J\x1b[31mPWNED`, "\x1b[36m[Expert Info (Note/", "\x1b[36mQuery\x1b[0m"} {
		if !strings.Contains(out, want) {
			t.Errorf("--color=always lacks %q", want)
		}
	}
	out, _, _ = mcd(t, nil, "-r", "../../samples/query-full.pcap", "-V", "--color=always")
	if !regexp.MustCompile("\x1b\\[[0-9;]+m§[0-9a-fk-or]").MatchString(out) {
		t.Error("no § code coloured")
	}
	// The tests' stdout is a pipe: auto is off.
	if out, _, _ := mcd(t, nil, "-r", "../../samples/query-full.pcap", "-V"); strings.IndexByte(out, 0x1b) >= 0 {
		t.Error("colour in a pipe with --color=auto")
	}
}

func TestVersion(t *testing.T) {
	out, _, code := mcd(t, nil, "--version")
	if code != 0 || !strings.HasPrefix(out, "mcdissect ") || !strings.Contains(out, "Built with go1.") || !strings.Contains(out, "gopacket v") || !strings.Contains(out, "Build tags: ") {
		t.Errorf("--version: exit %d\n%s", code, out)
	}
}

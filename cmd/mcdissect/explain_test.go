package main

import (
	"os"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

// TestEveryFieldExplained: every field of every registry the binary holds
// has an explanation of at least one full sentence. A field added without
// one fails here, by design.
func TestEveryFieldExplained(t *testing.T) {
	n := 0
	for _, r := range dissect.Registries() {
		for _, f := range r.Fields() {
			n++
			if p := dissecttest.ExplanationProblem(f); p != "" {
				t.Errorf("%s: %s: %q", f.Name, p, f.Desc)
			}
		}
	}
	if n < 400 {
		t.Errorf("only %d fields registered", n)
	}
}

// TestGlossaryBlurb: -G fields prints golden/fields.txt in tshark's
// layout: a P line per protocol (long name, filter name), an F line per
// field (label, filter name, tshark's type, protocol, base, bit mask,
// blurb) with the explanation as tshark's blurb, the last column.
func TestGlossaryBlurb(t *testing.T) {
	out, _, code := mcd(t, nil, "-G", "fields")
	if code != 0 {
		t.Fatal("exit", code)
	}
	want, err := os.ReadFile("../../golden/fields.txt")
	if err != nil {
		t.Fatal(err)
	}
	// golden/fields.txt: F, label, name, type, protocol, description; the
	// protocols' own fields are -G fields' P lines.
	var golden, got []string
	for _, l := range lines(string(want)) {
		c := strings.Split(l, "\t")
		if c[3] != "protocol" {
			golden = append(golden, strings.Join([]string{c[1], c[2], c[4], c[5]}, "\t"))
		}
	}
	experts, _, _ := mcd(t, nil, "-G", "experts")
	if want, err := os.ReadFile("../../golden/experts.txt"); err != nil || experts != string(want) {
		t.Errorf("-G experts differs from golden/experts.txt (go test ./golden -update rewrites it): %v", err)
	}
	protos := 0
	for _, l := range lines(out) {
		col := strings.Split(l, "\t")
		if len(col) == 3 && col[0] == "P" {
			protos++
			continue
		}
		if len(col) != 8 || col[0] != "F" || !strings.HasPrefix(col[3], "FT_") || col[6] != "0x0" {
			t.Errorf("not F, label, name, FT_ type, protocol, base, bit mask, blurb: %q", l)
			continue
		}
		f, _, ok := dissect.LookupField(strings.TrimSuffix(col[2], ".<key>"))
		if !ok || col[7] != f.Desc || col[7] == "" {
			t.Errorf("%s: blurb %q is not its explanation", col[2], col[7])
		}
		got = append(got, strings.Join([]string{col[1], col[2], col[4], col[7]}, "\t"))
	}
	if strings.Join(got, "\n") != strings.Join(golden, "\n") {
		t.Errorf("-G fields lists other fields than golden/fields.txt (go test ./golden -update rewrites it)")
	}
	if protos != len(dissect.Registries()) {
		t.Errorf("%d P lines for %d protocols", protos, len(dissect.Registries()))
	}
}

// TestExplainSamples: -V --explain on real captures adds, under the
// fields, their explanations ("| " lines) and the arithmetic of their
// bytes ("= " lines), and nothing else: without those lines the output is
// the -V tree.
func TestExplainSamples(t *testing.T) {
	for _, c := range []struct {
		pcap  string
		count string
		want  []string // lines, trimmed, that must follow each other
	}{
		{"../../samples/slp-status-nmp.pcap", "1", []string{
			"Protocol version: 767 (1.21/1.21.1) [off 2, len 2]",
			"| The protocol number of the client's game version, as a VarInt: 767 is 1.21 and 1.21.1,",
			"| sent as ff 05. A client that only wants the status may send -1 (five bytes, ff ff ff ff",
			"| 0f), meaning it does not care about versions.",
			"= ff 05: each byte gives 7 bits, low group first, while its top bit says more follow: 0x7f + 0x05×128 = 767",
		}},
		{querySample, "2", []string{
			"= \"8577368\" is decimal text: 8577368 = 0x0082e158, sent back big-endian, most significant byte first: 00 82 e1 58",
		}},
		{"../../samples/classic-session.pcap", "12", []string{
			"Y: 16.90625 blocks (fixed point 541 ÷ 32) [off 68, len 2]",
			"| The Y coordinate, the height. In positions it is fixed point (the short divided by 32) and",
			"| marks the player's eyes, 51/32 = 1.59375 blocks above the feet; in Set Block it is a whole",
			"| block coordinate (Classic protocol page).",
			"= 02 1d = 0x021d = 541; fixed point with 5 fractional bits: 541 ÷ 32 = 16.90625 blocks (16 whole blocks and 29/32)",
		}},
	} {
		t.Run(c.pcap, func(t *testing.T) {
			out, _, code := mcd(t, nil, "-r", c.pcap, "-c", c.count, "-V", "--explain")
			if code != 0 {
				t.Fatal("exit", code)
			}
			got := lines(out)
			trimmed := make([]string, len(got))
			for i, l := range got {
				trimmed[i] = strings.TrimSpace(l)
			}
			if !containsRun(trimmed, c.want) {
				t.Errorf("no run of lines %q in\n%s", c.want, out)
			}
			plain, _, _ := mcd(t, nil, "-r", c.pcap, "-c", c.count, "-V")
			var kept []string
			for i, l := range got {
				if !strings.HasPrefix(trimmed[i], "| ") && !strings.HasPrefix(trimmed[i], "= ") {
					kept = append(kept, l)
				}
			}
			if strings.Join(kept, "\n") != strings.Join(lines(plain), "\n") {
				t.Errorf("--explain changed the tree itself")
			}
		})
	}
	if _, stderr, code := mcd(t, nil, "-r", querySample, "--explain"); code != exitUsage || !strings.Contains(stderr, "-V") {
		t.Errorf("--explain without -V: exit %d, %q", code, stderr)
	}
}

func containsRun(lines, run []string) bool {
	for i := 0; i+len(run) <= len(lines); i++ {
		ok := true
		for j := range run {
			if lines[i+j] != run[j] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

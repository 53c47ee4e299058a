package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/filter"
)

// Lite decoding (no trees) is chosen only when nothing of the run reads a
// tree or an expert item. (--ship, whose documents read trees,
// TestShip tries.)
func TestSummaryOnly(t *testing.T) {
	for _, tc := range []struct {
		args     string
		want     bool
		noLayers bool // no field of the layers is read either
	}{
		{"-r x", true, true},
		{"-r x -t d -c 5", true, false},
		{"-r x -t e -c 5", true, true},
		{"-r x -T fields -e tcp.seq", true, false},
		{"-r x -Y tcp.flags.syn==1", true, false},
		{"-r x -z conv,mc", true, false},
		{"-r x -q -z mc,stat -z conv,mc", true, false},
		{"-r x -T fields -e frame.number -e mc.protocol -e mc.message -e ip.src -e tcp.stream", true, false},
		{"-r x -V", false, false},
		{"-r x -x", false, false},
		{"-r x -T json", false, false},
		{"-r x -Y query", false, false},
		{"-r x -Y query.type==9", false, false},
		{"-r x -Y tcp.port==25565&&mc.direction==c2s", true, false},
		{"-r x -z expert", false, false},
		{"-r x -T fields -e mc.expert", false, false},
		{"-r x -T fields -e frame.number -e query.session_id", false, false},
		{"-r x --export-objects level,/tmp/o", false, false},
		{"-r x -O query", false, false},
		{"-r x -T fields -e mc.protocol", true, true}, // no field of the layers
		{"-r x -T psml", false, false},
		{"-r x -t dd", true, true},
	} {
		c, err := parseFlags(strings.Fields(tc.args), io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", tc.args, err)
		}
		var flt *filter.Filter
		if c.dispFilter != "" {
			if flt, err = filter.Compile(c.dispFilter); err != nil {
				t.Fatal(err)
			}
		}
		need := c.sink(nil, flt).Needs()
		if got := !need.Trees; got != tc.want {
			t.Errorf("%s: Lite = %v, want %v", tc.args, got, tc.want)
		}
		if got := !need.Trees && need.Layers.IsZero(); got != tc.noLayers {
			t.Errorf("%s: NoLayers = %v, want %v", tc.args, got, tc.noLayers)
		}
	}
}

// TestFilterLite: a filter on record fields only runs on PDUs decoded
// without trees; it must select and show what the same filter does on
// full trees (forced here by an or-ed test of a tree field that never
// holds). The samples must give it something to select.
func TestFilterLite(t *testing.T) {
	files, _ := filepath.Glob("../../samples/*.pcap")
	if len(files) == 0 {
		t.Fatal("no samples")
	}
	const lite = "tcp.port in {25565, 25580} || udp.srcport > 40000 || mc.message contains \"Status\""
	selected := 0
	for _, f := range files {
		a, _, code := mcd(t, nil, "-r", f, "-Y", lite)
		b, _, code2 := mcd(t, nil, "-r", f, "-Y", lite+" || query.type == 999")
		if code != code2 || a != b {
			t.Errorf("%s: the record-field filter (exit %d, %d bytes) differs from the same on trees (exit %d, %d bytes)", f, code, len(a), code2, len(b))
		}
		selected += len(lines(a))
	}
	if selected == 0 {
		t.Error("the filter selects nothing in any sample: the comparison shows nothing")
	}
}

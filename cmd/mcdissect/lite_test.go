package main

import (
	"io"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/filter"
)

// Lite decoding (no trees) is chosen only when nothing of the run reads a
// tree or an expert item.
func TestSummaryOnly(t *testing.T) {
	for _, tc := range []struct {
		args string
		want bool
	}{
		{"-r x", true},
		{"-r x -q -z mc,stat -z conv,mc", true},
		{"-r x -T fields -e frame.number -e mc.protocol -e mc.message -e ip.src -e tcp.stream", true},
		{"-r x -V", false},
		{"-r x -x", false},
		{"-r x -T json", false},
		{"-r x -Y query", false},
		{"-r x -z expert", false},
		{"-r x -T fields -e mc.expert", false},
		{"-r x -T fields -e frame.number -e query.session_id", false},
		{"-r x --export-objects level,/tmp/o", false},
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
		var stats []stat
		for _, z := range c.stats {
			s, _ := newStat(z)
			stats = append(stats, s)
		}
		var exp *exporter
		if c.exportObjects != "" {
			exp = newExporter(c.exportObjects)
		}
		if got := c.summaryOnly(flt, stats, exp); got != tc.want {
			t.Errorf("%s: summaryOnly = %v, want %v", tc.args, got, tc.want)
		}
	}
}

package glossary

import (
	"bytes"
	"strings"
	"testing"

	_ "github.com/mcdissect/mcdissect/dissect/netlayers" // the layers' registries
	_ "github.com/mcdissect/mcdissect/protocols/all"
)

// TestReports: each report has its columns, tshark's names for the
// layers below Minecraft and the protocols' own above; an unknown report
// is refused with the list.
func TestReports(t *testing.T) {
	for _, tc := range []struct {
		report string
		cols   int
		want   []string
	}{
		{"fields", 0, []string{"P\tInternet Protocol Version 4\tip\n", "F\tSource port\ttcp.srcport\tFT_UINT16\ttcp\tBASE_DEC\t0x0\t", "\teth.src\tFT_ETHER\teth\t\t0x0\t", "\tquery\n"}},
		{"protocols", 3, []string{"Transmission Control Protocol\tTCP\ttcp\n", "\tQuery\tquery\n"}},
		{"experts", 3, nil},
	} {
		t.Run(tc.report, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, tc.report); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("no %q", w)
				}
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) < 5 {
				t.Fatalf("%d lines", len(lines))
			}
			for _, l := range lines {
				n := strings.Count(l, "\t") + 1
				if tc.cols > 0 && n != tc.cols || tc.cols == 0 && !(l[0] == 'P' && n == 3 || l[0] == 'F' && n == 8) {
					t.Errorf("%d columns: %q", n, l)
				}
			}
		})
	}
	if err := Write(&bytes.Buffer{}, "colours"); err == nil || !strings.Contains(err.Error(), "choose fields, protocols or experts") {
		t.Errorf("-G colours: %v", err)
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/internal/mcgen"
)

// pageRecords reads the records a -T html page embeds.
func pageRecords(t *testing.T, page string) []struct {
	F   uint64  `json:"f"`
	I   string  `json:"i"`
	Img [][]any `json:"img"`
} {
	t.Helper()
	const open = `<script type="application/json" id="mc-records">`
	i := strings.Index(page, open)
	if !strings.HasPrefix(page, "<!DOCTYPE html>") || i < 0 || !strings.Contains(page, `http-equiv="Content-Security-Policy" content="default-src 'none';`) {
		t.Fatalf("not a page with its CSP and records:\n%.400s", page)
	}
	body := page[i+len(open):]
	body = body[:strings.Index(body, "</script>")]
	var recs []struct {
		F   uint64  `json:"f"`
		I   string  `json:"i"`
		Img [][]any `json:"img"`
	}
	if err := json.Unmarshal([]byte(body), &recs); err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestHTMLPage: -T html holds one record per summary line, in the
// summary's order, with -Y as without; decode -T html holds its one
// message; a Classic level comes with its map.
func TestHTMLPage(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"query", []string{"-r", querySample}},
		{"filtered", []string{"-r", "../../samples/slp-status-concurrent.pcap", "-Y", "slp.status.players.online >= 0"}},
		{"count", []string{"-r", "../../samples/classic-session.pcap", "-c", "20"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sum, stderr, code := mcd(t, nil, c.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			page, stderr, code := mcd(t, nil, append(c.args, "-T", "html")...)
			if code != 0 || stderr != "" {
				t.Fatalf("-T html: exit %d: %s", code, stderr)
			}
			recs := pageRecords(t, page)
			ls := lines(sum)
			if len(recs) != len(ls) || len(recs) == 0 {
				t.Fatalf("%d records in the page, %d summary lines", len(recs), len(ls))
			}
			for i, l := range ls {
				if !strings.HasSuffix(l, recs[i].I) || strings.Fields(l)[0] != itoa(recs[i].F) {
					t.Errorf("record %d: frame %d %q; summary %q", i, recs[i].F, recs[i].I, l)
				}
			}
		})
	}
	page, _, code := mcd(t, nil, "-r", "../../samples/classic-session.pcap", "-T", "html")
	maps := 0
	for _, r := range pageRecords(t, page) {
		maps += len(r.Img)
	}
	if code != 0 || maps == 0 {
		t.Errorf("classic-session: exit %d, %d level maps", code, maps)
	}
	page, stderr, code := mcd(t, nil, "decode", "--proto", "query", "--from", "client", "-T", "html", "FE FD 09 00 00 00 01")
	if recs := pageRecords(t, page); code != 0 || len(recs) != 1 || !strings.Contains(recs[0].I, "Handshake Request") {
		t.Errorf("decode -T html: exit %d %s, %+v", code, stderr, recs)
	}
}

func itoa(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestHTMLPageCap: a capture too big for one page (20 MB of mcgen's mix,
// past the 32 MB of page) is cut, not waited on: exit 0, the page's
// banner text and a warning on stderr, both with the hint.
func TestHTMLPageCap(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 20 MB to generate and dissect")
	}
	pcap := filepath.Join(t.TempDir(), "big.pcap")
	f, err := os.Create(pcap)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mcgen.Generate(f, mcgen.Config{Size: 20 << 20, Seed: 1, Conns: 200}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	page, stderr, code := mcd(t, nil, "-r", pcap, "-T", "html")
	recs := pageRecords(t, page)
	if code != 0 || !strings.Contains(stderr, "too big for one page") || !strings.Contains(stderr, "-Y") || !strings.Contains(stderr, "-c") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(page, `"capped": "This page shows the first `) || len(recs) == 0 || len(page) > 34<<20 {
		t.Errorf("%d records, %d bytes: the page does not say it is cut, or is over its cap", len(recs), len(page))
	}
}

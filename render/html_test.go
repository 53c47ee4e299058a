package render

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// TestHTMLJSONEscapes: whatever a string holds, its JSON in the page has
// no <, > or & (so no "</script>" or "<!--"), no raw U+2028/9, and
// decodes back to the string (invalid UTF-8 as U+FFFD).
func TestHTMLJSONEscapes(t *testing.T) {
	for _, s := range []string{
		"</script><script>alert(1)</script>", "<!-- x", "<img src=x onerror=alert(1)>", "a&amp;b",
		"line\u2028sep\u2029", "\x00\x1b[2J\"\\", "§atest", "plain",
	} {
		b := appendHTMLJSON(nil, s)
		if bytes.ContainsAny(b, "<>&") || bytes.Contains(b, []byte("\u2028")) || bytes.Contains(b, []byte("\u2029")) {
			t.Errorf("%q: %s", s, b)
		}
		var back string
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Errorf("%q: decodes to %q, %v", s, back, err)
		}
	}
}

// TestHTMLPageIsInert: in the page of every sample, the data elements
// hold no "<" at all, and the only script that runs is the page's own,
// named by its hash in the CSP.
func TestHTMLPageIsInert(t *testing.T) {
	var out bytes.Buffer
	w := New("html", &out, Options{Title: "</title><script>alert(1)</script>"})
	w.Begin()
	for _, r := range corpus(t) {
		if err := w.Record(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.End(); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	if n := strings.Count(page, "<script"); n != 3 || strings.Count(page, "</script>") != 3 {
		t.Fatalf("%d script elements, want 3", n)
	}
	for _, id := range []string{"mc-records", "mc-meta"} {
		open := `<script type="application/json" id="` + id + `">`
		i := strings.Index(page, open)
		if i < 0 {
			t.Fatalf("no %s", id)
		}
		body := page[i+len(open):]
		body = body[:strings.Index(body, "</script>")]
		if strings.ContainsAny(body, "<>") {
			t.Errorf("%s holds < or >", id)
		}
		if !json.Valid([]byte(body)) {
			t.Errorf("%s is not JSON", id)
		}
	}
	if !strings.Contains(page, "script-src "+cspHash(htmlPageScript)+";") || !strings.Contains(page, "<script>"+htmlPageScript+"</script>") {
		t.Error("the page's script is not the one the CSP names")
	}
	// What is not data (wire text may name URLs: heartbeats do) names
	// no address either.
	for _, s := range []string{htmlFilterScript, htmlFollowScript, htmlScript, htmlStyles, htmlBody, htmlCSP} {
		if strings.Contains(s, "http:") || strings.Contains(s, "https:") || strings.Contains(s, "//") && strings.Contains(s, "url(") {
			t.Errorf("the page's own text names a network address")
		}
	}
}

// TestHTMLCap: past HTMLMaxRecords or HTMLMaxBytes the renderer stops
// the run, keeps the records before, and says so, with the hint.
func TestHTMLCap(t *testing.T) {
	recs := corpus(t)
	defer func(n, b int) { HTMLMaxRecords, HTMLMaxBytes = n, b }(HTMLMaxRecords, HTMLMaxBytes)
	for _, c := range []struct {
		name         string
		records, max int
		want         int
	}{
		{"records", 7, 1 << 30, 7},
		{"bytes", 1 << 20, 3000, -1},
		{"under", 1 << 20, 1 << 30, len(recs)},
	} {
		t.Run(c.name, func(t *testing.T) {
			HTMLMaxRecords, HTMLMaxBytes = c.records, c.max
			var out bytes.Buffer
			w := New("html", &out, Options{})
			w.Begin()
			var err error
			n := 0
			for _, r := range recs {
				if err = w.Record(r); err != nil {
					break
				}
				n++
			}
			w.End()
			warn := w.(*htmlRenderer).Warning()
			if c.want == len(recs) {
				if err != nil || warn != "" || strings.Contains(out.String(), `"capped"`) {
					t.Fatalf("under the cap: %v %q", err, warn)
				}
				return
			}
			if !errors.Is(err, record.ErrStop) || !strings.Contains(warn, "-Y") || !strings.Contains(warn, "-c") {
				t.Fatalf("at the cap: error %v, warning %q", err, warn)
			}
			if c.want >= 0 && n != c.want || n == 0 || n >= len(recs) {
				t.Errorf("%d records kept", n)
			}
			if !strings.Contains(out.String(), `"capped": "This page shows the first `) || !strings.Contains(out.String(), `"records": `+itoaTest(n)) {
				t.Error("the page does not say it is cut")
			}
		})
	}
}

func itoaTest(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestHTMLRedact: with --redact, no secret of the heartbeat sample is in
// the page: not in a value, not in a line, not in the bytes.
func TestHTMLRedact(t *testing.T) {
	var recs []*record.Record
	var secrets []string
	for _, r := range corpus(t) {
		for i := range r.PDU.Nodes {
			n := &r.PDU.Nodes[i]
			if n.Flags&dissect.FlagSensitive != 0 && n.Length >= 8 {
				recs = append(recs, r)
				secrets = append(secrets, string(r.PDU.Data[n.Offset:n.Offset+n.Length]))
			}
		}
	}
	if len(secrets) == 0 {
		t.Fatal("no secrets in the samples")
	}
	var out bytes.Buffer
	w := New("html", &out, Options{Redact: true})
	w.Begin()
	for _, r := range recs {
		w.Record(r)
	}
	w.End()
	page := out.String()
	i := strings.Index(page, `id="mc-records">`)
	var got []struct {
		X string `json:"x"`
	}
	body := page[i+len(`id="mc-records">`):]
	if err := json.Unmarshal([]byte(body[:strings.Index(body, "</script>")]), &got); err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	all.WriteString(page)
	for _, g := range got {
		b, _ := base64.StdEncoding.DecodeString(g.X)
		all.Write(b)
	}
	for _, s := range secrets {
		if strings.Contains(all.String(), s) {
			t.Errorf("secret %q is in the page", s)
		}
	}
}

package render

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/internal/browsertest"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/filter"
	"github.com/mcdissect/mcdissect/record"
)

// sharedFilter is a line of filter/testdata/shared.txt (its header says
// the format): a filter, and for one that must not compile the part its
// error is about.
type sharedFilter struct{ expr, bad string }

func readShared(t *testing.T) []sharedFilter {
	t.Helper()
	b, err := os.ReadFile("../filter/testdata/shared.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []sharedFilter
	for _, l := range strings.Split(string(b), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(l, "error\t"); ok {
			bad, expr, _ := strings.Cut(rest, "\t")
			out = append(out, sharedFilter{expr, bad})
			continue
		}
		out = append(out, sharedFilter{expr: l})
	}
	return out
}

// pageResult is what the filter box did with one filter.
type pageResult struct {
	Class string `json:"cls"`
	Err   string `json:"err"`
	Pos   int    `json:"pos"`
	End   int    `json:"end"`
	View  []int  `json:"view"`
}

// runFilters types each filter in the page's box, presses Enter and reads
// what the page shows: the records listed, or the error under the box.
const runFilters = `(function(list){var e=document.getElementById('filter'),x=document.getElementById('filtererr'),out=[];
list.forEach(function(f){e.value=f;e.dispatchEvent(new KeyboardEvent('keydown',{key:'Enter'}));
out.push({cls:e.className,err:x.hidden?'':x.querySelector('.msg').textContent,pos:+(e.getAttribute('data-error-pos')||-1),
end:+(e.getAttribute('data-error-end')||-1),view:x.hidden?window.mcdissect.view():null})});
e.value='';e.dispatchEvent(new KeyboardEvent('keydown',{key:'Enter'}));return out})(%s)`

// TestHTMLFilterAgrees: every filter of the shared list keeps the same
// records in the page's filter box as -Y on captures of every protocol,
// or is refused by both with the error under the same part; times
// without a zone are read in the same local zone (not UTC) in both.
func TestHTMLFilterAgrees(t *testing.T) {
	bin, err := browsertest.Chromium()
	if err != nil {
		t.Skip(err)
	}
	const zone = "Asia/Kolkata"
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Skipf("no zone %s on this machine: %v", zone, err)
	}
	local := time.Local
	time.Local = loc
	defer func() { time.Local = local }()

	list := readShared(t)
	exprs := make([]string, len(list))
	compiled := make([]*filter.Filter, len(list))
	caret := make([][2]int, len(list)) // -Y's error: where, in UTF-16 units
	for i, c := range list {
		exprs[i] = c.expr
		f, err := filter.Compile(c.expr)
		if (err != nil) != (c.bad != "") {
			t.Fatalf("%s: -Y gives %v; the list says bad part %q (filter's TestSharedList checks the list)", c.expr, err, c.bad)
		}
		compiled[i] = f
		if fe, ok := err.(*filter.Error); ok {
			caret[i] = [2]int{utf16Len(c.expr[:fe.Pos]), utf16Len(c.expr[:fe.End])}
		}
	}
	args := "["
	for i, e := range exprs {
		if i > 0 {
			args += ","
		}
		args += jsString(e)
	}
	args += "]"

	browser := browsertest.New(t, bin, 6*time.Minute)
	pages := t.TempDir()
	for _, sample := range []string{"query-full", "slp-status-gamedig", "classic-session", "handmade-classic-cpe",
		"handmade-classic-heartbeat", "slp-legacy", "login-offline", "handmade-slp-concurrent-drops"} {
		t.Run(sample, func(t *testing.T) {
			path, recs := pageOf(t, "../samples/"+sample+".pcap", pages)
			tb := open(t, browser, path)
			if _, err := chromedp.Call(tb.Ctx, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: zone}); err != nil {
				t.Fatal(err)
			}
			var got []pageResult
			tb.Eval(t, fmt.Sprintf(runFilters, args), &got)
			if len(got) != len(list) {
				t.Fatalf("%d results for %d filters", len(got), len(list))
			}
			kept := 0
			for i, c := range list {
				g := got[i]
				if c.bad != "" {
					if !strings.Contains(g.Class, "bad") || g.Err == "" {
						t.Errorf("%s: the page shows %q (class %q), want an error", c.expr, g.Err, g.Class)
					} else if g.Pos != caret[i][0] || g.End != caret[i][1] {
						t.Errorf("%s: the page's caret is under [%d,%d), -Y's under [%d,%d) (%q): %s", c.expr, g.Pos, g.End, caret[i][0], caret[i][1], c.bad, g.Err)
					}
					continue
				}
				if g.View == nil {
					t.Errorf("%s: the page refuses it: %s (at %d-%d)", c.expr, g.Err, g.Pos, g.End)
					continue
				}
				var want []int
				for k, r := range recs {
					if compiled[i].Match(r) {
						want = append(want, k)
					}
				}
				if !slices.Equal(g.View, want) && !(len(g.View) == 0 && len(want) == 0) {
					t.Errorf("%s: the page keeps %d records, -Y %d; only the page: %v; only -Y: %v",
						c.expr, len(g.View), len(want), only(g.View, want), only(want, g.View))
				}
				if len(want) > 0 && len(want) < len(recs) {
					kept++
				}
			}
			t.Logf("%d filters, %d of them keep some records and drop others", len(list), kept)
			tb.clean(t)
		})
	}
}

// utf16Len is the length of s in UTF-16 units, as the page counts.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// only is the first few of a not in b.
func only(a, b []int) []int {
	var out []int
	for _, v := range a {
		if !slices.Contains(b, v) && len(out) < 8 {
			out = append(out, v)
		}
	}
	return out
}

// TestHTMLFilterBox: what the page does around the filter: a bad filter
// is an error under the box, with the caret under the bad part, and
// leaves the list as it was; a filter that keeps nothing clears the tree,
// the bytes and the explanation; a long line (a status JSON with its
// favicon) is shown short, with a button that shows all of it.
func TestHTMLFilterBox(t *testing.T) {
	bin, err := browsertest.Chromium()
	if err != nil {
		t.Skip(err)
	}
	browser := browsertest.New(t, bin, 3*time.Minute)
	path, recs := pageOf(t, "../samples/slp-status-gamedig.pcap", t.TempDir())
	tb := open(t, browser, path)
	ri := -1
	for i, r := range recs {
		if r.PDU.Message == "Status Response" {
			ri = i
		}
	}
	if ri < 0 {
		t.Fatal("no Status Response")
	}
	tb.selectRecord(t, ri)
	type state struct {
		Class, Err, Tree, Hex, Explain string
		Shown                          int
		Count                          string
	}
	const read = `(function(){var e=document.getElementById('filter'),x=document.getElementById('filtererr');
return {Class:e.className,Err:x.hidden?'':x.textContent,Tree:document.getElementById('tree').textContent,
Hex:document.getElementById('hex').textContent,Explain:document.getElementById('explain').textContent,
Shown:window.mcdissect.view().length,Count:document.getElementById('count').textContent}})()`
	typeFilter := func(f string) state {
		var s state
		tb.Eval(t, `(function(f){var e=document.getElementById('filter');e.value=f;e.dispatchEvent(new KeyboardEvent('keydown',{key:'Enter'}));return 0})(`+jsString(f)+`)`, nil)
		tb.Eval(t, read, &s)
		return s
	}

	s := typeFilter("slp")
	slpN := s.Shown
	s = typeFilter(`frame.time >= "2026-13-22 10:19:40"`)
	_, goErr := filter.Compile(`frame.time >= "2026-13-22 10:19:40"`)
	wantErr := goErr.Error()
	if s.Class != "bad" || strings.Join(strings.Fields(s.Err), " ") != strings.Join(strings.Fields(wantErr), " ") {
		t.Errorf("a bad filter shows class %q and %q under the box; want class bad and -Y's error:\n%s", s.Class, s.Err, wantErr)
	}
	if s.Shown != slpN {
		t.Errorf("a bad filter changed the list: %d records, %d before", s.Shown, slpN)
	}
	tb.Screenshot(t, t.TempDir(), "filter-error")

	s = typeFilter("frame.number > 100000")
	if s.Shown != 0 || !strings.Contains(s.Tree, "No record matches the filter") || s.Hex != "" || strings.Contains(s.Explain, "Frame ") {
		t.Errorf("a filter that keeps nothing leaves tree %q, bytes %q, explanation %q (%d records shown)", s.Tree, s.Hex, s.Explain, s.Shown)
	}
	s = typeFilter("")
	if s.Shown != len(recs) || s.Err != "" {
		t.Errorf("an empty filter shows %d of %d records, error %q", s.Shown, len(recs), s.Err)
	}

	// The status JSON's line is shown short; its button shows it all.
	tb.selectRecord(t, ri)
	json := int(recs[ri].PDU.Find("slp.status.json"))
	if json < 0 {
		t.Fatal("no slp.status.json")
	}
	sel := fmt.Sprintf(`#tree .node[data-node="%d"] .txt`, json)
	var before, after int
	var button string
	tb.Eval(t, `document.querySelector('`+sel+`').textContent.length`, &before)
	tb.Eval(t, `document.querySelector('`+sel+` .more-text').textContent`, &button)
	tb.Do(t, chromedp.Click(chromedp.CSS(sel+" .more-text"), chromedp.NodeVisible))
	tb.Eval(t, `document.querySelector('`+sel+`').textContent.length`, &after)
	whole := len([]rune(string(appendTreeLine(recs[ri], json))))
	if before >= whole || !strings.Contains(button, "more characters") || after < whole {
		t.Errorf("the status JSON's line: %d characters shown, then %d after its button %q; the whole line has %d", before, after, button, whole)
	}
	tb.clean(t)
}

// appendTreeLine is node i's line as the page shows it, without its range.
func appendTreeLine(r *record.Record, i int) []byte {
	n := &r.PDU.Nodes[i]
	return dissect.AppendValue(appendNodeHead(nil, n), n)
}

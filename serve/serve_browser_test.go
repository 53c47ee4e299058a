package serve

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcdissect/mcdissect/internal/browsertest"
	"github.com/mcdissect/mcdissect/record"
	"github.com/mcdissect/mcdissect/render"
)

// TestLivePageInBrowser: the served page in Chromium, records given to
// the server as a capture would. Rows are appended as they come, with the
// static page's DOM contract; a selection survives what comes after; the
// filter box applies to records that come after it was typed; freeze and
// follow; text from the wire stays text; two viewers see the same; the
// only requests are to the page's own origin, and nothing breaks the CSP.
func TestLivePageInBrowser(t *testing.T) {
	bin, err := browsertest.Chromium()
	if err != nil {
		t.Skip(err)
	}
	art := os.Getenv("MCDISSECT_ARTIFACTS")
	if art == "" {
		art = t.TempDir()
	} else if err := os.MkdirAll(art, 0o755); err != nil {
		t.Fatal(err)
	}
	browser := browsertest.New(t, bin, 4*time.Minute)
	s := newServer(t, Config{Render: render.Options{Title: "live capture on lo"}})
	sameOrigin := func(u string) bool { return strings.HasPrefix(u, s.URL()) }
	query, slp := sampleRecords(t, "query-full"), sampleRecords(t, "slp-status-gamedig")
	hostile := sampleRecords(t, "handmade-hostile-html")

	tb := browsertest.Open(t, browser, s.URL(), `html[data-live="1"]`)
	viewer2 := browsertest.Open(t, browser, s.URL(), `html[data-live="1"]`)
	rows := func(tb *browsertest.Tab) []string {
		var out []string
		tb.Eval(t, `Array.from(document.querySelectorAll('#rows .row')).map(function(r){return r.dataset.pdu+' '+r.dataset.frame+' '+r.querySelector('.c-info').textContent})`, &out)
		return out
	}
	waitRows := func(tb *browsertest.Tab, n int) {
		t.Helper()
		// The count says "N records", or "K of N records" under a filter.
		if _, ok := tb.WaitFor(t, fmt.Sprintf(`+(/(\d+) records$/.exec(document.getElementById('count').textContent)||[0,0])[1] >= %d`, n), 30*time.Second); !ok {
			var count string
			tb.Eval(t, `document.getElementById('count').textContent`, &count)
			t.Fatalf("the page shows %q, want %d records", count, n)
		}
	}
	var hint string
	tb.Eval(t, `document.getElementById('tree').textContent`, &hint)
	if !strings.Contains(hint, "Waiting for records") {
		t.Errorf("before any record the tree says %q", hint)
	}

	// Records come: rows appear, the summary's text, in order.
	sent := []*record.Record{}
	give := func(rs []*record.Record) {
		for _, r := range rs {
			s.Record(r)
			sent = append(sent, r)
		}
	}
	give(query)
	waitRows(tb, len(sent))
	for i, row := range rows(tb) {
		var idx int
		var frame uint64
		fmt.Sscan(row, &idx, &frame)
		if sent[idx].Frame != frame || !strings.Contains(row, sent[idx].PDU.Info[:min(10, len(sent[idx].PDU.Info))]) {
			t.Errorf("row %d: %q, record %d is frame %d %q", i, row, idx, sent[idx].Frame, sent[idx].PDU.Info)
		}
	}

	// A click selects a record, freezes the list, and shows its fields and bytes.
	sel := 3
	tb.Do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#rows .row[data-pdu="%d"]`, sel)), chromedp.NodeVisible))
	var state struct {
		Sel    int    `json:"sel"`
		Nodes  int    `json:"nodes"`
		Bytes  int    `json:"bytes"`
		Follow string `json:"follow"`
		Hdr    string `json:"hdr"`
		Status string `json:"status"`
	}
	read := `({sel: +(document.querySelector('#rows .row.sel')||{dataset:{pdu:-1}}).dataset.pdu, nodes: document.querySelectorAll('#tree .node[data-field][data-offset][data-length]').length,
		bytes: document.querySelectorAll('#hex [data-byte]').length, follow: document.documentElement.dataset.follow,
		hdr: (document.querySelector('#tree .hdr')||{}).textContent||'', status: document.getElementById('live').textContent})`
	tb.Eval(t, read, &state)
	r := sent[sel]
	if state.Sel != sel || state.Nodes != len(r.PDU.Nodes) || state.Bytes != len(r.PDU.Data) || state.Follow != "0" {
		t.Fatalf("after a click on record %d: %+v; want %d nodes, %d bytes, frozen", sel, state, len(r.PDU.Nodes), len(r.PDU.Data))
	}
	hdr := state.Hdr
	tb.Do(t, chromedp.Click(chromedp.CSS(`#tree .node[data-node="1"] .txt`), chromedp.NodeVisible))
	var lit int
	tb.Eval(t, `document.querySelectorAll('#hex .hl').length`, &lit)
	if n := r.PDU.Nodes[1]; lit != 2*int(n.Length) {
		t.Errorf("a click on %s lit %d bytes and characters, want %d", n.Name(), lit, 2*n.Length)
	}

	// More records: appended, the selection and the tree stay, the status
	// says how many came below.
	give(slp)
	waitRows(tb, len(sent))
	tb.Eval(t, read, &state)
	if state.Sel != sel || state.Hdr != hdr || !strings.Contains(state.Status, "new below") {
		t.Errorf("after more records: %+v (selected %d before, header %q)", state, sel, hdr)
	}

	// The filter applies to records that come after it.
	tb.Do(t, chromedp.SendKeys(chromedp.CSS(`#filter`), "slp.status.favicon\r"))
	want := func() int {
		n := 0
		for _, r := range sent {
			if r.PDU.Find("slp.status.favicon") >= 0 {
				n++
			}
		}
		return n
	}
	var view []int
	tb.Eval(t, `window.mcdissect.view()`, &view)
	if len(view) != want() {
		t.Errorf("the filter keeps %d records, want %d", len(view), want())
	}
	give(slp)
	give(query)
	waitRows(tb, len(sent))
	tb.Eval(t, `window.mcdissect.view()`, &view)
	if len(view) != want() || want() < 2 {
		t.Errorf("after more records the filter keeps %d, want %d", len(view), want())
	}
	for _, i := range view {
		if sent[i].PDU.Find("slp.status.favicon") < 0 {
			t.Errorf("record %d (%s) shown under the filter", i, sent[i].PDU.Message)
		}
	}
	tb.Eval(t, `document.getElementById('filter').value = ''`, nil)
	tb.Do(t, chromedp.SendKeys(chromedp.CSS(`#filter`), "\r"))

	// Follow: the list scrolls to the newest as they come.
	tb.Do(t, chromedp.Click(chromedp.CSS(`#follow`), chromedp.NodeVisible))
	give(query)
	waitRows(tb, len(sent))
	var bottom bool
	if _, ok := tb.WaitFor(t, `(function(){var l=document.getElementById('list');return l.scrollTop+l.clientHeight>=l.scrollHeight-2})()`, 10*time.Second); !ok {
		tb.Eval(t, `document.documentElement.dataset.follow`, &bottom)
		t.Error("following, the list is not at its newest row")
	}
	tb.Screenshot(t, art, "live-following")

	// Text from the wire stays text.
	give(hostile)
	waitRows(tb, len(sent))
	var pwned struct {
		Pwned   bool `json:"pwned"`
		Scripts int  `json:"scripts"`
	}
	tb.Eval(t, `({pwned: window.__pwned !== undefined, scripts: document.scripts.length})`, &pwned)
	if pwned.Pwned || pwned.Scripts != 3 {
		t.Errorf("hostile text became markup: %+v", pwned)
	}

	// The second viewer saw the same rows.
	waitRows(viewer2, len(sent))

	// The end: the status says so; nothing was asked of another origin.
	s.End("the file ended")
	if _, ok := tb.WaitFor(t, `document.getElementById('live').textContent.indexOf('capture ended') === 0`, 10*time.Second); !ok {
		t.Error("the page does not say that the capture ended")
	}
	tb.Screenshot(t, art, "live-ended")
	tb.Clean(t, sameOrigin)
	viewer2.Clean(t, sameOrigin)
	reqs := tb.Requests()
	if len(reqs) != 2 || reqs[0] != s.URL() || reqs[1] != s.URL()+render.LiveEvents {
		t.Errorf("requests %q: want the page and its events", reqs)
	}
}

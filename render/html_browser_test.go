package render

// The -T html page in a real browser: Debian's chromium, driven over the
// DevTools protocol by chromedp. One browser serves every subtest, each in
// a tab of its own; every tab records the requests it makes, its script
// errors and console errors, and the page's CSP violations, and each
// subtest ends by checking there were none but the page itself.
//
// Screenshots go to $MCDISSECT_ARTIFACTS when set, else to a temporary
// directory (the path is logged). Without chromium the test is skipped.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/filter"
	"github.com/mcdissect/mcdissect/internal/capgen"
	"github.com/mcdissect/mcdissect/record"
)

// chromium finds the browser: $MCDISSECT_CHROMIUM, or chromium on PATH.
func chromium() (string, error) {
	if p := os.Getenv("MCDISSECT_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no chromium on PATH (apt-get install chromium, or set MCDISSECT_CHROMIUM)")
}

// newBrowser starts chromium for the test, stopped at its end or after
// limit.
func newBrowser(t *testing.T, bin string, limit time.Duration) context.Context {
	t.Helper()
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-default-browser-check", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 800))
	t.Cleanup(cancel)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(cancelBrowser)
	ctx, cancelT := context.WithTimeout(browser, limit)
	t.Cleanup(cancelT)
	if err := chromedp.Do(ctx); err != nil { // start the browser once
		t.Fatal(err)
	}
	return ctx
}

// pageOf decodes a capture and writes its page to dir; it returns the
// page's path and the records (clones), as the command would.
func pageOf(t *testing.T, pcap, dir string) (string, []*record.Record) {
	t.Helper()
	f, err := os.Open(pcap)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	src, err := analyze.OpenFile(f)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w := New("html", &out, Options{Title: filepath.Base(pcap)})
	w.Begin()
	var recs []*record.Record
	emit := func(r *record.Record) error {
		recs = append(recs, r.Clone())
		return w.Record(r)
	}
	if _, err := analyze.Run(src, analyze.New(analyze.Options{Export: true}, analyze.SinkFunc(emit))); err != nil {
		t.Fatal(err)
	}
	if err := w.End(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, strings.TrimSuffix(filepath.Base(pcap), filepath.Ext(pcap))+".html")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, recs
}

// tab is one page in the browser with what it did.
type tab struct {
	ctx  context.Context
	url  string
	mu   sync.Mutex
	reqs []string // URLs of requests other than the page and data: URIs
	errs []string // exceptions, console errors, browser log errors
}

func (tb *tab) note(ev any) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if u := ev.Request.URL; u != tb.url && !strings.HasPrefix(u, "data:") {
			tb.reqs = append(tb.reqs, u)
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		tb.errs = append(tb.errs, fmt.Sprintf("exception at %d:%d: %s", d.LineNumber, d.ColumnNumber, msg))
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
			tb.errs = append(tb.errs, "console."+string(ev.Type))
		}
	case *cdplog.EventEntryAdded:
		if ev.Entry.Level == cdplog.EntryLevelError || ev.Entry.Level == cdplog.EntryLevelWarning {
			tb.errs = append(tb.errs, "log: "+ev.Entry.Text)
		}
	}
}

// violations collects the page's CSP violations, from before its first
// script runs.
const violations = `window.__violations = [];
document.addEventListener('securitypolicyviolation', function (e) { window.__violations.push(e.violatedDirective + ' ' + e.blockedURI); });`

// open loads the page at path in a new tab of the browser.
func open(t *testing.T, browser context.Context, path string) *tab {
	t.Helper()
	tb := &tab{url: "file://" + path}
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithListener(tb.note))
	t.Cleanup(cancel)
	tb.ctx = ctx
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: violations}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatal(err)
	}
	tb.navigate(t, path)
	return tb
}

// navigate loads the page at path in the tab.
func (tb *tab) navigate(t *testing.T, path string) {
	t.Helper()
	tb.mu.Lock()
	tb.url = "file://" + path
	tb.mu.Unlock()
	if err := chromedp.Do(tb.ctx, chromedp.Navigate("file://"+path), chromedp.WaitReady(chromedp.CSS(`html[data-ready="1"]`))); err != nil {
		t.Fatal(err)
	}
}

func (tb *tab) eval(t *testing.T, js string, out any) {
	t.Helper()
	raw, err := chromedp.Run(tb.ctx, chromedp.Evaluate[[]byte](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	if out != nil {
		if err := jsonUnmarshal(raw, out); err != nil {
			t.Fatalf("%s: %v (%s)", js, err, raw)
		}
	}
}

func (tb *tab) do(t *testing.T, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(tb.ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// clean checks that the page made no request, threw nothing, logged no
// error and violated no part of its CSP.
func (tb *tab) clean(t *testing.T) {
	t.Helper()
	var v []string
	tb.eval(t, `window.__violations`, &v)
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if len(tb.reqs) > 0 {
		t.Errorf("the page made requests: %q", tb.reqs)
	}
	if len(tb.errs) > 0 {
		t.Errorf("script or console errors: %q", tb.errs)
	}
	if len(v) > 0 {
		t.Errorf("CSP violations: %q", v)
	}
}

func (tb *tab) screenshot(t *testing.T, dir, name string) string {
	t.Helper()
	buf, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name+".png")
	if err := os.WriteFile(p, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
	return p
}

// selectRecord scrolls the packet list to record i and clicks its row.
func (tb *tab) selectRecord(t *testing.T, i int) {
	t.Helper()
	tb.eval(t, fmt.Sprintf(`(function(){var l=document.getElementById('list');l.scrollTop=%d*20;l.dispatchEvent(new Event('scroll'));return 0})()`, i), nil)
	tb.do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#rows .row[data-pdu="%d"]`, i)), chromedp.NodeVisible))
	var got int
	tb.eval(t, `+document.querySelector('#rows .row.sel').dataset.pdu`, &got)
	if got != i {
		t.Fatalf("clicked row %d, row %d selected", i, got)
	}
}

// selection is what the page shows as selected.
type selection struct {
	Field   string `json:"field"`
	Node    int    `json:"node"`
	Offset  int    `json:"offset"`
	Length  int    `json:"length"`
	Count   int    `json:"count"` // elements with class selected
	Lit     []int  `json:"lit"`   // data-byte of the bytes with class hl
	Explain string `json:"explain"`
}

const readSelection = `(function(){var s=document.querySelectorAll('#tree .node.selected'),d=s[0]||{dataset:{}};
return {field:d.dataset.field||'',node:+(d.dataset.node||-1),offset:+(d.dataset.offset||-1),length:+(d.dataset.length||-1),count:s.length,
lit:Array.from(document.querySelectorAll('#hex [data-byte].hl')).map(function(e){return +e.dataset.byte}),
explain:document.getElementById('explain').textContent}})()`

// deepest is the node the page must select for a click on byte b: the
// deepest non-generated node covering it, the first of equally deep ones.
func deepest(p *dissect.PDU, b int) int {
	best, bd := -1, -1
	for i := range p.Nodes {
		n := &p.Nodes[i]
		if n.Flags&dissect.FlagGenerated != 0 || b < int(n.Offset) || b >= int(n.Offset+n.Length) {
			continue
		}
		if d := p.Depth(int32(i)); d > bd {
			best, bd = i, d
		}
	}
	return best
}

// checkSelected checks that node i of r is the selection: its row in the
// tree, exactly its bytes lit, its explanation shown.
func checkSelected(t *testing.T, tb *tab, r *record.Record, i int) {
	t.Helper()
	var s selection
	tb.eval(t, readSelection, &s)
	n := &r.PDU.Nodes[i]
	if s.Count != 1 || s.Node != i || s.Field != n.Name() {
		t.Fatalf("selected %d elements, node %d %q; want node %d %q", s.Count, s.Node, s.Field, i, n.Name())
	}
	length := int(n.Length)
	if n.Flags&dissect.FlagGenerated != 0 {
		length = 0
	}
	if s.Offset != int(n.Offset) || s.Length != length {
		t.Errorf("%s: data-offset %d data-length %d, want %d %d", s.Field, s.Offset, s.Length, n.Offset, length)
	}
	want := []int{}
	for b := int(n.Offset); b < int(n.Offset)+length && b < 16384; b++ {
		want = append(want, b)
	}
	if fmt.Sprint(s.Lit) != fmt.Sprint(want) {
		t.Errorf("%s: bytes lit %v, want %v", s.Field, s.Lit, want)
	}
	if !strings.Contains(s.Explain, n.Name()) || !strings.Contains(s.Explain, n.Field.Label) {
		t.Errorf("%s: the explanation does not name the field: %q", s.Field, s.Explain)
	}
	if d := fieldExplanation(n.Field); d != "" && !strings.Contains(s.Explain, d) {
		t.Errorf("%s: the explanation does not show the field's description %q: %q", s.Field, d, s.Explain)
	}
}

// browserAndArtifacts is Chromium's path (the test is skipped, saying why,
// without it) and where the test leaves its screenshots:
// $MCDISSECT_ARTIFACTS, or a temporary directory.
func browserAndArtifacts(t *testing.T) (bin, art string) {
	t.Helper()
	bin, err := chromium()
	if err != nil {
		t.Skip(err)
	}
	art = os.Getenv("MCDISSECT_ARTIFACTS")
	if art == "" {
		return bin, t.TempDir()
	}
	if err := os.MkdirAll(art, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, art
}

func TestHTMLInBrowser(t *testing.T) {
	bin, art := browserAndArtifacts(t)
	pages := t.TempDir()
	browser := newBrowser(t, bin, 8*time.Minute)

	// For a real capture of each protocol: a record, a field of it to
	// click, a filter to compare with the display filter's count.
	for _, c := range []struct {
		sample  string
		message string // the first record with this message
		field   string // the first node with this name
		filter  string
		image   string // a picture the record shows: CSS selector
		colours bool   // the record shows formatted text
		parts   string // the tree's header says where the bytes came from
	}{
		{"query-full", "Full Stat Response", "query.kv.hostname", "query.type == 9", "", true, ""},
		{"slp-status-gamedig", "Status Response", "slp.status.favicon", "slp.status.players.online == 0", "figure img.fav", true, ""},
		{"slp-status-msu", "Pong Response", "slp.ping.payload", "slp", "", false, ""},
		{"slp-status-mcutil", "Handshake", "slp.length", "slp.handshake.protocol_version == -1", "", false, "[bytes 0–0 from frame 4; bytes 1–19 from frame 6]"},
		{"classic-session", "Level Finalize", "classic.level.size_x", `classic.message contains "alice"`, "figure img.map", false, ""},
		{"classic-session", "Message", "classic.color_run", `classic && mc.direction == "s2c"`, "", true, ""},
	} {
		t.Run(c.sample+"/"+strings.ReplaceAll(c.message, " ", "_"), func(t *testing.T) {
			path, recs := pageOf(t, "../samples/"+c.sample+".pcap", pages)
			tb := open(t, browser, path)

			// The rows: the summary's text, in its order.
			var rows [][]string
			tb.eval(t, `Array.from(document.querySelectorAll('#rows .row')).map(function(r){return [r.dataset.pdu, r.dataset.frame, Array.from(r.children).map(function(c){return c.textContent}).join(' ')]})`, &rows)
			if len(rows) == 0 {
				t.Fatal("no rows")
			}
			for _, row := range rows {
				var i int
				var frame uint64
				fmt.Sscan(row[0], &i)
				fmt.Sscan(row[1], &frame)
				want := strings.Join(strings.Fields(string(AppendSummary(nil, recs[i]))), " ")
				if got := strings.Join(strings.Fields(row[2]), " "); got != want || frame != recs[i].Frame {
					t.Errorf("row %d (frame %d): %q, want %q (frame %d)", i, frame, got, want, recs[i].Frame)
				}
			}

			ri := -1
			for i, r := range recs {
				if r.PDU.Message == c.message && r.PDU.Find(c.field) >= 0 {
					ri = i
					break
				}
			}
			if ri < 0 {
				t.Fatalf("no %s with %s in %s", c.message, c.field, c.sample)
			}
			r := recs[ri]
			tb.selectRecord(t, ri)
			var nodes, withAttrs, bytesShown int
			tb.eval(t, `document.querySelectorAll('#tree .node').length`, &nodes)
			tb.eval(t, `document.querySelectorAll('#tree .node[data-field][data-offset][data-length]').length`, &withAttrs)
			tb.eval(t, `document.querySelectorAll('#hex [data-byte]').length`, &bytesShown)
			if nodes != len(r.PDU.Nodes) || withAttrs != nodes || bytesShown != min(len(r.PDU.Data), 16384) {
				t.Errorf("tree %d nodes (%d with the contract's attributes), hex %d bytes; want %d nodes, %d bytes", nodes, withAttrs, bytesShown, len(r.PDU.Nodes), len(r.PDU.Data))
			}

			// Click the field: exactly its bytes light up.
			fi := int(r.PDU.Find(c.field))
			tb.do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#tree .node[data-node="%d"] .txt`, fi)), chromedp.NodeVisible))
			checkSelected(t, tb, r, fi)

			// Click its last byte: the deepest field covering it is selected.
			n := &r.PDU.Nodes[fi]
			b := int(n.Offset + n.Length - 1)
			tb.do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#hex [data-byte="%d"]`, b)), chromedp.NodeVisible))
			checkSelected(t, tb, r, deepest(&r.PDU, b))
			// And a byte of another field: the packet's first.
			tb.do(t, chromedp.Click(chromedp.CSS(`#hex [data-byte="0"]`), chromedp.NodeVisible))
			checkSelected(t, tb, r, deepest(&r.PDU, 0))

			if c.image != "" {
				var w int
				tb.eval(t, `(function(){var i=document.querySelector('#tree `+c.image+`');return i&&i.complete?i.naturalWidth:0})()`, &w)
				if w == 0 {
					t.Errorf("no picture %s", c.image)
				}
			}
			if c.parts != "" {
				var hdr, title string
				tb.eval(t, `document.querySelector('#tree .hdr').textContent`, &hdr)
				tb.eval(t, `document.querySelector('#hex [data-byte="0"]').title`, &title)
				if !strings.Contains(hdr, c.parts) || !strings.Contains(hdr, "reassembled") || !strings.HasSuffix(title, "from frame 4") {
					t.Errorf("where the bytes came from: header %q, first byte %q", hdr, title)
				}
			}
			if c.colours {
				var coloured int
				tb.eval(t, `Array.from(document.querySelectorAll('#tree .mc span')).filter(function(s){return s.style.color}).length`, &coloured)
				if coloured == 0 {
					t.Error("no coloured text in the tree")
				}
			}
			tb.screenshot(t, art, c.sample+"-"+strings.ReplaceAll(c.message, " ", "_"))

			// A link to another frame goes there on a double-click.
			for i := range r.PDU.Nodes {
				if n := &r.PDU.Nodes[i]; n.Field.Type == dissect.FTFrameNum {
					tb.do(t, chromedp.DoubleClick(chromedp.CSS(fmt.Sprintf(`#tree .node[data-node="%d"] .txt`, i)), chromedp.NodeVisible))
					var frame uint64
					tb.eval(t, `+document.querySelector('#rows .row.sel').dataset.frame`, &frame)
					if frame != n.Value.N {
						t.Errorf("%s: double-click went to frame %d, want %d", n.Name(), frame, n.Value.N)
					}
					tb.selectRecord(t, ri)
					break
				}
			}

			// Up and down move in the packet list.
			tb.do(t, chromedp.Focus(chromedp.CSS("#list")), chromedp.KeyEvent(kb.ArrowDown))
			var sel int
			down := min(ri+1, len(recs)-1)
			tb.eval(t, `+document.querySelector('#rows .row.sel').dataset.pdu`, &sel)
			if sel != down {
				t.Errorf("after ArrowDown row %d is selected, want %d", sel, down)
			}
			tb.do(t, chromedp.KeyEvent(kb.ArrowUp))
			tb.eval(t, `+document.querySelector('#rows .row.sel').dataset.pdu`, &sel)
			if up := max(down-1, 0); sel != up {
				t.Errorf("after ArrowUp row %d is selected, want %d", sel, up)
			}

			// The filter box agrees with the display filter on this capture.
			flt, err := filter.Compile(c.filter)
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			for _, r := range recs {
				if flt.Match(r) {
					want++
				}
			}
			var got string
			tb.eval(t, `(function(f){var e=document.getElementById('filter');e.value=f;e.dispatchEvent(new KeyboardEvent('keydown',{key:'Enter'}));return e.className+' '+document.getElementById('count').textContent})(`+jsString(c.filter)+`)`, &got)
			if exp := fmt.Sprintf("ok %d of %d records", want, len(recs)); got != exp && !(want == len(recs) && got == fmt.Sprintf("ok %d records", want)) {
				t.Errorf("filter %q: %q, want %q", c.filter, got, exp)
			}
			// /text is searched in the list.
			want = 0
			for _, r := range recs {
				if strings.Contains(strings.ToLower(string(AppendSummary(nil, r))), strings.ToLower(c.message)) {
					want++
				}
			}
			tb.eval(t, `(function(f){var e=document.getElementById('filter');e.value=f;e.dispatchEvent(new KeyboardEvent('keydown',{key:'Enter'}));return e.className+' '+document.getElementById('count').textContent})(`+jsString("/"+c.message)+`)`, &got)
			if exp := fmt.Sprintf("text %d of %d records", want, len(recs)); got != exp {
				t.Errorf("text %q: %q, want %q", c.message, got, exp)
			}
			// Text that is no filter is an error, under the box, and
			// filters nothing.
			tb.eval(t, `(function(f){var e=document.getElementById('filter');e.value=f;e.dispatchEvent(new KeyboardEvent('keydown',{key:'Enter'}));var x=document.getElementById('filtererr');return e.className+' '+(x.hidden?'':x.textContent)})(`+jsString(c.message)+`)`, &got)
			if _, err := filter.Compile(c.message); err == nil || !strings.HasPrefix(got, "bad ") || !strings.Contains(got, strings.SplitN(err.Error(), "\n", 2)[0]) {
				t.Errorf("text %q without /: %q, want the error %v", c.message, got, err)
			}
			tb.clean(t)
		})
	}

	// The harness itself: a page that makes a request and throws is seen
	// doing both, so that a clean page above means something.
	t.Run("harness", func(t *testing.T) {
		path := filepath.Join(pages, "noisy.html")
		noisy := `<!DOCTYPE html><html data-ready="1"><body><img src="http://127.0.0.1:9/x.png"><script>throw new Error("boom")</script></body></html>`
		if err := os.WriteFile(path, []byte(noisy), 0o644); err != nil {
			t.Fatal(err)
		}
		tb := open(t, browser, path)
		tb.mu.Lock()
		defer tb.mu.Unlock()
		if len(tb.reqs) == 0 || len(tb.errs) == 0 {
			t.Errorf("a noisy page: requests %q, errors %q", tb.reqs, tb.errs)
		}
	})

	// The README's picture: MCDISSECT_LESSON_PNG=$PWD/doc/lesson.png.
	t.Run("readme", func(t *testing.T) {
		out := os.Getenv("MCDISSECT_LESSON_PNG")
		if out == "" {
			t.Skip("MCDISSECT_LESSON_PNG names no file")
		}
		path, recs := pageOf(t, "../samples/slp-status-msu.pcap", pages)
		tb := open(t, browser, path)
		for i, r := range recs {
			if r.PDU.Message == "Status Response" {
				tb.selectRecord(t, i)
				di := r.PDU.Find("slp.status.description")
				tb.do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#tree .node[data-node="%d"] .txt`, di)), chromedp.NodeVisible))
				checkSelected(t, tb, r, int(di))
				break
			}
		}
		p := tb.screenshot(t, filepath.Dir(out), strings.TrimSuffix(filepath.Base(out), ".png"))
		if err := paletted(p); err != nil {
			t.Fatal(err)
		}
		t.Logf("README screenshot: %s", p)
		tb.clean(t)
	})

	t.Run("hostile", func(t *testing.T) {
		path, recs := pageOf(t, "../samples/handmade-hostile-html.pcap", pages)
		raw, _ := os.ReadFile(path)
		if k := bytes.Count(raw, []byte("</script>")); k != 3 {
			t.Errorf("the page holds %d </script>, want 3 (its own)", k)
		}
		tb := open(t, browser, path)
		var text strings.Builder
		for i := range recs {
			tb.selectRecord(t, i)
			var s string
			tb.eval(t, `document.getElementById('tree').textContent`, &s)
			text.WriteString(s)
		}
		for _, lit := range []string{`</script><script>window.__pwned=1</script>`, `<img src=x onerror=\"window.__pwned=2\">`, `<!-- <script>window.__pwned=3</script>`, `<script>window.__pwned=5</script>`} {
			if !strings.Contains(text.String(), lit) {
				t.Errorf("the tree does not show %q as text", lit)
			}
		}
		var state struct {
			Pwned   bool `json:"pwned"`
			Scripts int  `json:"scripts"`
			Imgs    int  `json:"imgs"`
			Fav     int  `json:"fav"`
		}
		tb.eval(t, `({pwned: window.__pwned !== undefined, scripts: document.scripts.length,
			imgs: Array.from(document.images).filter(function(i){return i.src.indexOf('data:image/png;base64,')!==0}).length,
			fav: document.querySelectorAll('img.fav').length})`, &state)
		if state.Pwned || state.Scripts != 3 || state.Imgs != 0 || state.Fav != 0 {
			t.Errorf("hostile text became markup: %+v", state)
		}
		tb.screenshot(t, art, "hostile")
		tb.clean(t)
	})

	// Every sample's page shows its first 20 records without a script
	// error: the keyboard walks the list, and in each record a byte in the middle is
	// clicked (by script) and must select the deepest field over it.
	t.Run("every-sample", func(t *testing.T) {
		if testing.Short() {
			t.Skip("-short: every sample")
		}
		files, _ := filepath.Glob("../samples/*.pcap")
		var tb *tab
		for _, f := range files {
			path, recs := pageOf(t, f, pages)
			if tb == nil {
				tb = open(t, browser, path)
			} else {
				tb.navigate(t, path)
			}
			recs = recs[:min(len(recs), 20)] // the first ones: enough kinds, in seconds
			var bad []int
			tb.eval(t, `(function(n){var bad=[];for(var i=0;i<n;i++){
				if(i>0)document.dispatchEvent(new KeyboardEvent('keydown',{key:'ArrowDown'}));
				var bs=document.querySelectorAll('#hex [data-byte]');if(!bs.length)continue;
				var b=bs[bs.length>>1];b.click();
				var s=document.querySelector('#tree .node.selected');
				bad.push(s?+s.dataset.node:-1)}return bad})(`+fmt.Sprint(len(recs))+`)`, &bad)
			k := 0
			for i, r := range recs {
				if len(r.PDU.Data) == 0 {
					continue
				}
				if k >= len(bad) {
					t.Fatalf("%s: %d records walked, want %d", f, k, len(recs))
				}
				if want := deepest(&r.PDU, min(len(r.PDU.Data), 16384)>>1); bad[k] != want {
					t.Errorf("%s record %d: byte in the middle selects node %d, want %d", filepath.Base(f), i, bad[k], want)
				}
				k++
			}
			tb.clean(t)
		}
	})

	t.Run("10000-records", func(t *testing.T) {
		if testing.Short() {
			t.Skip("-short: 10,000 records take seconds to write and load")
		}
		pcap := filepath.Join(t.TempDir(), "many.pcap")
		manyQuery(t, pcap, 5000)
		path, recs := pageOf(t, pcap, pages)
		if len(recs) != 10000 {
			t.Fatalf("%d records, want 10000", len(recs))
		}
		st, _ := os.Stat(path)
		start := time.Now()
		tb := open(t, browser, path)
		var ms string
		tb.eval(t, `document.documentElement.dataset.readyMs +  ' (the page\'s script: ' + document.documentElement.dataset.scriptMs + ' ms)'`, &ms)
		t.Logf("10,000 records, %d bytes of page: ready %s ms after navigation start by the page's clock, %v by the test's", st.Size(), ms, time.Since(start).Round(time.Millisecond))
		var inDOM int
		tb.eval(t, `document.querySelectorAll('#rows .row').length`, &inDOM)
		if inDOM == 0 || inDOM > 200 {
			t.Errorf("%d rows in the DOM: the list must render only what is in sight", inDOM)
		}
		tb.do(t, chromedp.Focus(chromedp.CSS("#list")), chromedp.KeyEvent(kb.End))
		var last int
		tb.eval(t, `+document.querySelector('#rows .row.sel').dataset.pdu`, &last)
		if last != 9999 {
			t.Errorf("End selects row %d, want 9999", last)
		}
		tb.clean(t)
	})

	t.Run("capped", func(t *testing.T) {
		defer func(n int) { HTMLMaxRecords = n }(HTMLMaxRecords)
		HTMLMaxRecords = 4
		path, _ := pageOf(t, "../samples/query-full.pcap", pages)
		tb := open(t, browser, path)
		var banner string
		var rows int
		tb.eval(t, `document.getElementById('banner').hidden ? '' : document.getElementById('banner').textContent`, &banner)
		tb.eval(t, `document.querySelectorAll('#rows .row').length`, &rows)
		if !strings.Contains(banner, "first 4 records") || !strings.Contains(banner, "-Y") || rows != 4 {
			t.Errorf("capped page: banner %q, %d rows", banner, rows)
		}
		tb.clean(t)
	})
}

// manyQuery writes a capture of n Query handshakes (2n records), each
// from its own client port.
func manyQuery(t *testing.T, path string, n int) {
	w, err := capgen.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := netip.MustParseAddrPort("192.0.2.1:25565")
	t0 := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	for i := range n {
		cl := netip.AddrPortFrom(netip.MustParseAddr("198.51.100.2"), uint16(10000+i))
		at := t0.Add(time.Duration(i) * time.Millisecond)
		sess := uint32(i) & 0x0F0F0F0F
		w.UDP(at, cl, srv, []byte{0xFE, 0xFD, 9, byte(sess >> 24), byte(sess >> 16), byte(sess >> 8), byte(sess)})
		w.UDP(at.Add(100*time.Microsecond), srv, cl, append([]byte{9, byte(sess >> 24), byte(sess >> 16), byte(sess >> 8), byte(sess)}, fmt.Sprintf("%d\x00", 1000+i)...))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// paletted rewrites the PNG at path with its 256 most frequent colours
// (a page is mostly flat colours: the README's picture shrinks to about
// 40 %), each other pixel taking the nearest of them.
func paletted(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		return err
	}
	b := img.Bounds()
	count := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			count[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	cs := make([]color.RGBA, 0, len(count))
	for c := range count {
		cs = append(cs, c)
	}
	sort.Slice(cs, func(i, j int) bool {
		if count[cs[i]] != count[cs[j]] {
			return count[cs[i]] > count[cs[j]]
		}
		return fmt.Sprint(cs[i]) < fmt.Sprint(cs[j])
	})
	var pal color.Palette
	for _, c := range cs[:min(len(cs), 256)] {
		pal = append(pal, c)
	}
	out := image.NewPaletted(b, pal)
	draw.Draw(out, b, img, b.Min, draw.Src)
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, out); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

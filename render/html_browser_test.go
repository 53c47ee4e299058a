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
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/internal/browsertest"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/filter"
	"github.com/mcdissect/mcdissect/internal/capgen"
	"github.com/mcdissect/mcdissect/record"
)

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

// tab is one page of the browser (browsertest.Tab) at a file: URL, and
// the pages it was pointed at, the only requests it may make.
type tab struct {
	*browsertest.Tab
	pages map[string]bool
}

// open loads the page at path in a new tab of the browser.
func open(t *testing.T, browser context.Context, path string) *tab {
	t.Helper()
	url := "file://" + path
	return &tab{Tab: browsertest.Open(t, browser, url, pageReady), pages: map[string]bool{url: true}}
}

// pageReady matches once the page has drawn its records.
const pageReady = `html[data-ready="1"]`

// navigate loads the page at path in the tab.
func (tb *tab) navigate(t *testing.T, path string) {
	t.Helper()
	tb.pages["file://"+path] = true
	tb.Do(t, chromedp.Navigate("file://"+path), chromedp.WaitReady(chromedp.CSS(pageReady)))
}

// clean checks that the page made no request but for its own pages,
// threw nothing, logged no error and violated no part of its CSP.
func (tb *tab) clean(t *testing.T) {
	t.Helper()
	tb.Clean(t, func(u string) bool { return tb.pages[u] })
}

// selectRecord scrolls the packet list to record i and clicks its row.
func (tb *tab) selectRecord(t *testing.T, i int) {
	t.Helper()
	tb.Eval(t, fmt.Sprintf(`(function(){var l=document.getElementById('list');l.scrollTop=%d*20;l.dispatchEvent(new Event('scroll'));return 0})()`, i), nil)
	tb.Do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#rows .row[data-pdu="%d"]`, i)), chromedp.NodeVisible))
	var got int
	tb.Eval(t, `+document.querySelector('#rows .row.sel').dataset.pdu`, &got)
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
	tb.Eval(t, readSelection, &s)
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
	// the bytes pane shows 16384 bytes from a window's start, which
	// selecting a field moves to the field when it starts outside
	var from int
	tb.Eval(t, `+document.getElementById('hex').dataset.from`, &from)
	if length > 0 && (int(n.Offset) < from || int(n.Offset) >= from+16384) {
		t.Errorf("%s at offset %d: the bytes shown start at %d", s.Field, n.Offset, from)
	}
	want := []int{}
	for b := max(int(n.Offset), from); b < int(n.Offset)+length && b < from+16384; b++ {
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
	bin, err := browsertest.Chromium()
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
	browser := browsertest.New(t, bin, 8*time.Minute)

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
			tb.Eval(t, `Array.from(document.querySelectorAll('#rows .row')).map(function(r){return [r.dataset.pdu, r.dataset.frame, Array.from(r.children).map(function(c){return c.textContent}).join(' ')]})`, &rows)
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
			tb.Eval(t, `document.querySelectorAll('#tree .node').length`, &nodes)
			tb.Eval(t, `document.querySelectorAll('#tree .node[data-field][data-offset][data-length]').length`, &withAttrs)
			tb.Eval(t, `document.querySelectorAll('#hex [data-byte]').length`, &bytesShown)
			if nodes != len(r.PDU.Nodes) || withAttrs != nodes || bytesShown != min(len(r.PDU.Data), 16384) {
				t.Errorf("tree %d nodes (%d with the contract's attributes), hex %d bytes; want %d nodes, %d bytes", nodes, withAttrs, bytesShown, len(r.PDU.Nodes), len(r.PDU.Data))
			}

			// Click the field: exactly its bytes light up.
			fi := int(r.PDU.Find(c.field))
			tb.Do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#tree .node[data-node="%d"] .txt`, fi)), chromedp.NodeVisible))
			checkSelected(t, tb, r, fi)

			// Click its last byte: the deepest field covering it is selected.
			n := &r.PDU.Nodes[fi]
			b := int(n.Offset + n.Length - 1)
			tb.Do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#hex [data-byte="%d"]`, b)), chromedp.NodeVisible))
			checkSelected(t, tb, r, deepest(&r.PDU, b))
			// And a byte of another field: the packet's first.
			tb.Do(t, chromedp.Click(chromedp.CSS(`#hex [data-byte="0"]`), chromedp.NodeVisible))
			checkSelected(t, tb, r, deepest(&r.PDU, 0))

			if c.image != "" {
				var w int
				tb.Eval(t, `(function(){var i=document.querySelector('#tree `+c.image+`');return i&&i.complete?i.naturalWidth:0})()`, &w)
				if w == 0 {
					t.Errorf("no picture %s", c.image)
				}
			}
			if c.parts != "" {
				var hdr, title string
				tb.Eval(t, `document.querySelector('#tree .hdr').textContent`, &hdr)
				tb.Eval(t, `document.querySelector('#hex [data-byte="0"]').title`, &title)
				if !strings.Contains(hdr, c.parts) || !strings.Contains(hdr, "reassembled") || !strings.HasSuffix(title, "from frame 4") {
					t.Errorf("where the bytes came from: header %q, first byte %q", hdr, title)
				}
			}
			if c.colours {
				var coloured int
				tb.Eval(t, `Array.from(document.querySelectorAll('#tree .mc span')).filter(function(s){return s.style.color}).length`, &coloured)
				if coloured == 0 {
					t.Error("no coloured text in the tree")
				}
			}
			tb.Screenshot(t, art, c.sample+"-"+strings.ReplaceAll(c.message, " ", "_"))

			// A link to another frame goes there on a double-click.
			for i := range r.PDU.Nodes {
				if n := &r.PDU.Nodes[i]; n.Field.Type == dissect.FTFrameNum {
					tb.Do(t, chromedp.DoubleClick(chromedp.CSS(fmt.Sprintf(`#tree .node[data-node="%d"] .txt`, i)), chromedp.NodeVisible))
					var frame uint64
					tb.Eval(t, `+document.querySelector('#rows .row.sel').dataset.frame`, &frame)
					if frame != n.Value.N {
						t.Errorf("%s: double-click went to frame %d, want %d", n.Name(), frame, n.Value.N)
					}
					tb.selectRecord(t, ri)
					break
				}
			}

			// Up and down move in the packet list.
			tb.Do(t, chromedp.Focus(chromedp.CSS("#list")), chromedp.KeyEvent(kb.ArrowDown))
			var sel int
			down := min(ri+1, len(recs)-1)
			tb.Eval(t, `+document.querySelector('#rows .row.sel').dataset.pdu`, &sel)
			if sel != down {
				t.Errorf("after ArrowDown row %d is selected, want %d", sel, down)
			}
			tb.Do(t, chromedp.KeyEvent(kb.ArrowUp))
			tb.Eval(t, `+document.querySelector('#rows .row.sel').dataset.pdu`, &sel)
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
			tb.Eval(t, `(function(f){var e=document.getElementById('filter');e.value=f;e.dispatchEvent(new KeyboardEvent('keydown',{key:'Enter'}));return e.className+' '+document.getElementById('count').textContent})(`+jsString(c.filter)+`)`, &got)
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
			tb.Eval(t, `(function(f){var e=document.getElementById('filter');e.value=f;e.dispatchEvent(new KeyboardEvent('keydown',{key:'Enter'}));return e.className+' '+document.getElementById('count').textContent})(`+jsString("/"+c.message)+`)`, &got)
			if exp := fmt.Sprintf("text %d of %d records", want, len(recs)); got != exp {
				t.Errorf("text %q: %q, want %q", c.message, got, exp)
			}
			// Text that is no filter is an error, under the box, and
			// filters nothing.
			tb.Eval(t, `(function(f){var e=document.getElementById('filter');e.value=f;e.dispatchEvent(new KeyboardEvent('keydown',{key:'Enter'}));var x=document.getElementById('filtererr');return e.className+' '+(x.hidden?'':x.textContent)})(`+jsString(c.message)+`)`, &got)
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
		reqs, errs := tb.Requests(), tb.Errors()
		if !slices.Contains(reqs, "http://127.0.0.1:9/x.png") || len(errs) == 0 {
			t.Errorf("a noisy page: requests %q, errors %q", reqs, errs)
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
				tb.Do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#tree .node[data-node="%d"] .txt`, di)), chromedp.NodeVisible))
				checkSelected(t, tb, r, int(di))
				break
			}
		}
		p := tb.Screenshot(t, filepath.Dir(out), strings.TrimSuffix(filepath.Base(out), ".png"))
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
			tb.Eval(t, `document.getElementById('tree').textContent`, &s)
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
		tb.Eval(t, `({pwned: window.__pwned !== undefined, scripts: document.scripts.length,
			imgs: Array.from(document.images).filter(function(i){return i.src.indexOf('data:image/png;base64,')!==0}).length,
			fav: document.querySelectorAll('img.fav').length})`, &state)
		if state.Pwned || state.Scripts != 3 || state.Imgs != 0 || state.Fav != 0 {
			t.Errorf("hostile text became markup: %+v", state)
		}
		tb.Screenshot(t, art, "hostile")
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
			tb.Eval(t, `(function(n){var bad=[];for(var i=0;i<n;i++){
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
		tb.Eval(t, `document.documentElement.dataset.readyMs +  ' (the page\'s script: ' + document.documentElement.dataset.scriptMs + ' ms)'`, &ms)
		t.Logf("10,000 records, %d bytes of page: ready %s ms after navigation start by the page's clock, %v by the test's", st.Size(), ms, time.Since(start).Round(time.Millisecond))
		var inDOM int
		tb.Eval(t, `document.querySelectorAll('#rows .row').length`, &inDOM)
		if inDOM == 0 || inDOM > 200 {
			t.Errorf("%d rows in the DOM: the list must render only what is in sight", inDOM)
		}
		tb.Do(t, chromedp.Focus(chromedp.CSS("#list")), chromedp.KeyEvent(kb.End))
		var last int
		tb.Eval(t, `+document.querySelector('#rows .row.sel').dataset.pdu`, &last)
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
		tb.Eval(t, `document.getElementById('banner').hidden ? '' : document.getElementById('banner').textContent`, &banner)
		tb.Eval(t, `document.querySelectorAll('#rows .row').length`, &rows)
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

// TestHTMLLargeRecord: the packet of most fields a vanilla server sends, a
// Declare Recipes of 120,000 fields (samples/large), in the page: its
// record shows every node, its long lists start shut, and a field deep in
// one is selected by a click, with its explanation. The times it took are
// logged (no timed assertion: the host may be busy).
func TestHTMLLargeRecord(t *testing.T) {
	bin, art := browserAndArtifacts(t)
	browser := browsertest.New(t, bin, 4*time.Minute)
	path, recs := pageOf(t, "../samples/large/play-1-20-4-recipes.pcap", t.TempDir())
	ri := slices.IndexFunc(recs, func(r *record.Record) bool { return r.PDU.Message == "Declare recipes" })
	if ri < 0 {
		t.Fatal("no Declare recipes record")
	}
	r := recs[ri]
	if len(r.PDU.Nodes) < 100000 {
		t.Fatalf("%d nodes: the record is not the whole packet", len(r.PDU.Nodes))
	}
	tb := open(t, browser, path)
	start := time.Now()
	tb.selectRecord(t, ri)
	var nodes int
	tb.Eval(t, `document.querySelectorAll('#tree .node').length`, &nodes)
	t.Logf("selecting the record of %d nodes took %v", len(r.PDU.Nodes), time.Since(start))
	if nodes != len(r.PDU.Nodes) {
		t.Errorf("the tree shows %d nodes, want %d", nodes, len(r.PDU.Nodes))
	}
	list := r.PDU.Find("mc.play.declare_recipes.recipes")
	var shut bool
	tb.Eval(t, fmt.Sprintf(`document.querySelector('#tree .node[data-node="%d"]').parentNode.classList.contains('shut')`, list), &shut)
	if !shut {
		t.Errorf("the list of 2,409 recipes is open: it should start shut")
	}
	// Opening the list shows a line per recipe, each shut in turn: a
	// click opens one, and a click on its ID selects it.
	id := int(r.PDU.Find("mc.play.declare_recipes.recipes.recipe_id"))
	entry := r.PDU.Nodes[id].Parent
	start = time.Now()
	tb.Do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#tree .node[data-node="%d"] .tog`, list)), chromedp.NodeVisible))
	tb.Eval(t, fmt.Sprintf(`document.querySelector('#tree .node[data-node="%d"]').parentNode.classList.contains('shut')`, entry), &shut)
	if !shut {
		t.Errorf("a recipe of the long list is open: it should start shut")
	}
	tb.Do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#tree .node[data-node="%d"] .tog`, entry)), chromedp.NodeVisible))
	tb.Do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#tree .node[data-node="%d"] .txt`, id)), chromedp.NodeVisible))
	checkSelected(t, tb, r, id) // its bytes, past the first 16384, lit
	t.Logf("opening the list and a recipe, and selecting its ID, took %v", time.Since(start))
	// a click on a byte of the window selects the field there
	b := int(r.PDU.Nodes[id].Offset) + 1
	tb.Do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#hex [data-byte="%d"]`, b)), chromedp.NodeVisible))
	checkSelected(t, tb, r, deepest(&r.PDU, b))
	tb.Screenshot(t, art, "play-1-20-4-recipes-Declare_recipes")
	tb.clean(t)
}

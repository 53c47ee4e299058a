package render

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/internal/browsertest"

	"github.com/chromedp/chromedp"

	"github.com/mcdissect/mcdissect/record"
	"github.com/mcdissect/mcdissect/stats"
)

// convLine is a line of the page's conversation view, or an arrow of its
// diagram.
type convLine struct {
	PDU   int    `json:"pdu"`
	Class string `json:"class"`
	Text  string `json:"text"`
}

const readConv = `(function(){function rd(sel){return Array.from(document.querySelectorAll(sel)).map(function(e){
return {pdu:+e.dataset.pdu,class:e.className,text:e.textContent}})}
return {lines:rd('#conv .conv-line'),arrows:rd('#conv .conv-diagram .arrow'),head:(document.querySelector('#conv .conv-head')||{}).textContent||'',
hex:document.getElementById('hex').hidden,conv:document.getElementById('conv').hidden}})()`

type convView struct {
	Lines  []convLine `json:"lines"`
	Arrows []convLine `json:"arrows"`
	Head   string     `json:"head"`
	Hex    bool       `json:"hex"`  // the bytes are hidden
	Conv   bool       `json:"conv"` // the conversation is hidden
}

// TestHTMLConversation: the page shows the selected record's
// conversation as -z follow,mc does, line for line, and a diagram of it
// with an arrow a message, each request marked with how it ended; a
// click on a line or an arrow selects that record.
func TestHTMLConversation(t *testing.T) {
	bin, art := browserAndArtifacts(t)
	pages := t.TempDir()
	browser := browsertest.New(t, bin, 4*time.Minute)
	for _, c := range []struct {
		sample  string
		message string         // select the first record with this message
		classes map[int]string // a class the arrow of the n-th message of the conversation has
		head    string
	}{
		// A status ping: the request answered, the ping answered.
		{"slp-status-msu", "Status Response", map[int]string{1: "answered", 3: "answered", 2: "s2c"}, "TCP stream 0 (-z follow,mc,0)"},
		// gamedig's second socket: a RakNet ping and a Query stat, both
		// unanswered (queryd's log says it ignored them).
		{"query-gamedig", "Full Stat Request", map[int]string{0: "ended", 1: "ended"}, "UDP 127.0.0.1:46688 \u21c4 127.0.0.1:25586"},
		// A session: alice's game, joined.
		{"classic-session", "Player Identification", map[int]string{0: "joined"}, "Node 0: 127.0.0.1:38258 (client)"},
	} {
		t.Run(c.sample, func(t *testing.T) {
			path, recs := pageOf(t, "../samples/"+c.sample+".pcap", pages)
			tb := open(t, browser, path)
			ri := -1
			for i, r := range recs {
				if r.PDU.Message == c.message {
					ri = i
					break
				}
			}
			if ri < 0 {
				t.Fatalf("no %s", c.message)
			}
			tb.selectRecord(t, ri)
			tb.Do(t, chromedp.Click(chromedp.CSS(`#tab-conv`), chromedp.NodeVisible))
			var v convView
			tb.Eval(t, readConv, &v)
			if !v.Hex || v.Conv {
				t.Fatalf("the conversation tab does not show: hex hidden %v, conversation hidden %v", v.Hex, v.Conv)
			}
			want := conversationOf(recs, ri)
			if len(v.Lines) != min(len(want), 300) || len(v.Arrows) != len(v.Lines) {
				t.Fatalf("%d lines, %d arrows; the conversation has %d records", len(v.Lines), len(v.Arrows), len(want))
			}
			if !strings.Contains(v.Head, c.head) {
				t.Errorf("head %q, want %q in it", v.Head, c.head)
			}
			for n, l := range v.Lines {
				r := recs[want[n]]
				if l.PDU != want[n] || !strings.HasSuffix(l.Text, stats.Transcript(r)) {
					t.Errorf("line %d: record %d %q, want record %d %q", n, l.PDU, l.Text, want[n], stats.Transcript(r))
				}
				if strings.Contains(l.Class, "cur") != (want[n] == ri) {
					t.Errorf("line %d: class %q, selected record %d", n, l.Class, ri)
				}
			}
			for n, cls := range c.classes {
				if !strings.Contains(" "+v.Arrows[n].Class+" ", " "+cls+" ") {
					t.Errorf("arrow %d (%q): class %q, want %s", n, v.Arrows[n].Text, v.Arrows[n].Class, cls)
				}
			}
			if c.sample == "query-gamedig" && !strings.Contains(v.Arrows[1].Text, "the capture ended first") {
				t.Errorf("the stat the capture ends with is not marked: %q", v.Arrows[1].Text)
			}
			tb.Screenshot(t, art, "conversation-"+c.sample)
			// A click on another arrow selects its record, and the view
			// follows.
			other := want[0] // a record in the window the view draws
			if other == ri {
				other = want[1]
			}
			tb.Do(t, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#conv .conv-diagram .arrow[data-pdu="%d"] .label`, other)), chromedp.NodeVisible))
			var sel int
			tb.Eval(t, `+document.querySelector('#rows .row.sel').dataset.pdu`, &sel)
			tb.Eval(t, readConv, &v)
			if sel != other || !strings.Contains(v.Lines[indexOf(want, other)].Class, "cur") {
				t.Errorf("clicked the arrow of record %d: record %d selected", other, sel)
			}
			// Back to the bytes.
			tb.Do(t, chromedp.Click(chromedp.CSS(`#tab-bytes`), chromedp.NodeVisible))
			tb.Eval(t, readConv, &v)
			if v.Hex || !v.Conv {
				t.Error("the bytes tab does not come back")
			}
			tb.clean(t)
		})
	}

	// Bytes the capture lost: the gap is a red arrow, the request whose
	// response may be in it says so.
	t.Run("losses", func(t *testing.T) {
		path, recs := pageOf(t, "../samples/slp-status-losses.pcap", pages)
		tb := open(t, browser, path)
		x := stats.NewExchanges()
		for _, r := range recs {
			x.Record(r)
		}
		req := -1
		for _, e := range x.Rows() {
			if e.Outcome == "lost" && e.Asked == "status" {
				req = e.Request
				break
			}
		}
		if req < 0 {
			t.Fatal("no lost status request in the sample")
		}
		tb.selectRecord(t, req)
		tb.Do(t, chromedp.Click(chromedp.CSS(`#tab-conv`), chromedp.NodeVisible))
		var v convView
		tb.Eval(t, readConv, &v)
		lost, gaps := 0, 0
		for _, a := range v.Arrows {
			if strings.Contains(a.Class, "lost") {
				lost++
			}
			if recs[a.PDU].Kind == record.KindGap {
				gaps++
				if !strings.Contains(a.Class, "lost") {
					t.Errorf("a gap's arrow is not marked lost: %q", a.Class)
				}
			}
		}
		if gaps == 0 || lost < gaps+1 || !strings.Contains(v.Arrows[indexOfArrow(v.Arrows, req)].Text, "\u2717 lost") {
			t.Errorf("%d gaps, %d arrows marked lost; the request: %+v", gaps, lost, v.Arrows[indexOfArrow(v.Arrows, req)])
		}
		tb.Screenshot(t, art, "conversation-losses")
		tb.clean(t)
	})

	// Text from the wire stays text in the view.
	t.Run("hostile", func(t *testing.T) {
		path, recs := pageOf(t, "../samples/handmade-hostile-html.pcap", pages)
		tb := open(t, browser, path)
		for i := range recs {
			if i > 40 {
				break
			}
			tb.selectRecord(t, i)
			if i == 0 {
				tb.Do(t, chromedp.Click(chromedp.CSS(`#tab-conv`), chromedp.NodeVisible))
			}
		}
		var imgs, scripts int
		var text string
		tb.Eval(t, `document.querySelectorAll('#conv img').length`, &imgs)
		tb.Eval(t, `document.querySelectorAll('#conv script').length`, &scripts)
		tb.Eval(t, `document.getElementById('conv').textContent`, &text)
		if imgs != 0 || scripts != 0 || !strings.Contains(text, "<") {
			t.Errorf("%d images, %d scripts in the view; its text holds the markup as text: %v", imgs, scripts, strings.Contains(text, "<"))
		}
		tb.clean(t)
	})
}

// conversationOf is what the page must list for record i: the records of
// its TCP stream, or of its two UDP ends, in order.
func conversationOf(recs []*record.Record, i int) []int {
	r := recs[i]
	var out []int
	for k, q := range recs {
		if r.TCP && q.TCP && q.Stream == r.Stream || !r.TCP && !q.TCP && (q.Src == r.Src && q.Dst == r.Dst || q.Src == r.Dst && q.Dst == r.Src) {
			out = append(out, k)
		}
	}
	return out
}

func indexOf(s []int, v int) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

func indexOfArrow(a []convLine, pdu int) int {
	for i, x := range a {
		if x.PDU == pdu {
			return i
		}
	}
	return 0
}

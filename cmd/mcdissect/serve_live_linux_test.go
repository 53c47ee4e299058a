//go:build linux

package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcdissect/mcdissect/internal/browsertest"
)

// realPeers builds the Go peers the samples were recorded with
// (samples/gen/go: go-mc's status server, mcutil's client) into a
// temporary directory, or skips the test, saying why, where they do not
// build (no module cache and no network).
func realPeers(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-o", dir+string(os.PathSeparator), "./cmd/...")
	cmd.Dir = "../../samples/gen/go"
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("the real peers of samples/gen/go do not build here: %v\n%s", err, out)
	}
	return dir
}

// freePort is a TCP port of 127.0.0.1 nobody listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

var servingLine = regexp.MustCompile(`Serving the live page at (http://\S+)`)

// TestServeLiveInBrowser: mcdissect -i lo --serve, the page open in
// Chromium, while a real client (mcutil) asks a real server (go-mc) for its
// status: the rows appear as the capture runs (the delay is logged), a
// click shows the record's fields and bytes and keeps it while more come,
// and SIGINT stops the capture and the server, the page saying so. The
// page asks nothing of another origin and breaks no part of its CSP.
func TestServeLiveInBrowser(t *testing.T) {
	needLive(t)
	bin, err := browsertest.Chromium()
	if err != nil {
		t.Skip(err)
	}
	peers := realPeers(t)
	port := freePort(t)
	p := strconv.Itoa(port)
	server := exec.Command(peers+"/gomc-status-server", "-listen", "127.0.0.1:"+p, "-lifetime", "3m")
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Process.Kill(); server.Wait() })
	for i := 0; ; i++ {
		if c, err := net.Dial("tcp4", "127.0.0.1:"+p); err == nil {
			c.Close()
			break
		}
		if i == 100 {
			t.Fatal("go-mc's server does not listen")
		}
		time.Sleep(50 * time.Millisecond)
	}
	client := func() time.Time {
		t.Helper()
		start := time.Now()
		if out, err := exec.Command(peers+"/mcutil-client", "status", "127.0.0.1", p).CombinedOutput(); err != nil {
			t.Fatalf("mcutil: %v\n%s", err, out)
		}
		return start
	}

	r := startLive(t, "-f", "tcp port "+p, "-d", "tcp.port=="+p+",slp", "--serve", "127.0.0.1:0", "-q")
	var url string
	for i := 0; url == ""; i++ {
		if m := servingLine.FindStringSubmatch(r.errText()); m != nil {
			url = m[1]
		} else if i == 200 {
			t.Fatalf("no %q on stderr:\n%s", "Serving the live page at", r.errText())
		}
		time.Sleep(25 * time.Millisecond)
	}
	browser := browsertest.New(t, bin, 3*time.Minute)
	tb := browsertest.Open(t, browser, url, `html[data-live="1"]`)
	if _, ok := tb.WaitFor(t, `document.getElementById('live').textContent.indexOf('live') >= 0`, 10*time.Second); !ok {
		t.Fatal("the page does not say it is live")
	}

	// A status ping: its rows appear while the capture runs.
	rowOf := func(msg string, n int) string {
		return fmt.Sprintf(`Array.from(document.querySelectorAll('#rows .row .c-info')).filter(function(e){return e.textContent.indexOf(%q) === 0}).length >= %d`, msg, n)
	}
	start := client()
	at, ok := tb.WaitFor(t, rowOf("Status Response", 1), 20*time.Second)
	if !ok {
		t.Fatalf("no Status Response row\n%s", r.errText())
	}
	t.Logf("the Status Response row appeared %v after mcutil started", at.Sub(start))

	// A click on it: its fields, its bytes; a click on a field lights its bytes.
	var idx string
	tb.Eval(t, `Array.from(document.querySelectorAll('#rows .row')).filter(function(e){return e.querySelector('.c-info').textContent.indexOf('Status Response') === 0})[0].dataset.pdu`, &idx)
	tb.Do(t, chromedp.Click(chromedp.CSS(`#rows .row[data-pdu="`+idx+`"]`), chromedp.NodeVisible))
	var shown struct {
		Sel   string `json:"sel"`
		Nodes int    `json:"nodes"`
		Bytes int    `json:"bytes"`
		Hdr   string `json:"hdr"`
		JSON  bool   `json:"json"`
	}
	read := `({sel: (document.querySelector('#rows .row.sel')||{dataset:{}}).dataset.pdu||'', nodes: document.querySelectorAll('#tree .node[data-field]').length,
		bytes: document.querySelectorAll('#hex [data-byte]').length, hdr: (document.querySelector('#tree .hdr')||{}).textContent||'',
		json: !!document.querySelector('#tree .node[data-field="slp.status.json"]')})`
	tb.Eval(t, read, &shown)
	if shown.Sel != idx || shown.Nodes < 10 || shown.Bytes < 100 || !shown.JSON {
		t.Fatalf("after a click on the Status Response: %+v", shown)
	}
	tb.Do(t, chromedp.Click(chromedp.CSS(`#tree .node[data-field="slp.status.json"] .txt`), chromedp.NodeVisible))
	var lit int
	tb.Eval(t, `document.querySelectorAll('#hex .hb.hl').length`, &lit)
	if lit < 50 {
		t.Errorf("a click on slp.status.json lit %d bytes", lit)
	}

	// Another ping: rows appended, the selection kept.
	before := shown
	client()
	if _, ok := tb.WaitFor(t, rowOf("Status Response", 2), 20*time.Second); !ok {
		t.Fatal("no second Status Response row")
	}
	tb.Eval(t, read, &shown)
	if shown.Sel != before.Sel || shown.Hdr != before.Hdr {
		t.Errorf("the selection changed when records came: %+v, before %+v", shown, before)
	}
	tb.Screenshot(t, t.TempDir(), "serve-live")

	// SIGINT: the capture and the server stop; the page says so.
	took, _ := r.stop(t, syscall.SIGINT)
	t.Logf("mcdissect ended %v after SIGINT", took)
	if _, ok := tb.WaitFor(t, `document.getElementById('live').textContent.indexOf('capture ended') === 0`, 10*time.Second); !ok {
		var s string
		tb.Eval(t, `document.getElementById('live').textContent`, &s)
		t.Errorf("after SIGINT the page says %q", s)
	}
	origin := strings.TrimSuffix(url, "/")
	tb.Clean(t, func(u string) bool { return strings.HasPrefix(u, origin+"/") })
}

// Package browsertest drives Debian's chromium over the DevTools protocol
// (chromedp) for tests of the pages mcdissect serves: one headless browser
// a test, a tab a page, and each tab's requests, script errors, console
// errors and CSP violations recorded, so that a test can end by checking
// there were none but those it allows. Tests only.
package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
)

// Chromium finds the browser: $MCDISSECT_CHROMIUM, or chromium on PATH.
func Chromium() (string, error) {
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

// New starts chromium for the test, stopped at its end or after limit.
func New(t testing.TB, bin string, limit time.Duration) context.Context {
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

// Tab is one page in the browser with what it did.
type Tab struct {
	Ctx  context.Context
	mu   sync.Mutex
	reqs []string // URLs of the requests, but data: URIs
	errs []string // exceptions, console errors, browser log errors
}

func (tb *Tab) note(ev any) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if u := ev.Request.URL; !strings.HasPrefix(u, "data:") {
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

// Open loads url in a new tab and waits until ready (a CSS selector)
// matches.
func Open(t testing.TB, browser context.Context, url, ready string) *Tab {
	t.Helper()
	tb := &Tab{}
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithListener(tb.note))
	t.Cleanup(cancel)
	tb.Ctx = ctx
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
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS(ready))); err != nil {
		t.Fatal(err)
	}
	return tb
}

// Eval evaluates js in the page and decodes its JSON value into out (if
// not nil).
func (tb *Tab) Eval(t testing.TB, js string, out any) {
	t.Helper()
	raw, err := chromedp.Run(tb.Ctx, chromedp.Evaluate[[]byte](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s: %v (%s)", js, err, raw)
		}
	}
}

// Do runs chromedp actions in the tab.
func (tb *Tab) Do(t testing.TB, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(tb.Ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// Requests are the URLs the tab asked for.
func (tb *Tab) Requests() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]string(nil), tb.reqs...)
}

// Errors are the exceptions, console errors and browser log errors seen.
func (tb *Tab) Errors() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]string(nil), tb.errs...)
}

// Clean checks that the page made no request but those allow accepts,
// threw nothing, logged no error and violated no part of its CSP.
func (tb *Tab) Clean(t testing.TB, allow func(url string) bool) {
	t.Helper()
	var v []string
	tb.Eval(t, `window.__violations`, &v)
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, u := range tb.reqs {
		if !allow(u) {
			t.Errorf("the page asked for %q", u)
		}
	}
	if len(tb.errs) > 0 {
		t.Errorf("script or console errors: %q", tb.errs)
	}
	if len(v) > 0 {
		t.Errorf("CSP violations: %q", v)
	}
}

// Screenshot saves the tab as dir/name.png and returns the path.
func (tb *Tab) Screenshot(t testing.TB, dir, name string) string {
	t.Helper()
	buf, err := chromedp.Run(tb.Ctx, chromedp.CaptureScreenshot())
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

// WaitFor evaluates js, a boolean expression, until it is true or limit
// passes; it reports whether it became true, and when.
func (tb *Tab) WaitFor(t testing.TB, js string, limit time.Duration) (time.Time, bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		var ok bool
		tb.Eval(t, "!!("+js+")", &ok)
		if ok {
			return time.Now(), true
		}
		if time.Now().After(deadline) {
			return time.Time{}, false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

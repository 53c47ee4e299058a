package ship

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// engine is a fake bulk endpoint. answer decides each request's answer
// from the request's number (0, 1, …) and its documents; nil answers as a
// healthy engine. It keeps every document it accepted (item status 2xx),
// in order.
type engine struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	answer func(n int, docs []doc) reply
	reqs   int
	docs   []doc // accepted
	sizes  []int // documents per request
	cond   *sync.Cond
}

// doc is one record as the engine received it.
type doc struct {
	action map[string]map[string]string
	body   map[string]any
	id     string
}

// reply is a fake engine's answer: a status for the whole request, or
// (status 200) one per document.
type reply struct {
	status int
	header map[string]string
	body   string // for a non-200 status, or a raw 200 body
	items  []int  // per document; empty: all 201
}

func newEngine(t *testing.T, answer func(n int, docs []doc) reply) *engine {
	e := &engine{t: t, answer: answer}
	e.cond = sync.NewCond(&e.mu)
	e.srv = httptest.NewServer(http.HandlerFunc(e.serve))
	t.Cleanup(e.srv.Close)
	return e
}

func (e *engine) url() string { return e.srv.URL + "/insert/elasticsearch/_bulk" }

func (e *engine) serve(w http.ResponseWriter, r *http.Request) {
	docs, err := readRequest(r)
	if _, bad := err.(gzipError); bad {
		http.Error(w, err.Error(), 400) // as a real engine answers
		return
	}
	if err != nil {
		e.t.Errorf("fake engine: %v", err)
		http.Error(w, err.Error(), 400)
		return
	}
	e.mu.Lock()
	n := e.reqs
	e.reqs++
	e.sizes = append(e.sizes, len(docs))
	answer := e.answer
	e.mu.Unlock()
	rep := reply{status: 200}
	if answer != nil {
		rep = answer(n, docs)
	}
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	if rep.status != 200 {
		w.WriteHeader(rep.status)
		io.WriteString(w, rep.body)
		return
	}
	if rep.body != "" {
		io.WriteString(w, rep.body)
		return
	}
	var out bytes.Buffer
	errs := false
	out.WriteString(`{"took":1,"errors":ERRS,"items":[`)
	e.mu.Lock()
	for i, d := range docs {
		st := 201
		if i < len(rep.items) {
			st = rep.items[i]
		}
		if i > 0 {
			out.WriteByte(',')
		}
		if st >= 200 && st < 300 {
			e.docs = append(e.docs, d)
			fmt.Fprintf(&out, `{"create":{"_id":%q,"status":%d}}`, d.id, st)
			continue
		}
		errs = true
		fmt.Fprintf(&out, `{"create":{"_id":%q,"status":%d,"error":{"type":"fake_%d","reason":"the fake engine says no"}}}`, d.id, st, st)
	}
	e.mu.Unlock()
	e.cond.Broadcast()
	out.WriteString("]}")
	io.WriteString(w, strings.Replace(out.String(), "ERRS", fmt.Sprint(errs), 1))
}

// gzipError: the body is not gzip.
type gzipError struct{ error }

// readRequest checks a bulk request's form and reads its documents.
func readRequest(r *http.Request) ([]doc, error) {
	if r.Method != http.MethodPost || r.Header.Get("Content-Encoding") != "gzip" ||
		r.Header.Get("Content-Type") != "application/x-ndjson" {
		return nil, fmt.Errorf("%s with %v", r.Method, r.Header)
	}
	zr, err := gzip.NewReader(r.Body)
	if err != nil {
		return nil, gzipError{err}
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, gzipError{err}
	}
	var docs []doc
	for _, p := range pairs(raw) {
		lines := strings.SplitN(strings.TrimSuffix(string(p), "\n"), "\n", 2)
		if len(lines) != 2 {
			return nil, fmt.Errorf("a pair without its document: %q", p)
		}
		var d doc
		if err := json.Unmarshal([]byte(lines[0]), &d.action); err != nil {
			return nil, fmt.Errorf("action %q: %v", lines[0], err)
		}
		if err := json.Unmarshal([]byte(lines[1]), &d.body); err != nil {
			return nil, fmt.Errorf("document %q: %v", lines[1], err)
		}
		d.id = d.action["create"]["_id"]
		if d.id == "" || d.body["record_id"] != d.id {
			return nil, fmt.Errorf("ID %q, record_id %v", d.id, d.body["record_id"])
		}
		docs = append(docs, d)
	}
	return docs, nil
}

// waitDocs waits until the engine has accepted n documents (no deadline:
// the test's own timeout is the bound).
func (e *engine) waitDocs(n int) {
	e.mu.Lock()
	for len(e.docs) < n {
		e.cond.Wait()
	}
	e.mu.Unlock()
}

// ids returns the IDs of the documents accepted, in order.
func (e *engine) ids() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, d := range e.docs {
		out = append(out, d.id)
	}
	return out
}

func (e *engine) requests() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.reqs
}

// deadURL is the bulk URL of a port nothing listens on: connection refused.
func deadURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/insert/elasticsearch/_bulk"
}

// testDoc is the n-th test document and its ID.
func testDoc(n int) (string, []byte) {
	return fmt.Sprintf("h/s/%d/0/%d", n, n), fmt.Appendf(nil, `{"timestamp":"%d","layers":{"frame":{"frame_frame_number":%d}}}`, 1795357980000+n, n)
}

// addN adds documents from..to-1.
func addN(t *testing.T, s *Shipper, from, to int) {
	t.Helper()
	for n := from; n < to; n++ {
		id, d := testDoc(n)
		if err := s.Add(id, time.UnixMilli(int64(1795357980000+n)), d); err != nil {
			t.Fatal(err)
		}
	}
}

// wantIDs checks that the engine holds documents from..to-1 exactly once,
// in order.
func wantIDs(t *testing.T, got []string, from, to int) {
	t.Helper()
	if len(got) != to-from {
		t.Fatalf("the engine holds %d documents, want %d", len(got), to-from)
	}
	for i, id := range got {
		if want, _ := testDoc(from + i); id != want {
			t.Fatalf("document %d is %s, want %s", i, id, want)
		}
	}
}

// quick is a Config for tests: small batches, short pauses, no timer
// flush unless asked.
func quick(url string) Config {
	return Config{
		URL: url, Host: "h", Source: "s",
		BatchDocs: 10, FlushInterval: time.Hour,
		RetryMin: time.Millisecond, RetryMax: 4 * time.Millisecond,
	}
}

package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/budget"
	_ "github.com/mcdissect/mcdissect/protocols/all"
	"github.com/mcdissect/mcdissect/record"
	"github.com/mcdissect/mcdissect/render"
)

// sampleRecords dissects a sample capture as the command does for the
// page (with the files Classic levels carry).
func sampleRecords(t testing.TB, name string) []*record.Record {
	t.Helper()
	f, err := os.Open("../samples/" + name + ".pcap")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	src, err := analyze.OpenFile(f)
	if err != nil {
		t.Fatal(err)
	}
	c := &analyze.Collect{}
	if _, err := analyze.Run(src, analyze.New(analyze.Options{Export: true}, c)); err != nil {
		t.Fatal(err)
	}
	return c.Records
}

func newServer(t *testing.T, cfg Config) *Server {
	t.Helper()
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.Close(ctx)
	})
	return s
}

// event is one server-sent event as a browser reads it.
type event struct {
	id, name string
	data     message
}

type message struct {
	FS      int               `json:"fs"`
	F       []json.RawMessage `json:"f"`
	XS      int               `json:"xs"`
	X       []json.RawMessage `json:"x"`
	R       []json.RawMessage `json:"r"`
	Dropped uint64            `json:"dropped"`
	Lost    uint64            `json:"lost"`
	Text    string            `json:"text"`
}

// stream reads the events of r as the EventSource specification does
// (data lines joined by newlines, a blank line ending an event).
func stream(t *testing.T, r io.Reader) <-chan event {
	t.Helper()
	out := make(chan event, 1024)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 64<<20)
		var ev event
		var data []string
		for sc.Scan() {
			l := sc.Text()
			switch {
			case l == "":
				if data != nil {
					if err := json.Unmarshal([]byte(strings.Join(data, "\n")), &ev.data); err != nil {
						t.Errorf("event data is not JSON: %v", err)
					}
					out <- ev
				}
				ev, data = event{}, nil
			case strings.HasPrefix(l, "data: "):
				data = append(data, strings.TrimPrefix(l, "data: "))
			case strings.HasPrefix(l, "id: "):
				ev.id = strings.TrimPrefix(l, "id: ")
			case strings.HasPrefix(l, "event: "):
				ev.name = strings.TrimPrefix(l, "event: ")
			}
		}
	}()
	return out
}

func get(t *testing.T, s *Server, path string, hdr map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("GET", strings.TrimSuffix(s.URL(), "/")+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestStreamAndEnd: a viewer gets every record, in order, each once, the
// table entries they index before them, and the end; one who comes later
// gets the same; one who reconnects gets what follows its last event.
func TestStreamAndEnd(t *testing.T) {
	recs := sampleRecords(t, "query-full")
	s := newServer(t, Config{})
	first := stream(t, get(t, s, "/events", nil).Body)
	for _, r := range recs {
		s.Record(r)
	}
	s.End("the file ended")
	check := func(evs <-chan event, from int) string {
		t.Helper()
		n, fields, lastID := from, 0, ""
		for ev := range evs {
			if ev.name == "end" {
				if ev.data.Text != "the file ended" {
					t.Errorf("end %q", ev.data.Text)
				}
				if n != len(recs) {
					t.Errorf("%d records before the end, want %d", n, len(recs))
				}
				return lastID
			}
			if ev.data.FS != fields {
				t.Errorf("field entries from %d, %d sent", ev.data.FS, fields)
			}
			fields += len(ev.data.F)
			for _, raw := range ev.data.R {
				var r struct {
					F uint64 `json:"f"`
					N [][]json.RawMessage
				}
				json.Unmarshal(raw, &r)
				if r.F != recs[n].Frame {
					t.Fatalf("record %d is frame %d, want %d", n, r.F, recs[n].Frame)
				}
				for _, nd := range r.N {
					var fi int
					json.Unmarshal(nd[0], &fi)
					if fi >= fields {
						t.Fatalf("record %d uses field %d, %d sent", n, fi, fields)
					}
				}
				n++
			}
			if len(ev.data.R) > 0 {
				lastID = ev.id
				if ev.id != strconv.Itoa(n) {
					t.Errorf("event id %q after %d records", ev.id, n)
				}
			}
		}
		t.Fatal("the stream ended without an end event")
		return ""
	}
	check(first, 0)
	check(stream(t, get(t, s, "/events", nil).Body), 0)
	check(stream(t, get(t, s, "/events", map[string]string{"Last-Event-ID": "5"}).Body), 5)
}

// TestSlowViewer: a viewer that reads nothing holds neither the capture
// nor memory: Record never waits, the history keeps its bound, and when
// the viewer reads at last it is told how many records it lost, then gets
// the newest.
func TestSlowViewer(t *testing.T) {
	recs := sampleRecords(t, "query-full")
	s := newServer(t, Config{MaxRecords: 50})
	c, err := net.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil) // the stream is served: read nothing more
	if err != nil {
		t.Fatal(err)
	}
	// Far more than the socket buffers hold: the viewer's writes block.
	const n = 20000
	for i := range n {
		s.Record(recs[i%len(recs)])
	}
	s.mu.Lock()
	held, viewers := s.live(), s.viewers
	s.mu.Unlock()
	if held != 50 || viewers != 1 {
		t.Fatalf("history %d records (want 50), %d viewers", held, viewers)
	}
	s.End("done")
	got, lost, dropped, ended := 0, uint64(0), uint64(0), false
	for ev := range stream(t, resp.Body) {
		if ev.name == "end" {
			ended = true
			break
		}
		lost += ev.data.Lost
		dropped += ev.data.Dropped // gone before its first look (it just came)
		got += len(ev.data.R)
	}
	if !ended {
		t.Error("no end event")
	}
	if lost == 0 || uint64(got)+lost+dropped != n {
		t.Errorf("the viewer got %d records and was told it lost %d (and %d were gone when it came), of %d", got, lost, dropped, n)
	}
	if s.Lost() != lost {
		t.Errorf("Lost() %d, the viewer was told %d", s.Lost(), lost)
	}
}

// TestReadOnly: the server answers GET and HEAD for the page and its
// events only, to a Host no other site can borrow, with the page's CSP.
func TestReadOnly(t *testing.T) {
	s := newServer(t, Config{})
	for _, c := range []struct {
		method, path, host string
		status             int
	}{
		{"GET", "/", "", 200},
		{"HEAD", "/", "", 200},
		{"GET", "/", "localhost", 200},
		{"GET", "/", "[::1]:80", 200},
		{"POST", "/", "", 405},
		{"PUT", "/events", "", 405},
		{"DELETE", "/", "", 405},
		{"GET", "/index.html", "", 404},
		{"GET", "/events/x", "", 404},
		{"GET", "/", "attacker.example", 421},
		{"GET", "/events", "attacker.example:8080", 421},
	} {
		req, _ := http.NewRequest(c.method, strings.TrimSuffix(s.URL(), "/")+c.path, strings.NewReader("x"))
		if c.host != "" {
			req.Host = c.host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s %s (Host %q): %d, want %d", c.method, c.path, c.host, resp.StatusCode, c.status)
		}
		if c.path == "/" && c.status == 200 {
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self'") || !strings.Contains(csp, "default-src 'none'") {
				t.Errorf("CSP %q", csp)
			}
		}
	}
	page, _ := io.ReadAll(get(t, s, "/", nil).Body)
	if !strings.Contains(string(page), render.LiveCSP()) {
		t.Error("the page's own CSP is not the live page's")
	}
}

// TestTooManyViewers: past MaxViewers a viewer is told to come back, and
// those served go on.
func TestTooManyViewers(t *testing.T) {
	s := newServer(t, Config{MaxViewers: 2})
	a := stream(t, get(t, s, "/events", nil).Body)
	get(t, s, "/events", nil)
	if resp := get(t, s, "/events", nil); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a third viewer: %d", resp.StatusCode)
	}
	s.Record(sampleRecords(t, "query-full")[0])
	if ev := <-a; len(ev.data.R) != 1 {
		t.Errorf("a viewer served got %d records", len(ev.data.R))
	}
}

// TestCloseEndsStreams: Close ends every stream with an end event, and
// returns before its deadline.
func TestCloseEndsStreams(t *testing.T) {
	s, err := New(Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve()
	evs := stream(t, get(t, s, "/events", nil).Body)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	var last event
	for ev := range evs {
		last = ev
	}
	if last.name != "end" || last.data.Text != "the server stopped" {
		t.Errorf("last event %+v", last)
	}
}

// TestHistoryWithinBudget: the history is charged to the run's memory
// budget: past it the oldest records go, and the budget is never passed.
func TestHistoryWithinBudget(t *testing.T) {
	recs := sampleRecords(t, "query-full")
	b := budget.New(20 << 10)
	s := newServer(t, Config{Account: b.Account("history", nil)})
	for i := range 2000 {
		s.Record(recs[i%len(recs)])
	}
	s.mu.Lock()
	held, bytes := s.live(), s.bytes
	s.mu.Unlock()
	if b.Peak() > b.Limit() || int64(bytes) != b.Used() || held == 0 || held >= 2000 {
		t.Fatalf("budget peak %d of %d, used %d; history %d records of %d bytes", b.Peak(), b.Limit(), b.Used(), held, bytes)
	}
}

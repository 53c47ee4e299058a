package ship

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestBatchesBySize(t *testing.T) {
	e := newEngine(t, nil)
	s, err := New(quick(e.url()))
	if err != nil {
		t.Fatal(err)
	}
	addN(t, s, 0, 25)
	// Two full batches leave without Flush or Close (the timer is an hour).
	e.waitDocs(20)
	st := s.Close(context.Background())
	wantIDs(t, e.ids(), 0, 25)
	if got := e.sizes; len(got) != 3 || got[0] != 10 || got[1] != 10 || got[2] != 5 {
		t.Errorf("documents per request %v, want [10 10 5]", got)
	}
	if st.Shipped != 25 || st.Added != 25 || st.Requests != 3 || st.Retried != 0 || st.Dropped != 0 {
		t.Errorf("stats %+v", st)
	}
}

func TestBatchesByBytes(t *testing.T) {
	e := newEngine(t, nil)
	c := quick(e.url())
	c.BatchDocs, c.BatchBytes = 1000, 1000
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	addN(t, s, 0, 40)
	s.Close(context.Background())
	wantIDs(t, e.ids(), 0, 40)
	for i, n := range e.sizes {
		if n < 1 || n > 10 {
			t.Errorf("request %d holds %d documents of ~200 bytes; batches are 1000 bytes", i, n)
		}
	}
}

// A quiet capture: three records and nothing after them still ship, by
// the timer, without Flush or Close.
func TestBatchesByTime(t *testing.T) {
	e := newEngine(t, nil)
	c := quick(e.url())
	c.FlushInterval = 20 * time.Millisecond
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	addN(t, s, 0, 3)
	e.waitDocs(3)
	addN(t, s, 3, 5)
	e.waitDocs(5)
	s.Close(context.Background())
	wantIDs(t, e.ids(), 0, 5)
}

func TestFlush(t *testing.T) {
	e := newEngine(t, nil)
	s, err := New(quick(e.url()))
	if err != nil {
		t.Fatal(err)
	}
	addN(t, s, 0, 3)
	s.Flush()
	e.waitDocs(3)
	s.Close(context.Background())
	wantIDs(t, e.ids(), 0, 3)
}

// Transient failures as real engines give them: 503, 429 with
// Retry-After, a 502 from a proxy, an answer that is cut; each retried
// until the documents arrive, once each.
func TestRetries(t *testing.T) {
	fails := map[int]reply{
		0: {status: 503, body: "service unavailable"},
		1: {status: 429, header: map[string]string{"Retry-After": "0"}, body: `{"error":"too many requests"}`},
		2: {status: 502, body: "<html>bad gateway</html>"},
		3: {status: 500, body: "internal"},
	}
	e := newEngine(t, func(n int, _ []doc) reply {
		if r, ok := fails[n]; ok {
			return r
		}
		return reply{status: 200}
	})
	s, err := New(quick(e.url()))
	if err != nil {
		t.Fatal(err)
	}
	addN(t, s, 0, 10)
	st := s.Close(context.Background())
	wantIDs(t, e.ids(), 0, 10)
	if st.Shipped != 10 || st.Retried != 40 || st.Requests != 5 || st.Refused != 0 {
		t.Errorf("stats %+v", st)
	}
}

// Connection refused, then the engine comes up on that port.
func TestRetriesUntilTheEngineListens(t *testing.T) {
	url := deadURL(t)
	addr := strings.TrimPrefix(strings.TrimSuffix(url, "/insert/elasticsearch/_bulk"), "http://")
	var logged []string
	var mu sync.Mutex
	c := quick(url)
	c.Logf = func(f string, a ...any) {
		mu.Lock()
		logged = append(logged, f)
		mu.Unlock()
	}
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	addN(t, s, 0, 10)
	// Wait for a failed try, then listen.
	for s.Stats().Retried == 0 {
		time.Sleep(time.Millisecond)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("the port was taken meanwhile: %v", err)
	}
	e := newEngine(t, nil)
	e.srv.Close()
	srv := &http.Server{Handler: http.HandlerFunc(e.serve)}
	go srv.Serve(l)
	defer srv.Close()
	e.waitDocs(10)
	st := s.Close(context.Background())
	wantIDs(t, e.ids(), 0, 10)
	if st.Shipped != 10 || st.Retried < 10 {
		t.Errorf("stats %+v", st)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(logged) != 2 || !strings.Contains(logged[0], "cannot ship") || !strings.Contains(logged[1], "again") {
		t.Errorf("logged %q, want the failure once and the recovery once", logged)
	}
}

// A 4xx for the whole request is the engine's refusal: counted, not
// retried forever.
func TestRefusedRequest(t *testing.T) {
	for _, code := range []int{400, 401, 404, 413} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			e := newEngine(t, func(int, []doc) reply { return reply{status: code, body: "no"} })
			var logged []string
			c := quick(e.url())
			c.Logf = func(f string, a ...any) { logged = append(logged, f) }
			s, err := New(c)
			if err != nil {
				t.Fatal(err)
			}
			addN(t, s, 0, 15)
			st := s.Close(context.Background())
			if st.Refused != 15 || st.Shipped != 0 || st.Retried != 0 || e.requests() != 2 {
				t.Errorf("stats %+v after %d requests", st, e.requests())
			}
			if len(logged) != 1 {
				t.Errorf("logged %q, want the refusal once", logged)
			}
		})
	}
}

// A 200 that is not a bulk response (a proxy's page): refused, said.
func TestNotABulkResponse(t *testing.T) {
	e := newEngine(t, func(int, []doc) reply { return reply{status: 200, body: "<html>welcome</html>"} })
	s, err := New(quick(e.url()))
	if err != nil {
		t.Fatal(err)
	}
	addN(t, s, 0, 5)
	if st := s.Close(context.Background()); st.Refused != 5 || st.Shipped != 0 {
		t.Errorf("stats %+v", st)
	}
}

// Per-document answers, as Elasticsearch gives them: the refused are
// counted, the duplicates counted apart, only the retryable sent again.
func TestPartialFailures(t *testing.T) {
	e := newEngine(t, func(n int, docs []doc) reply {
		switch n {
		case 0:
			return reply{status: 200, items: []int{201, 400, 429, 409, 503, 200, 201, 201, 201, 201}}
		case 1:
			if len(docs) != 2 {
				t.Errorf("the retry holds %d documents, want the 429 and the 503", len(docs))
			}
			return reply{status: 200, items: []int{201, 503}}
		}
		return reply{status: 200}
	})
	s, err := New(quick(e.url()))
	if err != nil {
		t.Fatal(err)
	}
	addN(t, s, 0, 10)
	st := s.Close(context.Background())
	got := e.ids()
	want := []int{0, 5, 6, 7, 8, 9, 2, 4}
	if len(got) != len(want) {
		t.Fatalf("the engine holds %v", got)
	}
	for i, n := range want {
		if id, _ := testDoc(n); got[i] != id {
			t.Errorf("document %d is %s, want %s", i, got[i], id)
		}
	}
	if st.Shipped != 8 || st.Refused != 1 || st.Duplicates != 1 || st.Retried != 3 || st.Requests != 3 {
		t.Errorf("stats %+v", st)
	}
}

// A slow engine: the memory held stays within the budget (plus the batch
// being sent) while records keep coming, the rest goes to the spool, and
// everything arrives once, in order, when the engine answers again.
func TestSlowEngineSpools(t *testing.T) {
	release := make(chan struct{})
	e := newEngine(t, func(n int, _ []doc) reply {
		if n == 0 {
			<-release
		}
		return reply{status: 200}
	})
	c := quick(e.url())
	c.SpoolDir = t.TempDir()
	c.MemoryBytes = 2000 // a few compressed batches
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	maxBatch := int64(0)
	for n := 0; n < 2000; n += 10 {
		addN(t, s, n, n+10) // each ten seal a batch
		s.q.mu.Lock()
		var inMem, sending int64
		for _, b := range s.q.items {
			if b.body != nil {
				inMem += b.size
				if b.sending {
					sending = b.size
				}
			}
			maxBatch = max(maxBatch, b.size)
		}
		if inMem != s.q.mem {
			t.Fatalf("memory counted %d, held %d", s.q.mem, inMem)
		}
		if s.q.mem > c.MemoryBytes+sending {
			t.Fatalf("after %d records, %d bytes in memory: past the budget of %d (+%d being sent)", n+10, s.q.mem, c.MemoryBytes, sending)
		}
		s.q.mu.Unlock()
	}
	if st := s.Stats(); st.Spooled == 0 || st.Shipped != 0 {
		t.Fatalf("stats %+v; want records spooled while the engine is slow", st)
	}
	close(release)
	st := s.Close(context.Background())
	wantIDs(t, e.ids(), 0, 2000)
	if st.Shipped != 2000 || st.Dropped != 0 || st.Pending != 0 {
		t.Errorf("stats %+v", st)
	}
	if left, _ := filepath.Glob(filepath.Join(c.SpoolDir, "*.gz")); len(left) != 0 {
		t.Errorf("spool files left: %v", left)
	}
}

// The engine is down: the spool fills to its bound and then drops the
// oldest batches, counted; a restart of the shipper with the engine up
// sends what the spool kept, oldest first, once.
func TestSpoolFullDropsOldest(t *testing.T) {
	dir := t.TempDir()
	c := quick(deadURL(t))
	c.SpoolDir = dir
	c.MemoryBytes = 1
	c.SpoolBytes = 3000
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	addN(t, s, 0, 1000)
	st := s.Close(context.Background())
	if st.Dropped == 0 || st.Pending == 0 || st.Dropped+st.Pending != 1000 || st.Shipped != 0 {
		t.Fatalf("stats %+v: want the spool's bound to drop some", st)
	}
	if !strings.Contains(st.String(), "dropped (past the spool's bound") {
		t.Errorf("the closing line does not say why records were dropped: %s", st)
	}
	var used int64
	files, _ := filepath.Glob(filepath.Join(dir, "*.bulk.gz"))
	for _, f := range files {
		fi, _ := os.Stat(f)
		used += fi.Size()
	}
	if used > c.SpoolBytes {
		t.Errorf("the spool holds %d bytes, past its bound of %d", used, c.SpoolBytes)
	}

	e := newEngine(t, nil)
	c.URL = e.url()
	s, err = New(c)
	if err != nil {
		t.Fatal(err)
	}
	st2 := s.Close(context.Background())
	// The batch being sent while the spool filled survived (it is kept),
	// then the newest: the oldest were dropped.
	got := e.ids()
	if len(got) != int(st.Pending) || len(got) < 20 {
		t.Fatalf("the engine holds %d documents, want the %d pending", len(got), st.Pending)
	}
	var first int
	fmt.Sscanf(got[0], "h/s/%d/", &first)
	wantIDs(t, got[:10], first, first+10)
	wantIDs(t, got[10:], 1000-len(got)+10, 1000)
	if st2.Replayed != st.Pending || st2.Shipped != st.Pending || st2.Pending != 0 {
		t.Errorf("after the restart: %+v", st2)
	}
}

// Without a spool, the memory budget drops the oldest; Close on an engine
// that never answers counts the rest as unsent.
func TestNoSpool(t *testing.T) {
	c := quick(deadURL(t))
	c.MemoryBytes = 2000
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	addN(t, s, 0, 500)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st := s.Close(ctx)
	if st.Dropped == 0 || st.Unsent == 0 || st.Dropped+st.Unsent != 500 || st.Spooled != 0 {
		t.Errorf("stats %+v", st)
	}
	line := st.String()
	for _, w := range []string{"past the memory budget", "NOT sent", "--ship-spool"} {
		if !strings.Contains(line, w) {
			t.Errorf("the closing line lacks %q: %s", w, line)
		}
	}
}

// Close with a spool and an engine that is down returns after one failed
// try, leaving everything in the spool.
func TestCloseSpoolsWhenDown(t *testing.T) {
	dir := t.TempDir()
	c := quick(deadURL(t))
	c.SpoolDir = dir
	c.RetryMin, c.RetryMax = time.Hour, time.Hour // only Close cuts the pause short
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	addN(t, s, 0, 35)
	st := s.Close(context.Background())
	if st.Pending != 35 || st.Spooled != 35 || st.Shipped != 0 {
		t.Errorf("stats %+v", st)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.bulk.gz"))
	if len(files) != 4 {
		t.Errorf("spool files %v, want 4 batches", files)
	}
}

// Close gives up on an engine that hangs when its context ends, and the
// request in flight goes to the spool.
func TestCloseGivesUpOnAHangingEngine(t *testing.T) {
	hang := make(chan struct{})
	defer close(hang)
	e := newEngine(t, func(int, []doc) reply { <-hang; return reply{status: 200} })
	c := quick(e.url())
	c.SpoolDir = t.TempDir()
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	addN(t, s, 0, 20)
	for e.requests() == 0 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for !s.closingNow() {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	st := s.Close(ctx)
	if st.Pending != 20 || st.Shipped != 0 {
		t.Errorf("stats %+v", st)
	}
}

func TestSpoolIsLocked(t *testing.T) {
	dir := t.TempDir()
	c := quick(deadURL(t))
	c.SpoolDir = dir
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	if _, err := New(c); err == nil || !strings.Contains(err.Error(), "another mcdissect") {
		t.Errorf("a second shipper on one spool: %v", err)
	}
}

// What a crash leaves (a half-written .tmp) is removed; files the spool
// did not write are left alone; an unreadable batch is dropped, counted.
func TestSpoolStart(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "0000000000000001-5-100.bulk.gz.tmp"), []byte("half"), 0o600)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o600)
	os.WriteFile(filepath.Join(dir, "0000000000000002-5-100.bulk.gz"), []byte("not gzip"), 0o600)
	e := newEngine(t, nil)
	c := quick(e.url())
	c.SpoolDir = dir
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	addN(t, s, 0, 3)
	st := s.Close(context.Background())
	wantIDs(t, e.ids(), 0, 3)
	if st.Refused != 5 && st.Dropped != 5 {
		t.Errorf("stats %+v: the unreadable batch is neither refused nor dropped", st)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Error("a file the spool did not write was removed")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(m) != 0 {
		t.Errorf("left %v", m)
	}
}

func TestAddRefusesWhatIsNotADocument(t *testing.T) {
	e := newEngine(t, nil)
	s, err := New(quick(e.url()))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"", "{", "[1]", "{\"a\":1}\n{\"b\":2}", "x{}"} {
		if err := s.Add("id", time.Now(), []byte(d)); err == nil {
			t.Errorf("Add(%q) took it", d)
		}
	}
	if err := s.Add("id", time.Now(), []byte("{}\n")); err != nil {
		t.Errorf("Add({}): %v", err)
	}
	s.Close(context.Background())
	if err := s.Add("id", time.Now(), []byte("{}")); err != ErrClosed {
		t.Errorf("Add after Close: %v", err)
	}
}

func TestConfig(t *testing.T) {
	for _, u := range []string{"", "localhost:9200/_bulk", "ftp://h/_bulk", "http://h:9200/", "http://h:9200/insert/elasticsearch"} {
		if _, err := New(Config{URL: u}); err == nil {
			t.Errorf("New(%q) took it", u)
		}
	}
	// No Host: this machine's name.
	c := Config{URL: "http://h:9200/_bulk"}
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	if name, _ := os.Hostname(); c.Host != name || name == "" {
		t.Errorf("Host %q, this machine is %q", c.Host, name)
	}
}

func TestClosingLine(t *testing.T) {
	s := Stats{Shipped: 14403, Requests: 12, Retried: 300, Spooled: 512, Pending: 0,
		URL: "http://vl:9428/insert/elasticsearch/_bulk", SpoolDir: "/var/spool/mcdissect", SpoolBytes: 1 << 30}
	want := "ship: 14403 records shipped to http://vl:9428/insert/elasticsearch/_bulk in 12 requests; 300 retried, 512 spooled (0 left in /var/spool/mcdissect for the next run), 0 refused, 0 dropped"
	if got := s.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := endpoint("https://u:secret@es:9200/packets/_bulk?pipeline=x"); got != "https://es:9200/packets/_bulk" {
		t.Errorf("endpoint %s shows more than scheme, host and path", got)
	}
}

// Reading a file (Wait): a slow engine slows Add down instead of filling
// the spool or dropping; memory stays within its budget.
func TestWaitForASlowEngine(t *testing.T) {
	release := make(chan struct{})
	e := newEngine(t, func(n int, _ []doc) reply {
		if n == 0 {
			<-release
		}
		return reply{status: 200}
	})
	c := quick(e.url())
	c.Wait = true
	c.MemoryBytes = 2000
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	added := make(chan struct{})
	go func() {
		addN(t, s, 0, 2000)
		close(added)
	}()
	for e.requests() == 0 {
		time.Sleep(time.Millisecond)
	}
	for range 100 {
		s.q.mu.Lock()
		var sending int64
		for _, b := range s.q.items {
			if b.sending {
				sending = b.size
			}
		}
		if s.q.mem > c.MemoryBytes+sending {
			t.Errorf("%d bytes in memory: past the budget of %d (+%d being sent)", s.q.mem, c.MemoryBytes, sending)
		}
		s.q.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	select {
	case <-added:
		t.Fatal("Add did not wait for the engine")
	default:
	}
	close(release)
	<-added
	st := s.Close(context.Background())
	wantIDs(t, e.ids(), 0, 2000)
	if st.Shipped != 2000 || st.Spooled != 0 || st.Dropped != 0 {
		t.Errorf("stats %+v", st)
	}
}

// Reading a file with an unreachable engine and no spool, Add waits; Close
// with a done context, from another goroutine (Ctrl-C), ends the wait.
func TestCloseEndsAWaitingAdd(t *testing.T) {
	c := quick(deadURL(t))
	c.Wait = true
	c.MemoryBytes = 2000
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() {
		for n := 0; ; n++ {
			id, d := testDoc(n)
			if err := s.Add(id, time.Now(), d); err != nil {
				done <- err
				return
			}
		}
	}()
	for s.Stats().Retried == 0 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st := s.Close(ctx)
	if err := <-done; err != ErrClosed {
		t.Errorf("Add: %v", err)
	}
	if st.Shipped != 0 || st.Unsent+st.Dropped != st.Added {
		t.Errorf("stats %+v", st)
	}
}

// With a spool, a file run whose engine is unreachable spools rather than
// waiting, so that it ends.
func TestWaitSpoolsWhenDown(t *testing.T) {
	c := quick(deadURL(t))
	c.Wait = true
	c.MemoryBytes = 2000
	c.SpoolDir = t.TempDir()
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	addN(t, s, 0, 1000)
	st := s.Close(context.Background())
	if st.Pending != 1000 || st.Dropped != 0 {
		t.Errorf("stats %+v", st)
	}
}

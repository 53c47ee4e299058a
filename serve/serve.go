// Package serve is --serve: the lesson page (-T html) served over HTTP
// while the capture runs, to as many viewers as come (a class), each
// receiving the records as they are dissected.
//
// The server is read-only: it answers GET (and HEAD) for the page, at /,
// and for its event stream, at /events, and nothing it is sent can change
// what is captured or dissected. It listens on the address it is given
// only (ListenAddr makes a bare port loopback).
//
// One history, many viewers. The records, encoded once (render's
// LiveEncoder), go into a history bounded like one page (MaxRecords
// records, MaxBytes bytes): past either, its oldest records are dropped.
// Each viewer is a cursor into the history, not a queue: the capture
// appends and wakes the viewers, and never waits for one. A viewer writes
// what it has not sent yet, at most maxEvent bytes at a time, with a
// deadline; one too slow to follow sees its cursor fall off the history's
// end, and is told how many records it lost (the page says so), and one
// whose connection does not drain within writeTimeout is disconnected
// (its browser reconnects, and resumes where it was, Last-Event-ID). So
// memory is the history's bound plus maxEvent a viewer, whatever the
// viewers do.
//
// A server on loopback can be reached by any web page the viewer's browser
// opens, under a name that resolves to 127.0.0.1 (DNS rebinding): the
// server answers only requests whose Host is an IP address, localhost, or
// this machine's name, so that no other site's page can read the capture.
package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcdissect/mcdissect/record"
	"github.com/mcdissect/mcdissect/render"
)

// Config is what a Server serves and where.
type Config struct {
	// Addr is the address to listen on, host:port (":0" picks a port).
	Addr string
	// Render is the page's options (its title, --redact).
	Render render.Options
	// MaxRecords and MaxBytes bound the history (default: one page's,
	// render.HTMLMaxRecords and HTMLMaxBytes).
	MaxRecords, MaxBytes int
	// Account is charged the history's bytes: the run's memory budget
	// (budget.Account). When it refuses, the oldest records are dropped
	// first, as past MaxBytes. Nil: MaxBytes alone bounds them.
	Account interface {
		Charge(n int64) bool
		Credit(n int64)
	}
	// MaxViewers bounds the event streams served at once (default 200);
	// past it a viewer is told to come back later.
	MaxViewers int
}

// Bounds of a viewer's work.
const (
	// maxEvent is about the most one event carries: a record larger goes
	// alone.
	maxEvent = 256 << 10
	// writeTimeout: a viewer whose connection takes longer to take an
	// event is disconnected.
	writeTimeout = 10 * time.Second
	// keepAlive: an idle stream gets a comment this often, so that a
	// viewer gone is noticed and proxies keep the stream open.
	keepAlive = 15 * time.Second
)

// Server serves the live page. Record, End and Close may be called from
// any goroutine.
type Server struct {
	cfg  Config
	ln   net.Listener
	http *http.Server
	page []byte
	csp  string
	host map[string]bool // names the Host header may carry besides IP addresses

	mu      sync.Mutex
	enc     *render.LiveEncoder
	hist    []entry // the history, oldest first, from hist[start]
	start   int
	next    uint64 // the seq the next record gets (the first is 1)
	bytes   int    // of the history
	wake    chan struct{}
	ended   string // why the capture ended, "" while it runs
	viewers int
	lost    uint64 // records viewers were told they lost, summed

	done     chan struct{} // closed by Close: the streams end
	doneOnce sync.Once
	streams  sync.WaitGroup // the event streams being served
	served   chan struct{}  // Serve returned
}

type entry struct {
	seq     uint64
	json    []byte
	charged bool // its bytes are charged to Config.Account
}

// New listens on cfg.Addr; Serve serves.
func New(cfg Config) (*Server, error) {
	if cfg.MaxRecords <= 0 {
		cfg.MaxRecords = render.HTMLMaxRecords
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = render.HTMLMaxBytes
	}
	if cfg.MaxViewers <= 0 {
		cfg.MaxViewers = 200
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, ln: ln, page: render.LivePage(cfg.Render), csp: render.LiveCSP() + "; frame-ancestors 'none'",
		enc: render.NewLiveEncoder(cfg.Render), next: 1, wake: make(chan struct{}),
		done: make(chan struct{}), served: make(chan struct{}), host: map[string]bool{"localhost": true}}
	if h, _, err := net.SplitHostPort(cfg.Addr); err == nil && h != "" && net.ParseIP(h) == nil {
		s.host[strings.ToLower(h)] = true // the name it was told to listen on
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		h = strings.ToLower(h)
		s.host[h], s.host[h+".local"] = true, true
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", s.servePage)
	mux.HandleFunc("/"+render.LiveEvents, s.serveEvents)
	s.http = &http.Server{Handler: s.guard(mux), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute,
		ErrorLog: log.New(io.Discard, "", 0)}
	return s, nil
}

// URL is where the page is.
func (s *Server) URL() string {
	a := s.ln.Addr().(*net.TCPAddr)
	host := a.IP.String()
	if a.IP.IsUnspecified() {
		host = "127.0.0.1"
		if a.IP.To4() == nil {
			host = "::1"
		}
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(a.Port)) + "/"
}

// Addr is the address it listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Serve serves until Close; it returns nil then.
func (s *Server) Serve() error {
	defer close(s.served)
	err := s.http.Serve(s.ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Needs is what the page reads of a record: -T html's.
func (s *Server) Needs() record.Needs { return render.NeedsOf("html", s.cfg.Render) }

// Record adds r to the history and wakes the viewers. It never waits for
// a viewer.
func (s *Server) Record(r *record.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.enc.Record(nil, r)
	e := entry{seq: s.next, json: b}
	if a := s.cfg.Account; a != nil {
		for !e.charged {
			if e.charged = a.Charge(int64(len(b))); !e.charged && !s.dropOldest() {
				break // the budget holds nothing of ours: the record stays, uncharged
			}
		}
	}
	s.hist = append(s.hist, e)
	s.next++
	s.bytes += len(b)
	for s.live() > 1 && (s.live() > s.cfg.MaxRecords || s.bytes > s.cfg.MaxBytes) {
		s.dropOldest()
	}
	if s.start > 1024 && s.start > len(s.hist)/2 {
		n := copy(s.hist, s.hist[s.start:])
		clear(s.hist[n:])
		s.hist = s.hist[:n]
		s.start = 0
	}
	s.signal()
	return nil
}

// dropOldest drops the oldest record of the history, and reports whether
// there was one; s.mu is held.
func (s *Server) dropOldest() bool {
	if s.live() == 0 {
		return false
	}
	e := &s.hist[s.start]
	s.bytes -= len(e.json)
	if e.charged {
		s.cfg.Account.Credit(int64(len(e.json)))
	}
	*e = entry{}
	s.start++
	return true
}

// live is how many records the history holds.
func (s *Server) live() int { return len(s.hist) - s.start }

// signal wakes every viewer waiting; s.mu is held.
func (s *Server) signal() {
	close(s.wake)
	s.wake = make(chan struct{})
}

// Flush does nothing: every record is given to the viewers as it comes
// (the analyzer's Sink).
func (s *Server) Flush() error { return nil }

// End tells the viewers that the capture ended, and why ("the file
// ended", "stopped by a signal"): once they have every record, their
// pages say so.
func (s *Server) End(why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if why == "" {
		why = "the capture ended"
	}
	s.ended = why
	s.signal()
}

// Close ends every event stream (their pages say that the server stopped,
// or the capture ended if it did), waiting until ctx is done at most, and
// stops serving. A page being sent is cut: nothing is lost that a reload
// would not give, and a browser's idle or preconnected connections would
// hold a graceful shutdown for seconds.
func (s *Server) Close(ctx context.Context) error {
	s.doneOnce.Do(func() { close(s.done) })
	streams := make(chan struct{})
	go func() {
		s.streams.Wait()
		close(streams)
	}()
	var err error
	select {
	case <-streams:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if cerr := s.http.Close(); err == nil {
		err = cerr
	}
	return err
}

// Lost is how many records the viewers were told they lost (a viewer too
// slow to follow), summed over the viewers.
func (s *Server) Lost() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lost
}

// guard answers only GET and HEAD, and only to a Host that no other site
// can be made to resolve here (the package comment), with headers that
// keep the page its own: its CSP, no sniffing, no referrer, no framing.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Cache-Control", "no-store")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "read-only: this server only shows the capture", http.StatusMethodNotAllowed)
			return
		}
		if !s.hostOK(r.Host) {
			http.Error(w, "this page answers to its IP address or localhost, not to "+strconv.Quote(r.Host), http.StatusMisdirectedRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostOK reports whether the Host header names this server in a way no
// other site can borrow: an IP address, localhost, or this machine's name.
func (s *Server) hostOK(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if net.ParseIP(host) != nil {
		return true
	}
	return s.host[strings.ToLower(strings.TrimSuffix(host, "."))]
}

func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", s.csp)
	h.Set("Content-Length", strconv.Itoa(len(s.page)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(s.page)
}

// serveEvents is one viewer's event stream: every record of the history
// from where the viewer is (the oldest, or after Last-Event-ID when its
// browser reconnects), then each record as it comes, until the capture
// ended and the viewer has them all, or the server closes.
//
// An event is one JSON object: fs and f, the field table's entries from
// index fs on (the page keeps those it lacks); xs and x, the expert
// table's; r, records; dropped, the records the history no longer held
// when the viewer came; lost, those it fell behind by. Its id is the seq
// of its last record.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.viewers >= s.cfg.MaxViewers {
		s.mu.Unlock()
		w.Header().Set("Retry-After", "10")
		http.Error(w, "too many viewers at once", http.StatusServiceUnavailable)
		return
	}
	s.viewers++
	s.streams.Add(1)
	s.mu.Unlock()
	defer s.streams.Done()
	defer func() {
		s.mu.Lock()
		s.viewers--
		s.mu.Unlock()
	}()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	if r.Method == http.MethodHead {
		return
	}
	rc := http.NewResponseController(w)
	v := viewer{w: w, rc: rc}
	if id, err := strconv.ParseUint(r.Header.Get("Last-Event-ID"), 10, 64); err == nil {
		v.from = id + 1 // its browser reconnects
	}
	if !v.write([]byte("retry: 2000\n\n")) {
		return
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		ev, wake, ended, more := s.take(&v)
		if ev != nil && !v.write(ev) {
			return
		}
		if more {
			continue
		}
		if ended != "" {
			v.write(endEvent(ended))
			return
		}
		select {
		case <-wake:
		case <-tick.C:
			if !v.write([]byte(":\n\n")) {
				return
			}
		case <-r.Context().Done():
			return
		case <-s.done:
			v.write(endEvent("the server stopped"))
			return
		}
	}
}

// viewer is what a stream knows of its viewer: where it is in the
// history, what it has of the tables, and its connection.
type viewer struct {
	from   uint64 // the seq of the next record to send it (0: the oldest)
	nf, nx int    // field and expert table entries sent
	w      http.ResponseWriter
	rc     *http.ResponseController
	buf    []byte
	recs   [][]byte
}

// write sends b and flushes it, within writeTimeout.
func (v *viewer) write(b []byte) bool {
	v.rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	if _, err := v.w.Write(b); err != nil {
		return false
	}
	return v.rc.Flush() == nil
}

// take makes v's next event from what it has not been sent, or nil if it
// has everything; it returns too the channel that a new record closes,
// why the capture ended if it did and v has every record, and whether the
// event stopped short of what is waiting (more to send at once).
func (s *Server) take(v *viewer) (ev []byte, wake chan struct{}, ended string, more bool) {
	s.mu.Lock()
	oldest := s.next - uint64(s.live())
	var dropped, lost uint64
	switch {
	case v.from == 0:
		dropped = oldest - 1 // older than the history: before the viewer came
		v.from = oldest
	case v.from < oldest:
		lost = oldest - v.from
		s.lost += lost
		v.from = oldest
	case v.from > s.next:
		v.from = s.next // an id from another run of the server
	}
	size := 0
	v.recs = v.recs[:0]
	for seq := v.from; seq < s.next; seq++ {
		j := s.hist[s.start+int(seq-oldest)].json
		if len(v.recs) > 0 && size+len(j) > maxEvent {
			more = true
			break
		}
		v.recs = append(v.recs, j)
		size += len(j)
	}
	fields, experts := s.enc.Fields(), s.enc.Experts()
	wake = s.wake
	if s.ended != "" && v.from+uint64(len(v.recs)) == s.next {
		ended = s.ended
	}
	s.mu.Unlock()

	if len(v.recs) == 0 && dropped == 0 && lost == 0 && len(fields) == v.nf && len(experts) == v.nx {
		return nil, wake, ended, false
	}
	b := v.buf[:0]
	if len(v.recs) > 0 {
		v.from += uint64(len(v.recs))
		b = append(b, "id: "...)
		b = strconv.AppendUint(b, v.from-1, 10)
		b = append(b, '\n')
	}
	b = append(b, "data: {\"fs\":"...)
	b = strconv.AppendInt(b, int64(v.nf), 10)
	b = appendList(append(b, ",\"f\":"...), fields[v.nf:])
	b = append(b, ",\"xs\":"...)
	b = strconv.AppendInt(b, int64(v.nx), 10)
	b = appendList(append(b, ",\"x\":"...), experts[v.nx:])
	v.nf, v.nx = len(fields), len(experts)
	if dropped > 0 {
		b = strconv.AppendUint(append(b, ",\"dropped\":"...), dropped, 10)
	}
	if lost > 0 {
		b = strconv.AppendUint(append(b, ",\"lost\":"...), lost, 10)
	}
	b = appendList(append(b, ",\"r\":"...), v.recs)
	b = append(b, "}\n\n"...)
	clear(v.recs) // the history may drop them: hold none
	if cap(b) <= 2*maxEvent {
		v.buf = b
	} else {
		v.buf = nil
	}
	return b, wake, ended, more
}

// appendList appends a JSON array of the items, with the newlines that
// JSON allows between its tokens made data lines of the event.
func appendList(b []byte, items [][]byte) []byte {
	b = append(b, '[')
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendData(b, it)
	}
	return append(b, ']')
}

// appendData appends JSON text to an event's data: a newline in it (none
// is expected: strings escape theirs) continues on a new data line.
func appendData(b, j []byte) []byte {
	for {
		i := bytes.IndexAny(j, "\r\n")
		if i < 0 {
			return append(b, j...)
		}
		b = append(b, j[:i]...)
		b = append(b, "\ndata: "...)
		j = j[i+1:]
	}
}

// endEvent says that the stream ends, and why.
func endEvent(why string) []byte {
	text, _ := json.Marshal(why)
	return fmt.Appendf(nil, "event: end\ndata: {\"text\":%s}\n\n", appendData(nil, text))
}

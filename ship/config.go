package ship

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// Config says where records go and how much the shipper may hold.
type Config struct {
	// URL is the engine's bulk endpoint itself, with the query arguments
	// the engine needs: http://es:9200/_bulk, or VictoriaLogs'
	// http://vl:9428/insert/elasticsearch/_bulk?_time_field=timestamp&….
	// User information in it (http://user:pass@host/…) is sent as basic
	// authentication.
	URL string
	// Header is added to every request (e.g. Authorization: ApiKey …).
	Header http.Header

	// Host and Source name the capture: the host mcdissect runs on (empty:
	// this machine's name) and the interface or file it reads. Each
	// document carries them ("host", "source") and its ID is made of them
	// (IDs).
	Host, Source string
	// Index names each document's index in its action line; empty: the
	// day of the record as tshark's -T ek names it (packets-2026-11-22).
	Index string

	// SpoolDir, when set, is the directory of the on-disk spool: batches
	// the engine cannot take yet wait there, and are sent, oldest first,
	// when it comes back, by this run or the next one. SpoolBytes bounds
	// its files (default 1 GiB); past it the oldest batches are dropped
	// and counted. Without a spool, batches wait in memory only.
	SpoolDir   string
	SpoolBytes int64

	// Wait makes Add wait for room in memory instead of spilling to the
	// spool or dropping: for a file, which loses nothing by being read
	// more slowly than the engine takes it. With a spool, batches still go
	// there while the engine is unreachable, so that the run ends. Never
	// for a live capture, which must keep reading packets.
	Wait bool

	// MemoryBytes bounds the compressed batches held in memory, waiting for
	// the engine or being sent (default 16 MiB); past it they go to the
	// spool, or without one the oldest are dropped. Batches being filled
	// and compressed add at most four times BatchBytes.
	MemoryBytes int64
	// A batch is sent when it holds BatchBytes of bulk lines (default
	// 1 MiB) or BatchDocs documents (default 5000), or FlushInterval
	// (default 1 s) after its first document: a quiet capture still ships
	// within about a second.
	BatchBytes    int
	BatchDocs     int
	FlushInterval time.Duration

	// A failed request is tried again after a pause that starts at
	// RetryMin (default 200 ms) and doubles up to RetryMax (default 10 s),
	// with jitter; Retry-After is honoured up to a minute. Timeout bounds
	// one request (default 30 s).
	RetryMin, RetryMax time.Duration
	Timeout            time.Duration

	// Logf, when set, is told when the engine becomes unreachable and
	// comes back, and the first reason of each kind it refuses documents
	// for.
	Logf func(format string, args ...any)
	// Client sends the requests; nil: one made for the shipper.
	Client *http.Client
}

// Defaults.
const (
	DefaultSpoolBytes    = 1 << 30
	DefaultMemoryBytes   = 16 << 20
	DefaultBatchBytes    = 1 << 20
	DefaultBatchDocs     = 5000
	DefaultFlushInterval = time.Second
	DefaultRetryMin      = 200 * time.Millisecond
	DefaultRetryMax      = 10 * time.Second
	DefaultTimeout       = 30 * time.Second
	maxRetryAfter        = time.Minute
)

// check fills in the defaults and checks the URL.
func (c *Config) check() error {
	if c.URL == "" {
		return errors.New("ship: no URL")
	}
	u, err := url.Parse(c.URL)
	if err != nil {
		return fmt.Errorf("ship: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return fmt.Errorf("ship: %q is not an http:// or https:// URL", c.URL)
	}
	if !strings.HasSuffix(u.Path, "/_bulk") {
		return fmt.Errorf("ship: %q: the URL is the bulk endpoint itself, …/_bulk (e.g. http://localhost:9428/insert/elasticsearch/_bulk)", c.URL)
	}
	if c.Host == "" {
		c.Host, _ = os.Hostname()
	}
	set := func(v *int64, d int64) {
		if *v <= 0 {
			*v = d
		}
	}
	set(&c.SpoolBytes, DefaultSpoolBytes)
	set(&c.MemoryBytes, DefaultMemoryBytes)
	if c.BatchBytes <= 0 {
		c.BatchBytes = DefaultBatchBytes
	}
	if c.BatchDocs <= 0 {
		c.BatchDocs = DefaultBatchDocs
	}
	setD := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	setD(&c.FlushInterval, DefaultFlushInterval)
	setD(&c.RetryMin, DefaultRetryMin)
	setD(&c.RetryMax, DefaultRetryMax)
	setD(&c.Timeout, DefaultTimeout)
	if c.RetryMax < c.RetryMin {
		c.RetryMax = c.RetryMin
	}
	return nil
}

// endpoint is the URL as the closing line names it: scheme, host and
// path, without user information or query.
func endpoint(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the engine"
	}
	return u.Scheme + "://" + u.Host + u.Path
}

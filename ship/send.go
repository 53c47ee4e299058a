package ship

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxResponse bounds what is read of an answer: a bulk response names
// every document, a few hundred bytes each when they failed.
const maxResponse = 64 << 20

// result is what one bulk request came to.
type result struct {
	shipped, dup, refused int
	// retry lists the documents (by index in the batch) to send again;
	// all of them when the request failed as a whole.
	retry []int
	all   bool // the request failed as a whole and may be retried
	// after is the engine's Retry-After, if any
	after time.Duration
	// why is the reason for the retries or refusals, for the log
	why string
	// kind of trouble, for telling each kind once: "unreachable",
	// "status 503", "item 400 mapper_parsing_exception", …
	kind string
}

// post sends b once and reads the engine's answer.
func (s *Shipper) post(b *batch) result {
	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.URL, bytes.NewReader(b.body))
	if err != nil {
		return result{all: true, why: err.Error(), kind: "request"}
	}
	for k, v := range s.cfg.Header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/x-ndjson")
	req.Header.Set("Content-Encoding", "gzip")
	req.Header.Set("User-Agent", "mcdissect")
	s.st.requests.Add(1)
	s.st.bytesSent.Add(b.size)
	resp, err := s.client.Do(req)
	if err != nil {
		return result{all: true, why: err.Error(), kind: "unreachable"}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return result{all: true, why: "reading the answer: " + err.Error(), kind: "unreachable"}
	}
	code := resp.StatusCode
	switch {
	case code == http.StatusTooManyRequests || code >= 500:
		return result{all: true, after: retryAfter(resp.Header.Get("Retry-After")),
			why: status(code, body), kind: "status " + strconv.Itoa(code)}
	case code < 200 || code >= 300:
		return result{refused: b.docs, why: status(code, body), kind: "status " + strconv.Itoa(code)}
	}
	return readBulk(body, b.docs)
}

// readBulk reads a bulk response: which documents the engine took, which
// it had already (409), which to send again (429, 5xx) and which it
// refused (other 4xx).
func readBulk(body []byte, docs int) result {
	var top struct {
		Errors *bool           `json:"errors"`
		Items  json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(body, &top); err != nil || top.Errors == nil {
		return result{refused: docs, why: "the answer is not a bulk response: " + clip(body), kind: "not bulk"}
	}
	if !*top.Errors {
		return result{shipped: docs}
	}
	var items []map[string]struct {
		Status int             `json:"status"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(top.Items, &items); err != nil {
		return result{refused: docs, why: "the bulk response's items: " + err.Error(), kind: "not bulk"}
	}
	var r result
	for i := 0; i < docs; i++ {
		if i >= len(items) {
			// Not answered for: sent again.
			r.retry = append(r.retry, i)
			continue
		}
		for _, it := range items[i] { // one action per item
			switch c := it.Status; {
			case c >= 200 && c < 300:
				r.shipped++
			case c == http.StatusConflict:
				r.dup++
			case c == http.StatusTooManyRequests || c >= 500:
				r.retry = append(r.retry, i)
				if r.why == "" {
					r.why, r.kind = "item "+itemError(c, it.Error), "item "+strconv.Itoa(c)
				}
			default:
				r.refused++
				why := itemError(c, it.Error)
				r.why, r.kind = "document refused: "+why, "item "+strconv.Itoa(c)+" "+errType(it.Error)
			}
		}
	}
	return r
}

// send ships the batches, oldest first, until the queue is closed and
// empty, or the shipper stops.
func (s *Shipper) send() {
	defer close(s.sent)
	down := false
	told := map[string]bool{}
	for {
		b := s.q.take()
		if b == nil {
			return
		}
		if b.body == nil {
			if err := s.q.load(b); err != nil {
				s.logf("ship: dropping an unreadable spool file: %v", err)
				s.q.dropTaken(b)
				continue
			}
		}
		fails := 0
		for {
			r := s.post(b)
			s.st.shipped.Add(int64(r.shipped))
			s.st.duplicates.Add(int64(r.dup))
			s.st.refused.Add(int64(r.refused))
			if b.replay {
				s.st.replayed.Add(int64(r.shipped))
			}
			if r.refused > 0 && !told[r.kind] {
				told[r.kind] = true
				s.logf("ship: the engine refused %d of %d records (not retried): %s", r.refused, b.docs, r.why)
			}
			if !r.all && len(r.retry) == 0 {
				if down {
					down = false
					s.q.setDown(false)
					s.logf("ship: the engine takes records again")
				}
				s.q.done(b)
				break
			}
			if r.all && !down {
				down = true
				s.q.setDown(true)
				what := "spooling"
				if s.q.sp == nil {
					what = "holding them in memory"
				}
				s.logf("ship: cannot ship to %s (%s); retrying, %s", endpoint(s.cfg.URL), r.why, what)
			}
			if !r.all {
				if !told[r.kind] {
					told[r.kind] = true
					s.logf("ship: the engine asks for %d of %d records again: %s", len(r.retry), b.docs, r.why)
				}
				if err := s.keep(b, r.retry); err != nil {
					s.logf("ship: %v", err)
					s.q.dropTaken(b)
					break
				}
			}
			fails++
			if !s.pause(fails, r.after) {
				s.q.release(b)
				return
			}
			s.st.retried.Add(int64(b.docs))
		}
	}
}

// keep narrows b to the documents to send again.
func (s *Shipper) keep(b *batch, idx []int) error {
	raw, err := decompress(b.body, int64(b.raw))
	if err != nil {
		return fmt.Errorf("cannot reread a batch to retry part of it: %w", err)
	}
	ps := pairs(raw)
	var out []byte
	for _, i := range idx {
		if i < len(ps) {
			out = append(out, ps[i]...)
		}
	}
	s.q.replace(b, compress(out), len(idx), len(out))
	return nil
}

// pause waits before try fails+1: exponential backoff with jitter, at
// least the engine's Retry-After. It reports false when the sender must
// stop: the shipper is stopping, or closing with a spool to keep the
// batch.
func (s *Shipper) pause(fails int, after time.Duration) bool {
	if s.closingNow() && s.q.sp != nil {
		return false
	}
	d := s.cfg.RetryMin
	for i := 1; i < fails && d < s.cfg.RetryMax; i++ {
		d *= 2
	}
	d = min(d, s.cfg.RetryMax)
	d = d/2 + rand.N(d/2+1) // equal jitter: hosts that failed together spread out
	d = max(d, min(after, maxRetryAfter))
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-s.closing:
		// Closing: one more try at once, then (with a spool) stop.
		return true
	case <-s.ctx.Done():
		return false
	}
}

// retryAfter reads a Retry-After header given in seconds.
func retryAfter(h string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(h))
	if err != nil || n < 0 {
		return 0
	}
	return time.Duration(n) * time.Second
}

func status(code int, body []byte) string {
	return fmt.Sprintf("%d %s: %s", code, http.StatusText(code), clip(body))
}

func itemError(code int, e json.RawMessage) string {
	return fmt.Sprintf("%d %s", code, clip(e))
}

// errType is an Elasticsearch item error's type (mapper_parsing_exception).
func errType(e json.RawMessage) string {
	var v struct {
		Type string `json:"type"`
	}
	json.Unmarshal(e, &v)
	return v.Type
}

// clip shortens an answer for the log.
func clip(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

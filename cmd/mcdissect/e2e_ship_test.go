package main

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// TestShip: --ship sends every record shown, after -Y, as a -T ek
// document to the bulk endpoint, and says so on stderr. (What an engine
// that fails does to a run, ship's own tests try with a real one.)
func TestShip(t *testing.T) {
	var mu sync.Mutex
	var docs []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		sc := bufio.NewScanner(zr)
		sc.Buffer(nil, 16<<20)
		var items []string
		for n := 0; sc.Scan(); n++ {
			if n%2 == 1 { // action, document, action, document...
				mu.Lock()
				docs = append(docs, sc.Text())
				mu.Unlock()
				items = append(items, `{"create":{"status":201}}`)
			}
		}
		fmt.Fprintf(w, `{"took":1,"errors":false,"items":[%s]}`, strings.Join(items, ","))
	}))
	defer srv.Close()
	const sample = "../../samples/slp-status-concurrent.pcap"
	want, _, _ := mcd(t, nil, "-r", sample, "-Y", "slp.status", "-T", "ek")
	_, stderr, code := mcd(t, nil, "-r", sample, "-Y", "slp.status", "-q", "--ship", srv.URL+"/_bulk")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(want, "\n") / 2; len(docs) != n || n == 0 {
		t.Fatalf("%d documents shipped, -T ek writes %d", len(docs), n)
	}
	if !strings.Contains(docs[0], `"layers":`) || !strings.Contains(docs[0], `"record_id":`) {
		t.Errorf("a document: %s", docs[0])
	}
	if !strings.Contains(stderr, fmt.Sprintf("ship: %d records shipped", len(docs))) {
		t.Errorf("stderr: %s", stderr)
	}
}

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
// document to the bulk endpoint, and says so on stderr. A summary run
// (no -V, no -Y) ships the same documents: the shipper says it reads the
// trees and layers, so the run decodes them. (What an engine that fails
// does to a run, ship's own tests try with a real one.)
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
	for _, tc := range []struct {
		name  string
		flags []string
	}{
		{"filtered", []string{"-Y", "slp.status", "-q"}},
		{"summary", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs = nil
			want, _, _ := mcd(t, nil, append([]string{"-r", sample, "-T", "ek"}, without(tc.flags, "-q")...)...)
			_, stderr, code := mcd(t, nil, append([]string{"-r", sample, "--ship", srv.URL + "/_bulk"}, tc.flags...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			wantDocs := lines(want)
			if n := len(wantDocs) / 2; len(docs) != n || n == 0 {
				t.Fatalf("%d documents shipped, -T ek writes %d", len(docs), n)
			}
			for i, d := range docs {
				// The envelope first, then -T ek's document.
				if w := wantDocs[2*i+1]; !strings.HasPrefix(d, `{"host":`) || !strings.Contains(d, `"record_id":`) || !strings.HasSuffix(d, w[1:]) {
					t.Fatalf("document %d:\n%s\nwant -T ek's:\n%s", i, d, w)
				}
			}
			if all := strings.Join(docs, "\n"); !strings.Contains(all, `"slp_slp_status_description":`) || !strings.Contains(all, `"tcp_tcp_srcport":`) {
				t.Errorf("the documents hold no slp or tcp field:\n%s", docs[0])
			}
			if !strings.Contains(stderr, fmt.Sprintf("ship: %d records shipped", len(docs))) {
				t.Errorf("stderr: %s", stderr)
			}
		})
	}
}

// without is args less drop.
func without(args []string, drop string) []string {
	var out []string
	for _, a := range args {
		if a != drop {
			out = append(out, a)
		}
	}
	return out
}

package ek

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/record"
	"github.com/mcdissect/mcdissect/render"
	"github.com/mcdissect/mcdissect/ship"
)

// The documents shipped are the -T ek renderer's, each with host, source
// and record_id first, and an ID per record that is never repeated.
func TestShipsTheEKDocuments(t *testing.T) {
	var mu sync.Mutex
	var got [][]byte
	ids := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			t.Error(err)
			return
		}
		body, _ := io.ReadAll(zr)
		lines := bytes.Split(bytes.TrimSuffix(body, []byte("\n")), []byte("\n"))
		mu.Lock()
		for i := 0; i+1 < len(lines); i += 2 {
			var a struct {
				Create struct {
					ID string `json:"_id"`
				} `json:"create"`
			}
			json.Unmarshal(lines[i], &a)
			if ids[a.Create.ID] {
				t.Errorf("ID %s twice", a.Create.ID)
			}
			ids[a.Create.ID] = true
			got = append(got, lines[i+1])
		}
		mu.Unlock()
		io.WriteString(w, `{"errors":false,"items":[]}`)
	}))
	defer srv.Close()

	for _, pcap := range []string{"slp-status-concurrent.pcap", "slp-status-losses.pcap", "classic-session.pcap", "query-clients.pcap", "handmade-classic-secrets.pcap"} {
		t.Run(pcap, func(t *testing.T) {
			got = nil
			o := render.Options{Redact: true}
			s, err := ship.New(ship.Config{URL: srv.URL + "/_bulk", Host: "h", Source: pcap, Wait: true})
			if err != nil {
				t.Fatal(err)
			}
			out := New(s, o)
			var want bytes.Buffer
			wr := render.New("ek", &want, o)
			records(t, filepath.Join("../../samples", pcap), o.Redact, func(r *record.Record) error {
				if err := wr.Record(r); err != nil {
					return err
				}
				return out.Record(r)
			})
			wr.End()
			out.Flush()
			st := s.Close(context.Background())
			wantDocs := bytes.Split(bytes.TrimSuffix(want.Bytes(), []byte("\n")), []byte("\n"))
			if len(wantDocs) < 2 {
				t.Fatalf("-T ek wrote %q", want.Bytes())
			}
			if st.Shipped != int64(len(wantDocs)/2) || len(got) != len(wantDocs)/2 {
				t.Fatalf("shipped %d, the engine got %d, -T ek wrote %d", st.Shipped, len(got), len(wantDocs)/2)
			}
			for i := range got {
				w := wantDocs[2*i+1]
				prefix := `{"host":"h","source":"` + pcap + `","record_id":"`
				if !bytes.HasPrefix(got[i], []byte(prefix)) || !bytes.HasSuffix(got[i], w[1:]) {
					t.Fatalf("document %d:\n%s\nwant -T ek's with the envelope first:\n%s", i, got[i], w)
				}
			}
			if strings.Contains(pcap, "secrets") && !bytes.Contains(bytes.Join(got, nil), []byte("<redacted>")) {
				t.Error("--redact did not reach the shipped documents")
			}
		})
	}
}

func records(t *testing.T, path string, redact bool, emit func(*record.Record) error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	src, err := analyze.OpenFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := analyze.Run(src, analyze.New(analyze.Options{Redact: redact}, analyze.SinkFunc(emit))); err != nil {
		t.Fatal(err)
	}
}

// TestNeeds: the documents are -T ek's, which read the trees and the
// layers, so a summary run that ships decodes them.
func TestNeeds(t *testing.T) {
	for _, o := range []render.Options{{}, {Redact: true}} {
		if n := (&Output{opts: o}).Needs(); n != (record.Needs{Trees: true, Layers: netlayers.All}) {
			t.Errorf("%+v: %+v", o, n)
		}
	}
}

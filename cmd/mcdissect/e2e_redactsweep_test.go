package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

// redactCaptures are the hostile captures of the redaction sweep, written
// by internal/capgen (hand-made: each generator says why it exists and
// that real peers do not send it), with the options of the run.
var redactCaptures = []struct {
	name  string
	extra []string
	write func(w *capgen.Writer)
}{
	{"copies", nil, (*capgen.Writer).SecretCopies},
	// The Classic streams decoded as SLP: no decoder learns the key; the
	// bytes SLP does not understand are masked whole.
	{"copies-as-slp", []string{"-d", "tcp.port==25565,slp"}, (*capgen.Writer).SecretCopies},
	{"hbparams", nil, func(w *capgen.Writer) { w.HeartbeatManyParams(300) }},
	{"hbchunked", nil, (*capgen.Writer).HeartbeatChunked},
	{"hbnosyn", nil, (*capgen.Writer).HeartbeatWithoutSYN},
	{"encodings", nil, (*capgen.Writer).SecretEncodings},
	{"late", nil, func(w *capgen.Writer) { w.SecretLate(true) }},
}

// redactModes are every output mode: DIR is replaced by a directory of the
// run's own, URL by a bulk endpoint of the test's.
var redactModes = [][]string{
	{},
	{"-V"},
	{"-x"},
	{"-V", "-x"},
	{"-V", "--explain"},
	{"-O", "classic", "-V"},
	{"-O", "slp", "-V", "-x"},
	{"-T", "json"},
	{"-T", "json", "-x"},
	{"-T", "ek"},
	{"-T", "pdml"},
	{"-T", "psml"},
	{"-T", "fields", "-e", "frame.number", "-e", "mc.message", "-e", "mc.expert", "-e", "classic.text", "-e", "classic.motd", "-e", "classic.heartbeat.salt",
		"-e", "classic.heartbeat.body", "-e", "classic.heartbeat.dechunked", "-e", "mc.undissected", "-e", "slp.data", "-e", "slp.status.json", "-e", "slp.status.favicon",
		"-e", "slp.legacy.motd", "-e", "query.motd", "-e", "query.kv.hostname", "-e", "query.player", "-e", "raknet.pong.motd", "-e", "raknet.pong.sub_motd", "-e", "raknet.server_id", "-e", "_ws.col.Info"},
	{"-T", "html"},
	{"-q", "-z", "mc,servers"},
	{"-q", "-z", "expert", "-z", "conv,mc", "-z", "mc,stat"},
	{"-2", "-V", "-x"},
	{"-2"},
	{"-Y", "classic || slp || query || raknet", "-V", "-x"},
	{"-Y", "frame.number > 0", "-T", "json"},
	{"-q", "--export-objects", "level,DIR"},
	{"-q", "--export-objects", "favicon,DIR"},
	{"-q", "--ship", "URL"},
}

// TestRedactSweep runs every hostile capture of redactCaptures in every
// output mode of redactModes with --redact, on one back end and on
// several, and looks for the salt and the key in every form (as text in
// any case, in hex, URL-encoded: secretForms, by windows of 8 characters)
// in everything the run writes: its standard output and error, the bytes
// the -T html page holds in base64, the files --export-objects writes and
// the documents --ship sends.
func TestRedactSweep(t *testing.T) {
	dir := t.TempDir()
	var forms []string
	for _, s := range []string{capgen.HostileSalt, capgen.HostileKey("alex")} {
		forms = append(forms, secretForms(s)...)
	}
	var mu sync.Mutex
	var shipped bytes.Buffer
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		body, _ := io.ReadAll(zr)
		mu.Lock()
		shipped.Write(body)
		mu.Unlock()
		n := bytes.Count(body, []byte("\n")) / 2
		w.Write([]byte(`{"took":1,"errors":false,"items":[` + strings.TrimSuffix(strings.Repeat(`{"create":{"status":201}},`, n), ",") + `]}`))
	}))
	defer srv.Close()
	for _, c := range redactCaptures {
		path := filepath.Join(dir, c.name+".pcap")
		w, err := capgen.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		c.write(w)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		t.Run(c.name, func(t *testing.T) {
			// The capture does hold the secrets: without --redact they show.
			plain := runEnv(t, "", append([]string{"-r", path, "-V", "-x"}, c.extra...)...)
			for _, s := range []string{capgen.HostileSalt, capgen.HostileKey("alex")} {
				if !containsAny(plain, secretForms(s)) {
					t.Fatalf("%s does not show without --redact: the test looks for the wrong thing", s)
				}
			}
			for mi, m := range redactModes {
				for _, procs := range []string{"1", "2"} {
					if procs == "2" && mi%3 != 0 {
						continue // several back ends: a third of the modes
					}
					out := filepath.Join(dir, c.name+"-out")
					os.RemoveAll(out)
					mu.Lock()
					shipped.Reset()
					mu.Unlock()
					args := append([]string{"-r", path, "--redact"}, c.extra...)
					for _, a := range m {
						a = strings.ReplaceAll(a, "DIR", out)
						args = append(args, strings.ReplaceAll(a, "URL", srv.URL+"/_bulk"))
					}
					got := withBase64(runStatus(t, procs, 0, args...))
					files, _ := filepath.Glob(filepath.Join(out, "*"))
					for _, f := range files {
						b, err := os.ReadFile(f)
						if err != nil {
							t.Fatal(err)
						}
						got += "\n\x00file " + f + "\n" + string(b)
					}
					mu.Lock()
					got += "\n\x00shipped\n" + withBase64(shipped.String())
					mu.Unlock()
					if strings.Contains(strings.Join(m, " "), "export") && len(files) == 0 && c.name == "encodings" {
						t.Errorf("%v: no file exported", m)
					}
					lower := strings.ToLower(got)
					for _, f := range forms {
						if i := strings.Index(lower, strings.ToLower(f)); i >= 0 {
							t.Errorf("%v (GOMAXPROCS=%s): %q shows: …%q…", m, procs, f, got[max(0, i-80):min(len(got), i+len(f)+20)])
							break
						}
					}
				}
			}
		})
	}
}

// TestRedactLateTwoPass: copies of the salt that leave before the
// heartbeat teaches it (nothing holds them back) keep it, as the README
// says; with -2 the first pass learns it and the second masks them.
func TestRedactLateTwoPass(t *testing.T) {
	path := filepath.Join(t.TempDir(), "late.pcap")
	w, err := capgen.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w.SecretLate(false)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	forms := secretForms(capgen.HostileSalt)
	if out := runEnv(t, "", "-r", path, "--redact", "-V"); !containsAny(out, forms) {
		t.Errorf("one pass: the copies before the heartbeat are masked, the test shows nothing:\n%s", out)
	}
	for _, m := range [][]string{{"-V", "-x"}, {}, {"-T", "json"}} {
		out := withBase64(runStatus(t, "", 0, append([]string{"-r", path, "--redact", "-2"}, m...)...))
		if containsAny(out, forms) {
			t.Errorf("-2 %v: the salt shows:\n%s", m, out)
		}
	}
}

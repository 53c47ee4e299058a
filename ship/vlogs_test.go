package ship

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The tests against a real engine: VictoriaLogs, built by .ci/run with
//
//	go install github.com/VictoriaMetrics/VictoriaLogs/app/victoria-logs@v1.52.1
//
// found on PATH, in $(go env GOPATH)/bin, or at $VICTORIA_LOGS.

// vlogs is a VictoriaLogs process on loopback, its data in a test's
// temporary directory.
type vlogs struct {
	t    *testing.T
	bin  string
	dir  string
	addr string
	cmd  *exec.Cmd
	log  bytes.Buffer
}

// startVLogs starts VictoriaLogs, or skips the test saying why it cannot.
func startVLogs(t *testing.T) *vlogs {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: no real engine")
	}
	bin := findVLogs()
	if bin == "" {
		t.Skip("victoria-logs not found on PATH, in $(go env GOPATH)/bin or at $VICTORIA_LOGS; " +
			"go install github.com/VictoriaMetrics/VictoriaLogs/app/victoria-logs@v1.52.1 (as .ci/run does)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	v := &vlogs{t: t, bin: bin, dir: t.TempDir(), addr: l.Addr().String()}
	l.Close()
	v.start()
	t.Cleanup(func() {
		if v.cmd != nil {
			v.cmd.Process.Kill()
			v.cmd.Wait()
		}
		if t.Failed() {
			t.Logf("victoria-logs said:\n%s", v.log.String())
		}
	})
	return v
}

func findVLogs() string {
	if p := os.Getenv("VICTORIA_LOGS"); p != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
		return ""
	}
	if p, err := exec.LookPath("victoria-logs"); err == nil {
		return p
	}
	out, err := exec.Command("go", "env", "GOPATH").Output()
	if err != nil {
		return ""
	}
	for _, dir := range filepath.SplitList(strings.TrimSpace(string(out))) {
		p := filepath.Join(dir, "bin", "victoria-logs")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// start runs the engine and waits until it answers /health. The samples
// are dated 2024 to 2026: a retention of 100 years keeps them (outside its
// retention VictoriaLogs drops a record and still answers 201).
func (v *vlogs) start() {
	v.t.Helper()
	v.cmd = exec.Command(v.bin, "-httpListenAddr="+v.addr, "-storageDataPath="+v.dir,
		"-retentionPeriod=100y", "-loggerLevel=WARN")
	v.cmd.Stdout, v.cmd.Stderr = &v.log, &v.log
	if err := v.cmd.Start(); err != nil {
		v.t.Fatal(err)
	}
	for {
		resp, err := http.Get("http://" + v.addr + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		if v.cmd.ProcessState != nil {
			v.t.Fatalf("victoria-logs exited: %s", v.log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop ends the engine with sig and waits for it.
func (v *vlogs) stop(sig os.Signal) {
	v.cmd.Process.Signal(sig)
	v.cmd.Wait()
	v.cmd = nil
}

// bulkURL is the fleet recipe's URL (doc/fleet.md).
func (v *vlogs) bulkURL() string {
	return "http://" + v.addr + "/insert/elasticsearch/_bulk?_time_field=timestamp&_msg_field=layers.mc.mc_mc_info&_stream_fields=host,source"
}

// query runs a LogsQL query after making everything ingested searchable,
// and returns its rows.
func (v *vlogs) query(q string) []map[string]string {
	v.t.Helper()
	if resp, err := http.Get("http://" + v.addr + "/internal/force_flush"); err == nil {
		resp.Body.Close()
	}
	resp, err := http.PostForm("http://"+v.addr+"/select/logsql/query", url.Values{"query": {q}})
	if err != nil {
		v.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		v.t.Fatalf("%s: %s: %s", q, resp.Status, b)
	}
	var rows []map[string]string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var row map[string]string
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			v.t.Fatalf("%s: %v in %s", q, err, sc.Bytes())
		}
		rows = append(rows, row)
	}
	return rows
}

// number runs a query whose one row has the number field name.
func (v *vlogs) number(q, name string) float64 {
	v.t.Helper()
	rows := v.query(q)
	if len(rows) != 1 {
		v.t.Fatalf("%s: %d rows, want 1", q, len(rows))
	}
	f, err := strconv.ParseFloat(rows[0][name], 64)
	if err != nil {
		v.t.Fatalf("%s: %s=%q", q, name, rows[0][name])
	}
	return f
}

// ekRecord is one record of -T ek output.
type ekRecord struct {
	frame uint64
	t     time.Time
	doc   []byte
}

// ekOutput renders a capture with mcdissect's -T ek.
func ekOutput(t *testing.T, bin, pcap string) []ekRecord {
	t.Helper()
	out, err := exec.Command(bin, "-r", pcap, "-T", "ek").Output()
	if err != nil {
		t.Fatalf("mcdissect -r %s -T ek: %v", pcap, err)
	}
	var recs []ekRecord
	for _, p := range pairs(out) {
		i := bytes.IndexByte(p, '\n')
		if !bytes.HasPrefix(p, []byte(`{"index":`)) {
			t.Fatalf("%s: not an index line: %q", pcap, p[:i])
		}
		var d struct {
			Timestamp string `json:"timestamp"`
			Layers    struct {
				Frame struct {
					Number uint64 `json:"frame_frame_number"`
				} `json:"frame"`
			} `json:"layers"`
		}
		doc := p[i+1 : len(p)-1]
		if err := json.Unmarshal(doc, &d); err != nil {
			t.Fatalf("%s: %v", pcap, err)
		}
		ms, _ := strconv.ParseInt(d.Timestamp, 10, 64)
		recs = append(recs, ekRecord{d.Layers.Frame.Number, time.UnixMilli(ms), doc})
	}
	return recs
}

// buildMcdissect builds the command whose -T ek is shipped, once for
// the tests that need it.
func buildMcdissect(t *testing.T) string {
	t.Helper()
	mcdissect.once.Do(func() {
		dir, err := os.MkdirTemp("", "ship-test-")
		if err != nil {
			mcdissect.err = err
			return
		}
		mcdissect.dir = dir
		bin := filepath.Join(dir, "mcdissect")
		out, err := exec.Command("go", "build", "-o", bin, "github.com/mcdissect/mcdissect/cmd/mcdissect").CombinedOutput()
		if err != nil {
			mcdissect.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
		mcdissect.bin = bin
	})
	if mcdissect.err != nil {
		t.Fatal(mcdissect.err)
	}
	return mcdissect.bin
}

var mcdissect struct {
	once     sync.Once
	bin, dir string
	err      error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if mcdissect.dir != "" {
		os.RemoveAll(mcdissect.dir)
	}
	os.Exit(code)
}

// shipCapture ships a capture's records as mcdissect -r would, one
// shipper per capture.
func shipCapture(t *testing.T, c Config, recs []ekRecord) Stats {
	t.Helper()
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	ids := NewIDs(c.Host, c.Source)
	for _, r := range recs {
		if err := s.Add(ids.Next(r.frame, r.t, r.doc), r.t, r.doc); err != nil {
			t.Fatal(err)
		}
	}
	return s.Close(t.Context())
}

// flatten writes a document's members as VictoriaLogs stores them: nested
// names joined by dots, numbers as written, arrays as JSON, empty strings
// absent.
func flatten(prefix string, v any, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			name := k
			if prefix != "" {
				name = prefix + "." + k
			}
			flatten(name, e, out)
		}
	case string:
		if x != "" {
			out[prefix] = x
		}
	case json.Number:
		out[prefix] = x.String()
	case bool:
		out[prefix] = strconv.FormatBool(x)
	default:
		b, _ := json.Marshal(x)
		out[prefix] = string(b)
	}
}

// sameNumber reports whether two texts are one number: VictoriaLogs
// stores numbers as numbers, and gives 6.213093000 back as 6.213093 and
// 0.000792000 as 0.0007920000000000001.
func sameNumber(a, b string) bool {
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && math.Abs(x-y) <= 1e-12*math.Max(math.Abs(x), math.Abs(y))
}

// sameJSON reports whether two texts are one JSON value (arrays are
// stored as the JSON shipped, escapes as mcdissect wrote them).
func sameJSON(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

// Every sample, rendered by mcdissect -T ek and shipped, is in the engine:
// each record once, with every field, the typed ones usable as numbers.
func TestVictoriaLogsSamples(t *testing.T) {
	v := startVLogs(t)
	bin := buildMcdissect(t)
	pcaps, _ := filepath.Glob("../samples/*.pcap")
	if len(pcaps) < 40 {
		t.Fatalf("%d samples", len(pcaps))
	}
	want := map[string][]ekRecord{}
	total := 0
	for _, p := range pcaps {
		name := filepath.Base(p)
		recs := ekOutput(t, bin, p)
		want[name] = recs
		c := Config{URL: v.bulkURL(), Host: "test-host", Source: name}
		st := shipCapture(t, c, recs)
		if st.Shipped != int64(len(recs)) || st.Refused+st.Dropped+st.Unsent+st.Retried != 0 {
			t.Errorf("%s: %d records: %s", name, len(recs), st)
		}
		total += len(recs)
	}

	// Counts per sample, and no record twice.
	rows := v.query(`* | stats by (source) count() n, count_uniq(record_id) ids`)
	got := map[string]int{}
	for _, r := range rows {
		n, _ := strconv.Atoi(r["n"])
		if r["ids"] != r["n"] {
			t.Errorf("%s: %s records, %s IDs", r["source"], r["n"], r["ids"])
		}
		got[r["source"]] = n
	}
	for name, recs := range want {
		if got[name] != len(recs) {
			t.Errorf("%s: %d records in the engine, %d shipped", name, got[name], len(recs))
		}
	}
	t.Logf("%d samples, %d records", len(pcaps), total)

	// Every field of every record of a few samples, as shipped.
	for _, name := range []string{"slp-status-gomc.pcap", "query-full.pcap", "handmade-classic-cpe.pcap", "login-offline.pcap", "slp-status-losses.pcap"} {
		stored := map[string]map[string]string{}
		for _, r := range v.query(`source:=` + strconv.Quote(name)) {
			stored[r["record_id"]] = r
		}
		ids := NewIDs("test-host", name)
		for _, rec := range want[name] {
			id := ids.Next(rec.frame, rec.t, rec.doc)
			var doc any
			dec := json.NewDecoder(bytes.NewReader(rec.doc))
			dec.UseNumber()
			if err := dec.Decode(&doc); err != nil {
				t.Fatal(err)
			}
			fields := map[string]string{}
			flatten("", doc, fields)
			s := stored[id]
			if s == nil {
				t.Errorf("%s: record %s is not in the engine", name, id)
				continue
			}
			// The engine's names: _time from timestamp, _msg from the info.
			if tm, err := time.Parse(time.RFC3339Nano, s["_time"]); err != nil || !tm.Equal(rec.t) {
				t.Errorf("%s: %s: _time %s, want %s", name, id, s["_time"], rec.t.UTC())
			}
			delete(fields, "timestamp")
			if info, ok := fields["layers.mc.mc_mc_info"]; ok {
				fields["_msg"] = info
				delete(fields, "layers.mc.mc_mc_info")
			}
			for k, w := range fields {
				if s[k] != w && !sameNumber(s[k], w) && !sameJSON(s[k], w) {
					t.Errorf("%s: %s: %s=%q, want %q", name, id, k, s[k], w)
				}
			}
			if s["host"] != "test-host" || s["source"] != name {
				t.Errorf("%s: %s: host %q source %q", name, id, s["host"], s["source"])
			}
		}
	}

	// Typed fields queried as numbers: ranges and sums agree with the
	// records shipped.
	var players, bigFrames, frameLen, late float64
	for _, r := range want["slp-status-concurrent.pcap"] {
		var d struct {
			Layers struct {
				Frame struct {
					Len float64 `json:"frame_frame_len"`
					Rel float64 `json:"frame_frame_time_relative"`
				} `json:"frame"`
				SLP map[string]any `json:"slp"`
			} `json:"layers"`
		}
		json.Unmarshal(r.doc, &d)
		if n, ok := d.Layers.SLP["slp_slp_status_players_max"].(float64); ok {
			players += n
		}
		if d.Layers.Frame.Len > 200 {
			bigFrames++
		}
		if d.Layers.Frame.Rel > 0.5 {
			late++
		}
		frameLen += d.Layers.Frame.Len
	}
	const src = `source:="slp-status-concurrent.pcap" `
	for _, c := range []struct {
		q    string
		want float64
	}{
		{src + `| stats sum(layers.slp.slp_slp_status_players_max) n`, players},
		{src + `layers.frame.frame_frame_len:>200 | count() n`, bigFrames},
		{src + `layers.frame.frame_frame_time_relative:>0.5 | count() n`, late},
		{src + `| stats sum(layers.frame.frame_frame_len) n`, frameLen},
	} {
		if got := v.number(c.q, "n"); got != c.want {
			t.Errorf("%s: %v, want %v", c.q, got, c.want)
		}
	}
	if players == 0 || bigFrames == 0 || late == 0 {
		t.Errorf("the sample no longer tests much: players %v, big frames %v, late %v", players, bigFrames, late)
	}
}

// The engine is stopped and started again while records are shipped:
// every record arrives, once.
func TestVictoriaLogsRestart(t *testing.T) {
	v := startVLogs(t)
	bin := buildMcdissect(t)
	base := ekOutput(t, bin, "../samples/slp-status-concurrent.pcap")
	spool := t.TempDir()
	c := Config{URL: v.bulkURL(), Host: "test-host", Source: "live",
		SpoolDir: spool, MemoryBytes: 32 << 10, BatchDocs: 100, FlushInterval: 50 * time.Millisecond,
		RetryMin: 10 * time.Millisecond, RetryMax: 100 * time.Millisecond}
	var logged bytes.Buffer
	c.Logf = func(f string, a ...any) { fmt.Fprintf(&logged, f+"\n", a...) }
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	// A stream of records as a live capture gives them: the sample's,
	// again and again, a new frame number each time.
	ids := NewIDs(c.Host, c.Source)
	n := 0
	add := func(k int) {
		for range k {
			r := base[n%len(base)]
			frame := uint64(n/len(base))*1_000_000 + r.frame
			if err := s.Add(ids.Next(frame, r.t, r.doc), r.t, r.doc); err != nil {
				t.Fatal(err)
			}
			n++
			if n%50 == 0 {
				time.Sleep(time.Millisecond) // a capture's pace, not a file's
			}
		}
	}
	add(1500)
	for s.Stats().Shipped == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	v.stop(syscall.SIGTERM)
	add(1500)
	for st := s.Stats(); st.Retried == 0 || st.Spooled == 0; st = s.Stats() {
		add(10)
	}
	v.start()
	add(1500)
	st := s.Close(t.Context())
	t.Logf("%d records: %s", n, st)
	t.Logf("logged:\n%s", logged.String())
	if st.Shipped != int64(n) || st.Spooled == 0 || st.Retried == 0 || st.Dropped+st.Refused+st.Unsent+st.Pending != 0 {
		t.Errorf("stats %+v", st)
	}
	rows := v.query(`source:="live" | stats count() n, count_uniq(record_id) ids`)
	if len(rows) != 1 || rows[0]["n"] != strconv.Itoa(n) || rows[0]["ids"] != strconv.Itoa(n) {
		t.Errorf("the engine holds %v, want %d records with %d IDs", rows, n, n)
	}
}

// A record larger than the engine takes in a line (a vanilla Declare
// Recipes: a 600 KB document) reaches it through --ship bounded, its
// fields past the bound counted: VictoriaLogs skips a longer line, and
// answers the request with success.
func TestVictoriaLogsLargeRecord(t *testing.T) {
	v := startVLogs(t)
	bin := buildMcdissect(t)
	const pcap = "../samples/large/play-1-20-4-recipes.pcap"
	recs := ekOutput(t, bin, pcap)
	big := 0
	for _, r := range recs {
		big = max(big, len(r.doc))
	}
	if big <= 256<<10 {
		t.Fatalf("the largest -T ek document is %d bytes: the sample no longer tests the bound", big)
	}
	out, err := exec.Command(bin, "-r", pcap, "-q", "--ship", v.bulkURL()).CombinedOutput()
	if err != nil {
		t.Fatalf("--ship: %v\n%s", err, out)
	}
	if n := v.number(`source:="play-1-20-4-recipes.pcap" | count() n`, "n"); n != float64(len(recs)) {
		t.Errorf("%v records in the engine, %d shipped\n%s", n, len(recs), out)
	}
	rows := v.query(`source:="play-1-20-4-recipes.pcap" "Declare recipes"`)
	if len(rows) != 1 {
		t.Fatalf("%d Declare recipes records in the engine", len(rows))
	}
	omitted, _ := strconv.Atoi(rows[0]["layers.mc_omitted.mc_omitted_fields"])
	if omitted == 0 || rows[0]["layers.slp.slp_mc_play_declare_recipes_recipes_recipe_id"] == "" {
		t.Errorf("the record's fields: %d omitted, recipe IDs %.80q", omitted, rows[0]["layers.slp.slp_mc_play_declare_recipes_recipes_recipe_id"])
	}
}

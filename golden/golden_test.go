// Package golden checks mcdissect's output on every sample capture against
// the files in this directory: <sample>.txt is the -V tree (with the field
// offsets), <sample>.json the -T json output. `MCDISSECT_UPDATE=1 go test ./...`
// rewrites them; read every diff before committing it.
package golden

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/classic"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
	"github.com/mcdissect/mcdissect/render"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// samples lists the captures in ../samples.
func samples(t *testing.T) []string {
	var out []string
	for _, pat := range []string{"../samples/*.pcap", "../samples/*.pcapng"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	if len(out) == 0 {
		t.Fatal("no samples found")
	}
	return out
}

// options reads <sample>.args: one option a line, "-d RULE" or
// "--classic-salt SALT", for samples that need them.
func options(t *testing.T, pcap string) analyze.Options {
	var o analyze.Options
	b, err := os.ReadFile(strings.TrimSuffix(pcap, filepath.Ext(pcap)) + ".args")
	if os.IsNotExist(err) {
		return o
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch k {
		case "-d":
			d, err := analyze.ParseDecodeAs(v)
			if err != nil {
				t.Fatal(err)
			}
			o.DecodeAs = append(o.DecodeAs, d)
		case "--classic-salt":
			o.Prefs = map[string]any{classic.PrefSalt: v}
		case "":
		default:
			t.Fatalf("%s: unknown option %q", pcap, k)
		}
	}
	return o
}

func run(t *testing.T, pcap, format string) []byte {
	f, err := os.Open(pcap)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	src, err := analyze.OpenFile(f)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r := render.New(format, &out, render.Options{Verbose: true})
	r.Begin()
	a := analyze.New(options(t, pcap), analyze.SinkFunc(r.Record))
	warn, err := analyze.Run(src, a)
	if err != nil {
		t.Fatal(err)
	}
	if warn != nil {
		out.WriteString("warning: " + warn.Error() + "\n")
	}
	r.End()
	return out.Bytes()
}

// TestGolden: every sample's -V text is its golden file (<sample>.txt);
// its -T json is valid JSON, and kept as a golden file for the samples of
// machineGolden.
func TestGolden(t *testing.T) {
	for _, pcap := range samples(t) {
		base := strings.TrimSuffix(filepath.Base(pcap), filepath.Ext(pcap))
		t.Run(base+".txt", func(t *testing.T) {
			compare(t, base+".txt", run(t, pcap, "text"))
		})
		t.Run(base+".json", func(t *testing.T) {
			got := run(t, pcap, "json")
			if !json.Valid(got) {
				t.Fatal("-T json output is not valid JSON")
			}
			if slices.Contains(machineGolden, base) {
				compare(t, base+".json", got)
			}
		})
	}
}

// machineGolden are the samples whose -T json and -T ek outputs are kept
// as golden files (<sample>.json, <sample>.ek): one of each protocol and
// kind of traffic. The text goldens show every sample's trees; the
// machine formats render the same trees, so one of each is enough to see
// a change in their shape. Every sample's ek output is checked to be
// bulk-API shaped (TestEKShape).
var machineGolden = []string{"query-full", "slp-status-gomc", "slp-legacy", "login-online", "handmade-classic-vanilla", "handmade-classic-heartbeat"}

func TestEKGolden(t *testing.T) {
	for _, base := range machineGolden {
		t.Run(base+".ek", func(t *testing.T) {
			compare(t, base+".ek", run(t, "../samples/"+base+".pcap", "ek"))
		})
	}
}

// TestEKShape: on every sample, -T ek is pairs of lines, an index action
// then a document with a timestamp and layers, each valid JSON, with the
// record's frame number as a JSON number.
func TestEKShape(t *testing.T) {
	for _, pcap := range samples(t) {
		base := strings.TrimSuffix(filepath.Base(pcap), filepath.Ext(pcap))
		t.Run(base, func(t *testing.T) {
			got := strings.TrimSuffix(string(run(t, pcap, "ek")), "\n")
			lines := strings.Split(got, "\n")
			if strings.HasPrefix(lines[len(lines)-1], "warning: ") {
				lines = lines[:len(lines)-1]
			}
			if len(lines)%2 != 0 {
				t.Fatalf("%d lines", len(lines))
			}
			for i := 0; i < len(lines); i += 2 {
				var idx struct {
					Index struct {
						Index string `json:"_index"`
						Type  string `json:"_type"`
					} `json:"index"`
				}
				var doc struct {
					Timestamp string
					Layers    map[string]json.RawMessage
				}
				if err := json.Unmarshal([]byte(lines[i]), &idx); err != nil || !strings.HasPrefix(idx.Index.Index, "packets-") || idx.Index.Type != "doc" {
					t.Fatalf("line %d: %v %q", i+1, err, lines[i])
				}
				if err := json.Unmarshal([]byte(lines[i+1]), &doc); err != nil || doc.Timestamp == "" || doc.Layers["frame"] == nil {
					t.Fatalf("line %d: %v %q", i+2, err, lines[i+1])
				}
				var fr map[string]any
				json.Unmarshal(doc.Layers["frame"], &fr)
				if _, ok := fr["frame_frame_number"].(float64); !ok {
					t.Fatalf("line %d: frame number %v", i+2, fr["frame_frame_number"])
				}
			}
		})
	}
}

// compare checks got against the golden file, or rewrites it with -update.
func compare(t *testing.T, name string, got []byte) {
	t.Helper()
	dissecttest.Golden(t, name, got, *update)
}

// TestFieldList keeps fields.txt, what `mcdissect -G fields` prints (the
// CLI's tests check that it prints exactly this), under review like the
// trees: one line a field in tshark's layout, F, label, filter name, type,
// protocol, and last the explanation (tshark's blurb).
func TestFieldList(t *testing.T) {
	var b bytes.Buffer
	for _, r := range dissect.Registries() {
		for _, f := range r.Fields() {
			name := f.Name
			if f.Keyed {
				name += ".<key>"
			}
			b.WriteString("F\t" + f.Label + "\t" + name + "\t" + f.Type.String() + "\t" + r.Proto + "\t" + f.Desc + "\n")
		}
	}
	compare(t, "fields.txt", b.Bytes())
	// And experts.txt, what `mcdissect -G experts` prints.
	b.Reset()
	for _, r := range dissect.Registries() {
		for _, e := range r.Experts() {
			b.WriteString(e.Name + "\t" + e.Severity.String() + "\t" + e.Summary + "\n")
		}
	}
	compare(t, "experts.txt", b.Bytes())
}

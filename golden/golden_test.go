// Package golden checks mcdissect's output on every sample capture against
// the files in this directory: <sample>.txt is the -V tree (with the field
// offsets), <sample>.json the -T json output. `go test ./... -update`
// rewrites them; read every diff before committing it.
package golden

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/dissect"
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
			o.ClassicSalt = v
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
	a := analyze.New(options(t, pcap), r.Record)
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

func TestGolden(t *testing.T) {
	for _, pcap := range samples(t) {
		base := strings.TrimSuffix(filepath.Base(pcap), filepath.Ext(pcap))
		for _, c := range []struct{ format, ext string }{{"text", ".txt"}, {"json", ".json"}} {
			t.Run(base+c.ext, func(t *testing.T) {
				got := run(t, pcap, c.format)
				if c.format == "json" && !json.Valid(got) {
					t.Fatal("-T json output is not valid JSON")
				}
				compare(t, base+c.ext, got)
			})
		}
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

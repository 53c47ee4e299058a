package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The binary runs the analyzer's back end on goroutines of its own, in two
// shards that format their own records (two cores at least), while
// golden/ checks the one-goroutine library path. Both must print the same:
// every sample's -V and JSON output from the binary equals its golden file.
func TestBinaryMatchesGoldens(t *testing.T) {
	pcaps, _ := filepath.Glob("../../samples/*.pcap")
	if len(pcaps) == 0 {
		t.Fatal("no samples")
	}
	for _, pcap := range pcaps {
		base := strings.TrimSuffix(filepath.Base(pcap), ".pcap")
		args := []string{"-r", pcap}
		if b, err := os.ReadFile(strings.TrimSuffix(pcap, ".pcap") + ".args"); err == nil {
			for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				k, v, _ := strings.Cut(strings.TrimSpace(line), " ")
				args = append(args, k, v)
			}
		}
		for _, c := range []struct{ ext, flag string }{{".txt", "-V"}, {".json", "json"}} {
			t.Run(base+c.ext, func(t *testing.T) {
				want, err := os.ReadFile(filepath.Join("../../golden", base+c.ext))
				if err != nil {
					t.Fatal(err)
				}
				// The golden files end with the warning the CLI prints on
				// stderr: compare without it.
				if i := bytes.LastIndex(want, []byte("\nwarning: ")); i >= 0 {
					i++ // keep the newline that ends the output
					want = want[:i]
				}
				a := append([]string(nil), args...)
				if c.flag == "-V" {
					a = append(a, "-V")
				} else {
					a = append(a, "-T", "json")
				}
				cmd := exec.Command(binary, a...)
				cmd.Env = append(os.Environ(), "GOMAXPROCS=2") // the parallel paths, whatever the machine
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				if err := cmd.Run(); err != nil {
					t.Fatalf("%v: %s", err, errb.String())
				}
				if !bytes.Equal(out.Bytes(), want) {
					g, w := out.String(), string(want)
					i := 0
					for i < len(g) && i < len(w) && g[i] == w[i] {
						i++
					}
					t.Errorf("output differs from golden/%s at byte %d of %d (golden %d):\n got …%q\nwant …%q", base+c.ext, i, len(g), len(w), g[max(0, i-80):min(len(g), i+80)], w[max(0, i-80):min(len(w), i+80)])
				}
			})
		}
	}
}

// -c stops the shards' output in order: -V -c 70 over a capture of more
// than one batch prints the golden file's first 70 records, no more.
func TestBinaryCountAcrossBatches(t *testing.T) {
	want, err := os.ReadFile("../../golden/classic-session.txt")
	if err != nil {
		t.Fatal(err)
	}
	out, errs, code := mcd(t, nil, "-r", "../../samples/classic-session.pcap", "-V", "-c", "70")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if n := strings.Count(out, "\nFrame "); n != 70 {
		t.Errorf("%d records, want 70", n)
	}
	if !bytes.HasPrefix(want, []byte(out)) {
		t.Error("-V -c 70 output is not the start of the golden -V output")
	}
}

// With standard output a file, the shards' output is written with
// writev(2), past the renderer's buffer: it must still equal the goldens
// byte for byte (JSON's opening bracket comes from the renderer, the
// objects from the shards).
func TestBinaryToFileMatchesGoldens(t *testing.T) {
	for _, base := range []string{"classic-session", "query-full", "slp-status-concurrent"} {
		for _, c := range []struct{ ext, flag string }{{".txt", "-V"}, {".json", "json"}} {
			want, err := os.ReadFile(filepath.Join("../../golden", base+c.ext))
			if err != nil {
				t.Fatal(err)
			}
			if i := bytes.LastIndex(want, []byte("\nwarning: ")); i >= 0 {
				want = want[:i+1]
			}
			a := []string{"-r", "../../samples/" + base + ".pcap", "-V"}
			if c.flag == "json" {
				a = []string{"-r", "../../samples/" + base + ".pcap", "-T", "json"}
			}
			f, err := os.Create(filepath.Join(t.TempDir(), "out"))
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(binary, a...)
			cmd.Env = append(os.Environ(), "GOMAXPROCS=2")
			cmd.Stdout = f
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v: %s", err, errb.String())
			}
			f.Close()
			got, err := os.ReadFile(f.Name())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s%s: the output written to a file differs from the golden file (%d bytes, want %d)", base, c.ext, len(got), len(want))
			}
		}
	}
}

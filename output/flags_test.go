package output

import (
	"bytes"
	"strings"
	"testing"
)

// TestFlagsOptions: each mistake is refused with the flag it concerns;
// what passes becomes the renderer's options (-O is -V for some
// protocols, -t r is the default, -E sets the fields' options).
func TestFlagsOptions(t *testing.T) {
	base := Flags{Format: "text", Time: "r", Colour: "auto"}
	with := func(edit func(*Flags)) Flags { f := base; edit(&f); return f }
	for _, tc := range []struct {
		name string
		f    Flags
		err  string
	}{
		{"format", with(func(f *Flags) { f.Format = "xml" }), `-T "xml": choose `},
		{"fields without -e", with(func(f *Flags) { f.Format = "fields" }), "-T fields needs at least one -e FIELD"},
		{"-e with text", with(func(f *Flags) { f.Fields = []string{"frame.number"} }), "-e is for -T fields or -T ek"},
		{"unknown field", with(func(f *Flags) { f.Format, f.Fields = "fields", []string{"no.such.field"} }), "-e: "},
		{"explain without -V", with(func(f *Flags) { f.Explain = true }), "--explain explains the -V tree"},
		{"explain with -O", with(func(f *Flags) { f.Explain, f.Only = true, "slp" }), "--explain explains the -V tree"},
		{"explain as json", with(func(f *Flags) { f.Explain, f.Verbose, f.Format = true, true, "json" }), "--explain explains the -V tree"},
		{"time", with(func(f *Flags) { f.Time = "x" }), `-t "x": choose one of `},
		{"only", with(func(f *Flags) { f.Only = "nosuch" }), "nosuch"},
		{"colour", with(func(f *Flags) { f.Colour = "sometimes" }), `--color="sometimes": choose auto, always or never`},
		{"fields option", with(func(f *Flags) {
			f.Format, f.Fields, f.FieldOpts = "fields", []string{"frame.number"}, []string{"header=maybe"}
		}), "header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.f.Options("t"); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v, want %q", err, tc.err)
			}
		})
	}
	o, err := with(func(f *Flags) {
		f.Format, f.Fields, f.FieldOpts, f.Time, f.Only, f.Redact = "fields", []string{"frame.number"}, []string{"header=y"}, "ad", "slp", true
	}).Options("cap.pcap")
	if err != nil {
		t.Fatal(err)
	}
	if !o.Verbose || o.Time != "ad" || !o.Redact || o.Title != "cap.pcap" || len(o.Fields) != 1 || !o.Header || o.Only == nil {
		t.Errorf("options %+v", o)
	}
	if o, _ := base.Options(""); o.Time != "" || o.Verbose {
		t.Errorf("defaults %+v", o)
	}
	if base.ColourFor(&bytes.Buffer{}) || !with(func(f *Flags) { f.Colour = "always" }).ColourFor(nil) || with(func(f *Flags) { f.Colour, f.Format = "always", "json" }).ColourFor(nil) {
		t.Error("--color")
	}
}

func TestTitle(t *testing.T) {
	for _, tc := range [][3]string{{"samples/q.pcap", "", "q.pcap"}, {"-", "", "standard input"}, {"", "lo", "live capture on lo"}} {
		if got := Title(tc[0], tc[1]); got != tc[2] {
			t.Errorf("Title(%q, %q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
}

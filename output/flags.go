package output

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcdissect/mcdissect/internal/term"
	"github.com/mcdissect/mcdissect/render"
)

// Flags are the flags that choose what a run writes, as given: -T, -e,
// -E, -V, -x, --explain, --redact, -t, -O and --color.
type Flags struct {
	Format            string   // -T
	Fields, FieldOpts []string // -e, -E
	Verbose, Hex      bool     // -V, -x
	Explain, Redact   bool     // --explain, --redact
	Time              string   // -t
	Only              string   // -O
	Colour            string   // --color
}

// Options checks the flags together, so that every mistake is one clear
// line before any packet is read, and makes the renderer's options, the
// page's title being title. Colour is decided apart, when the output is
// known (ColourFor).
func (f Flags) Options(title string) (render.Options, error) {
	if !slices.Contains(render.Formats, f.Format) {
		return render.Options{}, fmt.Errorf("-T %q: choose %s", f.Format, strings.Join(render.Formats, ", "))
	}
	if f.Format == "fields" && len(f.Fields) == 0 {
		return render.Options{}, errors.New("-T fields needs at least one -e FIELD")
	}
	if f.Format != "fields" && f.Format != "ek" && len(f.Fields) > 0 {
		return render.Options{}, errors.New("-e is for -T fields or -T ek")
	}
	refs, err := render.ResolveFields(f.Fields) // fields, _ws.col.* columns or frame.protocols
	if err != nil {
		return render.Options{}, fmt.Errorf("-e: %v", err)
	}
	if f.Explain && (!f.Verbose || f.Format != "text") {
		return render.Options{}, errors.New("--explain explains the -V tree: use it with -V (text output)")
	}
	o := render.Options{Verbose: f.Verbose, Hex: f.Hex, Redact: f.Redact, Explain: f.Explain, Fields: refs, Occurrence: 'a', Title: title}
	if !slices.Contains(render.TimeFormats, f.Time) {
		return render.Options{}, fmt.Errorf("-t %q: choose one of %s", f.Time, strings.Join(render.TimeFormats, ", "))
	}
	if f.Time != "r" {
		o.Time = f.Time
	}
	if f.Only != "" {
		if o.Only, err = render.ParseOnly(f.Only); err != nil {
			return render.Options{}, err
		}
		o.Verbose = true // -O is -V for some protocols
	}
	if !slices.Contains(term.ColourWhens, f.Colour) {
		return render.Options{}, fmt.Errorf("--color=%q: choose auto, always or never", f.Colour)
	}
	for _, e := range f.FieldOpts {
		if err := o.SetFieldsOption(e); err != nil {
			return render.Options{}, err
		}
	}
	return o, nil
}

// ColourFor decides --color for the output w: text only.
func (f Flags) ColourFor(w io.Writer) bool {
	return term.Colour(f.Colour, w) && f.Format == "text"
}

// Title names a run's input for -T html's page: the file read (read, "-"
// for standard input) or the interface captured on (iface).
func Title(read, iface string) string {
	if iface != "" {
		return "live capture on " + iface
	}
	if read == "-" {
		return "standard input"
	}
	return filepath.Base(read)
}

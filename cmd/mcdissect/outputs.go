package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mcdissect/mcdissect/internal/term"
	"github.com/mcdissect/mcdissect/render"
)

// The output flags a tshark user reaches for: -t, -O, --color, --version.

// outputFlags are their values before checking.
type outputFlags struct {
	timeFormat string
	only       string
	colour     string
	version    bool
}

func (o *outputFlags) add(fs *pflag.FlagSet) {
	fs.StringVarP(&o.timeFormat, "time-format", "t", "r", "summary time `FORMAT`, as tshark: a (absolute), ad (with date), adoy (with day of year), d (delta), dd (delta displayed), e (epoch), r (relative), u (UTC), ud (UTC with date), e.g. -t ad")
	fs.StringVarP(&o.only, "only-protocols", "O", "", "like -V, but the tree of these `PROTOCOLS` only, the others as one line ("+strings.Join(render.OnlyProtocols(), ", ")+"), e.g. -O slp,tcp")
	fs.StringVar(&o.colour, "color", "auto", "colour the text output: `WHEN` is auto (a terminal, and NO_COLOR unset), always or never; --color alone is always, as tshark's, e.g. --color=never")
	fs.Lookup("color").NoOptDefVal = "always" // a bare --color, and --color -c 1 leaves -c alone
	fs.BoolVar(&o.version, "version", false, "print the version, Go's and gopacket's and the build tags, and exit, e.g. --version")
}

// apply checks the flags and sets the render options; colour is decided
// later, when the output is known (term.Colour).
func (o *outputFlags) apply(c *config) error {
	if !slices.Contains(render.TimeFormats, o.timeFormat) {
		return fmt.Errorf("-t %q: choose one of %s", o.timeFormat, strings.Join(render.TimeFormats, ", "))
	}
	if o.timeFormat != "r" {
		c.ropts.Time = o.timeFormat
	}
	if o.only != "" {
		var err error
		if c.ropts.Only, err = render.ParseOnly(o.only); err != nil {
			return err
		}
		c.verbose, c.ropts.Verbose = true, true
	}
	if !slices.Contains(term.ColourWhens, o.colour) {
		return fmt.Errorf("--color=%q: choose auto, always or never", o.colour)
	}
	return nil
}

// errVersion is parseFlags' answer to --version.
var errVersion = errors.New("version")

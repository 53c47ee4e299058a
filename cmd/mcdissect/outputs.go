package main

import (
	"errors"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mcdissect/mcdissect/render"
)

// addOutputFlags defines the output flags a tshark user reaches for: -t,
// -O, --color (checked with the others by output.Flags), and --version.
func (c *config) addOutputFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&c.out.Time, "time-format", "t", "r", "summary time `FORMAT`, as tshark: a (absolute), ad (with date), adoy (with day of year), d (delta), dd (delta displayed), e (epoch), r (relative), u (UTC), ud (UTC with date), e.g. -t ad")
	fs.StringVarP(&c.out.Only, "only-protocols", "O", "", "like -V, but the tree of these `PROTOCOLS` only, the others as one line ("+strings.Join(render.OnlyProtocols(), ", ")+"), e.g. -O slp,tcp")
	fs.StringVar(&c.out.Colour, "color", "auto", "colour the text output: `WHEN` is auto (a terminal, and NO_COLOR unset), always or never; --color alone is always, as tshark's, e.g. --color=never")
	fs.Lookup("color").NoOptDefVal = "always" // a bare --color, and --color -c 1 leaves -c alone
	fs.BoolVar(&c.version, "version", false, "print the version, Go's and gopacket's and the build tags, and exit, e.g. --version")
}

// errVersion is parseFlags' answer to --version.
var errVersion = errors.New("version")

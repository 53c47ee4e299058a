package main

import (
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/render"
)

// runDecode is the teaching entry point: it decodes hex typed on the
// command line into the same tree a capture would give.
//
//	mcdissect decode --proto query --from client 'FE FD 09 00 00 00 01'
func runDecode(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("mcdissect decode", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	proto := fs.String("proto", "", "protocol of the bytes: "+strings.Join(protocols.Names(), ", ")+", e.g. --proto slp")
	from := fs.String("from", "client", "who sent them: client or server, e.g. --from server")
	format := fs.StringP("output-format", "T", "text", "text, json or html (a page to click through), e.g. -T html")
	hexdump := fs.BoolP("hex", "x", false, "add the annotated hex dump, e.g. -x")
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: mcdissect decode --proto P [--from client|server] [-x] HEX...\n\nHex may have spaces, colons or a 0x prefix: 'FE FD 09 00 00 00 01', fefd0900000001.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	var dir dissect.Dir
	switch *from {
	case "client":
		dir = dissect.DirC2S
	case "server":
		dir = dissect.DirS2C
	default:
		fmt.Fprintf(stderr, "mcdissect decode: --from %q: choose client or server\n", *from)
		return exitUsage
	}
	if *proto == "" || fs.NArg() == 0 {
		fmt.Fprintln(stderr, "mcdissect decode: give --proto and the bytes in hex (see mcdissect decode --help)")
		return exitUsage
	}
	h := strings.Join(fs.Args(), "")
	h = strings.NewReplacer(" ", "", ":", "", "\n", "", "\t", "", "0x", "", "0X", "").Replace(h)
	data, err := hex.DecodeString(h)
	if err != nil {
		fmt.Fprintf(stderr, "mcdissect decode: the bytes are not hex: %v\n", err)
		return exitUsage
	}
	if *format != "text" && *format != "json" && *format != "html" {
		fmt.Fprintf(stderr, "mcdissect decode: -T %q: choose text, json or html\n", *format)
		return exitUsage
	}
	title := "mcdissect decode --proto " + *proto + " --from " + *from
	r := render.New(*format, stdout, render.Options{Verbose: true, Hex: *hexdump, Title: title})
	r.Begin()
	err = analyze.DecodeBytes(*proto, dir, data, r.Record)
	r.End()
	if err != nil {
		fmt.Fprintf(stderr, "mcdissect decode: %v\n", err)
		return exitUsage
	}
	return exitOK
}

package main

import (
	"io"
	"os"

	"github.com/mcdissect/mcdissect/internal/progress"
	"github.com/mcdissect/mcdissect/internal/term"
	"github.com/mcdissect/mcdissect/record"
)

// startProgress starts the progress line (package progress) for -r FILE
// when it is wanted: standard error is a terminal and standard output is
// not (records on the same terminal would be written over it), or -q. It
// returns nil (whose methods do nothing) otherwise.
func (o *outputFlags) startProgress(c *config, stdout, stderr io.Writer) *progress.Line {
	if c.read == "" || c.read == "-" || !term.Is(stderr) || term.Is(stdout) && !c.quiet {
		return nil
	}
	st, err := os.Stat(c.read)
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	p := progress.Start(stderr, st.Size())
	next := c.opts.OnFrame
	c.opts.OnFrame = func(f record.FrameInfo) {
		p.Frame(f.CapLen)
		if next != nil {
			next(f)
		}
	}
	o.prog = p
	return p
}

package main

import (
	"io"

	"github.com/mcdissect/mcdissect/internal/progress"
	"github.com/mcdissect/mcdissect/record"
)

// startProgress starts the progress line for -r FILE when it is wanted
// (progress.ForFile), counting the frames read into it; it returns nil
// (whose methods do nothing) otherwise.
func (c *config) startProgress(stdout, stderr io.Writer) *progress.Line {
	if c.read == "" || c.read == "-" {
		return nil
	}
	p := progress.ForFile(c.read, stdout, stderr, c.quiet)
	if p != nil {
		next := c.opts.OnFrame
		c.opts.OnFrame = func(f record.FrameInfo) {
			p.Frame(f.CapLen)
			if next != nil {
				next(f)
			}
		}
	}
	return p
}

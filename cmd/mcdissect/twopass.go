package main

import (
	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/capture"
	"github.com/mcdissect/mcdissect/dissect"
)

// firstPass is -2's first pass over -r's file: the run the second will be
// (the same options, so the same requests are given up on), with nothing
// shown, noting how each request given up on ended. What it cannot read
// the second pass reports.
func (c *config) firstPass() *dissect.Later {
	later := new(dissect.Later)
	src, err := capture.OpenFile(c.read)
	if err != nil {
		later.Seal()
		return later
	}
	defer src.Close()
	opts := c.opts
	opts.Sink, opts.Count, opts.OnFrame, opts.Later = discard{}, 0, nil, later
	analyze.Run(src, analyze.New(opts, nil))
	later.Seal()
	return later
}

// discard is the first pass's Sink: it shows no record.
type discard struct{}

func (discard) Accept(int, *analyze.Record) (bool, error)          { return false, nil }
func (discard) Format(_ int, dst []byte, _ *analyze.Record) []byte { return dst }
func (discard) Write([][]byte, int) error                          { return nil }

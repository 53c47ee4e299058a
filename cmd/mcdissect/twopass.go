package main

import (
	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/capture"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/internal/memory"
	"github.com/mcdissect/mcdissect/record"
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
	opts.OnFrame, opts.Later, opts.Budget = nil, later, memory.NewBudget()
	analyze.Run(src, analyze.New(opts, analyze.SinkFunc(func(*record.Record) error { return nil })))
	later.Seal()
	return later
}

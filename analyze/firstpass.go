package analyze

import (
	"github.com/mcdissect/mcdissect/capture"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// FirstPass is -2's first pass over the capture file path: the run the
// second will be (opts, so that the same requests are given up on; its
// Budget the first pass's own), with nothing shown, noting how each
// request given up on ended. The Later it returns is sealed, for the
// second pass's Options.Later. With Redact, opts.Secrets is the second
// pass's set too: the first learns every secret in it, and the second
// masks them from its first record on. What the first pass cannot read the
// second reports.
func FirstPass(path string, opts Options) *dissect.Later {
	later := new(dissect.Later)
	src, err := capture.OpenFile(path)
	if err != nil {
		later.Seal()
		return later
	}
	defer src.Close()
	opts.OnFrame, opts.Later = nil, later
	Run(src, New(opts, SinkFunc(func(*record.Record) error { return nil })))
	later.Seal()
	return later
}

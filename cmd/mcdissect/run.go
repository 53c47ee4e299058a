package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/capture"
	"github.com/mcdissect/mcdissect/capture/save"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/filter"
	"github.com/mcdissect/mcdissect/internal/memory"
	"github.com/mcdissect/mcdissect/internal/profile"
	"github.com/mcdissect/mcdissect/internal/progress"
	"github.com/mcdissect/mcdissect/output"
	"github.com/mcdissect/mcdissect/protocols/glossary"
	"github.com/mcdissect/mcdissect/render"
	"github.com/mcdissect/mcdissect/stats"
)

// run reads the input, dissects it and writes the chosen output. Errors are
// one line on stderr and a non-zero status; a capture cut short or damaged
// is a warning after what could be read, and exit status 2, as tshark.
func (c *config) run(stdin io.Reader, stdout, stderr io.Writer) int {
	if c.glossary != "" {
		if err := glossary.Write(stdout, c.glossary); err != nil {
			fmt.Fprintf(stderr, "mcdissect: %v\n", err)
			return exitUsage
		}
		return exitOK
	}
	if c.listIfaces {
		if err := capture.WriteInterfaces(stdout); err != nil {
			fmt.Fprintf(stderr, "mcdissect: -D: %v\n", err)
			return exitFail
		}
		return exitOK
	}
	var flt *filter.Filter
	if c.dispFilter != "" {
		var err error
		if flt, err = filter.Compile(c.dispFilter); err != nil {
			fmt.Fprintf(stderr, "mcdissect: %v\n", err)
			return exitFail // tshark's status for a filter that does not compile
		}
	}
	if c.statHelp {
		stats.PrintHelp(stdout)
		return exitOK
	}
	c.opts.OnFrame = c.statz.OnFrame()
	prof, err := profile.Start(c.cpuProfile, c.memProfile)
	if err != nil {
		fmt.Fprintf(stderr, "mcdissect: %v\n", err)
		return exitFail
	}
	defer prof.Stop()

	prog := progress.ForFile(c.read, stdout, stderr, c.quiet) // -r FILE, when wanted
	defer prog.Stop()
	c.opts.OnFrame = prog.Frames(c.opts.OnFrame)
	src, closeSrc, size, err := c.openSource(stdin, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mcdissect: %v\n", err)
		return exitFail
	}
	defer closeSrc()
	regular := size >= 0
	memory.ForFile(size)
	live := src // -i: the capture, ended by a signal as a file ends
	if c.iface != "" {
		defer capture.StopOnSignals(live)()
		fmt.Fprintf(stderr, "Capturing on '%s'\n", c.iface)
	}

	var wr *save.Writer
	if c.write != "" {
		if flt != nil && (c.read == "" || c.read == "-") {
			fmt.Fprintln(stderr, "mcdissect: -w with -Y needs -r FILE: the frames of matching PDUs are copied from the file in a second pass (save everything with -w, then filter the saved file)")
			return exitUsage
		}
		ro := c.limits.Writing(src)
		ro.Stdout = stdout // -w -
		if wr, err = save.Open(c.write, flt != nil, c.read, ro); err != nil {
			fmt.Fprintf(stderr, "mcdissect: %v\n", err)
			return exitFail
		}
		src = wr.Tee(src) // Run stops the capture through the tee
	}
	src = c.limits.Source(src) // -a packets:, -c with -w, -a filesize:, -a files:
	exp := c.exporter

	out := stdout
	if c.quiet || (c.write != "" && !c.printPackets) {
		// As tshark: -w saves packets and prints none of them, unless -P.
		out = io.Discard
	}
	r := render.New(c.out.Format, out, c.ropts)
	if err := r.Begin(); err != nil {
		fmt.Fprintf(stderr, "mcdissect: %v\n", err)
		return exitFail
	}
	// Records reach the output one way: the back end gives each, in
	// order, to the sink, which filters, counts, feeds what reads records
	// and renders.
	sk := c.sink(r, flt)
	sk.Shown = prog.Record
	source := c.read
	if c.iface != "" {
		source = c.iface
	}
	shipOut, err := c.ship.start(c, source, regular, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mcdissect: %v\n", err)
		return exitUsage
	}
	if wr != nil && flt != nil {
		sk.Read(wr) // the frames of matching PDUs
	}
	if shipOut != nil {
		defer shipOut.Close(stderr) // what is left, waited for a few seconds
		sk.Read(shipOut)
	}
	c.opts.Budget = memory.NewBudget()
	sv, err := c.serve.start(c, stderr) // serve.go
	if err != nil {
		fmt.Fprintf(stderr, "mcdissect: %v\n", err)
		return exitFail
	}
	if sv != nil {
		sk.Read(sv) // the page
	}
	// Without trees PDUs are decoded Lite (Wireshark's NULL tree), only
	// what the summary columns show worked out, and without the layers too
	// when nothing reads them (a run that decodes trees decodes the layers).
	need := sk.Needs()
	c.opts.Lite, c.opts.NoLayers = !need.Trees, !need.Trees && need.Layers.IsZero()
	c.opts.Lite = c.opts.Lite && !c.out.Redact // --redact learns secrets from the trees
	// The page draws Classic levels from their inflated blocks.
	c.opts.Export = exp != nil || c.out.Format == "html" || c.serve.on()
	if c.opts.Lite {
		defer memory.Lite()()
	}
	if !regular || c.lineBuffered {
		// A live capture or a pipe: records must not wait for batches and
		// buffers that only a busy input fills (analyze.Options.FlushEvery).
		c.opts.FlushEvery = flushEvery
		c.opts.FlushEager = c.lineBuffered
	}
	if c.twoPass {
		if !regular {
			fmt.Fprintf(stderr, "mcdissect: -2 reads the capture twice: %s is not a regular file\n", c.read)
			return exitUsage
		}
		if !c.opts.Lite { // a summary shows no links: one pass says it all
			if c.opts.Redact {
				// The first pass learns every secret, the second masks
				// them from its first record on.
				c.opts.Secrets = dissect.NewSecrets()
			}
			first := c.opts
			first.Budget = memory.NewBudget() // a budget of its own
			c.opts.Later = analyze.FirstPass(c.read, first)
		}
	}
	a := analyze.New(c.opts, sk)
	warning, runErr := analyze.Run(src, a)
	prog.Stop()
	endErr := r.End()
	statOut := stdout
	if c.write == "-" {
		statOut = stderr // standard output holds the capture
	}
	c.statz.Print(statOut)
	if wr != nil {
		if err := wr.Close(); err != nil && runErr == nil {
			runErr = err
		}
	}
	prof.WriteHeap()
	if warning != nil {
		fmt.Fprintf(stderr, "mcdissect: warning: %v\n", warning)
	}
	if n := a.Stats().Panics; n > 0 {
		fmt.Fprintf(stderr, "mcdissect: warning: %d decoder panics were caught (a bug of mcdissect: please report it); each PDU concerned is shown as malformed (mc.panic)\n", n)
	}
	if w, ok := r.(interface{ Warning() string }); ok && w.Warning() != "" {
		fmt.Fprintf(stderr, "mcdissect: warning: %s\n", w.Warning()) // -T html: the page holds part of the capture
	}
	if n := a.Stats().SecretsRefused; n > 0 {
		fmt.Fprintf(stderr, "mcdissect: warning: --redact's set of secrets is full (%d pieces of up to 16 bytes): %d records held a secret it could not learn, masked in that record but not in others (mc.out.Redact.full)\n", dissect.MaxPieces, n)
	}
	if n := a.Stats().TCPDropped; n > 0 {
		fmt.Fprintf(stderr, "mcdissect: warning: %d bytes of TCP payload were not dissected: sent after their connection closed or was reset, before the start of a stream picked up mid-way, or more than 1 GiB ahead of it\n", n)
	}
	if c.iface != "" {
		capture.WriteClosing(stderr, c.iface, a.Stats().Frames, live.Stats())
	}
	sv.Finish(stderr) // the page stays until Ctrl-C
	if runErr == nil {
		runErr = endErr
	}
	if runErr != nil && !errors.Is(runErr, analyze.ErrStop) {
		fmt.Fprintf(stderr, "mcdissect: %v\n", runErr)
		return exitFail
	}
	if warning != nil {
		return exitFail // the input is cut or damaged: all it held was printed
	}
	return exitOK
}

// openSource opens -r (a file or standard input: capture.Open) or -i.
// size is the input's size when it is a regular file, and -1 otherwise:
// anything else (an interface, a pipe) is read as it comes, and its output
// must not wait.
func (c *config) openSource(stdin io.Reader, stderr io.Writer) (src analyze.Source, closeFn func(), size int64, err error) {
	if c.iface != "" {
		src, closeFn, err = c.openLive(stderr)
		return src, closeFn, -1, err
	}
	if src, size, err = capture.Open(c.read, stdin); err != nil {
		return nil, nil, -1, err
	}
	return src, func() { src.Close() }, size, nil
}

// sink is where the records go: after the filter, to the statistics, the
// exporter and the renderer w. run adds the readers it starts (-w's kept
// frames, --ship, --serve).
func (c *config) sink(w render.Writer, flt *filter.Filter) *output.Sink {
	sk := &output.Sink{W: w, WNeeds: render.NeedsOf(c.out.Format, c.ropts), Filter: flt, Count: c.pduCount(), Line: c.lineBuffered, DeltaShown: c.ropts.Time == "dd"}
	sk.Read(c.statz)
	if c.exporter != nil {
		sk.Read(c.exporter)
	}
	return sk
}

// flushEvery is how often the output of a live capture or a pipe is
// written out: records reach it within this (and the time to dissect).
const flushEvery = 20 * time.Millisecond

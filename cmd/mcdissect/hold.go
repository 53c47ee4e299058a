package main

import (
	"errors"
	"time"

	"github.com/spf13/pflag"
)

// liveHold is how long a live capture's request waits for its response
// before it is printed without the link (--hold).
const liveHold = time.Second

// holdFlag is --hold: how long a record may wait for its response
// (analyze.Options.HoldWindow). A file's hold is the protocols' response
// windows, and costs nothing: its packet time moves as fast as it is read.
// Someone watching a live capture would wait that long for each request
// nobody answers, so -i holds for liveHold unless told otherwise.
//
// The hold is counted in packet time, as every window is: a request goes
// out when packets show that much time passed since it, so that a file
// run of tcpdump's capture with the same --hold prints what the live run
// printed, and a burst the pipeline is behind on does not give up on
// requests whose responses are already read. When no packet comes, the
// wall clock stands in for the packets that do not (analyze.Run flushes
// every flushEvery and moves packet time on by the time the input was
// idle): the clock stays here, at the edge, and the decoders see none.
type holdFlag struct {
	d   time.Duration
	set bool
}

func (h *holdFlag) String() string {
	if !h.set {
		return "" // the default depends on the input: the help says
	}
	return h.d.String()
}

func (h *holdFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("a duration such as 500ms, 1s or 0")
	}
	if d < 0 {
		return errors.New("the hold cannot be negative")
	}
	h.d, h.set = d, true
	return nil
}

func (h *holdFlag) Type() string { return "DURATION" }

func (h *holdFlag) add(fs *pflag.FlagSet) {
	fs.Var(h, "hold", "print a request that waits for its response after `DURATION` at most, without the link (its response still links back); 0 prints at once, as tshark; default 1s with -i, the protocols' response windows (5-6 s of packet time) for -r, e.g. --hold 3s")
}

// apply sets the run's hold: --hold's, or liveHold for -i.
func (h *holdFlag) apply(c *config) {
	d := h.d
	switch {
	case h.set:
	case c.iface != "":
		d = liveHold
	default:
		return // the analyzer's default
	}
	c.opts.HoldWindow = d
	if d == 0 {
		c.opts.HoldWindow = -1 // none
	}
}

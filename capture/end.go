package capture

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// StopOnSignals stops src on SIGINT, SIGTERM or SIGHUP, so that a live
// capture ends as a file does: its reader's Next returns io.EOF, and
// what reads it finishes (streams flushed and dissected, statistics
// printed, files complete, the output written). A second signal is not
// caught: it ends the process. The returned func undoes it.
func StopOnSignals(src Source) (undo func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case <-sig:
			signal.Stop(sig)
			src.Stop()
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sig)
		close(done)
	}
}

// WriteClosing writes tshark's closing lines of a live capture on iface:
// the packets captured and, when the kernel dropped some (st, the
// source's Stats), how many.
func WriteClosing(w io.Writer, iface string, captured uint64, st Stats) {
	fmt.Fprintf(w, "%d packet%s captured\n", captured, plural(captured))
	if d := st.Dropped; d > 0 {
		fmt.Fprintf(w, "%d packet%s dropped from %s\n", d, plural(d), iface)
	}
}

func plural(n uint64) string {
	if n == 1 {
		return ""
	}
	return "s"
}

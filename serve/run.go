package serve

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Run is the page of one run of mcdissect: served from Start, while the
// capture runs, until Finish.
type Run struct {
	*Server
	live bool
	sig  chan os.Signal // SIGINT, SIGTERM, SIGHUP: one of them stops the page
}

// Start listens on addr as --serve takes it (ListenAddr), so that a port
// in use is said before the capture starts, and serves cfg's page. live
// is a live capture: its signals are watched from now on, as the
// capture's own handler stops it on the first, and the page then stops
// with it. What the user is told goes to w.
func Start(addr string, cfg Config, live bool, w io.Writer) (*Run, error) {
	a, err := ListenAddr(addr)
	if err != nil {
		return nil, fmt.Errorf("--serve %v", err)
	}
	cfg.Addr = a
	srv, err := New(cfg)
	if err != nil {
		return nil, fmt.Errorf("--serve: %v", err)
	}
	r := &Run{Server: srv, live: live, sig: make(chan os.Signal, 1)}
	if live {
		signal.Notify(r.sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	}
	go srv.Serve()
	fmt.Fprintf(w, "Serving the live page at %s (read-only; Ctrl-C stops)\n", srv.URL())
	if host, _, _ := net.SplitHostPort(a); host == "0.0.0.0" || host == "::" {
		fmt.Fprintln(w, "mcdissect: note: --serve listens on every interface: anyone who can reach this host on that port sees the capture")
	}
	return r, nil
}

// Finish tells the pages that the capture ended, and keeps serving them
// until a signal (at once if one ended the capture), then stops. A nil
// Run does nothing.
func (r *Run) Finish(w io.Writer) {
	if r == nil {
		return
	}
	defer signal.Stop(r.sig)
	signalled := false
	select {
	case <-r.sig:
		signalled = true
	default:
	}
	why := "the file ended"
	switch {
	case signalled:
		why = "the capture was stopped"
	case r.live:
		why = "the capture stopped"
	}
	r.End(why)
	if !signalled {
		if !r.live {
			signal.Notify(r.sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		}
		fmt.Fprintf(w, "The capture ended; the page stays at %s until Ctrl-C\n", r.URL())
		<-r.sig
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	r.Close(ctx)
	if n := r.Lost(); n > 0 {
		fmt.Fprintf(w, "mcdissect: --serve: %d records were not sent to viewers too slow to follow (their pages said so)\n", n)
	}
}

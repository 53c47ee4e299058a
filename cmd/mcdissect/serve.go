package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/mcdissect/mcdissect/serve"
)

// serveFlags is --serve: the lesson page served over HTTP while the
// capture runs (package serve).
type serveFlags struct {
	addr string
}

func (s *serveFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&s.addr, "serve", "", "serve the -T html page at `ADDR` while the capture runs, records appearing as they are dissected, to every browser that opens it (read-only; a bare port is loopback, 0.0.0.0:PORT every interface), e.g. --serve 127.0.0.1:8080")
}

// on reports whether the page is served.
func (s *serveFlags) on() bool { return s.addr != "" }

// serving is a run's page server.
type serving struct {
	srv *serve.Server
	sig chan os.Signal // SIGINT, SIGTERM, SIGHUP: one of them stops the page
}

// start listens (so that a port in use is said before the capture
// starts) and serves, or returns nil without --serve. For -i the signals
// are watched from now on, as the capture's own handler stops it on the
// first: the page then stops with it.
func (s *serveFlags) start(c *config, stderr io.Writer) (*serving, error) {
	if !s.on() {
		return nil, nil
	}
	addr, err := serve.ListenAddr(s.addr)
	if err != nil {
		return nil, fmt.Errorf("--serve %v", err)
	}
	srv, err := serve.New(serve.Config{Addr: addr, Render: c.ropts, Account: c.opts.Budget.Account("the served page's history", nil)})
	if err != nil {
		return nil, fmt.Errorf("--serve: %v", err)
	}
	sv := &serving{srv: srv, sig: make(chan os.Signal, 1)}
	if c.iface != "" {
		signal.Notify(sv.sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	}
	go srv.Serve()
	fmt.Fprintf(stderr, "Serving the live page at %s (read-only; Ctrl-C stops)\n", srv.URL())
	if host, _, _ := net.SplitHostPort(addr); host == "0.0.0.0" || host == "::" {
		fmt.Fprintln(stderr, "mcdissect: note: --serve listens on every interface: anyone who can reach this host on that port sees the capture")
	}
	return sv, nil
}

// finish tells the pages that the capture ended, and keeps serving them
// until a signal (at once if one ended the capture), then stops.
func (sv *serving) finish(c *config, stderr io.Writer) {
	if sv == nil {
		return
	}
	defer signal.Stop(sv.sig)
	signalled := false
	select {
	case <-sv.sig:
		signalled = true
	default:
	}
	why := "the file ended"
	switch {
	case signalled:
		why = "the capture was stopped"
	case c.iface != "":
		why = "the capture stopped"
	}
	sv.srv.End(why)
	if !signalled {
		if c.iface == "" {
			signal.Notify(sv.sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		}
		fmt.Fprintf(stderr, "The capture ended; the page stays at %s until Ctrl-C\n", sv.srv.URL())
		<-sv.sig
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	sv.srv.Close(ctx)
	if n := sv.srv.Lost(); n > 0 {
		fmt.Fprintf(stderr, "mcdissect: --serve: %d records were not sent to viewers too slow to follow (their pages said so)\n", n)
	}
}

package main

import (
	"io"

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

// start serves the page (serve.Start), or returns nil without --serve.
func (s *serveFlags) start(c *config, stderr io.Writer) (*serve.Run, error) {
	if !s.on() {
		return nil, nil
	}
	cfg := serve.Config{Render: c.ropts, Account: c.opts.Budget.Account("the served page's history", nil)}
	return serve.Start(s.addr, cfg, c.iface != "", stderr)
}

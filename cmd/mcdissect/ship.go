package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/mcdissect/mcdissect/ship"
	"github.com/mcdissect/mcdissect/ship/ek"
)

// shipFlags are --ship and its settings: records, as -T ek documents, to a
// search engine's bulk API (package ship).
type shipFlags struct {
	url, spool, host string
	spoolMB          int64
}

func (s *shipFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&s.url, "ship", "", "send every record shown, as a -T ek document, to the bulk API at `URL` (Elasticsearch, OpenSearch, VictoriaLogs: doc/fleet.md), e.g. --ship 'http://logs:9428/insert/elasticsearch/_bulk?_time_field=timestamp'")
	fs.StringVar(&s.spool, "ship-spool", "", "keep what the engine cannot take yet in `DIR`, sent when it comes back (this run or the next), e.g. --ship-spool /var/spool/mcdissect")
	fs.Int64Var(&s.spoolMB, "ship-spool-size", 1024, "bound the spool to `MB`: past it the oldest records are dropped, and said, e.g. --ship-spool-size 256")
	fs.StringVar(&s.host, "ship-host", "", "the host `NAME` the documents carry (default: this machine's name), e.g. --ship-host mc-eu-1")
}

// start makes the shipping of a run reading source (an interface or a
// file), or nil without --ship. A file waits for a slow engine; a live
// capture never does.
func (s *shipFlags) start(c *config, source string, file bool, stderr io.Writer) (*ek.Output, error) {
	if s.url == "" {
		return nil, nil
	}
	sh, err := ship.New(ship.Config{URL: s.url, Host: s.host, Source: filepath.Base(source), SpoolDir: s.spool,
		SpoolBytes: s.spoolMB << 20, Wait: file, Logf: func(f string, a ...any) { fmt.Fprintf(stderr, "mcdissect: ship: "+f+"\n", a...) }})
	if err != nil {
		return nil, fmt.Errorf("--ship: %v", err)
	}
	return ek.New(sh, c.ropts), nil
}

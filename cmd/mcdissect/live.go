package main

import (
	"fmt"
	"io"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/capture"
	"github.com/mcdissect/mcdissect/capture/kernelfilter"
)

// openLive opens -i with -f, -s, -p, -B and the kernel filter, and makes
// -a stop the capture when its time is up.
func (c *config) openLive(stderr io.Writer) (analyze.Source, func(), error) {
	var decodeAs []uint16 // their ports pass whole too
	for _, r := range c.opts.DecodeAs {
		decodeAs = append(decodeAs, r.Port)
	}
	o := capture.LiveOptions{
		Snaplen:        c.snaplen,
		Promisc:        !c.noPromisc,
		BufferSize:     c.bufferMiB << 20,
		Filter:         c.capFilter,
		NoKernelFilter: c.noKernelFilter,
		Discover:       c.findServers,
	}
	src, follow, err := kernelfilter.Open(c.iface, o, decodeAs, stderr)
	if err != nil {
		return nil, nil, fmt.Errorf("-i %s: %v", c.iface, err)
	}
	if follow != nil {
		c.opts.OnFound = func(f analyze.Found) { follow(f.Transport, f.Server, f.Protocol) }
	}
	stopTimer := c.limits.Timer(src) // -a duration:
	return src, func() { stopTimer(); src.Close() }, nil
}

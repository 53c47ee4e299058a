package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/capture"
)

// parseAutostop reads tshark's -a duration:N.
func parseAutostop(spec string) (time.Duration, error) {
	if spec == "" {
		return 0, nil
	}
	k, v, ok := strings.Cut(spec, ":")
	if !ok || k != "duration" {
		return 0, fmt.Errorf("-a %q: only duration:N (seconds) is supported", spec)
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("-a %q: %q is not a number of seconds", spec, v)
	}
	return time.Duration(n * float64(time.Second)), nil
}

// openLive opens -i with -f, -s, -p, -B and the kernel filter, and makes
// -a stop the capture when its time is up.
func (c *config) openLive(stderr io.Writer) (analyze.Source, func(), error) {
	d, err := parseAutostop(c.autostop)
	if err != nil {
		return nil, nil, err
	}
	o := capture.LiveOptions{
		Snaplen:        c.snaplen,
		Promisc:        !c.noPromisc,
		BufferSize:     c.bufferMiB << 20,
		Filter:         c.capFilter,
		NoKernelFilter: c.noKernelFilter,
		Ports:          c.dissectedPorts(),
		Shared:         c.sharedPorts(),
	}
	src, err := capture.OpenLive(c.iface, o)
	if err != nil {
		return nil, nil, fmt.Errorf("-i %s: %v", c.iface, err)
	}
	if c.capFilter == "" && !c.noKernelFilter {
		fmt.Fprintln(stderr, kernelFilterNote(o, src))
	}
	stopTimer := func() bool { return false }
	if d > 0 {
		stopTimer = time.AfterFunc(d, src.Stop).Stop
	}
	return src, func() { stopTimer(); src.Close() }, nil
}

// listInterfaces prints -D as tshark does: "1. eth0", "2. lo (Loopback)".
func listInterfaces(stdout io.Writer) error {
	list, err := capture.Interfaces()
	if err != nil {
		return err
	}
	for i, it := range list {
		fmt.Fprintf(stdout, "%d. %s", i+1, it.Name)
		if it.Description != "" {
			fmt.Fprintf(stdout, " (%s)", it.Description)
		}
		fmt.Fprintln(stdout)
	}
	return nil
}

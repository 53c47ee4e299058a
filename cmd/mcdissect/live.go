package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/capture"
	"github.com/mcdissect/mcdissect/protocols"
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

// dissectedPorts are the ports the default kernel filter lets through:
// those the protocols are known on (their registrations), 25575 where
// Query often answers beside a server's 25565, and those of -d rules.
func (c *config) dissectedPorts() []uint16 {
	ports := []uint16{25575}
	for _, p := range protocols.All() {
		ports = append(ports, p.Ports...)
	}
	for _, d := range c.opts.DecodeAs {
		ports = append(ports, d.Port)
	}
	slices.Sort(ports)
	return slices.Compact(ports)
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
	}
	src, err := capture.OpenLive(c.iface, o)
	if err != nil {
		return nil, nil, fmt.Errorf("-i %s: %v", c.iface, err)
	}
	if c.capFilter == "" && !c.noKernelFilter {
		ps := make([]string, len(o.Ports))
		for i, p := range o.Ports {
			ps[i] = strconv.Itoa(int(p))
		}
		fmt.Fprintf(stderr, "mcdissect: note: the kernel passes only TCP and UDP ports %s and IP fragments (-f FILTER to choose, --no-kernel-filter for everything)\n", strings.Join(ps, ", "))
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

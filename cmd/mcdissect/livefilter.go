package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcdissect/mcdissect/capture"
	"github.com/mcdissect/mcdissect/protocols"
)

// dissectedPorts are the ports the default kernel filter lets through
// whole: those the protocols are known on (their registrations) but for
// ports shared with other traffic, 25575 where Query often answers beside
// a server's 25565, and those of -d rules.
func (c *config) dissectedPorts() []uint16 {
	ports := []uint16{25575}
	for _, p := range protocols.All() {
		if p.Shared == nil {
			ports = append(ports, p.Ports...)
		}
	}
	for _, d := range c.opts.DecodeAs {
		ports = append(ports, d.Port)
	}
	slices.Sort(ports)
	return slices.Compact(ports)
}

// sharedPorts are the ports the default kernel filter lets through only
// for the connections of ours: the Classic heartbeat's on HTTP's port,
// told from a web server's by the request's first bytes (a registration's
// Shared).
func (c *config) sharedPorts() capture.SharedPorts {
	var sh capture.SharedPorts
	whole := c.dissectedPorts()
	for _, p := range protocols.All() {
		if p.Shared == nil || p.Transport != protocols.TCP {
			continue
		}
		for _, port := range p.Ports {
			if !slices.Contains(whole, port) && !slices.Contains(sh.Ports, port) {
				sh.Ports = append(sh.Ports, port)
			}
		}
		sh.Starts = append(sh.Starts, p.Shared.Starts...)
		sh.Then = p.Shared.Then // one such protocol: the heartbeat
	}
	if len(sh.Ports) == 0 {
		return capture.SharedPorts{}
	}
	return sh
}

// kernelFilterNote is the line a live capture with the default kernel
// filter starts with: what passes, and how to see more.
func kernelFilterNote(o capture.LiveOptions, src capture.Source) string {
	var ps []string
	for _, p := range o.Ports {
		ps = append(ps, strconv.Itoa(int(p)))
	}
	var b strings.Builder
	b.WriteString("mcdissect: note: the kernel passes only TCP and UDP ports " + strings.Join(ps, ", "))
	why := ""
	for _, p := range o.Shared.Ports {
		if fi, ok := capture.FilterInfoOf(src); ok && fi.SharedByConnection {
			fmt.Fprintf(&b, ", Classic heartbeat connections on TCP port %d", p)
		} else {
			fmt.Fprintf(&b, ", TCP port %d", p)
			why = fi.Why
		}
	}
	b.WriteString(" and IP fragments (a server on another port: -d tcp.port==N,slp or -d udp.port==N,query; -f FILTER to choose; --no-kernel-filter for everything)")
	if why != "" {
		fmt.Fprintf(&b, "\nmcdissect: note: all of port 80 passes: heartbeat connections cannot be told apart in the kernel here (%s)", why)
	}
	return b.String()
}

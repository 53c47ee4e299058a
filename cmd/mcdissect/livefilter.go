package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/mcdissect/mcdissect/analyze"
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
	fi, _ := capture.FilterInfoOf(src)
	var b strings.Builder
	b.WriteString("mcdissect: note: the kernel passes only TCP and UDP ports " + strings.Join(ps, ", "))
	for _, p := range o.Shared.Ports {
		if fi.SharedByConnection {
			fmt.Fprintf(&b, ", the Classic heartbeat's connections on TCP port %d", p)
		} else {
			fmt.Fprintf(&b, ", TCP port %d", p)
		}
	}
	if fi.Discover {
		b.WriteString(", the first packets of every other connection (--find-servers)")
	}
	b.WriteString(" and IP fragments (a server on another port: -d tcp.port==N,slp, -d udp.port==N,query or --find-servers; -f FILTER to choose; --no-kernel-filter for everything)")
	if fi.Why != "" {
		b.WriteString("\nmcdissect: note: ")
		if len(o.Shared.Ports) > 0 {
			b.WriteString("all of port 80 passes: heartbeat connections cannot be told apart in the kernel here")
		}
		if o.Discover {
			if len(o.Shared.Ports) > 0 {
				b.WriteString(", and ")
			}
			b.WriteString("--find-servers finds nothing")
		}
		fmt.Fprintf(&b, " (%s)", fi.Why)
	}
	return b.String()
}

// follow makes the kernel filter pass the port of each server the
// heuristics find (--find-servers), and says so once per port.
func (c *config) follow(src capture.Source, stderr io.Writer) func(analyze.Found) {
	pa, ok := src.(capture.PortAdder)
	if !ok {
		return nil
	}
	added := map[string]bool{}
	for _, p := range c.dissectedPorts() {
		added["tcp/"+strconv.Itoa(int(p))] = true
		added["udp/"+strconv.Itoa(int(p))] = true
	}
	return func(f analyze.Found) {
		k := f.Transport + "/" + strconv.Itoa(int(f.Server.Port()))
		if added[k] || len(added) >= maxFollowed {
			return
		}
		added[k] = true
		if err := pa.AddPort(f.Transport, f.Server.Port()); err != nil {
			fmt.Fprintf(stderr, "mcdissect: note: %s on %s: %v\n", f.Protocol, f.Server, err)
			return
		}
		fmt.Fprintf(stderr, "mcdissect: note: %s found on %s (%s): the kernel passes %s port %d from now on\n",
			f.Protocol, f.Server, f.Transport, strings.ToUpper(f.Transport), f.Server.Port())
	}
}

// maxFollowed bounds the ports --find-servers adds to the kernel filter.
const maxFollowed = 512

// Package kernelfilter decides what the default kernel filter of a live
// capture passes (capture.LiveOptions.Ports and Shared), from the
// protocols' registrations: the ports they are known on, whole, but for
// ports shared with other traffic, where only the connections of ours
// pass. It writes the note a capture starts with (what passes, and how to
// see more), and, with --find-servers, adds the port of each server the
// heuristics find while capturing (Follow). Open opens a live capture
// with all three.
package kernelfilter

import (
	"fmt"
	"io"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/mcdissect/mcdissect/capture"
	"github.com/mcdissect/mcdissect/protocols"
)

// Ports are the ports the default kernel filter lets through whole: those
// the protocols are known on (their registrations) but for ports shared
// with other traffic, 25575 where Query often answers beside a server's
// 25565, and extra (the ports of -d rules); sorted.
func Ports(extra []uint16) []uint16 {
	ports := []uint16{25575}
	for _, p := range protocols.All() {
		if p.Shared == nil {
			ports = append(ports, p.Ports...)
		}
	}
	ports = append(ports, extra...)
	slices.Sort(ports)
	return slices.Compact(ports)
}

// Shared are the ports the default kernel filter lets through only for
// the connections of ours, whole the ports passed whole (Ports): the
// Classic heartbeat's on HTTP's port, told from a web server's by the
// request's first bytes (a registration's Shared).
func Shared(whole []uint16) capture.SharedPorts {
	var sh capture.SharedPorts
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

// Note is the line a live capture with the default kernel filter (o)
// starts with: what passes, and how to see more.
func Note(o capture.LiveOptions, src capture.Source) string {
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
	b.WriteString(", IP fragments and ICMP (a server on another port: -d tcp.port==N,slp, -d udp.port==N,query or --find-servers; -f FILTER to choose; --no-kernel-filter for everything)")
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

// Follow makes the kernel filter of src pass the port of each server the
// heuristics find (--find-servers: transport "tcp" or "udp", the server,
// the protocol's name), and says so on w once per port; whole are the
// ports it passes already (Ports). It is nil when src cannot add ports.
func Follow(src capture.Source, whole []uint16, w io.Writer) func(transport string, server netip.AddrPort, protocol string) {
	pa, ok := src.(capture.PortAdder)
	if !ok {
		return nil
	}
	added := map[string]bool{}
	for _, p := range whole {
		added["tcp/"+strconv.Itoa(int(p))] = true
		added["udp/"+strconv.Itoa(int(p))] = true
	}
	return func(transport string, server netip.AddrPort, protocol string) {
		k := transport + "/" + strconv.Itoa(int(server.Port()))
		if added[k] || len(added) >= maxFollowed {
			return
		}
		added[k] = true
		if err := pa.AddPort(transport, server.Port()); err != nil {
			fmt.Fprintf(w, "mcdissect: note: %s on %s: %v\n", protocol, server, err)
			return
		}
		fmt.Fprintf(w, "mcdissect: note: %s found on %s (%s): the kernel passes %s port %d from now on\n",
			protocol, server, transport, strings.ToUpper(transport), server.Port())
	}
}

// maxFollowed bounds the ports --find-servers adds to the kernel filter.
const maxFollowed = 512

// Open opens a live capture on iface with o, whose default kernel filter
// (no o.Filter, and not o.NoKernelFilter) passes Ports(extra) whole and
// the connections of ours on the Shared ports; the note that says so goes
// to w. With o.Discover, follow adds the port of each server the
// heuristics find (Follow); it is nil otherwise, and when the capture
// cannot add ports.
func Open(iface string, o capture.LiveOptions, extra []uint16, w io.Writer) (src capture.Source, follow func(transport string, server netip.AddrPort, protocol string), err error) {
	o.Ports = Ports(extra)
	o.Shared = Shared(o.Ports)
	if src, err = capture.OpenLive(iface, o); err != nil {
		return nil, nil, err
	}
	if o.Filter == "" && !o.NoKernelFilter {
		fmt.Fprintln(w, Note(o, src))
	}
	if o.Discover {
		follow = Follow(src, o.Ports, w)
	}
	return src, follow, nil
}

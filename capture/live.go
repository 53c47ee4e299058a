package capture

import (
	"errors"
	"fmt"
	"net"
	"sort"
	"strconv"
)

// DefaultBufferSize is the kernel buffer's size when LiveOptions.BufferSize
// is 0: about 100,000 small packets, the burst of a second on a busy
// loopback, where tshark's 2 MiB holds a fifth of that.
const DefaultBufferSize = 16 << 20

// LiveOptions configure a live capture.
type LiveOptions struct {
	// Snaplen: bytes kept of each packet; 0 is MaxSnaplen (-s).
	Snaplen int
	// Promisc puts the interface in promiscuous mode (-p turns it off).
	Promisc bool
	// BufferSize is the kernel buffer (ring) in bytes; 0 is the
	// back end's default (-B, given in MiB).
	BufferSize int
	// Filter is a capture filter in tcpdump's syntax (-f).
	Filter string
	// Ports: with no Filter, and unless NoKernelFilter, the kernel passes
	// only TCP and UDP on these ports, IP fragments after the first, and ICMP.
	Ports []uint16
	// Shared: TCP ports that carry other traffic too (a web server's
	// port 80, where Classic servers send their heartbeat). With Ports,
	// the kernel passes only the connections on them that are ours: those
	// whose client's first payload starts with one of Shared.Starts (Linux,
	// default build, where eBPF can be loaded: root or CAP_BPF; elsewhere
	// the ports pass whole, and FilterInfoOf says why).
	Shared SharedPorts
	// Discover: with Ports, the kernel also passes the first packets of
	// every flow (each direction of a TCP connection or a UDP exchange),
	// for the heuristics to find servers on other ports, and the ports
	// given to the source's AddPort (PortAdder) whole (Linux, default
	// build, with eBPF).
	Discover       bool
	NoKernelFilter bool
}

// PortAdder is a live source whose kernel filter can be told to pass a
// port whole (LiveOptions.Discover).
type PortAdder interface {
	AddPort(transport string, port uint16) error
}

// SharedPorts are ports where a protocol of ours is told from other
// traffic by the first bytes of a connection's client: one of Starts,
// then one of the bytes of Then.
type SharedPorts struct {
	Ports  []uint16
	Starts []string
	Then   string
}

// FilterInfo says how a live capture's kernel filter treats the shared
// ports.
type FilterInfo struct {
	// SharedByConnection: only the connections of ours pass.
	SharedByConnection bool
	// Discover: the first packets of every flow pass, and AddPort works.
	Discover bool
	// Why they pass whole, when they do.
	Why string
}

// FilterInfoOf tells how src's kernel filter treats shared ports; false
// when src is not a live capture that has shared ports.
func FilterInfoOf(src Source) (FilterInfo, bool) {
	f, ok := src.(interface{ FilterInfo() FilterInfo })
	if !ok {
		return FilterInfo{}, false
	}
	return f.FilterInfo(), true
}

// Interface is a capture interface, as -D lists it.
type Interface struct {
	Index       int // the kernel's ifindex; 0 for "any"
	Name        string
	Description string // "Loopback", ...
	Up          bool
	Loopback    bool
}

// Interfaces lists what can be captured on in tshark's order: interfaces
// that are up, then "any", then loopback, then those that are down.
func Interfaces() ([]Interface, error) {
	ifs, err := net.Interfaces()
	if err != nil {
		return nil, err
	}
	list := []Interface{{Name: "any", Description: "Pseudo-device that captures on all interfaces", Up: true}}
	for _, i := range ifs {
		it := Interface{Index: i.Index, Name: i.Name, Up: i.Flags&net.FlagUp != 0, Loopback: i.Flags&net.FlagLoopback != 0}
		if it.Loopback {
			it.Description = "Loopback"
		}
		list = append(list, it)
	}
	rank := func(i Interface) int {
		switch {
		case !i.Up:
			return 3
		case i.Loopback:
			return 2
		case i.Index == 0:
			return 1
		}
		return 0
	}
	sort.SliceStable(list, func(a, b int) bool { return rank(list[a]) < rank(list[b]) })
	return list, nil
}

// lookupInterface finds an interface by name, or by its number in the list
// Interfaces gives; nil means "any".
func lookupInterface(name string) (*net.Interface, error) {
	if name == "any" {
		return nil, nil
	}
	ifi, err := net.InterfaceByName(name)
	if err == nil {
		return ifi, nil
	}
	if n, nerr := strconv.Atoi(name); nerr == nil {
		list, lerr := Interfaces()
		if lerr == nil && n >= 1 && n <= len(list) {
			if list[n-1].Index == 0 {
				return nil, nil
			}
			return net.InterfaceByIndex(list[n-1].Index)
		}
	}
	return nil, fmt.Errorf("there is no interface %q (mcdissect -D lists them)", name)
}

// errPermission is what a user without the right to capture is told.
var errPermission = errors.New("you need root or CAP_NET_RAW to capture (setcap cap_net_raw+ep $(which mcdissect))")

// errDown says an interface is down, in one line.
func errDown(name string) error {
	return fmt.Errorf("%s is down (ip link set %s up)", name, name)
}

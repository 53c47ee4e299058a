//go:build linux && !pcap

package capture

import (
	"encoding/binary"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// largestPacket is the largest packet an interface (ifindex; 0: every
// interface, for "any") may hand a capture: its MTU, or the size of the
// packets segmentation offload aggregates (GSO and GRO: 64 KiB unless
// BIG TCP raises them), read from the kernel by rtnetlink. 0 when it
// cannot be read.
func largestPacket(ifindex int) int {
	msgs, err := routeLinks()
	if err != nil {
		return 0
	}
	largest := 0
	for _, m := range msgs {
		if m.Header.Type != syscall.RTM_NEWLINK || len(m.Data) < syscall.SizeofIfInfomsg {
			continue
		}
		info := (*syscall.IfInfomsg)(unsafe.Pointer(&m.Data[0]))
		if ifindex != 0 && int(info.Index) != ifindex {
			continue
		}
		attrs, err := syscall.ParseNetlinkRouteAttr(&m)
		if err != nil {
			return 0
		}
		for _, a := range attrs {
			switch a.Attr.Type {
			case unix.IFLA_MTU, unix.IFLA_GSO_MAX_SIZE, unix.IFLA_GRO_MAX_SIZE, unix.IFLA_GSO_IPV4_MAX_SIZE, unix.IFLA_GRO_IPV4_MAX_SIZE:
				if len(a.Value) >= 4 {
					largest = max(largest, int(binary.NativeEndian.Uint32(a.Value)))
				}
			}
		}
	}
	return largest
}

func routeLinks() ([]syscall.NetlinkMessage, error) {
	b, err := syscall.NetlinkRIB(syscall.RTM_GETLINK, syscall.AF_UNSPEC)
	if err != nil {
		return nil, err
	}
	return syscall.ParseNetlinkMessage(b)
}

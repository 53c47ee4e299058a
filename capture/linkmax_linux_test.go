//go:build linux && !pcap

package capture

import (
	"net"
	"testing"
)

// TestLargestPacket: lo's largest packet is at least its MTU (65536 on
// Linux); "any" is at least lo's.
func TestLargestPacket(t *testing.T) {
	lo, err := net.InterfaceByName("lo")
	if err != nil {
		t.Skip("no lo")
	}
	n := largestPacket(lo.Index)
	if n < lo.MTU {
		t.Errorf("lo: %d, its MTU is %d", n, lo.MTU)
	}
	if all := largestPacket(0); all < n {
		t.Errorf("any: %d, lo alone %d", all, n)
	}
	t.Logf("lo: %d bytes", n)
}

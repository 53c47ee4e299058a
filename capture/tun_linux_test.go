//go:build linux

package capture

import (
	"bytes"
	"testing"
	"time"
	"unsafe"

	"github.com/gopacket/gopacket/layers"
	"golang.org/x/sys/unix"
)

// Constants of linux/if_tun.h and sockios.h that this x/sys predates.
const (
	tunSetIff    = 0x400454ca
	iffTun       = 0x0001
	iffNoPI      = 0x1000
	siocGIFFlags = 0x8913
	siocSIFFlags = 0x8914
)

type ifreq struct {
	name  [16]byte
	flags uint16
	_     [22]byte
}

func ioctl(fd int, req uintptr, ifr *ifreq) error {
	if _, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), req, uintptr(unsafe.Pointer(ifr))); e != 0 {
		return e
	}
	return nil
}

// TestLiveTun: a tun interface (ARPHRD_NONE, as wireguard) is captured as
// raw IP: the packet the test writes into it comes out byte for byte, with
// no link-layer header, and link type Raw.
func TestLiveTun(t *testing.T) {
	fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skip("no tun device:", err)
	}
	defer unix.Close(fd)
	var ifr ifreq
	copy(ifr.name[:], "mcdtest%d")
	ifr.flags = iffTun | iffNoPI
	if err := ioctl(fd, tunSetIff, &ifr); err != nil {
		t.Skip("cannot create a tun interface (needs root or CAP_NET_ADMIN):", err)
	}
	name := string(bytes.TrimRight(ifr.name[:], "\x00"))
	s, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(s)
	up := ifreq{name: ifr.name}
	if err := ioctl(s, siocGIFFlags, &up); err != nil {
		t.Fatal(err)
	}
	up.flags |= unix.IFF_UP
	if err := ioctl(s, siocSIFFlags, &up); err != nil {
		t.Fatal(err)
	}
	src := openLo(t, name, LiveOptions{Filter: "udp port 25565"})
	ip, _ := testPackets(t)
	pkt := ip[0] // IPv4 UDP to 25565
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
				unix.Write(fd, pkt) // the kernel receives it on the interface
			}
		}
	}()
	guard := time.AfterFunc(10*time.Second, src.Stop)
	defer guard.Stop()
	p, err := src.Next()
	if err != nil {
		t.Fatal(err)
	}
	// libpcap says DLT_RAW, 12 on Linux; the default build LINKTYPE_RAW, 101.
	if (p.LinkType != layers.LinkTypeRaw && p.LinkType != 12) || !bytes.Equal(p.Data, pkt) {
		t.Errorf("link %v, data % x; want Raw and % x", p.LinkType, p.Data, pkt)
	}
}

//go:build linux && !pcap

package main

import (
	bo "encoding/binary"
	"errors"
	"net"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"golang.org/x/sys/unix"
)

// afPacket captures on Linux with an AF_PACKET socket: no C library needed.
// It skips the outgoing copy of each packet on loopback, as libpcap does,
// because the kernel shows loopback traffic once leaving and once arriving.
type afPacket struct {
	fd       int
	loopback bool
	buf      []byte
}

func openLiveReader(iface, capFilter string) (liveReader, error) {
	if capFilter != "" {
		return nil, errors.New("-f needs the libpcap build to compile the filter (go build -tags pcap ./cmd/mcdissect); the default build captures everything on the interface")
	}
	ifi, err := net.InterfaceByName(iface)
	if err != nil {
		return nil, err
	}
	proto := int(htons(unix.ETH_P_ALL))
	fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_RAW, proto)
	if err != nil {
		return nil, err
	}
	if err := unix.Bind(fd, &unix.SockaddrLinklayer{Protocol: htons(unix.ETH_P_ALL), Ifindex: ifi.Index}); err != nil {
		unix.Close(fd)
		return nil, err
	}
	tv := unix.NsecToTimeval(int64(200 * time.Millisecond))
	if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return &afPacket{fd: fd, loopback: ifi.Flags&net.FlagLoopback != 0, buf: make([]byte, 262144)}, nil
}

// htons is v in network byte order, as the host stores a uint16: the
// bytes swapped on a little-endian host, unchanged on a big-endian one.
func htons(v uint16) uint16 { return hton16(bo.NativeEndian, v) }

// hton16 is htons for a host of byte order host.
func hton16(host bo.ByteOrder, v uint16) uint16 {
	var b [2]byte
	bo.BigEndian.PutUint16(b[:], v)
	return host.Uint16(b[:])
}

func (a *afPacket) read() ([]byte, gopacket.CaptureInfo, error) {
	for {
		n, from, err := unix.Recvfrom(a.fd, a.buf, unix.MSG_TRUNC)
		now := time.Now()
		if err == unix.EAGAIN || err == unix.EINTR {
			return nil, gopacket.CaptureInfo{}, errTimeout
		}
		if err != nil {
			return nil, gopacket.CaptureInfo{}, err
		}
		if ll, ok := from.(*unix.SockaddrLinklayer); ok && a.loopback && ll.Pkttype == unix.PACKET_OUTGOING {
			continue
		}
		ci := gopacket.CaptureInfo{Timestamp: now, Length: n, CaptureLength: min(n, len(a.buf))}
		return a.buf[:ci.CaptureLength], ci, nil
	}
}

func (a *afPacket) linkType() layers.LinkType { return layers.LinkTypeEthernet }
func (a *afPacket) close()                    { unix.Close(a.fd) }

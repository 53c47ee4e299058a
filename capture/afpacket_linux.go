//go:build linux && !pcap

package capture

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The default build captures with a memory-mapped TPACKET_V3 ring on an
// AF_PACKET socket, as libpcap does on Linux, written against
// golang.org/x/sys/unix (no cgo). The kernel fills blocks of packets, each
// with its nanosecond timestamp, and hands a block over when it is full or
// after blockTimeout; one poll wakes us for a whole block.
//
// Loopback: the kernel shows a packet on lo to packet sockets twice, once
// leaving (PACKET_OUTGOING, from dev_queue_xmit's tap) and once arriving.
// The former build dropped the outgoing copy after a recvfrom per copy;
// here the socket's filter drops it in the kernel, so it never takes room
// in the ring (and a check of the ring's sockaddr_ll stays as a guard).
//
// `-i any` and links without an Ethernet-like header (PPP, GRE, ...) use a
// cooked (SOCK_DGRAM) socket; a Linux cooked v2 header (SLL2, 20 bytes, as
// `tcpdump -i any` writes since libpcap 1.10) is written in front of each
// packet, in the ring's free room before it: the kernel leaves 16 bytes
// there, PACKET_RESERVE asks for the 4 more SLL2 needs.
// Links that carry bare IP (tun, wireguard: ARPHRD_NONE) are raw IP.

const (
	// blockTimeout is how long the kernel keeps a block that is not full
	// before handing it over: the latency of a quiet capture.
	blockTimeout = 10 // ms
	minBlockSize = 128 << 10
	// linkRoom: the link header beyond an interface's largest packet
	// (Ethernet with two VLAN tags, SLL2).
	linkRoom = 64

	tpStatusUser       = 1
	tpStatusVLANValid  = 1 << 4
	tpStatusVLANTPIDOK = 1 << 6

	sizeofSockaddrLL = 20
	tpacket3HdrLen   = 48 // TPACKET_ALIGN(sizeof(struct tpacket3_hdr))
	sllHdrLen        = 20 // SLL2

	arphrdEther    = 1
	arphrdLoopback = 772
	arphrdNone     = 0xfffe
	arphrdRawIP    = 519
)

type afPacket struct {
	fd, efd  int
	ring     []byte
	bsize    int
	nblocks  int
	cur      int  // the block being read
	held     bool // the current block is ours until we hand it back
	left     int  // its packets still to read
	off      int  // offset of the next packet in it
	link     layers.LinkType
	cooked   bool
	skipLo   int // drop outgoing packets of this ifindex (loopback); 0 none
	snaplen  int
	vlanBuf  []byte
	stopped  atomic.Bool
	closed   bool
	ifname   string
	ifDrop0  uint64
	statsMu  sync.Mutex
	efdMu    sync.Mutex
	received uint64
	dropped  uint64
	info     FilterInfo
	portsFD  int // the kernel filter's table of ports added (AddPort); -1 none
}

// AddPort makes the kernel filter pass a port whole from now on (with
// LiveOptions.Discover): transport "tcp" or "udp".
func (a *afPacket) AddPort(transport string, port uint16) error {
	a.statsMu.Lock()
	defer a.statsMu.Unlock()
	if a.portsFD < 0 || a.closed {
		return errors.New("the kernel filter takes no ports")
	}
	proto := uint8(unix.IPPROTO_TCP)
	if transport == "udp" {
		proto = unix.IPPROTO_UDP
	}
	return addPort(a.portsFD, proto, port)
}

// FilterInfo says how the kernel filter treats shared ports.
func (a *afPacket) FilterInfo() FilterInfo { return a.info }

// htons is the protocol number in network byte order as the host stores
// it: swapped on a little-endian host, unchanged on a big-endian one (the
// kernel reads the field's memory as big-endian).
func htons(v uint16) uint16 { return hton16(binary.NativeEndian, v) }

// hton16 is htons for a host of byte order host.
func hton16(host binary.ByteOrder, v uint16) uint16 {
	var b [2]byte
	binary.BigEndian.PutUint16(b[:], v)
	return host.Uint16(b[:])
}

// OpenLive starts a capture on iface ("any" for every interface; a number
// is a position in the list Interfaces gives, as tshark's -i 2).
func OpenLive(iface string, o LiveOptions) (Source, error) {
	ifi, err := lookupInterface(iface)
	if err != nil {
		return nil, err
	}
	a := &afPacket{fd: -1, efd: -1, portsFD: -1, snaplen: o.Snaplen}
	if a.snaplen <= 0 || a.snaplen > MaxSnaplen {
		a.snaplen = MaxSnaplen
	}
	var l layout
	sockType := unix.SOCK_RAW
	loIndex := 0
	if ifi == nil { // any
		a.cooked, a.link, l = true, LinkTypeLinuxSLL2, layoutCooked
		if lo := loopbackIndex(); lo > 0 {
			loIndex = lo
		}
	} else {
		a.ifname = ifi.Name
		if ifi.Flags&net.FlagUp == 0 {
			return nil, errDown(ifi.Name)
		}
		hatype, err := arpType(ifi.Name)
		if err != nil {
			return nil, err
		}
		switch hatype {
		case arphrdEther, arphrdLoopback:
			a.link, l = layers.LinkTypeEthernet, layoutEthernet
		case arphrdNone, arphrdRawIP:
			a.link, l = layers.LinkTypeRaw, layoutRaw
		default:
			a.cooked, a.link, l = true, LinkTypeLinuxSLL2, layoutCooked
		}
		if ifi.Flags&net.FlagLoopback != 0 {
			loIndex = ifi.Index
		}
	}
	a.skipLo = loIndex
	if a.cooked {
		sockType = unix.SOCK_DGRAM
	}

	// The filter: the user's, or the ports mcdissect dissects (and the
	// connections of ours on shared ports), or all.
	defaults := o.Filter == "" && !o.NoKernelFilter && len(o.Ports) > 0
	stateful := defaults && (len(o.Shared.Ports) > 0 || o.Discover)
	classicFor := func(ports []uint16) ([]bpf.Instruction, error) {
		var n node = constN(true)
		switch {
		case o.Filter != "":
			var err error
			if n, err = parseFilter(o.Filter, l); err != nil {
				return nil, err
			}
		case !o.NoKernelFilter && len(ports) > 0:
			n = portsFilter(ports, l)
		}
		if loIndex > 0 {
			// Keep one copy of each loopback packet: the arriving one.
			var out node = cmpN{ld: load{ext: bpf.ExtType, anc: true}, op: opEq, val: unix.PACKET_OUTGOING}
			if ifi == nil {
				out = andN{out, cmpN{ld: load{ext: bpf.ExtInterfaceIndex, anc: true}, op: opEq, val: uint32(loIndex)}}
			}
			n = andN{notN{out}, n}
		}
		return assemble(n, a.snaplen)
	}
	prog, err := classicFor(o.Ports)
	if err != nil {
		return nil, err
	}
	attach := func(fd int) error {
		if stateful {
			ports, err := attachStateful(fd, prog, l, loIndex, ifi == nil, o.Shared, o.Discover, a.snaplen)
			if err == nil {
				a.info = FilterInfo{SharedByConnection: len(o.Shared.Ports) > 0, Discover: o.Discover}
				a.portsFD = ports
				return nil
			}
			// Without eBPF, the shared ports pass whole, and nothing is
			// discovered.
			a.info = FilterInfo{Why: err.Error()}
			if prog, err = classicFor(append(slices.Clone(o.Ports), o.Shared.Ports...)); err != nil {
				return err
			}
		}
		return attachClassic(fd, prog)
	}

	// Protocol 0: the socket sees nothing until it is bound, after the
	// filter and the ring are in place.
	a.fd, err = unix.Socket(unix.AF_PACKET, sockType|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.EPERM) || errors.Is(err, unix.EACCES) {
			return nil, errPermission
		}
		return nil, fmt.Errorf("AF_PACKET socket: %v", err)
	}
	if err := a.setup(ifi, o, attach); err != nil {
		a.Close()
		return nil, err
	}
	if a.ifname != "" {
		a.ifDrop0 = ifDropped(a.ifname)
	}
	return a, nil
}

// attachClassic attaches a classic BPF program to the socket fd.
func attachClassic(fd int, prog []bpf.Instruction) error {
	raw, err := bpf.Assemble(prog)
	if err != nil {
		return fmt.Errorf("filter: %v", err)
	}
	fprog := unix.SockFprog{Len: uint16(len(raw)), Filter: (*unix.SockFilter)(unsafe.Pointer(&raw[0]))}
	if err := unix.SetsockoptSockFprog(fd, unix.SOL_SOCKET, unix.SO_ATTACH_FILTER, &fprog); err != nil {
		return fmt.Errorf("attaching the filter: %v", err)
	}
	return nil
}

func (a *afPacket) setup(ifi *net.Interface, o LiveOptions, attach func(fd int) error) error {
	if err := unix.SetsockoptInt(a.fd, unix.SOL_PACKET, unix.PACKET_VERSION, unix.TPACKET_V3); err != nil {
		return fmt.Errorf("TPACKET_V3: %v", err)
	}
	if a.cooked {
		// Room for SLL2's 20 bytes before the network header: the kernel
		// leaves 16 after the sockaddr_ll of a cooked socket.
		if err := unix.SetsockoptInt(a.fd, unix.SOL_PACKET, unix.PACKET_RESERVE, sllHdrLen-16); err != nil {
			return fmt.Errorf("PACKET_RESERVE: %v", err)
		}
	}
	if err := attach(a.fd); err != nil {
		return err
	}
	// Blocks hold at least one packet of the snap length with its headers,
	// or of the largest packet the interface hands a capture when that is
	// smaller (64 KiB: 128 KiB blocks). The kernel hands a block over when
	// it is full or after blockTimeout, so when packets are few each block
	// holds few, and the ring runs out of blocks, not bytes, if the reader
	// stops: it bears a stop of blocks × blockTimeout (bench/ringstall: at
	// 200 packets/s, 16 MiB of 512 KiB blocks dropped packets past 320 ms,
	// of 128 KiB blocks past 1.28 s).
	need := a.snaplen
	idx := 0
	if ifi != nil {
		idx = ifi.Index
	}
	if m := largestPacket(idx); m > 0 {
		need = min(need, m+linkRoom)
	}
	a.bsize = minBlockSize
	for a.bsize < need+tpacket3HdrLen+sizeofSockaddrLL+64+16 {
		a.bsize <<= 1
	}
	size := o.BufferSize
	if size <= 0 {
		size = DefaultBufferSize
	}
	a.nblocks = max(2, (size+a.bsize-1)/a.bsize)
	req := unix.TpacketReq3{
		Block_size:       uint32(a.bsize),
		Block_nr:         uint32(a.nblocks),
		Frame_size:       uint32(a.bsize),
		Frame_nr:         uint32(a.nblocks),
		Retire_blk_tov:   blockTimeout,
		Sizeof_priv:      0,
		Feature_req_word: 0,
	}
	if err := unix.SetsockoptTpacketReq3(a.fd, unix.SOL_PACKET, unix.PACKET_RX_RING, &req); err != nil {
		return fmt.Errorf("a ring of %d blocks of %d KiB: %v (try a smaller -B)", a.nblocks, a.bsize>>10, err)
	}
	var err error
	a.ring, err = unix.Mmap(a.fd, 0, a.bsize*a.nblocks, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return fmt.Errorf("mapping the ring: %v", err)
	}
	if a.efd, err = unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK); err != nil {
		return fmt.Errorf("eventfd: %v", err)
	}
	sll := unix.SockaddrLinklayer{Protocol: htons(unix.ETH_P_ALL)}
	if ifi != nil {
		sll.Ifindex = ifi.Index
	}
	if err := unix.Bind(a.fd, &sll); err != nil {
		if errors.Is(err, unix.ENETDOWN) {
			return errDown(ifi.Name)
		}
		return fmt.Errorf("bind: %v", err)
	}
	if o.Promisc && ifi != nil {
		mr := unix.PacketMreq{Ifindex: int32(ifi.Index), Type: unix.PACKET_MR_PROMISC}
		if err := unix.SetsockoptPacketMreq(a.fd, unix.SOL_PACKET, unix.PACKET_ADD_MEMBERSHIP, &mr); err != nil {
			return fmt.Errorf("promiscuous mode: %v", err)
		}
	}
	return nil
}

// LinkType is the link type of the packets this capture yields.
func (a *afPacket) LinkType() layers.LinkType { return a.link }

func (a *afPacket) u32(off int) uint32 { return *(*uint32)(unsafe.Pointer(&a.ring[off])) }
func (a *afPacket) u16(off int) uint16 { return *(*uint16)(unsafe.Pointer(&a.ring[off])) }

// status is the block's owner flag, which the kernel writes: read it
// atomically, so that what the kernel wrote before it is seen.
func (a *afPacket) status(block int) *uint32 {
	return (*uint32)(unsafe.Pointer(&a.ring[block*a.bsize+8]))
}

func (a *afPacket) Next() (Packet, error) {
	for {
		if a.closed || a.stopped.Load() {
			return Packet{}, io.EOF
		}
		if a.held && a.left == 0 {
			// Hand the block back, and move on.
			atomic.StoreUint32(a.status(a.cur), 0)
			a.held = false
			a.cur = (a.cur + 1) % a.nblocks
		}
		if !a.held {
			if atomic.LoadUint32(a.status(a.cur))&tpStatusUser == 0 {
				if err := a.wait(); err != nil {
					return Packet{}, err
				}
				continue
			}
			b := a.cur * a.bsize
			a.held = true
			a.left = int(a.u32(b + 12))
			a.off = b + int(a.u32(b+16))
			continue
		}
		h := a.off
		a.left--
		if next := a.u32(h); next != 0 {
			a.off = h + int(next)
		}
		if p, ok := a.packet(h); ok {
			return p, nil
		}
	}
}

// packet reads the packet whose tpacket3_hdr is at h.
func (a *afPacket) packet(h int) (Packet, bool) {
	sec, nsec := a.u32(h+4), a.u32(h+8)
	snap, wire := int(a.u32(h+12)), int(a.u32(h+16))
	st := a.u32(h + 20)
	mac, netOff := int(a.u16(h+24)), int(a.u16(h+26))
	sll := h + tpacket3HdrLen
	ifindex := int(int32(a.u32(sll + 4)))
	pkttype := a.ring[sll+10]
	if a.skipLo != 0 && pkttype == unix.PACKET_OUTGOING && ifindex == a.skipLo {
		return Packet{}, false // the filter's job; kept as a guard
	}
	end := h + mac + snap
	if end > len(a.ring) || mac < tpacket3HdrLen+sizeofSockaddrLL {
		return Packet{}, false
	}
	data := a.ring[h+mac : end : end]
	if a.cooked {
		// SLL2: protocol, reserved, interface index, ARPHRD type, packet
		// type, address length, 8 bytes of address; written in the free
		// room before the data.
		_ = netOff
		hd := h + mac - sllHdrLen
		if hd < sll+sizeofSockaddrLL {
			return Packet{}, false
		}
		hdr := a.ring[hd : h+mac]
		hdr[0], hdr[1] = a.ring[sll+2], a.ring[sll+3] // sll_protocol, already network order
		hdr[2], hdr[3] = 0, 0
		binary.BigEndian.PutUint32(hdr[4:8], uint32(ifindex))
		binary.BigEndian.PutUint16(hdr[8:10], binary.NativeEndian.Uint16(a.ring[sll+8:sll+10])) // sll_hatype, host order
		hdr[10], hdr[11] = pkttype, a.ring[sll+11]
		copy(hdr[12:20], a.ring[sll+12:sll+20])
		data = a.ring[hd:end:end]
		snap += sllHdrLen
		wire += sllHdrLen
	} else if st&tpStatusVLANValid != 0 && a.link == layers.LinkTypeEthernet && len(data) >= 12 {
		// The kernel took the 802.1Q tag off (VLAN offload): put it back
		// where it was, as libpcap does.
		tpid := uint16(0x8100)
		if st&tpStatusVLANTPIDOK != 0 {
			tpid = a.u16(h + 36)
		}
		tci := uint16(a.u32(h + 32))
		a.vlanBuf = append(a.vlanBuf[:0], data[:12]...)
		a.vlanBuf = append(a.vlanBuf, byte(tpid>>8), byte(tpid), byte(tci>>8), byte(tci))
		a.vlanBuf = append(a.vlanBuf, data[12:]...)
		data = a.vlanBuf
		snap += 4
		wire += 4
	}
	return Packet{
		Data: data,
		Info: gopacket.CaptureInfo{
			Timestamp:      time.Unix(int64(sec), int64(nsec)),
			CaptureLength:  snap,
			Length:         max(wire, snap),
			InterfaceIndex: ifindex,
		},
		LinkType: a.link,
	}, true
}

// wait blocks until the kernel hands a block over, Stop is called, or the
// socket fails.
func (a *afPacket) wait() error {
	fds := []unix.PollFd{{Fd: int32(a.fd), Events: unix.POLLIN}, {Fd: int32(a.efd), Events: unix.POLLIN}}
	for {
		_, err := unix.Poll(fds, -1)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("poll: %v", err)
		}
		break
	}
	if fds[1].Revents != 0 {
		return io.EOF
	}
	if fds[0].Revents&(unix.POLLERR|unix.POLLHUP|unix.POLLNVAL) != 0 {
		e, err := unix.GetsockoptInt(a.fd, unix.SOL_SOCKET, unix.SO_ERROR)
		if err == nil && e != 0 {
			if unix.Errno(e) == unix.ENETDOWN {
				return fmt.Errorf("%s went down", a.ifname)
			}
			return fmt.Errorf("capture: %v", unix.Errno(e))
		}
		if fds[0].Revents&unix.POLLNVAL != 0 {
			return errors.New("capture: the socket is closed")
		}
	}
	return nil
}

func (a *afPacket) Stop() {
	if a.stopped.Swap(true) {
		return
	}
	// Wake a poll in Next. The lock keeps the write off a descriptor
	// that Close has closed (and the system may have given to another
	// file).
	a.efdMu.Lock()
	defer a.efdMu.Unlock()
	if a.efd >= 0 {
		var one = [8]byte{1}
		unix.Write(a.efd, one[:])
	}
}

func (a *afPacket) Stats() Stats {
	a.statsMu.Lock()
	defer a.statsMu.Unlock()
	if a.fd >= 0 {
		// The kernel resets its counters at each read: add them up.
		if st, err := unix.GetsockoptTpacketStatsV3(a.fd, unix.SOL_PACKET, unix.PACKET_STATISTICS); err == nil {
			a.received += uint64(st.Packets)
			a.dropped += uint64(st.Drops)
		}
	}
	s := Stats{Received: a.received, Dropped: a.dropped}
	if a.ifname != "" {
		if d := ifDropped(a.ifname); d >= a.ifDrop0 {
			s.IfDropped = d - a.ifDrop0
		}
	}
	return s
}

func (a *afPacket) Close() error {
	if a.closed {
		return nil
	}
	a.Stats() // keep the final counts
	a.statsMu.Lock()
	defer a.statsMu.Unlock()
	a.closed = true
	if a.ring != nil {
		unix.Munmap(a.ring)
		a.ring = nil
	}
	var err error
	if a.fd >= 0 {
		err = unix.Close(a.fd)
		a.fd = -1
	}
	if a.portsFD >= 0 {
		unix.Close(a.portsFD)
		a.portsFD = -1
	}
	a.efdMu.Lock()
	if a.efd >= 0 {
		unix.Close(a.efd)
		a.efd = -1
	}
	a.efdMu.Unlock()
	return err
}

// arpType reads an interface's ARPHRD type.
func arpType(name string) (int, error) {
	b, err := os.ReadFile("/sys/class/net/" + name + "/type")
	if err != nil {
		return 0, fmt.Errorf("%s: %v", name, err)
	}
	var t int
	if _, err := fmt.Sscanf(string(b), "%d", &t); err != nil {
		return 0, fmt.Errorf("%s: type %q", name, b)
	}
	return t, nil
}

// ifDropped reads an interface's rx_dropped counter.
func ifDropped(name string) uint64 {
	b, err := os.ReadFile("/sys/class/net/" + name + "/statistics/rx_dropped")
	if err != nil {
		return 0
	}
	var n uint64
	fmt.Sscanf(string(b), "%d", &n)
	return n
}

func loopbackIndex() int {
	ifs, _ := net.Interfaces()
	for _, i := range ifs {
		if i.Flags&net.FlagLoopback != 0 {
			return i.Index
		}
	}
	return 0
}

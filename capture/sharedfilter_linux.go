//go:build linux && !pcap

package capture

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"time"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The default kernel filter with shared ports (LiveOptions.Shared) or
// discovery (LiveOptions.Discover) is an eBPF program: the classic filter
// of the protocols' own ports, then tables the kernel keeps, which classic
// BPF cannot.
//
// Shared ports: for a TCP segment on one, a table of connections. A
// segment from the client whose payload starts as Shared says (GET
// /heartbeat.jsp ...) puts its connection in the table; a segment of a
// connection in the table passes, in either direction; the rest of the
// port's traffic (a web server's) is refused in the kernel and costs the
// capture nothing. The table forgets a connection idle for sharedIdle,
// and its least recently used entries when it is full. The connection's
// handshake comes before its first bytes and is not seen: the reassembler
// starts its streams at the first payload (the heartbeat's framer takes an
// HTTP message there).
//
// Discovery: a table of ports added while capturing (AddPort), whose TCP
// and UDP traffic passes whole, and a table of flows (each direction of a
// TCP connection or UDP exchange, by addresses and ports) that passes the
// first discoverPackets packets of every flow, for the heuristics to see
// how each one starts.

const (
	sharedEntries = 4096
	sharedIdle    = 60 * time.Second
	// a connection's key: the server's address (16 bytes; IPv4 in the
	// first 4), the client's, the server's port, the client's, 4 bytes
	// of padding; a flow's: source, destination, ports, the transport
	// protocol and 3 bytes of padding
	connKeySize = 40

	discoverPackets = 8
	discoverFlows   = 16384
	portEntries     = 1024
)

// Stack slots, from the frame pointer.
const (
	slotKey    = -40  // the connection's key
	slotValue  = -48  // a value to store
	slotEnd    = -56  // where the IP payload ends, from the network header
	slotClient = -64  // 1 when the segment comes from the client
	slotProto  = -72  // the transport protocol
	slotFlow   = -112 // the flow's key
	slotPort   = -120 // a port's key (transport<<16 | port)
)

// tables are the eBPF maps of a program; -1: not used.
type tables struct{ conns, ports, flows int }

func (t tables) close() {
	for _, fd := range []int{t.conns, t.ports, t.flows} {
		if fd >= 0 {
			unix.Close(fd)
		}
	}
}

// statefulProgram builds the program: classic is the classic filter of
// the protocols' ports (with the loopback test, as OpenLive assembles it),
// loIndex the loopback's ifindex whose outgoing copies are refused (0:
// none; anyIface: the test also names the interface).
func statefulProgram(classic []bpf.Instruction, l layout, loIndex int, anyIface bool, sh SharedPorts, t tables, snaplen int) ([]byte, error) {
	shared := len(sh.Ports) > 0 && len(sh.Starts) > 0 && t.conns >= 0
	discover := t.ports >= 0 && t.flows >= 0
	if !shared && !discover {
		return nil, errors.New("no table to keep")
	}
	e := &ebpf{}
	accept, reject, rest := e.newLabel(), e.newLabel(), e.newLabel()
	e.mov64(r6, r1)
	e.classic(classic, rest)

	e.place(rest)
	ip := e.newLabel()
	if loIndex > 0 {
		e.ldx(bpfW, r0, r6, skbPktType)
		e.jmp32(jmpJNE, r0, unix.PACKET_OUTGOING, ip)
		if anyIface {
			e.ldx(bpfW, r0, r6, skbIfindex)
			e.jmp32(jmpJNE, r0, uint32(loIndex), ip)
		}
		e.goTo(reject)
	}
	e.place(ip)
	v4, v6 := e.newLabel(), e.newLabel()
	switch l.etherOff {
	case -1:
		e.loadPkt(bpfB, r0, 0)
		e.alu32(aluAnd, r0, 0xf0)
		e.jmp32(jmpJEQ, r0, 0x40, v4)
		e.jmp32(jmpJEQ, r0, 0x60, v6)
	case -2:
		e.ldx(bpfW, r0, r6, skbProto)
		e.emit(ins{code: bpfALU | aluEnd | bpfX, dst: r0, imm: 16})
		e.jmp32(jmpJEQ, r0, ethIPv4, v4)
		e.jmp32(jmpJEQ, r0, ethIPv6, v6)
	default:
		e.loadPkt(bpfH, r0, uint32(l.etherOff))
		e.jmp32(jmpJEQ, r0, ethIPv4, v4)
		e.jmp32(jmpJEQ, r0, ethIPv6, v6)
	}
	e.goTo(reject)
	nl := l.nl
	// transport tests the protocol in r0 (TCP, or UDP when discovering)
	// and keeps it.
	transport := func() {
		ok := e.newLabel()
		e.jmp32(jmpJEQ, r0, 6, ok)
		if discover {
			e.jmp32(jmpJEQ, r0, 17, ok)
		}
		e.goTo(reject)
		e.place(ok)
		e.stx(bpfDW, r10, r0, slotProto)
	}
	// ports loads the source port into r8 and the destination's into r9
	// (r7: the IP header's length).
	ports := func() {
		e.loadPkt(bpfH, r7, nl)
		e.mov64(r8, r0)
		e.loadPkt(bpfH, r7, nl+2)
		e.mov64(r9, r0)
	}
	type family struct {
		srcOff, dstOff uint32
		alen           int
	}
	fams := []family{{nl + 12, nl + 16, 4}, {nl + 8, nl + 24, 16}}
	// IPv4: not a fragment after the first; r7 the header's length.
	e.place(v4)
	e.loadPkt(bpfB, r0, nl+9)
	transport()
	e.loadPkt(bpfH, r0, nl+6)
	e.jmp32(jmpJSET, r0, 0x1fff, reject)
	e.loadPkt(bpfB, r0, nl)
	e.alu32(aluAnd, r0, 0xf)
	e.alu32(aluLsh, r0, 2)
	e.mov64(r7, r0)
	e.loadPkt(bpfH, r0, nl+2)
	e.stx(bpfW, r10, r0, slotEnd)
	ports()
	v4tables := e.newLabel()
	e.goTo(v4tables)
	// IPv6: the transport right after the fixed header.
	e.place(v6)
	e.loadPkt(bpfB, r0, nl+6)
	transport()
	e.movImm(r7, 40)
	e.loadPkt(bpfH, r0, nl+4)
	e.alu32(aluAdd, r0, 40)
	e.stx(bpfW, r10, r0, slotEnd)
	ports()
	v6tables := e.newLabel()
	e.goTo(v6tables)

	for i, f := range fams {
		e.place([]int{v4tables, v6tables}[i])
		next := reject
		if discover {
			next = e.newLabel()
		}
		if discover {
			addedPort(e, t.ports, accept)
		}
		if shared {
			sharedConn(e, sh, t.conns, nl, f.srcOff, f.dstOff, f.alen, accept, next)
		}
		if discover {
			e.place(next)
			firstPackets(e, t.flows, nl, f.srcOff, f.dstOff, f.alen, accept, reject)
		}
	}
	e.place(accept)
	e.ret(uint32(snaplen))
	e.place(reject)
	e.ret(0)
	return e.assemble()
}

// addedPort goes to accept when either port (r8, r9) of the transport
// kept in slotProto is in the table of ports added.
func addedPort(e *ebpf, fd int, accept int) {
	for _, reg := range []uint8{r9, r8} {
		e.ldx(bpfDW, r0, r10, slotProto)
		e.alu64(aluLsh, r0, 16)
		e.alu64X(aluOr, r0, reg)
		e.stx(bpfW, r10, r0, slotPort)
		e.loadMap(r1, fd)
		e.mov64(r2, r10)
		e.alu64(aluAdd, r2, slotPort)
		e.call(helperMapLookup)
		e.jmpImm(jmpJNE, r0, 0, accept)
	}
}

// sharedConn: for a TCP segment on a shared port, the connection's key is
// written (the server: the side on a shared port) and looked up; a
// segment from the client may start a connection. Segments not on a
// shared port, or not passed, go to next.
func sharedConn(e *ebpf, sh SharedPorts, fd int, nl, srcOff, dstOff uint32, alen int, accept, next int) {
	e.ldx(bpfDW, r0, r10, slotProto)
	e.jmpImm(jmpJNE, r0, 6, next)
	for off := int16(slotKey); off < slotKey+connKeySize; off += 8 {
		e.st(bpfDW, r10, off, 0)
	}
	c2s, s2c, lookup := e.newLabel(), e.newLabel(), e.newLabel()
	for _, p := range sh.Ports {
		e.jmp32(jmpJEQ, r9, uint32(p), c2s)
	}
	for _, p := range sh.Ports {
		e.jmp32(jmpJEQ, r8, uint32(p), s2c)
	}
	e.goTo(next)
	key := func(server, client uint32, sport, cport uint8, fromClient int32) {
		for i := 0; i < alen; i += 4 {
			e.loadPkt(bpfW, r0, server+uint32(i))
			e.stx(bpfW, r10, r0, slotKey+int16(i))
			e.loadPkt(bpfW, r0, client+uint32(i))
			e.stx(bpfW, r10, r0, slotKey+16+int16(i))
		}
		e.stx(bpfH, r10, sport, slotKey+32)
		e.stx(bpfH, r10, cport, slotKey+34)
		e.st(bpfDW, r10, slotClient, fromClient)
		e.goTo(lookup)
	}
	e.place(c2s)
	key(dstOff, srcOff, r9, r8, 1)
	e.place(s2c)
	key(srcOff, dstOff, r8, r9, 0)

	// A connection in the table passes, unless idle too long.
	e.place(lookup)
	start := e.newLabel()
	e.loadMap(r1, fd)
	e.mov64(r2, r10)
	e.alu64(aluAdd, r2, slotKey)
	e.call(helperMapLookup)
	e.jmpImm(jmpJEQ, r0, 0, start)
	e.mov64(r8, r0)
	e.call(helperKtimeNs)
	e.ldx(bpfDW, r1, r8, 0)
	e.mov64(r2, r0)
	e.alu64X(aluSub, r2, r1)
	e.ldImm64(r3, uint64(sharedIdle))
	e.jmpX(jmpJGT, r2, r3, start)
	e.stx(bpfDW, r8, r0, 0)
	e.goTo(accept)

	// Otherwise a segment from the client may start one. r7 becomes the
	// payload's offset: the segment goes on to next only through the
	// flow table, which reads addresses at fixed places and ports no more.
	e.place(start)
	e.ldx(bpfDW, r0, r10, slotClient)
	e.jmpImm(jmpJEQ, r0, 0, next)
	e.mov64(r9, r7)            // the IP header's length, for next
	e.loadPkt(bpfB, r7, nl+12) // the TCP header's length
	e.alu32(aluRsh, r0, 4)
	e.alu32(aluLsh, r0, 2)
	e.alu64X(aluAdd, r7, r0)
	e.ldx(bpfW, r1, r10, slotEnd)
	e.alu64X(aluSub, r1, r7) // the payload's length
	shortest := len(sh.Starts[0])
	for _, s := range sh.Starts {
		shortest = min(shortest, len(s))
	}
	restore := e.newLabel()
	e.jmpImm(jmpJSLT, r1, int32(shortest+1), restore)
	matched := e.newLabel()
	for _, s := range sh.Starts {
		other := e.newLabel()
		for off := 0; off < len(s); {
			n := min(4, len(s)-off)
			if n == 3 {
				n = 2
			}
			var v uint32
			for _, c := range []byte(s[off : off+n]) {
				v = v<<8 | uint32(c)
			}
			e.loadPkt(size(n), r7, nl+uint32(off))
			e.jmp32(jmpJNE, r0, v, other)
			off += n
		}
		e.loadPkt(bpfB, r7, nl+uint32(len(s)))
		for _, c := range []byte(sh.Then) {
			e.jmp32(jmpJEQ, r0, uint32(c), matched)
		}
		e.place(other)
	}
	e.place(restore)
	e.mov64(r7, r9)
	e.goTo(next)
	e.place(matched)
	e.call(helperKtimeNs)
	e.stx(bpfDW, r10, r0, slotValue)
	e.loadMap(r1, fd)
	e.mov64(r2, r10)
	e.alu64(aluAdd, r2, slotKey)
	e.mov64(r3, r10)
	e.alu64(aluAdd, r3, slotValue)
	e.movImm(r4, 0)
	e.call(helperMapUpdate)
	e.goTo(accept)
}

// firstPackets passes the first discoverPackets packets of a flow: its
// key (addresses, ports, transport) is counted in the flow table. r7 holds
// the IP header's length.
func firstPackets(e *ebpf, fd int, nl, srcOff, dstOff uint32, alen int, accept, reject int) {
	for off := int16(slotFlow); off < slotFlow+connKeySize; off += 8 {
		e.st(bpfDW, r10, off, 0)
	}
	for i := 0; i < alen; i += 4 {
		e.loadPkt(bpfW, r0, srcOff+uint32(i))
		e.stx(bpfW, r10, r0, slotFlow+int16(i))
		e.loadPkt(bpfW, r0, dstOff+uint32(i))
		e.stx(bpfW, r10, r0, slotFlow+16+int16(i))
	}
	e.loadPkt(bpfH, r7, nl)
	e.stx(bpfH, r10, r0, slotFlow+32)
	e.loadPkt(bpfH, r7, nl+2)
	e.stx(bpfH, r10, r0, slotFlow+34)
	e.ldx(bpfDW, r0, r10, slotProto)
	e.stx(bpfB, r10, r0, slotFlow+36)
	newFlow := e.newLabel()
	e.loadMap(r1, fd)
	e.mov64(r2, r10)
	e.alu64(aluAdd, r2, slotFlow)
	e.call(helperMapLookup)
	e.jmpImm(jmpJEQ, r0, 0, newFlow)
	e.ldx(bpfW, r1, r0, 0)
	e.jmpImm(jmpJGE, r1, discoverPackets, reject)
	e.alu64(aluAdd, r1, 1)
	e.stx(bpfW, r0, r1, 0)
	e.goTo(accept)
	e.place(newFlow)
	e.st(bpfDW, r10, slotValue, 1)
	e.loadMap(r1, fd)
	e.mov64(r2, r10)
	e.alu64(aluAdd, r2, slotFlow)
	e.mov64(r3, r10)
	e.alu64(aluAdd, r3, slotValue)
	e.movImm(r4, 0)
	e.call(helperMapUpdate)
	e.goTo(accept)
}

// attachStateful makes the tables and the program and attaches it on fd.
// The tables live as long as the socket holds the program; the table of
// ports added is returned open (-1 without discovery), for AddPort.
func attachStateful(fd int, classic []bpf.Instruction, l layout, loIndex int, anyIface bool, sh SharedPorts, discover bool, snaplen int) (int, error) {
	t := tables{-1, -1, -1}
	defer func() { t.close() }()
	var err error
	if len(sh.Ports) > 0 && len(sh.Starts) > 0 {
		if t.conns, err = newMap(mapTypeLRUHash, connKeySize, 8, sharedEntries); err != nil {
			return -1, err
		}
	}
	if discover {
		if t.ports, err = newMap(mapTypeHash, 4, 1, portEntries); err != nil {
			return -1, err
		}
		if t.flows, err = newMap(mapTypeLRUHash, connKeySize, 4, discoverFlows); err != nil {
			return -1, err
		}
	}
	code, err := statefulProgram(classic, l, loIndex, anyIface, sh, t, snaplen)
	if err != nil {
		return -1, err
	}
	prog, err := loadSocketFilter(code)
	if err != nil {
		return -1, err
	}
	defer unix.Close(prog)
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, soAttachBPF, prog); err != nil {
		return -1, fmt.Errorf("attaching the eBPF filter: %w", err)
	}
	ports := t.ports
	t.ports = -1 // kept open
	return ports, nil
}

// addPort puts a port in the table of ports added: transport 6 (TCP) or
// 17 (UDP).
func addPort(mapFD int, transport uint8, port uint16) error {
	key := uint32(transport)<<16 | uint32(port)
	val := uint8(1)
	attr := make([]byte, 32)
	binary.NativeEndian.PutUint32(attr[0:], uint32(mapFD))
	binary.NativeEndian.PutUint64(attr[8:], uint64(uintptr(unsafe.Pointer(&key))))
	binary.NativeEndian.PutUint64(attr[16:], uint64(uintptr(unsafe.Pointer(&val))))
	_, err := bpfSys(bpfMapUpdateElem, attr)
	runtime.KeepAlive(&key)
	runtime.KeepAlive(&val)
	if err != nil {
		return fmt.Errorf("adding port %d to the kernel filter: %w", port, err)
	}
	return nil
}

//go:build linux && !pcap

package capture

import (
	"errors"
	"fmt"
	"time"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The default kernel filter with shared ports (LiveOptions.Shared) is an
// eBPF program: the classic filter of the protocols' own ports, then, for
// a TCP segment on a shared port, a table of connections kept by the
// kernel. A segment from the client whose payload starts as Shared says
// (GET /heartbeat.jsp ...) puts its connection in the table; a segment of
// a connection in the table passes, in either direction; the rest of the
// port's traffic (a web server's) is refused in the kernel and costs the
// capture nothing. The table forgets a connection idle for
// sharedIdle, and its least recently used entries when it is full.
//
// The connection's handshake comes before its first bytes and is not
// seen: the reassembler starts its streams at the first payload (the
// heartbeat's framer takes an HTTP message there).

const (
	sharedEntries = 4096
	sharedIdle    = 60 * time.Second
	// the key: the server's address (16 bytes; IPv4 in the first 4),
	// the client's, the server's port, the client's, 4 bytes of padding
	sharedKeySize = 40
)

// Stack slots, from the frame pointer.
const (
	slotKey    = -40 // the connection's key
	slotValue  = -48 // the value stored: the time, in ns
	slotEnd    = -56 // where the IP payload ends, from the network header
	slotClient = -64 // 1 when the segment comes from the client
)

// sharedProgram builds the program: classic is the classic filter of the
// protocols' ports (with the loopback test, as OpenLive assembles it),
// loIndex the loopback's ifindex whose outgoing copies are refused (0:
// none; anyIface: the test also names the interface).
func sharedProgram(classic []bpf.Instruction, l layout, loIndex int, anyIface bool, sh SharedPorts, mapFD, snaplen int) ([]byte, error) {
	if len(sh.Ports) == 0 || len(sh.Starts) == 0 {
		return nil, errors.New("no shared ports")
	}
	e := &ebpf{}
	accept, reject, shared := e.newLabel(), e.newLabel(), e.newLabel()
	e.mov64(r6, r1)
	e.classic(classic, shared)

	e.place(shared)
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
	lookup := e.newLabel()

	// IPv4: TCP, not a fragment after the first; r7 the header's length.
	e.place(v4)
	e.loadPkt(bpfB, r0, nl+9)
	e.jmp32(jmpJNE, r0, 6, reject)
	e.loadPkt(bpfH, r0, nl+6)
	e.jmp32(jmpJSET, r0, 0x1fff, reject)
	e.loadPkt(bpfB, r0, nl)
	e.alu32(aluAnd, r0, 0xf)
	e.alu32(aluLsh, r0, 2)
	e.mov64(r7, r0)
	e.loadPkt(bpfH, r0, nl+2)
	e.stx(bpfW, r10, r0, slotEnd)
	sharedKey(e, sh, nl, nl+12, nl+16, 4, lookup, reject)

	// IPv6: TCP right after the fixed header.
	e.place(v6)
	e.loadPkt(bpfB, r0, nl+6)
	e.jmp32(jmpJNE, r0, 6, reject)
	e.movImm(r7, 40)
	e.loadPkt(bpfH, r0, nl+4)
	e.alu32(aluAdd, r0, 40)
	e.stx(bpfW, r10, r0, slotEnd)
	sharedKey(e, sh, nl, nl+8, nl+24, 16, lookup, reject)

	// A connection in the table passes, unless idle too long.
	e.place(lookup)
	start := e.newLabel()
	e.loadMap(r1, mapFD)
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

	// Otherwise a segment from the client may start one.
	e.place(start)
	e.ldx(bpfDW, r0, r10, slotClient)
	e.jmpImm(jmpJEQ, r0, 0, reject)
	e.loadPkt(bpfB, r7, nl+12) // the TCP header's length
	e.alu32(aluRsh, r0, 4)
	e.alu32(aluLsh, r0, 2)
	e.alu64X(aluAdd, r7, r0) // r7: the payload's offset from nl
	e.ldx(bpfW, r1, r10, slotEnd)
	e.alu64X(aluSub, r1, r7) // the payload's length
	shortest := len(sh.Starts[0])
	for _, s := range sh.Starts {
		shortest = min(shortest, len(s))
	}
	e.jmpImm(jmpJSLT, r1, int32(shortest+1), reject)
	matched := e.newLabel()
	for _, s := range sh.Starts {
		next := e.newLabel()
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
			e.jmp32(jmpJNE, r0, v, next)
			off += n
		}
		e.loadPkt(bpfB, r7, nl+uint32(len(s)))
		for _, c := range []byte(sh.Then) {
			e.jmp32(jmpJEQ, r0, uint32(c), matched)
		}
		e.place(next)
	}
	e.goTo(reject)
	e.place(matched)
	e.call(helperKtimeNs)
	e.stx(bpfDW, r10, r0, slotValue)
	e.loadMap(r1, mapFD)
	e.mov64(r2, r10)
	e.alu64(aluAdd, r2, slotKey)
	e.mov64(r3, r10)
	e.alu64(aluAdd, r3, slotValue)
	e.movImm(r4, 0)
	e.call(helperMapUpdate)

	e.place(accept)
	e.ret(uint32(snaplen))
	e.place(reject)
	e.ret(0)
	return e.assemble()
}

// sharedKey tests a TCP segment's ports (r7 holds the IP header's length)
// and writes its connection's key: the server is the side on a shared
// port. It goes to lookup, or to reject when neither port is shared.
func sharedKey(e *ebpf, sh SharedPorts, nl, srcOff, dstOff uint32, alen int, lookup, reject int) {
	for off := int16(slotKey); off < 0; off += 8 {
		e.st(bpfDW, r10, off, 0)
	}
	e.loadPkt(bpfH, r7, nl)
	e.mov64(r8, r0)
	e.loadPkt(bpfH, r7, nl+2)
	e.mov64(r9, r0)
	c2s, s2c := e.newLabel(), e.newLabel()
	for _, p := range sh.Ports {
		e.jmp32(jmpJEQ, r9, uint32(p), c2s)
	}
	for _, p := range sh.Ports {
		e.jmp32(jmpJEQ, r8, uint32(p), s2c)
	}
	e.goTo(reject)
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
}

// attachShared makes and attaches the eBPF program on fd. The map and the
// program live as long as the socket holds them.
func attachShared(fd int, classic []bpf.Instruction, l layout, loIndex int, anyIface bool, sh SharedPorts, snaplen int) error {
	mapFD, err := newLRUMap(sharedKeySize, 8, sharedEntries)
	if err != nil {
		return err
	}
	defer unix.Close(mapFD)
	code, err := sharedProgram(classic, l, loIndex, anyIface, sh, mapFD, snaplen)
	if err != nil {
		return err
	}
	prog, err := loadSocketFilter(code)
	if err != nil {
		return err
	}
	defer unix.Close(prog)
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, soAttachBPF, prog); err != nil {
		return fmt.Errorf("attaching the eBPF filter: %w", err)
	}
	return nil
}

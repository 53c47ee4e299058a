//go:build linux && !pcap

package capture

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// A small eBPF assembler and loader, for the one program this package
// attaches when a filter needs state (sharedfilter_linux.go): the kernel
// keeps a table of connections there, which classic BPF cannot. Classic BPF
// compiled by filter.go is translated instruction by instruction; the
// loader needs the bpf system call (root or CAP_BPF), and the caller falls
// back to classic BPF without it.

// ins is one eBPF instruction.
type ins struct {
	code     uint8
	dst, src uint8
	off      int16
	imm      int32
	// label: the jump's target (ebpf.jump resolves it into off); -1 none.
	label int
}

// eBPF opcodes (linux/bpf.h, linux/bpf_common.h).
const (
	bpfLD    = 0x00
	bpfLDX   = 0x01
	bpfST    = 0x02
	bpfSTX   = 0x03
	bpfALU   = 0x04
	bpfJMP   = 0x05
	bpfJMP32 = 0x06
	bpfALU64 = 0x07

	bpfW  = 0x00
	bpfH  = 0x08
	bpfB  = 0x10
	bpfDW = 0x18

	bpfIMM = 0x00
	bpfABS = 0x20
	bpfIND = 0x40
	bpfMEM = 0x60

	bpfK = 0x00
	bpfX = 0x08

	aluAdd = 0x00
	aluSub = 0x10
	aluOr  = 0x40
	aluAnd = 0x50
	aluLsh = 0x60
	aluRsh = 0x70
	aluMov = 0xb0
	aluEnd = 0xd0 // with bpfX: to big-endian

	jmpJA   = 0x00
	jmpJEQ  = 0x10
	jmpJGT  = 0x20
	jmpJGE  = 0x30
	jmpJSET = 0x40
	jmpJNE  = 0x50
	jmpJSLT = 0xc0
	jmpCall = 0x80
	jmpExit = 0x90

	pseudoMapFD = 1

	helperMapLookup = 1
	helperMapUpdate = 2
	helperKtimeNs   = 5

	// offsets in struct __sk_buff
	skbPktType = 4
	skbProto   = 16 // network byte order
	skbIfindex = 40
)

// Registers: r0 the result (classic BPF's A), r1-r5 arguments (clobbered
// by calls and by packet loads), r6 the packet (packet loads use it), r7
// classic BPF's X, r8 and r9 kept across calls, r10 the frame pointer.
const (
	r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10 = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
)

// ebpf builds a program whose jumps go to labels.
type ebpf struct {
	prog   []ins
	labels []int // each label's instruction index, -1 until placed
	err    error
}

func (e *ebpf) newLabel() int { e.labels = append(e.labels, -1); return len(e.labels) - 1 }
func (e *ebpf) place(l int)   { e.labels[l] = len(e.prog) }
func (e *ebpf) emit(i ins)    { i.label = -1; e.prog = append(e.prog, i) }

// loadPkt loads size bytes (bpfW, bpfH, bpfB) of the packet at off, or at
// idx+off when idx is a register (not r0), into r0 in host order; a load
// outside the packet ends the program with 0 (the packet is refused).
func (e *ebpf) loadPkt(size uint8, idx uint8, off uint32) {
	if idx == r0 {
		e.emit(ins{code: bpfLD | bpfABS | size, imm: int32(off)})
		return
	}
	e.emit(ins{code: bpfLD | bpfIND | size, src: idx, imm: int32(off)})
}

func (e *ebpf) alu32(op uint8, dst uint8, imm int32) {
	e.emit(ins{code: bpfALU | op | bpfK, dst: dst, imm: imm})
}
func (e *ebpf) alu64(op uint8, dst uint8, imm int32) {
	e.emit(ins{code: bpfALU64 | op | bpfK, dst: dst, imm: imm})
}
func (e *ebpf) alu64X(op uint8, dst, src uint8) {
	e.emit(ins{code: bpfALU64 | op | bpfX, dst: dst, src: src})
}
func (e *ebpf) mov64(dst, src uint8)        { e.alu64X(aluMov, dst, src) }
func (e *ebpf) movImm(dst uint8, imm int32) { e.alu64(aluMov, dst, imm) }

// ldx loads size bytes at src+off into dst.
func (e *ebpf) ldx(size, dst, src uint8, off int16) {
	e.emit(ins{code: bpfLDX | bpfMEM | size, dst: dst, src: src, off: off})
}

// stx stores size bytes of src at dst+off.
func (e *ebpf) stx(size, dst, src uint8, off int16) {
	e.emit(ins{code: bpfSTX | bpfMEM | size, dst: dst, src: src, off: off})
}

// st stores the immediate imm, size bytes of it, at dst+off.
func (e *ebpf) st(size, dst uint8, off int16, imm int32) {
	e.emit(ins{code: bpfST | bpfMEM | size, dst: dst, off: off, imm: imm})
}

// jmp32 jumps to label l when the low 32 bits of reg compare with imm.
func (e *ebpf) jmp32(op uint8, reg uint8, imm uint32, l int) {
	e.prog = append(e.prog, ins{code: bpfJMP32 | op | bpfK, dst: reg, imm: int32(imm), label: l})
}

// jmpX jumps to l when dst compares with src (64 bits).
func (e *ebpf) jmpX(op uint8, dst, src uint8, l int) {
	e.prog = append(e.prog, ins{code: bpfJMP | op | bpfX, dst: dst, src: src, label: l})
}

// jmpImm jumps to l when dst compares with imm (64 bits, imm sign-extended).
func (e *ebpf) jmpImm(op uint8, dst uint8, imm int32, l int) {
	e.prog = append(e.prog, ins{code: bpfJMP | op | bpfK, dst: dst, imm: imm, label: l})
}

func (e *ebpf) goTo(l int) { e.prog = append(e.prog, ins{code: bpfJMP | jmpJA, label: l}) }
func (e *ebpf) call(helper int32) {
	e.emit(ins{code: bpfJMP | jmpCall, imm: helper})
}
func (e *ebpf) exit() { e.emit(ins{code: bpfJMP | jmpExit}) }

// ret ends the program with v.
func (e *ebpf) ret(v uint32) {
	e.alu32(aluMov, r0, int32(v))
	e.exit()
}

// ldImm64 puts a 64-bit constant in dst (two instructions).
func (e *ebpf) ldImm64(dst uint8, v uint64) {
	e.emit(ins{code: bpfLD | bpfIMM | bpfDW, dst: dst, imm: int32(uint32(v))})
	e.emit(ins{imm: int32(uint32(v >> 32))})
}

// loadMap puts a map's descriptor in dst (a two-instruction load the
// kernel turns into the map's address).
func (e *ebpf) loadMap(dst uint8, fd int) {
	e.emit(ins{code: bpfLD | bpfIMM | bpfDW, dst: dst, src: pseudoMapFD, imm: int32(fd)})
	e.emit(ins{})
}

// classic appends a classic BPF program (as filter.go assembles it) run
// on the same packet: its accepting returns end the program, and its
// refusals (return 0) go to label refused. It uses r0, r7 and r8.
func (e *ebpf) classic(prog []bpf.Instruction, refused int) {
	at := make([]int, len(prog)) // each classic instruction's label
	for i := range prog {
		at[i] = e.newLabel()
	}
	cond := func(c bpf.JumpTest) uint8 {
		switch c {
		case bpf.JumpEqual:
			return jmpJEQ
		case bpf.JumpNotEqual:
			return jmpJNE
		case bpf.JumpGreaterThan:
			return jmpJGT
		case bpf.JumpGreaterOrEqual:
			return jmpJGE
		case bpf.JumpBitsSet:
			return jmpJSET
		}
		return 0xff
	}
	target := func(i, skip int) int {
		if i+1+skip >= len(at) {
			e.err = fmt.Errorf("ebpf: classic jump out of the program at %d", i)
			return refused
		}
		return at[i+1+skip]
	}
	for i, in := range prog {
		e.place(at[i])
		switch in := in.(type) {
		case bpf.LoadAbsolute:
			e.loadPkt(size(in.Size), r0, in.Off)
		case bpf.LoadIndirect:
			e.loadPkt(size(in.Size), r7, in.Off)
		case bpf.LoadMemShift:
			e.mov64(r8, r0)
			e.loadPkt(bpfB, r0, in.Off)
			e.alu32(aluAnd, r0, 0xf)
			e.alu32(aluLsh, r0, 2)
			e.mov64(r7, r0)
			e.mov64(r0, r8)
		case bpf.LoadExtension:
			switch in.Num {
			case bpf.ExtType:
				e.ldx(bpfW, r0, r6, skbPktType)
			case bpf.ExtInterfaceIndex:
				e.ldx(bpfW, r0, r6, skbIfindex)
			case bpf.ExtProto:
				e.ldx(bpfW, r0, r6, skbProto)
				e.emit(ins{code: bpfALU | aluEnd | bpfX, dst: r0, imm: 16})
			default:
				e.err = fmt.Errorf("ebpf: classic extension %v", in.Num)
			}
		case bpf.ALUOpConstant:
			if in.Op != bpf.ALUOpAnd {
				e.err = fmt.Errorf("ebpf: classic ALU op %v", in.Op)
			}
			e.alu32(aluAnd, r0, int32(in.Val))
		case bpf.JumpIf:
			op := cond(in.Cond)
			if op == 0xff {
				e.err = fmt.Errorf("ebpf: classic jump %v", in.Cond)
			}
			e.jmp32(op, r0, in.Val, target(i, int(in.SkipTrue)))
			e.goTo(target(i, int(in.SkipFalse)))
		case bpf.Jump:
			e.goTo(target(i, int(in.Skip)))
		case bpf.RetConstant:
			if in.Val == 0 {
				e.goTo(refused)
			} else {
				e.ret(in.Val)
			}
		default:
			e.err = fmt.Errorf("ebpf: classic instruction %T", in)
		}
	}
}

func size(n int) uint8 {
	switch n {
	case 1:
		return bpfB
	case 2:
		return bpfH
	}
	return bpfW
}

// assemble resolves the labels, leaves out what no path reaches (the
// verifier refuses it) and encodes the program.
func (e *ebpf) assemble() ([]byte, error) {
	if e.err != nil {
		return nil, e.err
	}
	target := func(i int) int {
		to := e.labels[e.prog[i].label]
		if to < 0 {
			e.err = fmt.Errorf("ebpf: label %d not placed", e.prog[i].label)
			return len(e.prog)
		}
		return to
	}
	// Reachable instructions, from the first.
	reach := make([]bool, len(e.prog)+1)
	work := []int{0}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		if i >= len(e.prog) || reach[i] {
			continue
		}
		reach[i] = true
		in := e.prog[i]
		switch {
		case in.code == bpfJMP|jmpExit:
		case in.code == bpfJMP|jmpJA && in.label >= 0:
			work = append(work, target(i))
		case in.label >= 0:
			work = append(work, target(i), i+1)
		case in.code == bpfLD|bpfIMM|bpfDW:
			reach[i+1] = true
			work = append(work, i+2)
		default:
			work = append(work, i+1)
		}
	}
	if e.err != nil {
		return nil, e.err
	}
	// New places: an unreachable instruction's is the next one kept.
	at := make([]int, len(e.prog)+1)
	n := 0
	for i := range e.prog {
		at[i] = n
		if reach[i] {
			n++
		}
	}
	at[len(e.prog)] = n
	out := make([]byte, 0, 8*n)
	for i, in := range e.prog {
		if !reach[i] {
			continue
		}
		if in.label >= 0 {
			d := at[target(i)] - at[i] - 1
			if d < -32768 || d > 32767 {
				return nil, errors.New("ebpf: jump too far")
			}
			in.off = int16(d)
		}
		// struct bpf_insn: the registers share a byte as bit fields,
		// whose order follows the host's byte order, as the numbers do.
		var b [8]byte
		b[0] = in.code
		b[1] = in.dst&0xf | in.src<<4
		if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
			b[1] = in.dst<<4 | in.src&0xf
		}
		binary.NativeEndian.PutUint16(b[2:], uint16(in.off))
		binary.NativeEndian.PutUint32(b[4:], uint32(in.imm))
		out = append(out, b[:]...)
	}
	return out, nil
}

// The bpf system call.

const (
	bpfMapCreate     = 0
	bpfMapUpdateElem = 2
	bpfProgLoad      = 5

	mapTypeHash      = 1
	mapTypeLRUHash   = 9
	progTypeSocket   = 1
	soAttachBPF      = 50 // SO_ATTACH_BPF
	verifierLogBytes = 64 << 10
)

// bpfSys makes the bpf system call. The verifier gives up with EAGAIN
// when a signal is pending (Go's scheduler sends them): the call is made
// again then, as libbpf does.
func bpfSys(cmd int, attr []byte) (int, error) {
	for try := 0; ; try++ {
		r, _, errno := unix.Syscall(unix.SYS_BPF, uintptr(cmd), uintptr(unsafe.Pointer(&attr[0])), uintptr(len(attr)))
		runtime.KeepAlive(attr)
		if (errno == unix.EAGAIN || errno == unix.EINTR) && try < 10 {
			continue
		}
		if errno != 0 {
			return -1, errno
		}
		return int(r), nil
	}
}

// newMap makes a table: a hash table (mapTypeHash), or one whose least
// recently used entries go when it is full (mapTypeLRUHash).
func newMap(typ, keySize, valueSize, entries int) (int, error) {
	attr := make([]byte, 72)
	binary.NativeEndian.PutUint32(attr[0:], uint32(typ))
	binary.NativeEndian.PutUint32(attr[4:], uint32(keySize))
	binary.NativeEndian.PutUint32(attr[8:], uint32(valueSize))
	binary.NativeEndian.PutUint32(attr[12:], uint32(entries))
	fd, err := bpfSys(bpfMapCreate, attr)
	if err != nil {
		return -1, fmt.Errorf("bpf map: %w", err)
	}
	return fd, nil
}

// loadSocketFilter loads an encoded program as a socket filter; the
// verifier's log is in the error when it refuses it.
func loadSocketFilter(code []byte) (int, error) {
	license := []byte("MIT\x00")
	log := make([]byte, verifierLogBytes)
	attr := make([]byte, 128)
	binary.NativeEndian.PutUint32(attr[0:], progTypeSocket)
	binary.NativeEndian.PutUint32(attr[4:], uint32(len(code)/8))
	binary.NativeEndian.PutUint64(attr[8:], uint64(uintptr(unsafe.Pointer(&code[0]))))
	binary.NativeEndian.PutUint64(attr[16:], uint64(uintptr(unsafe.Pointer(&license[0]))))
	copy(attr[48:64], "mcdissect")
	fd, err := bpfSys(bpfProgLoad, attr)
	if err != nil && !errors.Is(err, unix.EPERM) {
		// Again with the verifier's log, to say why.
		binary.NativeEndian.PutUint32(attr[24:], 1)
		binary.NativeEndian.PutUint32(attr[28:], uint32(len(log)))
		binary.NativeEndian.PutUint64(attr[32:], uint64(uintptr(unsafe.Pointer(&log[0]))))
		fd, err = bpfSys(bpfProgLoad, attr)
		if err != nil {
			if n := indexNUL(log); n > 0 {
				err = fmt.Errorf("%w: %s", err, tail(string(log[:n]), 400))
			}
		}
	}
	runtime.KeepAlive(code)
	runtime.KeepAlive(license)
	runtime.KeepAlive(log)
	if err != nil {
		return -1, fmt.Errorf("bpf program: %w", err)
	}
	return fd, nil
}

func indexNUL(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return len(b)
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

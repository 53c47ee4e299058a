//go:build linux && !pcap

package capture

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/gopacket/gopacket/layers"
	"golang.org/x/sys/unix"
)

const bpfProgTestRun = 10

// testRun runs a loaded socket filter on an Ethernet frame in the kernel
// (BPF_PROG_TEST_RUN): the program sees the frame from its network header
// on, its protocol as skb->protocol, as on a cooked socket.
func testRun(t *testing.T, prog int, frame []byte) uint32 {
	t.Helper()
	attr := make([]byte, 80)
	binary.NativeEndian.PutUint32(attr[0:], uint32(prog))
	binary.NativeEndian.PutUint32(attr[8:], uint32(len(frame)))
	binary.NativeEndian.PutUint64(attr[16:], uint64(uintptr(unsafe.Pointer(&frame[0]))))
	binary.NativeEndian.PutUint32(attr[32:], 1)
	if _, err := bpfSys(bpfProgTestRun, attr); err != nil {
		t.Fatalf("test run: %v", err)
	}
	return binary.NativeEndian.Uint32(attr[4:])
}

// loadTest loads code, or skips the test when this host cannot load eBPF.
func loadTest(t *testing.T, code []byte) int {
	t.Helper()
	fd, err := loadSocketFilter(code)
	if errors.Is(err, unix.EPERM) || errors.Is(err, unix.ENOSYS) {
		t.Skip("no eBPF here:", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	return fd
}

// TestEBPFTranslation: the classic programs filter.go compiles, translated
// to eBPF and run by the kernel, keep what x/net/bpf's VM keeps of the
// same frames (the eBPF ones compiled for a cooked socket, as the kernel's
// test run shows the frame; the VM's for Ethernet).
func TestEBPFTranslation(t *testing.T) {
	files := []string{filepath.Join(t.TempDir(), "eth.pcap"), "../samples/classic-session.pcap", "../samples/query-clients.pcap", "../samples/slp-status-concurrent.pcap"}
	writePcap(t, files[0], layers.LinkTypeEthernet, frames(t, layers.LinkTypeEthernet))
	exprs := append([]string{}, filterExprs...)
	for _, f := range files {
		pkts := readAll(t, f)
		for i, expr := range append(exprs, "default ports") {
			t.Run(fmt.Sprintf("%s/%d", filepath.Base(f), i), func(t *testing.T) {
				var ref, cooked node
				if i < len(exprs) {
					var err error
					if ref, err = parseFilter(expr, layoutEthernet); err != nil {
						t.Fatal(err)
					}
					cooked, _ = parseFilter(expr, layoutCooked)
				} else {
					ports := []uint16{80, 19132, 25565, 25575}
					ref, cooked = portsFilter(ports, layoutEthernet), portsFilter(ports, layoutCooked)
				}
				vm, err := assemble(ref, MaxSnaplen)
				if err != nil {
					t.Fatal(err)
				}
				want := vmAccepts(t, vm, pkts)
				classic, err := assemble(cooked, MaxSnaplen)
				if err != nil {
					t.Fatal(err)
				}
				e := &ebpf{}
				refused := e.newLabel()
				e.mov64(r6, r1)
				e.classic(classic, refused)
				e.place(refused)
				e.ret(0)
				code, err := e.assemble()
				if err != nil {
					t.Fatal(err)
				}
				prog := loadTest(t, code)
				var got []string
				for _, p := range pkts {
					if len(p) >= 14 && testRun(t, prog, []byte(p)) > 0 {
						got = append(got, p)
					}
				}
				if !sameSeq(got, want) {
					t.Errorf("%q: eBPF keeps %d packets, the VM %d", expr, len(got), len(want))
				}
			})
		}
	}
}

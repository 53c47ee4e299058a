package memory

import (
	"os"
	"runtime"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePageBytes is the size of a transparent huge page on amd64 and arm64
// with 4 KiB pages.
const hugePageBytes = 2 << 20

// preferHugePages asks the kernel to back the first n bytes the heap will
// use with transparent huge pages, and returns the addresses it asked it
// for, [start, end) (0, 0 when it did not).
//
// Why: the heap's memory is new to the process, and the kernel hands it
// over a 4 KiB page at a time, on first touch. A run takes 11,000 to
// 20,000 such faults (about its peak RSS over 4 KiB), and on this
// project's 2-core VM each costs some 10 µs of system time and more of
// wall time: a summary of the 100 MB slp mix spent 0.2 s of its 0.8 s of
// CPU in them. With huge pages the same memory comes in a few dozen 2 MiB
// pieces. Least CPU of 5 interleaved runs, 100 MB mixes, page faults
// 11-20k -> 3-5k: summary classic-big 0.59 -> 0.42 s, slp 0.73 -> 0.55 s,
// query 0.70 -> 0.55 s, project 1.03 -> 0.87 s; -T json 5-15 % less. Peak
// RSS is unchanged: the heap fills the pages it touches.
//
// Go's runtime does not ask for huge pages itself, and hosts often set
// transparent huge pages to "madvise", which gives them only to memory
// marked so. The runtime maps heap memory as the heap grows, each mapping
// a new area the mark does not carry over to; so a first allocation of n
// bytes makes it map them now, they are marked, and the allocation is let
// go: the heap reuses that memory from then on. Nothing is touched, so
// nothing is resident until the heap uses it.
//
// Only a run that reads a capture file of HugePagesFrom or more asks
// (ForFile): a huge page is zeroed whole on first touch, and a run whose
// heap stays at a few MB (a sample capture, a quiet live interface) paid
// some 15 ms more to start, for memory it does not use; a 10 MB capture
// already gains (project mix: 0.11 -> 0.07 s). Go's own switch,
// GODEBUG=disablethp=1, turns it off, as does a kernel set to "never".
func preferHugePages(n int) (start, end uintptr) {
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") || n < 2*hugePageBytes {
		return 0, 0
	}
	start, end = markHuge(make([]byte, n))
	// Collect the allocation now, so that the collector's pacing starts
	// from the live heap and not from n bytes.
	runtime.GC()
	return start, end
}

// markHuge marks the whole huge pages within b. unsafe only reads b's
// address, to find the first huge page boundary in it: nothing is viewed
// through it, and b is not kept.
func markHuge(b []byte) (start, end uintptr) {
	addr := uintptr(unsafe.Pointer(&b[0]))
	i := int((hugePageBytes - addr%hugePageBytes) % hugePageBytes)
	j := i + (len(b)-i)/hugePageBytes*hugePageBytes
	if unix.Madvise(b[i:j], unix.MADV_HUGEPAGE) != nil {
		return 0, 0
	}
	return addr + uintptr(i), addr + uintptr(j)
}

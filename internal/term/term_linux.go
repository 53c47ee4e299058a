package term

import (
	"os"
	"syscall"
	"unsafe"
)

// isTTY reports whether f is a terminal: the terminal ioctl succeeds on
// it (a character device such as /dev/null is not one).
func isTTY(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	ok := false
	rc.Control(func(fd uintptr) {
		var t syscall.Termios
		_, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
		ok = e == 0
	})
	return ok
}

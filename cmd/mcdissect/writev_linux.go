//go:build linux

package main

import (
	"os"
	"syscall"
	"unsafe"
)

// maxIovecs is Linux's IOV_MAX.
const maxIovecs = 1024

// vecWriter writes several buffers with one writev(2) per 1024 of them:
// the shards' output is merged record by record, and copying it all into
// one buffer first cost the merging goroutine a read of every output byte
// another core had just written.
//
// What it buys (issue 12, bench/fastpaths.md; CPU user+sys, paired median
// of interleaved runs on 100 MB mcgen mixes): writing through the sink's
// buffer instead costs -V on the project mix 8.5 % more (8 pairs), on slp
// 3.5 %, -T json 1.5 %; the summary, whose output is small, nothing
// measurable.
//
// unsafe: only to pass the iovec array to the kernel, in the Syscall
// expression itself (unsafe.Pointer rule 4). Lifetime rule: each Iovec's
// Base is a *byte, so the collector sees the buffers while the call runs,
// and the caller neither changes nor reuses bufs until write returns.
// TestVecWriterPipe breaks if a byte is lost, repeated or reordered.
type vecWriter struct {
	f   *os.File
	rc  syscall.RawConn
	iov []syscall.Iovec
}

func newVecWriter(f *os.File) *vecWriter {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	return &vecWriter{f: f, rc: rc}
}

func (v *vecWriter) write(bufs [][]byte) error {
	for len(bufs) > 0 {
		v.iov = v.iov[:0]
		k := 0
		for ; k < len(bufs) && len(v.iov) < maxIovecs; k++ {
			if b := bufs[k]; len(b) > 0 {
				iv := syscall.Iovec{Base: &b[0]}
				iv.SetLen(len(b))
				v.iov = append(v.iov, iv)
			}
		}
		if len(v.iov) == 0 {
			return nil
		}
		var n uintptr
		var errno syscall.Errno
		err := v.rc.Write(func(fd uintptr) bool {
			n, _, errno = syscall.Syscall(syscall.SYS_WRITEV, fd, uintptr(unsafe.Pointer(&v.iov[0])), uintptr(len(v.iov)))
			return errno != syscall.EAGAIN
		})
		if err != nil {
			return err
		}
		switch errno {
		case 0:
		case syscall.EINTR:
			continue
		case syscall.EPIPE:
			// As os.File.Write does: on standard output or error a closed
			// pipe raises SIGPIPE (mcdissect -V | head ends quietly).
			var err error
			for _, b := range bufs {
				if len(b) > 0 {
					_, err = v.f.Write(b)
					break
				}
			}
			if err == nil {
				err = &os.PathError{Op: "write", Path: v.f.Name(), Err: errno}
			}
			return err
		default:
			return &os.PathError{Op: "write", Path: "output", Err: errno}
		}
		// Drop what was written; a short write leaves the rest of a buffer.
		for left := int(n); left > 0 && len(bufs) > 0; {
			if len(bufs[0]) <= left {
				left -= len(bufs[0])
				bufs = bufs[1:]
				continue
			}
			bufs[0] = bufs[0][left:]
			left = 0
		}
		for len(bufs) > 0 && len(bufs[0]) == 0 {
			bufs = bufs[1:]
		}
	}
	return nil
}

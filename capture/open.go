package capture

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Open opens -r's input: the capture file name, or stdin for "-". size is
// the input's size when it is a regular file (named, or standard input
// redirected from one), and -1 otherwise: a pipe is read as it comes, and
// what it gives must not wait. Errors name the input.
func Open(name string, stdin io.Reader) (src Source, size int64, err error) {
	var fi os.FileInfo
	if name == "-" {
		if f, ok := stdin.(*os.File); ok {
			fi, _ = f.Stat()
		}
		src, err = OpenReader(stdin)
	} else {
		fi, _ = os.Stat(name)
		if fi != nil && fi.IsDir() {
			return nil, -1, fmt.Errorf("%q is a directory (folder), not a file", name)
		}
		src, err = OpenFile(name)
	}
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, -1, fmt.Errorf("cannot read %s: %v", name, pe.Err)
		}
		if name == "-" {
			name = "standard input"
		}
		return nil, -1, fmt.Errorf("%s: %v", name, err)
	}
	size = -1
	if fi != nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	return src, size, nil
}

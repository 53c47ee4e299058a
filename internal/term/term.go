// Package term tells whether an output is a terminal: --color=auto and
// the progress line depend on it.
package term

import (
	"io"
	"os"
)

// Is reports whether w is a terminal.
func Is(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isTTY(f)
}

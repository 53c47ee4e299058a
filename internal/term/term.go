// Package term tells whether an output is a terminal, and whether to
// colour it (--color): the progress line and --color=auto depend on it.
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

// ColourWhens are --color's values.
var ColourWhens = []string{"auto", "always", "never"}

// Colour decides --color=when for out: always, never, or (auto) when out
// is a terminal and NO_COLOR is unset or empty (no-color.org).
func Colour(when string, out io.Writer) bool {
	switch when {
	case "always":
		return true
	case "never":
		return false
	}
	return os.Getenv("NO_COLOR") == "" && Is(out)
}

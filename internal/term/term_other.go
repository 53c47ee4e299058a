//go:build !linux

package term

import "os"

// isTTY reports whether f is a character device, which is how a terminal
// shows here (so is /dev/null).
func isTTY(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

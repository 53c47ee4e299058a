//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly)

package ship

import (
	"os"
	"path/filepath"
)

// lockDir opens dir's LOCK file without locking it: this system has no
// flock, and two shippers on one spool are the user's to avoid.
func lockDir(dir string) (*os.File, error) {
	return os.OpenFile(filepath.Join(dir, "LOCK"), os.O_RDWR|os.O_CREATE, 0o600)
}

func unlockDir(f *os.File) { f.Close() }

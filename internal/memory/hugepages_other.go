//go:build !linux

package memory

// preferHugePages does nothing outside Linux (hugepages_linux.go).
func preferHugePages(n int) (start, end uintptr) { return 0, 0 }

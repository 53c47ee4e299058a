package main

import (
	"strings"
	"testing"
)

// TestProgressNotInPipe: with standard error a pipe there is no progress
// line (progress.ForFile's test checks files and buffers too).
func TestProgressNotInPipe(t *testing.T) {
	_, stderr, _ := mcd(t, nil, "-r", querySample, "-q")
	if strings.ContainsAny(stderr, "\r\x1b") {
		t.Errorf("stderr %q", stderr)
	}
}

package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/internal/progress"
)

// TestProgressNotInPipe: with standard error a pipe or a file there is no
// progress line, however long the file takes.
func TestProgressNotInPipe(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := &config{read: querySample}
	var o outputFlags
	for _, w := range []any{f, &bytes.Buffer{}} {
		var p *progress.Line
		switch w := w.(type) {
		case *os.File:
			p = o.startProgress(c, f, w)
		case *bytes.Buffer:
			p = o.startProgress(c, w, w)
		}
		if p != nil || c.opts.OnFrame != nil {
			t.Errorf("%T: a progress line", w)
		}
		p.Stop() // nil: does nothing
	}
	_, stderr, _ := mcd(t, nil, "-r", querySample, "-q")
	if strings.ContainsAny(stderr, "\r\x1b") {
		t.Errorf("stderr %q", stderr)
	}
}

package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

func TestAppendProgress(t *testing.T) {
	for _, c := range []struct {
		done, total, frames, records int64
		el                           time.Duration
		want                         string
	}{
		{12_300_000, 100_000_000, 45678, 3210, 500 * time.Millisecond, "mcdissect: 12.3 MB of 100.0 MB (12%), 45678 frames, 3210 records, 24.6 MB/s"},
		{0, 0, 0, 0, 0, "mcdissect: 0.0 MB of 0.0 MB (0%), 0 frames, 0.0 MB/s"},
		{2_000_000, 1_000_000, 10, 0, 2 * time.Second, "mcdissect: 1.0 MB of 1.0 MB (100%), 10 frames, 0.5 MB/s"}, // an estimate past the end is capped
	} {
		if got := string(appendProgress(nil, c.done, c.total, c.frames, c.records, c.el)); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

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
		var p *progress
		switch w := w.(type) {
		case *os.File:
			p = o.startProgress(c, f, w)
		case *bytes.Buffer:
			p = o.startProgress(c, w, w)
		}
		if p != nil || c.opts.OnFrame != nil {
			t.Errorf("%T: a progress line", w)
		}
		p.stop() // nil: does nothing
	}
	_, stderr, _ := mcd(t, nil, "-r", querySample, "-q")
	if strings.ContainsAny(stderr, "\r\x1b") {
		t.Errorf("stderr %q", stderr)
	}
}

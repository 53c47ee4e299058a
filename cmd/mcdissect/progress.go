package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcdissect/mcdissect/internal/term"
	"github.com/mcdissect/mcdissect/record"
)

// progress is the line on standard error that tells how far the reading
// of a big file is: bytes read, percent, frames, records and rate. It
// shows only when standard error is a terminal and standard output is
// not (records on the same terminal would be written over it), from the
// first second on, and is erased when the reading ends.
type progress struct {
	w       io.Writer
	total   int64
	start   time.Time
	bytes   atomic.Int64 // the file's bytes the frames read so far took
	frames  atomic.Int64
	records atomic.Int64
	quit    chan struct{}
	done    chan struct{}
	once    sync.Once
}

// progressEvery is how often the line is redrawn; progressAfter is how
// long a file must take before it shows.
const (
	progressEvery = 250 * time.Millisecond
	progressAfter = time.Second
)

// pcapRecordHeader is the bytes a pcap file spends per frame besides the
// frame (pcapng's blocks spend more: the count is then an estimate).
const pcapRecordHeader = 16

// startProgress starts the progress line for -r FILE when it is wanted;
// it returns nil (whose methods do nothing) otherwise.
func (o *outputFlags) startProgress(c *config, stdout, stderr io.Writer) *progress {
	if c.read == "" || c.read == "-" || !term.Is(stderr) || term.Is(stdout) && !c.quiet {
		return nil
	}
	st, err := os.Stat(c.read)
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	p := &progress{w: stderr, total: st.Size(), start: time.Now(), quit: make(chan struct{}), done: make(chan struct{})}
	next := c.opts.OnFrame
	c.opts.OnFrame = func(f record.FrameInfo) {
		p.bytes.Add(int64(f.CapLen) + pcapRecordHeader)
		p.frames.Add(1)
		if next != nil {
			next(f)
		}
	}
	o.prog = p
	go p.run()
	return p
}

func (p *progress) run() {
	defer close(p.done)
	t := time.NewTicker(progressEvery)
	defer t.Stop()
	shown := false
	var line []byte
	for {
		select {
		case <-p.quit:
			if shown {
				io.WriteString(p.w, "\r\x1b[K") // erase the line
			}
			return
		case now := <-t.C:
			el := now.Sub(p.start)
			if el < progressAfter {
				continue
			}
			line = append(line[:0], '\r')
			line = appendProgress(line, p.bytes.Load(), p.total, p.frames.Load(), p.records.Load(), el)
			line = append(line, "\x1b[K"...)
			p.w.Write(line)
			shown = true
		}
	}
}

// stop erases the line and waits for its goroutine; it may be called
// more than once.
func (p *progress) stop() {
	if p == nil {
		return
	}
	p.once.Do(func() {
		close(p.quit)
		<-p.done
	})
}

// record counts a record shown.
func (p *progress) record() {
	if p != nil {
		p.records.Add(1)
	}
}

// appendProgress formats the line: "mcdissect: 12.3 MB of 100.0 MB (12%),
// 45678 frames, 3210 records, 24.6 MB/s".
func appendProgress(b []byte, done, total, frames, records int64, elapsed time.Duration) []byte {
	done = min(done, total)
	pct := int64(0)
	if total > 0 {
		pct = done * 100 / total
	}
	rate := 0.0
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(done) / s
	}
	b = fmt.Appendf(b, "mcdissect: %s of %s (%d%%), %d frames", mb(float64(done)), mb(float64(total)), pct, frames)
	if records > 0 {
		b = fmt.Appendf(b, ", %d records", records)
	}
	return fmt.Appendf(b, ", %s/s", mb(rate))
}

func mb(n float64) string { return fmt.Sprintf("%.1f MB", n/1e6) }

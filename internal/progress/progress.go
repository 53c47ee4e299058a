// Package progress draws the line on standard error that tells how far the
// reading of a capture file is: bytes read, percent, frames, records and
// rate. It shows only when standard error is a terminal and standard
// output is not (records on the same terminal would be written over it),
// from the first second on, is redrawn four times a second, and is erased
// when the reading ends.
package progress

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

// Line is the progress line of one file being read. A nil *Line does
// nothing.
type Line struct {
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

// every is how often the line is redrawn; after is how long a file must
// take before it shows.
const (
	every = 250 * time.Millisecond
	after = time.Second
)

// pcapRecordHeader is the bytes a pcap file spends per frame besides the
// frame (pcapng's blocks spend more: the count is then an estimate).
const pcapRecordHeader = 16

// ForFile starts the line for the capture file path when it is wanted: a
// regular file (not "", no file, nor "-", standard input), stderr a
// terminal, and stdout not one unless quiet (-q: no records on it). It
// returns nil otherwise.
func ForFile(path string, stdout, stderr io.Writer, quiet bool) *Line {
	if path == "" || path == "-" || !term.Is(stderr) || term.Is(stdout) && !quiet {
		return nil
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	return Start(stderr, st.Size())
}

// Start starts the line for a file of total bytes, drawn on w.
func Start(w io.Writer, total int64) *Line {
	p := &Line{w: w, total: total, start: time.Now(), quit: make(chan struct{}), done: make(chan struct{})}
	go p.run()
	return p
}

func (p *Line) run() {
	defer close(p.done)
	t := time.NewTicker(every)
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
			if el < after {
				continue
			}
			line = append(line[:0], '\r')
			line = appendLine(line, p.bytes.Load(), p.total, p.frames.Load(), p.records.Load(), el)
			line = append(line, "\x1b[K"...)
			p.w.Write(line)
			shown = true
		}
	}
}

// Stop erases the line and waits for its goroutine; it may be called
// more than once.
func (p *Line) Stop() {
	if p == nil {
		return
	}
	p.once.Do(func() {
		close(p.quit)
		<-p.done
	})
}

// Frame counts a frame read, of capLen bytes captured.
func (p *Line) Frame(capLen int) {
	if p != nil {
		p.bytes.Add(int64(capLen) + pcapRecordHeader)
		p.frames.Add(1)
	}
}

// Frames is next (which may be nil) with each frame counted by p first
// (Frame); next itself when p is nil.
func (p *Line) Frames(next func(record.FrameInfo)) func(record.FrameInfo) {
	if p == nil {
		return next
	}
	return func(f record.FrameInfo) {
		p.Frame(f.CapLen)
		if next != nil {
			next(f)
		}
	}
}

// Record counts a record shown.
func (p *Line) Record() {
	if p != nil {
		p.records.Add(1)
	}
}

// appendLine formats the line: "mcdissect: 12.3 MB of 100.0 MB (12%),
// 45678 frames, 3210 records, 24.6 MB/s".
func appendLine(b []byte, done, total, frames, records int64, elapsed time.Duration) []byte {
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

// Package ringbuf writes a capture's packets to pcapng files: one file, or
// a ring of files as dumpcap writes them for tshark's -b. A file of the
// ring is named from -w's path as dumpcap names it, the changing part
// before the suffix: out.pcapng gives out_00001_20260102150405.pcapng, the
// file's number (five digits, from 1, wrapping at 100000) and the local
// time it was opened. The next file starts after the packet that brings a
// file to FileSize bytes, after Packets packets, or when the file has been
// open Duration, or at a multiple of Interval of the wall clock; the last
// two by the wall clock alone, as dumpcap does, so that a quiet capture
// still moves on (to files holding no packet). With Files, only the newest
// Files files are kept: opening one deletes the oldest.
//
// Each file is a pcapng file of its own: a section header and the
// interfaces (one per link type) its packets use.
//
// Limits (limits.go) reads dumpcap's -a and -b as tshark takes them, and
// makes the input end at -a packets:N or when the Writer stops (-a
// filesize:, -a files:).
package ringbuf

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// Options choose when a file ends and when writing stops. With none of
// FileSize, Duration, Interval and Packets the Writer writes one file, at
// the path it is given.
type Options struct {
	FileSize int64         // switch after the packet that brings the file to this many bytes (-b filesize:KB, 1000 bytes a kB)
	Duration time.Duration // switch when the file has been open this long (-b duration:S)
	Interval time.Duration // switch when the wall clock reaches a multiple of this (-b interval:S)
	Packets  int64         // switch after this many packets (-b packets:N)
	Files    int           // keep the newest Files files (-b files:N); 0 keeps all

	StopFiles int   // stop when this many files are complete (-a files:N)
	StopSize  int64 // stop when the file reaches this many bytes (-a filesize:KB, one file)

	// Snaplen is written in the interfaces' descriptions.
	Snaplen int
	// Link, when not 0, is the link type of the capture: every file
	// starts with its interface, a file no packet reaches too.
	Link layers.LinkType
	// OnStop is called once when a stop condition is met, on the
	// goroutine that met it, with the Writer locked (it must not call the
	// Writer); the packets written after it are dropped.
	OnStop func()
	// Stdout is where the path "-" writes, as dumpcap's -w -: one file,
	// never closed; a ring of files needs file names.
	Stdout io.Writer
	// Now is the wall clock; nil is time.Now, and a timer goroutine then
	// moves on by Duration and Interval without packets. With a clock of
	// its own, the caller calls Tick.
	Now func() time.Time
}

// ring tells whether the options make a ring of files.
func (o Options) ring() bool {
	return o.FileSize > 0 || o.Duration > 0 || o.Interval > 0 || o.Packets > 0
}

// maxFileNum is where dumpcap's file numbers wrap.
const maxFileNum = 100000

// Writer writes packets. Its methods may be called from any goroutine.
type Writer struct {
	o      Options
	path   string
	prefix string
	suffix string

	mu      sync.Mutex
	f       io.Writer // the file, or Options.Stdout
	cw      countWriter
	w       *pcapgo.NgWriter
	ifaces  map[layers.LinkType]int
	base    int64 // the file's size at the last flush
	pending int64 // bytes of packets written since
	packets int64 // in the current file
	opened  time.Time
	next    time.Time // Interval's next switch
	num     int       // files opened
	names   []string  // the files kept, oldest first
	stopped bool
	closed  bool
	err     error
	timer   *time.Timer
}

// Open creates the first file: path itself, or the ring's first.
func Open(path string, o Options) (*Writer, error) {
	if o.Files < 0 || o.StopFiles < 0 || o.FileSize < 0 || o.Packets < 0 || o.Duration < 0 || o.Interval < 0 {
		return nil, errors.New("ringbuf: negative option")
	}
	if path == "-" && (o.ring() || o.Stdout == nil) {
		return nil, errors.New("ringbuf: - writes one file to Options.Stdout: a ring of files needs a file name")
	}
	if o.Snaplen <= 0 {
		o.Snaplen = 262144
	}
	w := &Writer{o: o, path: path}
	// The suffix: from the last dot of the file's name, as dumpcap.
	dir, base := filepath.Split(path)
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		w.prefix, w.suffix = dir+base[:i], base[i:]
	} else {
		w.prefix = path
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.openNext(); err != nil {
		return nil, err
	}
	if o.Now == nil && (o.Duration > 0 || o.Interval > 0) {
		w.timer = time.AfterFunc(w.untilSwitch(), w.onTimer)
	}
	return w, nil
}

func (w *Writer) now() time.Time {
	if w.o.Now != nil {
		return w.o.Now()
	}
	return time.Now()
}

// name is the n-th file's name (n from 1).
func (w *Writer) name(n int, t time.Time) string {
	if !w.o.ring() {
		return w.path
	}
	return fmt.Sprintf("%s_%05d_%s%s", w.prefix, n%maxFileNum, t.Format("20060102150405"), w.suffix)
}

// openNext opens the next file, deleting the oldest past Files.
func (w *Writer) openNext() error {
	t := w.now()
	w.num++
	name := w.name(w.num, t)
	var f io.Writer = w.o.Stdout
	if w.path != "-" {
		file, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		f = file
	}
	w.f, w.cw = f, countWriter{w: f}
	w.w, w.ifaces, w.base, w.pending, w.packets, w.opened = nil, map[layers.LinkType]int{}, 0, 0, 0, t
	if w.o.Interval > 0 {
		// the next multiple of Interval since the Unix epoch
		iv := int64(w.o.Interval)
		w.next = time.Unix(0, (t.UnixNano()/iv+1)*iv)
	}
	w.names = append(w.names, name)
	if w.o.Link != 0 {
		if err := w.header(w.o.Link); err != nil {
			return err
		}
	}
	for w.o.Files > 0 && len(w.names) > w.o.Files {
		if err := os.Remove(w.names[0]); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		w.names = w.names[1:]
	}
	return nil
}

// closeFile ends the current file; one that no packet reached and no
// Link was given holds an empty section with an Ethernet interface.
func (w *Writer) closeFile() error {
	if w.f == nil {
		return nil
	}
	var err error
	if w.w == nil {
		err = w.header(layers.LinkTypeEthernet)
	}
	if w.w != nil {
		if ferr := w.w.Flush(); err == nil {
			err = ferr
		}
	}
	if file, ok := w.f.(*os.File); ok && w.path != "-" {
		if cerr := file.Close(); err == nil {
			err = cerr
		}
	}
	w.f, w.w = nil, nil
	return err
}

// header writes the section header and the first interface.
func (w *Writer) header(link layers.LinkType) error {
	nw, err := pcapgo.NewNgWriterInterface(&w.cw, pcapgo.NgInterface{Name: "mcdissect", LinkType: link, SnapLength: uint32(w.o.Snaplen)}, pcapgo.NgWriterOptions{})
	if err != nil {
		return err
	}
	w.w = nw
	w.ifaces[link] = 0
	return w.flush()
}

func (w *Writer) flush() error {
	err := w.w.Flush()
	w.base, w.pending = w.cw.n, 0
	return err
}

// size is the current file's size in bytes: the pcapng writer's buffer
// reaches the file when it fills, so the packets since the last flush are
// counted as they are written.
func (w *Writer) size() int64 { return w.base + w.pending }

// WritePacket appends a packet to the current file, then moves to the
// next file or stops as the options say.
func (w *Writer) WritePacket(data []byte, ci gopacket.CaptureInfo, link layers.LinkType) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil || w.stopped || w.closed {
		return w.err
	}
	w.err = w.write(data, ci, link)
	if w.err == nil {
		w.err = w.check(true)
	}
	return w.err
}

func (w *Writer) write(data []byte, ci gopacket.CaptureInfo, link layers.LinkType) error {
	if w.w == nil {
		if err := w.header(link); err != nil {
			return err
		}
	}
	id, ok := w.ifaces[link]
	if !ok {
		var err error
		if err = w.flush(); err != nil {
			return err
		}
		if id, err = w.w.AddInterface(pcapgo.NgInterface{Name: fmt.Sprintf("mcdissect-%d", len(w.ifaces)), LinkType: link, SnapLength: uint32(w.o.Snaplen)}); err != nil {
			return err
		}
		w.ifaces[link] = id
		if err = w.flush(); err != nil {
			return err
		}
	}
	ci.InterfaceIndex = id
	if err := w.w.WritePacket(ci, data); err != nil {
		return err
	}
	w.pending += 32 + int64(len(data)+3)&^3 // an enhanced packet block without options
	w.packets++
	return nil
}

// check moves on or stops when a condition is met; afterPacket: a packet
// was just written (size and count conditions apply only then).
func (w *Writer) check(afterPacket bool) error {
	if w.stopped {
		return nil
	}
	if afterPacket && w.o.StopSize > 0 && w.size() >= w.o.StopSize {
		w.stop()
		return nil
	}
	if !w.o.ring() {
		return nil
	}
	t := w.now()
	switch {
	case afterPacket && w.o.FileSize > 0 && w.size() >= w.o.FileSize,
		afterPacket && w.o.Packets > 0 && w.packets >= w.o.Packets,
		w.o.Duration > 0 && !t.Before(w.opened.Add(w.o.Duration)),
		w.o.Interval > 0 && !t.Before(w.next):
	default:
		return nil
	}
	if w.o.StopFiles > 0 && w.num >= w.o.StopFiles {
		w.stop()
		return nil
	}
	if err := w.closeFile(); err != nil {
		return err
	}
	return w.openNext()
}

func (w *Writer) stop() {
	w.stopped = true
	if w.o.OnStop != nil {
		w.o.OnStop()
	}
}

// Tick moves on to the next file when Duration or Interval says so (the
// timer calls it when the Writer keeps the time itself).
func (w *Writer) Tick() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil || w.closed {
		return w.err
	}
	w.err = w.check(false)
	return w.err
}

// untilSwitch is the wall time to the next switch by time.
func (w *Writer) untilSwitch() time.Duration {
	d := time.Duration(1<<63 - 1)
	t := w.now()
	if w.o.Duration > 0 {
		d = min(d, w.opened.Add(w.o.Duration).Sub(t))
	}
	if w.o.Interval > 0 {
		d = min(d, w.next.Sub(t))
	}
	return max(d, time.Millisecond)
}

func (w *Writer) onTimer() {
	w.Tick()
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed && !w.stopped && w.err == nil {
		w.timer.Reset(w.untilSwitch())
	}
}

// Files are the files written and kept, oldest first.
func (w *Writer) Files() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.names...)
}

// Err is the first error of a write, a switch or a close.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Close ends the last file.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.timer != nil {
		w.timer.Stop()
	}
	if err := w.closeFile(); w.err == nil {
		w.err = err
	}
	return w.err
}

// countWriter counts the bytes that reach the file.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

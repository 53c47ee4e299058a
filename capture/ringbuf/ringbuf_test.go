package ringbuf

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/capture"
)

// clock is a wall clock the test moves.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

var t0 = time.Date(2026, 1, 2, 15, 4, 5, 0, time.Local)

func packet(n int, at time.Time) ([]byte, gopacket.CaptureInfo) {
	data := make([]byte, n)
	return data, gopacket.CaptureInfo{Timestamp: at, CaptureLength: n, Length: n}
}

// read returns the packets of a file, and fails the test if it is not a
// capture file mcdissect reads to its end.
func read(t *testing.T, path string) int {
	t.Helper()
	src, err := capture.OpenFile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer src.Close()
	n := 0
	for {
		_, err := src.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		n++
	}
}

func size(t *testing.T, path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func TestNames(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ path, want string }{
		{"out.pcapng", `^out_00001_20260102150405\.pcapng$`},
		{"out", `^out_00001_20260102150405$`},
		{"a.b/out", `^out_00001_20260102150405$`},
		{"x.tar.gz", `^x\.tar_00001_20260102150405\.gz$`},
	} {
		t.Run(tc.path, func(t *testing.T) {
			p := filepath.Join(dir, tc.path)
			os.MkdirAll(filepath.Dir(p), 0o755)
			c := &clock{t0}
			w, err := Open(p, Options{Packets: 1, Now: c.now})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			got := filepath.Base(w.Files()[0])
			if !regexp.MustCompile(tc.want).MatchString(got) {
				t.Errorf("%s: %s, want %s", tc.path, got, tc.want)
			}
		})
	}
	// Without a ring option, the file is the path itself.
	p := filepath.Join(dir, "one.pcapng")
	w, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, ci := packet(100, t0)
	w.WritePacket(data, ci, layers.LinkTypeEthernet)
	w.Close()
	if read(t, p) != 1 {
		t.Error("one file: packet missing")
	}
}

// TestFileSize: a file ends after the packet that brings it to the size,
// as dumpcap's (-b filesize:10 makes files of 10200 bytes of 276-byte
// packet blocks there: the first at or past 10000).
func TestFileSize(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.pcapng")
	c := &clock{t0}
	w, err := Open(p, Options{FileSize: 10000, Now: c.now, Link: layers.LinkTypeEthernet})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		data, ci := packet(242, t0)
		if err := w.WritePacket(data, ci, layers.LinkTypeEthernet); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files := w.Files()
	total := 0
	for i, f := range files {
		n, sz := read(t, f), size(t, f)
		total += n
		if i < len(files)-1 && (sz < 10000 || sz-276 >= 10000) {
			t.Errorf("%s: %d bytes, %d packets: not ended by the packet that reached 10000 bytes", f, sz, n)
		}
	}
	if total != 200 || len(files) < 5 {
		t.Errorf("%d packets in %d files", total, len(files))
	}
}

// TestDuration: a file lasts Duration of wall time, packets or not (a
// quiet time gives files without packets, as dumpcap's).
func TestDuration(t *testing.T) {
	p := filepath.Join(t.TempDir(), "d.pcapng")
	c := &clock{t0}
	w, err := Open(p, Options{Duration: time.Second, Now: c.now, Link: layers.LinkTypeEthernet})
	if err != nil {
		t.Fatal(err)
	}
	send := func(n int) {
		for i := 0; i < n; i++ {
			data, ci := packet(60, c.t)
			w.WritePacket(data, ci, layers.LinkTypeEthernet)
			c.t = c.t.Add(100 * time.Millisecond)
			w.Tick()
		}
	}
	send(5)                   // 0.0-0.4 s: file 1
	for i := 0; i < 30; i++ { // quiet until 3.4 s: files 2-4 empty
		c.t = c.t.Add(100 * time.Millisecond)
		w.Tick()
	}
	send(3) // 3.5-3.7 s: file 4
	w.Close()
	var got []int
	for _, f := range w.Files() {
		got = append(got, read(t, f))
	}
	want := []int{5, 0, 0, 3}
	if len(got) != len(want) {
		t.Fatalf("packets per file %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("packets per file %v, want %v", got, want)
		}
	}
}

// TestDurationTimer: with the real clock, a file ends by itself.
func TestDurationTimer(t *testing.T) {
	p := filepath.Join(t.TempDir(), "d.pcapng")
	w, err := Open(p, Options{Duration: 50 * time.Millisecond, Link: layers.LinkTypeEthernet})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(w.Files()) < 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	w.Close()
	if n := len(w.Files()); n < 3 {
		t.Errorf("%d files after the wait", n)
	}
	for _, f := range w.Files() {
		read(t, f)
	}
}

func TestInterval(t *testing.T) {
	p := filepath.Join(t.TempDir(), "i.pcapng")
	c := &clock{time.Unix(1000, 700e6)}
	w, err := Open(p, Options{Interval: 2 * time.Second, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	// The first switch comes at 1002 s, then 1004 s.
	for _, at := range []float64{1001.9, 1002.0, 1003.9, 1004.1} {
		c.t = time.Unix(0, int64(at*1e9))
		w.Tick()
	}
	w.Close()
	if n := len(w.Files()); n != 3 {
		t.Errorf("%d files, want 3", n)
	}
}

// TestFilesKeepsNewest: with Files, the oldest files go.
func TestFilesKeepsNewest(t *testing.T) {
	dir := t.TempDir()
	c := &clock{t0}
	w, err := Open(filepath.Join(dir, "k.pcapng"), Options{Packets: 2, Files: 3, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 15; i++ { // 7 full files and a half
		data, ci := packet(60, c.t)
		w.WritePacket(data, ci, layers.LinkTypeEthernet)
	}
	w.Close()
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	want := []string{"k_00006_20260102150405.pcapng", "k_00007_20260102150405.pcapng", "k_00008_20260102150405.pcapng"}
	if len(left) != len(want) {
		t.Fatalf("files left: %v, want %v", left, want)
	}
	for i := range want {
		if filepath.Base(left[i]) != want[i] {
			t.Errorf("files left: %v, want %v", left, want)
		}
	}
	if n := read(t, left[2]); n != 1 {
		t.Errorf("the last file holds %d packets, want 1", n)
	}
}

// TestStop: -a files:N stops at the N-th file's end; -a filesize:KB at
// the packet that reaches it. Later packets are not written.
func TestStop(t *testing.T) {
	dir := t.TempDir()
	var stops atomic.Int32
	c := &clock{t0}
	w, err := Open(filepath.Join(dir, "f.pcapng"), Options{Packets: 3, StopFiles: 2, Now: c.now, OnStop: func() { stops.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		data, ci := packet(60, c.t)
		w.WritePacket(data, ci, layers.LinkTypeEthernet)
	}
	w.Close()
	if n := len(w.Files()); n != 2 {
		t.Errorf("%d files, want 2", n)
	}
	for _, f := range w.Files() {
		if n := read(t, f); n != 3 {
			t.Errorf("%s: %d packets, want 3", f, n)
		}
	}
	p := filepath.Join(dir, "s.pcapng")
	w, err = Open(p, Options{StopSize: 1000, OnStop: func() { stops.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		data, ci := packet(100, t0)
		w.WritePacket(data, ci, layers.LinkTypeEthernet)
	}
	w.Close()
	if sz := size(t, p); sz < 1000 || sz-132 >= 1000 {
		t.Errorf("%d bytes: not ended by the packet that reached 1000", sz)
	}
	deadline := time.Now().Add(5 * time.Second)
	for stops.Load() != 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := stops.Load(); n != 2 {
		t.Errorf("OnStop called %d times, want 2", n)
	}
}

// TestLinkTypes: a file declares an interface per link type, and the next
// file again.
func TestLinkTypes(t *testing.T) {
	c := &clock{t0}
	w, err := Open(filepath.Join(t.TempDir(), "l.pcapng"), Options{Packets: 3, Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range []layers.LinkType{layers.LinkTypeEthernet, layers.LinkTypeRaw, layers.LinkTypeEthernet, layers.LinkTypeRaw} {
		data, ci := packet(40+i, t0)
		data[0] = 0x45
		if err := w.WritePacket(data, ci, l); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	var links []layers.LinkType
	for _, f := range w.Files() {
		src, err := capture.OpenFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for {
			p, err := src.Next()
			if err != nil {
				break
			}
			links = append(links, p.LinkType)
		}
		src.Close()
	}
	if len(links) != 4 || links[1] != layers.LinkTypeRaw || links[3] != layers.LinkTypeRaw || links[2] != layers.LinkTypeEthernet {
		t.Errorf("link types read back: %v", links)
	}
}

// TestStdout: the path "-" writes one capture to Options.Stdout, which it
// does not close, and stops at -a filesize as a file does; a ring of files
// to it is refused.
func TestStdout(t *testing.T) {
	var out bytes.Buffer
	w, err := Open("-", Options{Stdout: &out, StopSize: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		data, ci := packet(100, t0)
		w.WritePacket(data, ci, layers.LinkTypeEthernet)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "out.pcapng")
	if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := read(t, p); n == 0 || n >= 20 {
		t.Errorf("%d packets on standard output, want some, stopped by the size", n)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error(`a file named "-" was made`)
	}
	if _, err := Open("-", Options{Stdout: &out, Packets: 3}); err == nil {
		t.Error("a ring of files to standard output was accepted")
	}
}

package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLiveRing: -b packets:N -b files:2 keeps the newest two files of N
// packets; -b duration:1 -a files:3 ends the capture after three files of
// a second each, packets or not (a quiet lo gives empty ones, as dumpcap).
func TestLiveRing(t *testing.T) {
	needLive(t)
	srv := newQueryServer(t, true)
	p := strconv.Itoa(srv.port)
	dir := t.TempDir()
	r := startLive(t, "-f", "udp port "+p, "-d", "udp.port=="+p+",query", "-w", filepath.Join(dir, "ring.pcapng"), "-b", "packets:4", "-b", "files:2", "-P")
	cl := newQueryClient(t, srv.port)
	for i := range 7 { // 14 packets: files of 4, 4, 4, 2
		cl.handshake(t, byte(i), true)
	}
	r.waitLine(t, "session 0x00000006", 10*time.Second)
	r.waitLine(t, "token 9513307", 10*time.Second)
	time.Sleep(300 * time.Millisecond)
	r.stop(t, syscall.SIGINT)
	files := ringFiles(t, dir)
	if len(files) != 2 {
		t.Fatalf("files left: %v, want the newest 2", files)
	}
	if !strings.Contains(files[0], "ring_00003_") || !strings.Contains(files[1], "ring_00004_") {
		t.Errorf("files left: %v, want numbers 3 and 4", files)
	}
	if a, b := framesIn(t, files[0]), framesIn(t, files[1]); a != 4 || b != 2 {
		t.Errorf("packets in the files left: %d and %d, want 4 and 2", a, b)
	}

	dir = t.TempDir()
	start := time.Now()
	r = startLive(t, "-f", "udp port "+p, "-w", filepath.Join(dir, "ring.pcapng"), "-b", "duration:1", "-a", "files:3")
	took, _ := r.wait(t, start)
	files = ringFiles(t, dir)
	t.Logf("-b duration:1 -a files:3 ended after %v with %d files", took, len(files))
	if len(files) != 3 || took < 2*time.Second {
		t.Errorf("%d files after %v, want 3 after about 3 s", len(files), took)
	}
	for _, f := range files {
		framesIn(t, f)
	}
}

//go:build linux

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// vecWriter writes every byte, in order, through more than IOV_MAX buffers,
// empty ones, and the short writes of a pipe whose reader is slower than
// the writer (a pipe holds 64 KiB).
func TestVecWriterPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var bufs [][]byte
	var want []byte
	for i := range 3000 {
		b := bytes.Repeat([]byte{byte(i)}, (i*37)%4000)
		bufs = append(bufs, b)
		want = append(want, b...)
	}
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		got <- b
	}()
	v := newVecWriter(w)
	if v == nil {
		t.Fatal("no vecWriter for a pipe")
	}
	if err := v.write(bufs); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if g := <-got; !bytes.Equal(g, want) {
		t.Errorf("read %d bytes, want %d (or they differ)", len(g), len(want))
	}
}

// A closed reader is a write error, not a hang or a panic.
func TestVecWriterBrokenPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer w.Close()
	if err := newVecWriter(w).write([][]byte{[]byte("hello")}); err == nil {
		t.Error("no error writing to a pipe without a reader")
	}
}

// mcdissect -V | head: when the reader goes away, the binary ends as Unix
// tools do, killed by SIGPIPE, without an error message; the shards'
// writev path included (standard output is a pipe, an *os.File).
func TestBinaryClosedPipe(t *testing.T) {
	for _, args := range [][]string{{"-V"}, {"-T", "json"}} { // each far more than a pipe holds
		cmd := exec.Command(binary, append([]string{"-r", "../../samples/classic-session.pcap"}, args...)...)
		cmd.Env = append(os.Environ(), "GOMAXPROCS=2")
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		var errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = w, &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		w.Close()
		head := make([]byte, 100)
		if _, err := io.ReadFull(r, head); err != nil {
			t.Fatal(err)
		}
		r.Close()
		err = cmd.Wait()
		ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if err == nil || !ws.Signaled() || ws.Signal() != syscall.SIGPIPE {
			t.Errorf("%v: ended with %v, want killed by SIGPIPE", args, err)
		}
		if errb.Len() > 0 {
			t.Errorf("%v: stderr %q", args, errb.String())
		}
	}
}

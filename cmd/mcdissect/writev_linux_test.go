//go:build linux

package main

import (
	"bytes"
	"io"
	"os"
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

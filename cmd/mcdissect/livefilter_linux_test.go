package main

import (
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLiveFindServers: with --find-servers, a Query server on a port of
// its own is found from the first packets of its first exchange, and its
// port is captured whole from then on; without it, nothing of that port
// is seen.
func TestLiveFindServers(t *testing.T) {
	needLive(t)
	srv := newQueryServer(t, true)
	p := strconv.Itoa(srv.port)
	r := startLive(t, "--find-servers", "-Y", "udp.srcport == "+p+" || udp.dstport == "+p)
	if strings.Contains(r.errText(), "--find-servers finds nothing") {
		t.Skip("no eBPF here:", r.errText())
	}
	first := newQueryClient(t, srv.port)
	first.handshake(t, 1, true)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(r.errText(), "query found on 127.0.0.1:"+p+" (udp)") {
		if time.Now().After(deadline) {
			t.Fatalf("no note of the server found:\n%s", r.errText())
		}
		time.Sleep(20 * time.Millisecond)
	}
	for i := range 20 { // past the first packets of a flow
		first.handshake(t, byte(10+i), true)
	}
	time.Sleep(500 * time.Millisecond)
	_, out := r.stop(t, syscall.SIGINT)
	if len(out) != 42 || !strings.Contains(out[41], "session 0x0000001d") {
		t.Errorf("%d lines, want the 21 handshakes and their answers:\n%s", len(out), strings.Join(out, "\n"))
	}
	r.captured(t)

	// Without it, the default filter does not pass the port.
	r = startLive(t, "-Y", "udp.srcport == "+p+" || udp.dstport == "+p)
	cl := newQueryClient(t, srv.port)
	for i := range 3 {
		cl.handshake(t, byte(i), true)
	}
	time.Sleep(300 * time.Millisecond)
	if _, out := r.stop(t, syscall.SIGINT); len(out) != 0 {
		t.Errorf("without --find-servers: %q", out)
	}
}

//go:build linux

package main

import (
	"net"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLiveHold: on a quiet interface, -V prints a request nobody answers
// once the live hold (1 s by default) has passed, not the protocol's
// response window (Query 5 s, the pipeline's 6 s for SLP), and its note
// gives that reason; a response that comes after it still links back to
// it. The delays are logged; the bound checked is the windows', which a
// hold that works is far under whatever the machine's load.
func TestLiveHold(t *testing.T) {
	needLive(t)
	const window = 5 * time.Second
	t.Run("query", func(t *testing.T) {
		srv := newQueryServer(t, false)
		p := strconv.Itoa(srv.port)
		r := startLive(t, "-f", "udp port "+p, "-d", "udp.port=="+p+",query", "-V")
		for attempt := range 5 {
			cl := newQueryClient(t, srv.port)
			sent := time.Now()
			cl.handshake(t, 7, false)
			if _, ok := r.lineWith("Handshake Request, session 0x00000007", strconv.Itoa(cl.port), 30*time.Second); !ok {
				t.Logf("attempt %d: the request was not printed (lost by the reader?)", attempt)
				continue
			}
			l := r.waitLine(t, "held 1s, the longest the hold allows", 10*time.Second)
			d := l.at.Sub(sent)
			t.Logf("the unanswered Query request was printed %v after it was sent (hold 1s)", d)
			if d >= window {
				t.Errorf("printed %v after it was sent: not before the response window", d)
			}
			r.stop(t, syscall.SIGINT)
			return
		}
		t.Fatal("no unanswered request printed in five attempts")
	})
	t.Run("slp", func(t *testing.T) {
		// A server that takes the connection and never answers.
		ln, err := net.Listen("tcp4", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				go func() {
					defer c.Close()
					buf := make([]byte, 512)
					for {
						if _, err := c.Read(buf); err != nil {
							return
						}
					}
				}()
			}
		}()
		port := ln.Addr().(*net.TCPAddr).Port
		p := strconv.Itoa(port)
		r := startLive(t, "-f", "tcp port "+p, "-d", "tcp.port=="+p+",slp", "-V")
		c, err := net.Dial("tcp4", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		hs := []byte{0x10, 0x00, 0xfe, 0x05, 0x09, 'l', 'o', 'c', 'a', 'l', 'h', 'o', 's', 't', byte(port >> 8), byte(port), 0x01}
		sent := time.Now()
		if _, err := c.Write(append(hs, 0x01, 0x00)); err != nil {
			t.Fatal(err)
		}
		r.waitLine(t, "Status Request", 30*time.Second)
		l := r.waitLine(t, "slp.response.unlinked", 10*time.Second)
		d := l.at.Sub(sent)
		t.Logf("the unanswered status request was printed %v after it was sent (hold 1s): %s", d, strings.TrimSpace(l.text))
		if !strings.Contains(l.text, "held 1s, the longest the hold allows") || strings.Contains(l.text, "waited behind") {
			t.Errorf("its note does not give the hold as the reason: %s", l.text)
		}
		if d >= window {
			t.Errorf("printed %v after it was sent: not before the 6 s hold of a file", d)
		}
		r.stop(t, syscall.SIGINT)
	})
	t.Run("late response links back", func(t *testing.T) {
		// A Query server answering 2 s late: after the hold, within the window.
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		go func() {
			buf := make([]byte, 64)
			for {
				n, from, err := c.ReadFromUDP(buf)
				if err != nil {
					return
				}
				if n == 7 {
					answer := append(append([]byte{9}, buf[3:7]...), "9513307\x00"...)
					time.AfterFunc(2*time.Second, func() { c.WriteToUDP(answer, from) })
				}
			}
		}()
		port := c.LocalAddr().(*net.UDPAddr).Port
		p := strconv.Itoa(port)
		r := startLive(t, "-f", "udp port "+p, "-d", "udp.port=="+p+",query", "-V")
		cl := newQueryClient(t, port)
		cl.handshake(t, 9, true)
		req := r.waitLine(t, "Handshake Request, session 0x00000009", 30*time.Second)
		r.waitLine(t, "held 1s, the longest the hold allows", 10*time.Second)
		r.waitLine(t, "Handshake Response, session 0x00000009", 10*time.Second)
		frame := strings.Fields(req.text)[0]
		r.waitLine(t, "[Request in frame: "+frame+"]", 5*time.Second)
		r.stop(t, syscall.SIGINT)
	})
}

//go:build linux

// Command ringstall measures how long a live capture's reader may stop
// reading (a stall: the machine busy, the process descheduled) before the
// kernel drops packets, at a given packet rate: the ring's blocks are
// handed over when full or after the block timeout, so at a low rate each
// block holds few packets and the ring runs out of blocks before bytes.
// It sends UDP datagrams on lo at -rate for -secs, captures them with
// package capture (filter on the port), stops reading for -stall half a
// second in, and prints what was sent, seen and dropped.
//
//	go build -o /tmp/ringstall ./bench/ringstall && sudo /tmp/ringstall -rate 200 -stall 500ms
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"github.com/mcdissect/mcdissect/capture"
)

func main() {
	rate := flag.Int("rate", 200, "datagrams per second")
	stall := flag.Duration("stall", 500*time.Millisecond, "how long the reader stops")
	secs := flag.Duration("secs", 3*time.Second, "how long to send")
	bufMiB := flag.Int("B", 0, "ring size in MiB (0: the default)")
	flag.Parse()
	sink, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		fail(err)
	}
	go func() {
		b := make([]byte, 2048)
		for {
			if _, _, err := sink.ReadFrom(b); err != nil {
				return
			}
		}
	}()
	port := sink.LocalAddr().(*net.UDPAddr).Port
	src, err := capture.OpenLive("lo", capture.LiveOptions{Filter: fmt.Sprintf("udp dst port %d", port), BufferSize: *bufMiB << 20})
	if err != nil {
		fail(err)
	}
	c, err := net.DialUDP("udp4", nil, sink.LocalAddr().(*net.UDPAddr))
	if err != nil {
		fail(err)
	}
	sent := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		start := time.Now()
		payload := []byte(strings.Repeat("x", 100))
		for i := 0; time.Since(start) < *secs; i++ {
			c.Write(payload)
			sent++
			time.Sleep(time.Until(start.Add(time.Duration(i+1) * time.Second / time.Duration(*rate))))
		}
	}()
	seen := 0
	stallAt := time.Now().Add(500 * time.Millisecond)
	stalled := false
	go func() { <-done; time.Sleep(300 * time.Millisecond); src.Stop() }()
	for {
		if !stalled && time.Now().After(stallAt) {
			stalled = true
			time.Sleep(*stall)
		}
		_, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fail(err)
		}
		seen++
	}
	st := src.Stats()
	src.Close()
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("rate %d/s, stall %v: sent %d, seen %d, dropped %d; load average %s\n", *rate, *stall, sent, seen, st.Dropped, strings.Join(strings.Fields(string(load))[:3], " "))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

package analyze

import (
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/record"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/capture"
)

// flushLog collects what reached the output, and hands a copy of it to
// the test at every flush: what a user sees at that moment.
type flushLog struct {
	mu      sync.Mutex
	out     []string
	flushed chan []string
}

func newFlushLog() *flushLog { return &flushLog{flushed: make(chan []string, 64)} }

func (l *flushLog) add(s string) {
	l.mu.Lock()
	l.out = append(l.out, s)
	l.mu.Unlock()
}

func (l *flushLog) Flush() error {
	l.mu.Lock()
	snap := append([]string(nil), l.out...)
	l.mu.Unlock()
	l.flushed <- snap
	return nil
}

// Record makes it a Sink.
func (l *flushLog) Record(r *record.Record) error {
	l.add(recordLine(r, true))
	return nil
}

// next waits for the next flush (a generous bound: the test is about
// whether the output comes without more packets, not how fast).
func (l *flushLog) next(t *testing.T) []string {
	t.Helper()
	select {
	case s := <-l.flushed:
		return s
	case <-time.After(20 * time.Second):
		t.Fatal("no flush reached the output")
		return nil
	}
}

// pipelines are the analyzers the flush tests run: summaries and trees
// (batches of different sizes), each with its output going to l.
func pipelines(l *flushLog) map[string]func() *Analyzer {
	return map[string]func() *Analyzer{
		"trees": func() *Analyzer { return New(Options{}, l) },
		"lite":  func() *Analyzer { return New(Options{Lite: true}, l) },
	}
}

func queryFrame(t testing.TB, sport, dport uint16, p []byte) []byte {
	return linkFrame(layers.LinkTypeEthernet, false, ipUDP(t, false, sport, dport, p), false)
}

// hasFrame reports whether one of lines (recordLine's) is frame n's.
func hasFrame(lines []string, n int) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, strconv.Itoa(n)+" ") {
			return true
		}
	}
	return false
}

func contains(lines []string, sub string) bool {
	for _, l := range lines {
		if strings.Contains(l, sub) {
			return true
		}
	}
	return false
}

// TestFlushWithoutMorePackets: a
// record reaches the output at a Flush, without waiting for a batch to
// fill or for another packet; and a request awaiting its response is
// given up on, and output, once the input has been idle longer than its
// window, though no packet moved packet time on.
func TestFlushWithoutMorePackets(t *testing.T) {
	for name := range pipelines(nil) {
		t.Run(name, func(t *testing.T) {
			l := newFlushLog()
			a := pipelines(l)[name]()
			ci := gopacket.CaptureInfo{Timestamp: t0}
			resp := queryFrame(t, 25565, 40000, handshakeResp)
			ci.CaptureLength, ci.Length = len(resp), len(resp)
			if err := a.Packet(resp, ci, layers.LinkTypeEthernet); err != nil {
				t.Fatal(err)
			}
			if err := a.Flush(0); err != nil {
				t.Fatal(err)
			}
			if got := l.next(t); !hasFrame(got, 1) {
				t.Fatalf("after Flush, the output is %q: the response is not in it", got)
			}
			req := queryFrame(t, 40001, 25565, handshakeReq)
			ci = gopacket.CaptureInfo{Timestamp: t0.Add(time.Millisecond), CaptureLength: len(req), Length: len(req)}
			if err := a.Packet(req, ci, layers.LinkTypeEthernet); err != nil {
				t.Fatal(err)
			}
			if err := a.Flush(time.Second); err != nil {
				t.Fatal(err)
			}
			// A Lite request is not held: nothing is added to a tree.
			if got := l.next(t); hasFrame(got, 2) != (name == "lite") {
				t.Fatalf("a second after the request was sent, its response window not passed: %q", got)
			}
			if err := a.Flush(a.opts.HoldWindow + time.Second); err != nil {
				t.Fatal(err)
			}
			got := l.next(t)
			if !hasFrame(got, 2) || name == "trees" && !contains(got, "query.response.missing") {
				t.Fatalf("once idle past its window, the request is not output as unanswered: %q", got)
			}
			if err := a.Finish(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// chanSource yields the packets sent on it and blocks for the next, as a
// live capture does, until Stop.
type chanSource struct {
	pkts    chan []byte
	stop    chan struct{}
	once    sync.Once
	stopped bool
}

func (s *chanSource) Next() (capture.Packet, error) {
	select {
	case p, ok := <-s.pkts:
		if !ok {
			return capture.Packet{}, io.EOF
		}
		return capture.Packet{Data: p, Info: gopacket.CaptureInfo{Timestamp: time.Now(), CaptureLength: len(p), Length: len(p)}, LinkType: layers.LinkTypeEthernet}, nil
	case <-s.stop:
		return capture.Packet{}, io.EOF
	}
}

func (s *chanSource) Stats() capture.Stats { return capture.Stats{} }
func (s *chanSource) Close() error         { return nil }

func (s *chanSource) Stop() {
	s.once.Do(func() { s.stopped = true; close(s.stop) })
}

// TestRunFlushesWhileTheSourceWaits: with FlushEvery, Run writes a
// record out while the source is blocked waiting for its next packet, and
// a -c count reached stops the source without another packet.
func TestRunFlushesWhileTheSourceWaits(t *testing.T) {
	l := newFlushLog()
	src := &chanSource{pkts: make(chan []byte, 4), stop: make(chan struct{})}
	a := New(Options{FlushEvery: 5 * time.Millisecond}, l)
	done := make(chan error, 1)
	go func() {
		_, err := Run(src, a)
		done <- err
	}()
	src.pkts <- queryFrame(t, 25565, 40000, handshakeResp)
	for !hasFrame(l.next(t), 1) {
	}
	close(src.pkts)
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	l = newFlushLog()
	src = &chanSource{pkts: make(chan []byte, 4), stop: make(chan struct{})}
	a = New(Options{FlushEvery: 5 * time.Millisecond}, stopAfter{l, 1})
	go func() {
		_, err := Run(src, a)
		done <- err
	}()
	src.pkts <- queryFrame(t, 25565, 40000, handshakeResp)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("-c 1 reached, and Run still waits for another packet")
	}
	if !src.stopped {
		t.Error("Run ended early without stopping its source")
	}
	if got := l.out; len(got) != 1 {
		t.Errorf("-c 1: %d records output", len(got))
	}
}

// TestManyFlushes: flushes by the hundred, as a live capture makes them,
// lose and repeat nothing (and, under -race, reuse no batch still being
// read).
func TestManyFlushes(t *testing.T) {
	for name := range pipelines(nil) {
		t.Run(name, func(t *testing.T) {
			l := newFlushLog()
			done := make(chan struct{})
			go func() {
				for range l.flushed {
				}
				close(done)
			}()
			a := pipelines(l)[name]()
			resp := queryFrame(t, 25565, 40000, handshakeResp)
			const n = 300
			for i := range n {
				ci := gopacket.CaptureInfo{Timestamp: t0.Add(time.Duration(i) * time.Millisecond), CaptureLength: len(resp), Length: len(resp)}
				if err := a.Packet(resp, ci, layers.LinkTypeEthernet); err != nil {
					t.Fatal(err)
				}
				if i%3 == 0 {
					if err := a.Flush(0); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := a.Finish(); err != nil {
				t.Fatal(err)
			}
			close(l.flushed)
			<-done
			if len(l.out) != n {
				t.Fatalf("%d records out, %d made", len(l.out), n)
			}
			for i, s := range l.out {
				if !strings.HasPrefix(s, strconv.Itoa(i+1)+" ") {
					t.Fatalf("record %d is %.20q: order lost", i, s)
				}
			}
		})
	}
}

// stopAfter is l stopping the run once it has n records (-c).
type stopAfter struct {
	*flushLog
	n int
}

func (s stopAfter) Record(r *record.Record) error {
	s.flushLog.Record(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.out) >= s.n {
		return ErrStop
	}
	return nil
}

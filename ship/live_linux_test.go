package ship_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/capture"
	_ "github.com/mcdissect/mcdissect/protocols/all" // the protocols the pipeline routes to
	"github.com/mcdissect/mcdissect/record"
	"github.com/mcdissect/mcdissect/render"
	"github.com/mcdissect/mcdissect/ship"
	"github.com/mcdissect/mcdissect/ship/ek"
)

// A live capture on lo, shipped while the engine is stopped (SIGTERM) and
// started again: every record the pipeline made is in the engine once.
func TestLiveCaptureAcrossARestart(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("live capture needs root or CAP_NET_RAW; not root")
	}
	v := ship.StartVLogs(t)

	// A Query server on a port of its own, and its client.
	srv, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	port := srv.LocalAddr().(*net.UDPAddr).Port
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := srv.ReadFromUDP(buf)
			if err != nil {
				return
			}
			if n == 7 && buf[0] == 0xfe && buf[1] == 0xfd && buf[2] == 9 {
				srv.WriteToUDP(append(append([]byte{9}, buf[3:7]...), "9513307\x00"...), from)
			}
		}
	}()
	cl, err := net.DialUDP("udp4", nil, srv.LocalAddr().(*net.UDPAddr))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	var session uint32
	ping := func(k int) {
		buf := make([]byte, 64)
		for range k {
			session++
			req := []byte{0xfe, 0xfd, 9, byte(session >> 24), byte(session >> 16), byte(session >> 8), byte(session)}
			cl.Write(req)
			cl.SetReadDeadline(time.Now().Add(time.Second))
			cl.Read(buf)
			time.Sleep(time.Millisecond) // a server's pace, not a flood
		}
	}

	src, err := capture.OpenLive("lo", capture.LiveOptions{Ports: []uint16{uint16(port)}})
	if err != nil {
		t.Skipf("no live capture on lo: %v", err)
	}
	defer src.Close()
	s, err := ship.New(ship.Config{URL: v.BulkURL(), Host: "test-host", Source: "lo",
		SpoolDir: t.TempDir(), MemoryBytes: 16 << 10, BatchDocs: 50, FlushInterval: 50 * time.Millisecond,
		RetryMin: 10 * time.Millisecond, RetryMax: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	out := ek.New(s, render.Options{})
	var made atomic.Int64
	sink := analyze.SinkFunc(func(r *record.Record) error {
		made.Add(1)
		return out.Record(r)
	})
	da, err := analyze.ParseDecodeAs("udp.port==" + strconv.Itoa(port) + ",query")
	if err != nil {
		t.Fatal(err)
	}
	a := analyze.New(analyze.Options{DecodeAs: []analyze.DecodeAs{da}, FlushEvery: 20 * time.Millisecond}, sink)
	ran := make(chan error, 1)
	go func() {
		_, err := analyze.Run(src, a)
		ran <- err
	}()

	ping(200)
	for s.Stats().Shipped == 0 {
		ping(10)
	}
	v.Stop(syscall.SIGTERM)
	ping(200)
	for st := s.Stats(); st.Retried == 0 || st.Spooled == 0; st = s.Stats() {
		ping(10)
	}
	v.Start()
	ping(200)
	// Let the last answers be captured and their records made.
	for last := int64(-1); made.Load() != last; {
		last = made.Load()
		time.Sleep(200 * time.Millisecond)
	}
	src.Stop()
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
	st := s.Close(context.Background())
	n := made.Load()
	t.Logf("%d handshakes, %d records: %s", session, n, st)
	if n < int64(session) || st.Shipped != n || st.Dropped+st.Refused+st.Unsent+st.Pending != 0 {
		t.Errorf("%d records made; stats %+v", n, st)
	}
	rows := v.Query(`source:="lo" | stats count() n, count_uniq(record_id) ids`)
	want := fmt.Sprint(n)
	if len(rows) != 1 || rows[0]["n"] != want || rows[0]["ids"] != want {
		t.Errorf("the engine holds %v, want %d records with %d IDs", rows, n, n)
	}
}

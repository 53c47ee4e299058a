//go:build linux

package capture

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
)

// These tests capture on lo with a filter on their own ports, so other
// traffic on the machine does not matter. They need root (or
// CAP_NET_RAW): they skip with the reason otherwise.

func openLo(t *testing.T, iface string, o LiveOptions) Source {
	t.Helper()
	if _, err := net.InterfaceByName("lo"); err != nil {
		t.Skip("no lo interface")
	}
	src, err := OpenLive(iface, o)
	if errors.Is(err, errPermission) {
		t.Skip("live capture needs root or CAP_NET_RAW:", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

// udpSink listens on a free port of 127.0.0.1 and discards what it gets.
func udpSink(t *testing.T) (*net.UDPConn, int) {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadBuffer(8 << 20)
	go func() {
		b := make([]byte, 2048)
		for {
			if _, _, err := c.ReadFrom(b); err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { c.Close() })
	return c, c.LocalAddr().(*net.UDPAddr).Port
}

const magic = "mcdissect-capture-test"

// seen is a captured test datagram: its sequence number and timestamp.
type seen struct {
	seq  uint32
	port int
	ts   time.Time
}

// collect reads src until Stop, keeping the test's datagrams (payload:
// magic and a sequence number) and checking each has one link-layer form.
func collect(t *testing.T, src Source, out chan<- seen) error {
	defer close(out) // on every return, so that a reader's failure fails the test instead of hanging it
	for {
		p, err := src.Next()
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		var off int
		switch p.LinkType {
		case layers.LinkTypeEthernet:
			off = 14
		case layers.LinkTypeLinuxSLL:
			off = 16
		case LinkTypeLinuxSLL2:
			off = 20
		default:
			return fmt.Errorf("link type %v on lo", p.LinkType)
		}
		d := p.Data
		if len(d) < off+28+len(magic)+4 || d[off]>>4 != 4 || d[off+9] != 17 {
			continue
		}
		udp := d[off+int(d[off]&0xf)*4:]
		pl := udp[8:]
		if string(pl[:len(magic)]) != magic {
			continue
		}
		out <- seen{seq: binary.BigEndian.Uint32(pl[len(magic):]), port: int(binary.BigEndian.Uint16(udp[2:4])), ts: p.Info.Timestamp}
	}
}

func payload(seq uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte(magic), seq)
}

// TestLiveLoopback: N datagrams sent by the test are each seen exactly once
// (loopback shows packet sockets two copies), in order, with kernel
// timestamps between the moments before and after each send; datagrams to
// another port are kept out by the kernel filter, the user's or the default
// one on the dissected ports. On lo and on any (cooked: SLL2 in the
// default build, libpcap's SLL in the pcap build).
func TestLiveLoopback(t *testing.T) {
	const n = 200
	for _, tc := range []struct {
		name  string
		iface string
		opts  func(port int) LiveOptions
		link  layers.LinkType
	}{
		{"filter", "lo", func(p int) LiveOptions { return LiveOptions{Filter: fmt.Sprintf("udp dst port %d", p)} }, layers.LinkTypeEthernet},
		{"ports", "lo", func(p int) LiveOptions { return LiveOptions{Ports: []uint16{uint16(p)}} }, layers.LinkTypeEthernet},
		{"any", "any", func(p int) LiveOptions { return LiveOptions{Filter: fmt.Sprintf("udp dst port %d", p)} }, anyLinkType},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, port := udpSink(t)
			_, other := udpSink(t)
			src := openLo(t, tc.iface, tc.opts(port))
			out := make(chan seen, 2*n)
			var rerr error
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { defer wg.Done(); rerr = collect(t, src, out) }()

			send := func(p int) (net.Conn, error) { return net.Dial("udp4", fmt.Sprintf("127.0.0.1:%d", p)) }
			c, err := send(port)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			o, err := send(other)
			if err != nil {
				t.Fatal(err)
			}
			defer o.Close()
			before, after := make([]time.Time, n), make([]time.Time, n)
			for i := 0; i < n; i++ {
				o.Write(payload(uint32(i)))
				before[i] = time.Now()
				if _, err := c.Write(payload(uint32(i))); err != nil {
					t.Fatal(err)
				}
				after[i] = time.Now()
			}
			// Wait for the last one, then stop (a guard in case it never
			// comes: the check below then fails).
			got := make([]seen, 0, n)
			guard := time.AfterFunc(10*time.Second, src.Stop)
			for s := range out {
				got = append(got, s)
				if s.port == port && s.seq == n-1 {
					break
				}
			}
			guard.Stop()
			src.Stop()
			for s := range out {
				got = append(got, s)
			}
			wg.Wait()
			if rerr != nil {
				t.Fatal(rerr)
			}
			count := make([]int, n)
			var last time.Time
			for _, s := range got {
				if s.port != port {
					t.Fatalf("a datagram to port %d got through the filter", s.port)
				}
				count[s.seq]++
				if s.ts.Before(last) {
					t.Errorf("datagram %d at %v, before the one before it (%v)", s.seq, s.ts, last)
				}
				last = s.ts
				// The kernel stamps a loopback packet inside the send.
				if s.ts.Before(before[s.seq].Add(-time.Millisecond)) || s.ts.After(after[s.seq].Add(50*time.Millisecond)) {
					t.Errorf("datagram %d stamped %v, sent between %v and %v", s.seq, s.ts, before[s.seq], after[s.seq])
				}
			}
			for i, c := range count {
				if c != 1 {
					t.Errorf("datagram %d seen %d times", i, c)
				}
			}
			if st := src.Stats(); st.Received < n || st.Dropped != 0 {
				t.Errorf("stats %+v for %d datagrams", st, n)
			}
		})
	}
}

// TestLiveBurst: a burst of datagrams as fast as the test can send them
// is either seen whole or the kernel reports what it dropped: seen plus
// dropped is never fewer than sent. With a ring of the minimum size the
// drops are likely; with the default, unlikely. Never twice the same one.
func TestLiveBurst(t *testing.T) {
	const n = 20000
	for _, size := range []int{1, DefaultBufferSize} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			_, port := udpSink(t)
			o := LiveOptions{Filter: fmt.Sprintf("udp dst port %d", port), BufferSize: size}
			if size == 1 {
				o.Snaplen = 128 // the smallest ring: two blocks of 128 KiB
			}
			src := openLo(t, "lo", o)
			out := make(chan seen, 1024)
			done := make(chan []int)
			go func() {
				count := make([]int, n)
				for s := range out {
					count[s.seq]++
				}
				done <- count
			}()
			var rerr error
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { defer wg.Done(); rerr = collect(t, src, out) }()
			c, err := net.Dial("udp4", fmt.Sprintf("127.0.0.1:%d", port))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			sent := 0
			for i := 0; i < n; i++ {
				if _, err := c.Write(payload(uint32(i))); err == nil {
					sent++
				}
			}
			// Let the kernel hand over its last block, then stop.
			time.Sleep(5 * blockTimeoutForTest)
			src.Stop()
			wg.Wait()
			if rerr != nil {
				t.Fatal(rerr)
			}
			count := <-done
			got := 0
			for i, c := range count {
				if c > 1 {
					t.Errorf("datagram %d seen %d times", i, c)
				}
				got += c
			}
			st := src.Stats()
			t.Logf("sent %d, seen %d, kernel: %+v", sent, got, st)
			if uint64(got)+st.Dropped < uint64(sent) {
				t.Errorf("sent %d, seen %d, dropped %d: %d lost without a word", sent, got, st.Dropped, uint64(sent)-uint64(got)-st.Dropped)
			}
		})
	}
}

// blockTimeoutForTest: how long the last packets may wait in the kernel.
const blockTimeoutForTest = 100 * time.Millisecond

// TestLiveStop: Stop ends a Next that is waiting on a quiet capture.
func TestLiveStop(t *testing.T) {
	_, port := udpSink(t)
	src := openLo(t, "lo", LiveOptions{Filter: fmt.Sprintf("udp dst port %d", port)})
	errc := make(chan error)
	go func() {
		_, err := src.Next()
		errc <- err
	}()
	time.Sleep(50 * time.Millisecond)
	src.Stop()
	if err := <-errc; err != io.EOF {
		t.Fatalf("Next after Stop: %v", err)
	}
	src.Stop() // twice is fine
}

// TestLiveErrors: a missing interface is one clear line.
func TestLiveErrors(t *testing.T) {
	_, err := OpenLive("mcdissect-nope0", LiveOptions{})
	if err == nil || !strings.Contains(err.Error(), "no interface") || !strings.Contains(err.Error(), "-D") {
		t.Errorf("missing interface: %v", err)
	}
	if _, err := OpenLive("lo", LiveOptions{Filter: "ether host 00:11:22:33:44:55"}); err != nil && !errors.Is(err, ErrFilterUnsupported) && !errors.Is(err, errPermission) {
		if !strings.Contains(err.Error(), "ether") {
			t.Errorf("unsupported filter: %v", err)
		}
	}
}

// TestTimestampsAgainstTcpdump: the same datagrams captured by tcpdump
// (nanosecond precision) and by this package carry timestamps within
// 100 µs of each other.
func TestTimestampsAgainstTcpdump(t *testing.T) {
	if _, err := exec.LookPath("tcpdump"); err != nil {
		t.Skip("tcpdump is not installed")
	}
	_, port := udpSink(t)
	src := openLo(t, "lo", LiveOptions{Filter: fmt.Sprintf("udp dst port %d", port)})
	file := filepath.Join(t.TempDir(), "td.pcap")
	td := exec.Command("tcpdump", "-Z", "root", "-i", "lo", "-nn", "-U", "--immediate-mode", "--time-stamp-precision=nano", "-w", file, "udp", "dst", "port", fmt.Sprint(port))
	stderr, _ := td.StderrPipe()
	if err := td.Start(); err != nil {
		t.Fatal(err)
	}
	defer td.Process.Kill()
	sc := bufio.NewScanner(stderr)
	var lines []string
	for sc.Scan() && !strings.Contains(sc.Text(), "listening on") {
		lines = append(lines, sc.Text())
	}
	if sc.Err() != nil || !strings.Contains(sc.Text(), "listening on") {
		t.Fatalf("tcpdump did not start: %s", strings.Join(lines, "\n"))
	}
	var tail strings.Builder
	copied := make(chan struct{})
	go func() { io.Copy(&tail, stderr); close(copied) }()

	const n = 100
	out := make(chan seen, 2*n)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); collect(t, src, out) }()
	c, err := net.Dial("udp4", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := 0; i < n; i++ {
		c.Write(payload(uint32(i)))
		time.Sleep(time.Millisecond)
	}
	time.Sleep(blockTimeoutForTest)
	src.Stop()
	wg.Wait()
	time.Sleep(time.Second) // tcpdump's ring too
	td.Process.Signal(syscall.SIGINT)
	<-copied
	td.Wait()
	ours := map[uint32]time.Time{}
	for s := range out {
		ours[s.seq] = s.ts
	}
	f, err := OpenFile(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	compared, total := 0, 0
	var maxDiff time.Duration
	defer func() { t.Logf("%d datagrams, timestamps at most %v apart", compared, maxDiff) }()
	for {
		p, err := f.Next()
		if err != nil {
			if err != io.EOF {
				t.Error(err)
			}
			break
		}
		total++
		d := p.Data
		if len(d) < 14+28+len(magic)+4 {
			continue
		}
		seq := binary.BigEndian.Uint32(d[14+28+len(magic):])
		ts, ok := ours[seq]
		if !ok {
			continue
		}
		compared++
		diff := ts.Sub(p.Info.Timestamp).Abs()
		maxDiff = max(maxDiff, diff)
		if diff > 100*time.Microsecond {
			t.Errorf("datagram %d: %v here, %v in tcpdump (%v apart)", seq, ts, p.Info.Timestamp, diff)
		}
	}
	// tcpdump may drop some on a loaded machine (its closing lines say
	// so); the ones both saw are compared, and there must be some.
	if compared == 0 {
		t.Errorf("compared %d of %d datagrams (ours %d, tcpdump's %d): %s", compared, n, len(ours), total, tail.String())
	} else if compared < n {
		t.Logf("tcpdump kept %d of %d: %s", total, n, tail.String())
	}
}

var _ = os.Getpid

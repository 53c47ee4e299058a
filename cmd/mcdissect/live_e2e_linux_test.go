//go:build linux

package main

// End-to-end tests of live capture: the binary sniffs lo while a tiny
// Query server and client in the test talk on ports of their own. Other
// traffic on lo is ignored: every check looks only at lines and frames of
// the test's own ports. They need root (or CAP_NET_RAW) and AF_PACKET,
// and skip with the reason where those are missing.

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mcdissect/mcdissect/analyze"
)

// needLive skips the test where live capture cannot work.
func needLive(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("live capture needs root or CAP_NET_RAW; not root")
	}
	fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_RAW, 0)
	if err != nil {
		t.Skipf("no AF_PACKET socket: %v", err)
	}
	unix.Close(fd)
	if _, err := net.InterfaceByName("lo"); err != nil {
		t.Skip("no lo interface")
	}
}

// queryServer answers Query handshakes on a port of its own, or stays
// silent (answer false).
type queryServer struct {
	conn *net.UDPConn
	port int
}

func newQueryServer(t *testing.T, answer bool) *queryServer {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	s := &queryServer{conn: c, port: c.LocalAddr().(*net.UDPAddr).Port}
	t.Cleanup(func() { c.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := c.ReadFromUDP(buf)
			if err != nil {
				return
			}
			if answer && n == 7 && buf[0] == 0xfe && buf[1] == 0xfd && buf[2] == 9 {
				c.WriteToUDP(append(append([]byte{9}, buf[3:7]...), "9513307\x00"...), from)
			}
		}
	}()
	return s
}

// queryClient sends handshakes to the server and reads its answers.
type queryClient struct {
	conn *net.UDPConn
	port int
}

func newQueryClient(t *testing.T, server int) *queryClient {
	t.Helper()
	c, err := net.DialUDP("udp4", nil, &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: server})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &queryClient{conn: c, port: c.LocalAddr().(*net.UDPAddr).Port}
}

// handshake sends a handshake with session id and, if wait, waits for the
// answer.
func (c *queryClient) handshake(t *testing.T, id byte, wait bool) {
	t.Helper()
	if _, err := c.conn.Write([]byte{0xfe, 0xfd, 9, 0, 0, 0, id}); err != nil {
		t.Fatal(err)
	}
	if !wait {
		return
	}
	c.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	buf := make([]byte, 64)
	if _, err := c.conn.Read(buf); err != nil {
		t.Fatalf("no answer from the test's Query server: %v", err)
	}
}

// line is a line of the binary's standard output and when it was read.
type line struct {
	text string
	at   time.Time
}

// liveRun is the binary capturing on lo.
type liveRun struct {
	cmd    *exec.Cmd
	lines  chan line // standard output, line by line, as it comes
	mu     sync.Mutex
	stderr bytes.Buffer
	exited chan struct{}
	err    error
}

// startLive starts the binary with args and waits until it says it is
// capturing: from then on, packets on lo are seen.
func startLive(t *testing.T, args ...string) *liveRun {
	t.Helper()
	r := &liveRun{lines: make(chan line, 1<<16), exited: make(chan struct{})}
	r.cmd = exec.Command(binary, append([]string{"-i", "lo"}, args...)...)
	out, err := r.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errp, err := r.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	capturing := make(chan struct{})
	var outDone, errDone sync.WaitGroup
	outDone.Add(1)
	go func() {
		defer outDone.Done()
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			r.lines <- line{sc.Text(), time.Now()}
		}
		close(r.lines)
	}()
	errDone.Add(1)
	go func() {
		defer errDone.Done()
		sc := bufio.NewScanner(errp)
		once := sync.Once{}
		for sc.Scan() {
			r.mu.Lock()
			r.stderr.WriteString(sc.Text() + "\n")
			r.mu.Unlock()
			if strings.HasPrefix(sc.Text(), "Capturing on 'lo'") {
				once.Do(func() { close(capturing) })
			}
		}
	}()
	go func() {
		outDone.Wait()
		errDone.Wait()
		r.err = r.cmd.Wait()
		close(r.exited)
	}()
	t.Cleanup(func() {
		r.cmd.Process.Kill()
		<-r.exited
	})
	select {
	case <-capturing:
	case <-r.exited:
		t.Fatalf("the capture ended before it began: %v\n%s", r.err, r.errText())
	case <-time.After(30 * time.Second):
		t.Fatalf("no \"Capturing on 'lo'\" on stderr:\n%s", r.errText())
	}
	return r
}

func (r *liveRun) errText() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stderr.String()
}

// waitLine returns the first line of output containing sub, skipping
// others; it fails the test if none comes within limit.
func (r *liveRun) waitLine(t *testing.T, sub string, limit time.Duration) line {
	t.Helper()
	deadline := time.After(limit)
	for {
		select {
		case l, ok := <-r.lines:
			if !ok {
				t.Fatalf("the output ended without a line containing %q\n%s", sub, r.errText())
			}
			if strings.Contains(l.text, sub) {
				return l
			}
		case <-deadline:
			t.Fatalf("no line containing %q within %v while the capture runs\n%s", sub, limit, r.errText())
		}
	}
}

// stop signals the binary and waits for it to end; it returns how long
// that took and the rest of the output.
func (r *liveRun) stop(t *testing.T, sig syscall.Signal) (time.Duration, []string) {
	t.Helper()
	start := time.Now()
	if err := r.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	return r.wait(t, start)
}

func (r *liveRun) wait(t *testing.T, start time.Time) (time.Duration, []string) {
	t.Helper()
	select {
	case <-r.exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("the capture did not end\n%s", r.errText())
	}
	took := time.Since(start)
	var rest []string
	for l := range r.lines {
		rest = append(rest, l.text)
	}
	if r.err != nil {
		t.Fatalf("exit: %v\n%s", r.err, r.errText())
	}
	return took, rest
}

var capturedLine = regexp.MustCompile(`^([0-9]+) packets? captured$`)

// captured checks stderr's closing line and returns its count.
func (r *liveRun) captured(t *testing.T) int {
	t.Helper()
	ls := lines(r.errText())
	if len(ls) == 0 {
		t.Fatal("nothing on stderr")
	}
	last := ls[len(ls)-1]
	if strings.Contains(last, "dropped from lo") && len(ls) > 1 {
		last = ls[len(ls)-2]
	}
	m := capturedLine.FindStringSubmatch(last)
	if m == nil {
		t.Fatalf("stderr does not end with \"N packets captured\":\n%s", r.errText())
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// exchange has a new client (a port of its own) send a handshake to srv
// until a line containing want and that client's port is printed: the
// default build's reader may lose a packet on a busy machine (what the
// capture package's ring fixes), which must not fail a test of the
// pipeline. It returns the line, the delay from the send, and the port.
func exchange(t *testing.T, r *liveRun, srv *queryServer, want string) (line, time.Duration, int) {
	t.Helper()
	for attempt := range 5 {
		cl := newQueryClient(t, srv.port)
		sent := time.Now()
		cl.handshake(t, byte(attempt), false)
		port := strconv.Itoa(cl.port)
		if l, ok := r.lineWith(want, port, 5*time.Second); ok {
			return l, l.at.Sub(sent), cl.port
		}
	}
	t.Fatalf("five handshakes and no line containing %q and the client's port\n%s", want, r.errText())
	return line{}, 0, 0
}

// lineWith returns the first line that contains all of subs, skipping
// others, or false if none comes within limit.
func (r *liveRun) lineWith(want, port string, limit time.Duration) (line, bool) {
	deadline := time.After(limit)
	for {
		select {
		case l, ok := <-r.lines:
			if !ok {
				return line{}, false
			}
			if strings.Contains(l.text, want) && strings.Contains(l.text, port) {
				return l, true
			}
		case <-deadline:
			return line{}, false
		}
	}
}

// TestLiveOutputAsItHappens: in every output format, a record is printed
// while the capture runs, soon after the packet that completes it, to a
// pipe. The bound checked is generous (the machine may be busy); the
// delay measured is logged.
func TestLiveOutputAsItHappens(t *testing.T) {
	needLive(t)
	for _, c := range []struct {
		name string
		args []string
		want string // in the line that shows the response (with the client's port)
	}{
		{"summary", nil, "Handshake Response"},
		{"tree", []string{"-V"}, "Handshake Response"},
		{"hex, display filter", []string{"-x", "-Y", "query.type == 9"}, "Handshake Response"},
		{"json", []string{"-T", "json"}, `"message": "Handshake Response"`},
		{"fields", []string{"-T", "fields", "-e", "udp.dstport", "-e", "mc.message"}, "Handshake Response"},
		{"line buffered", []string{"-l"}, "Handshake Response"},
		{"delta displayed", []string{"-t", "dd"}, "Handshake Response"},
		{"tree, statistics", []string{"-V", "-z", "mc,stat"}, "Handshake Response"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := newQueryServer(t, true)
			p := strconv.Itoa(srv.port)
			r := startLive(t, append([]string{"-d", "udp.port==" + p + ",query"}, c.args...)...)
			var worst time.Duration
			for i := range 3 {
				_, d, _ := exchange(t, r, srv, c.want)
				worst = max(worst, d)
				if d > 5*time.Second {
					t.Errorf("response %d printed %v after the request was sent", i, d)
				}
			}
			t.Logf("slowest of 3 responses reached the output %v after the request was sent", worst)
			r.stop(t, syscall.SIGINT)
			if n := r.captured(t); n < 6 {
				t.Errorf("%d packets captured, 6 at least sent and printed", n)
			}
		})
	}
}

// TestLiveStopKeepsEverything: SIGINT, SIGTERM and SIGHUP end the capture
// promptly, with the output, the -z statistics and the closing count all
// written, and -w's pcapng complete and readable, with every frame.
func TestLiveStopKeepsEverything(t *testing.T) {
	needLive(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			srv := newQueryServer(t, true)
			p := strconv.Itoa(srv.port)
			w := filepath.Join(t.TempDir(), "live.pcapng")
			r := startLive(t, "-d", "udp.port=="+p+",query", "-V", "-w", w, "-P", "-z", "conv,mc")
			const n = 5
			var clients []int
			for range n {
				_, _, port := exchange(t, r, srv, "Handshake Response")
				clients = append(clients, port)
			}
			took, rest := r.stop(t, sig)
			t.Logf("%v: the capture ended %v after the signal", sig, took)
			if took > 10*time.Second {
				t.Errorf("the capture took %v to end after %v", took, sig)
			}
			if !strings.Contains(strings.Join(rest, "\n"), "Minecraft conversations") {
				t.Errorf("no -z conv,mc table after %v:\n%s", sig, strings.Join(rest, "\n"))
			}
			captured := r.captured(t)
			// The pcapng: complete, readable, with the frames of every
			// exchange printed (request and response).
			f, err := os.Open(w)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			src, err := analyze.OpenFile(f)
			if err != nil {
				t.Fatal(err)
			}
			frames := 0
			seen := map[int]int{}
			for {
				p, err := src.Next()
				d := p.Data
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("-w file damaged after %d frames: %v", frames, err)
				}
				frames++
				for _, c := range clients {
					if bytes.Contains(d, []byte{byte(c >> 8), byte(c), byte(srv.port >> 8), byte(srv.port)}) ||
						bytes.Contains(d, []byte{byte(srv.port >> 8), byte(srv.port), byte(c >> 8), byte(c)}) {
						seen[c]++
					}
				}
			}
			for _, c := range clients {
				if seen[c] < 2 {
					t.Errorf("-w kept %d frames of client port %d's exchange, which was printed", seen[c], c)
				}
			}
			if frames != captured {
				t.Errorf("-w has %d frames, stderr says %d captured", frames, captured)
			}
		})
	}
}

// TestLiveCountStops: -c ends the capture once its count is reached,
// without waiting for another packet.
func TestLiveCountStops(t *testing.T) {
	needLive(t)
	srv := newQueryServer(t, true)
	p := strconv.Itoa(srv.port)
	r := startLive(t, "-d", "udp.port=="+p+",query", "-Y", "udp.srcport == "+p+" || udp.dstport == "+p, "-c", "2")
	cl := newQueryClient(t, srv.port)
	var start time.Time
	for attempt := range 5 {
		start = time.Now()
		cl.handshake(t, byte(attempt), true)
		select {
		case <-r.exited:
		case <-time.After(5 * time.Second):
			continue // a packet lost by the reader: the count is not reached yet
		}
		break
	}
	took, rest := r.wait(t, start)
	t.Logf("-c 2: the capture ended %v after the last handshake was answered", took)
	if len(rest) != 2 {
		t.Errorf("-c 2 printed:\n%s", strings.Join(rest, "\n"))
	}
	r.captured(t)
}

// TestLiveUnansweredRequest: on a quiet port, a request nobody answers is
// printed, with its "no response" item, once its response window has
// passed in wall time, while the capture still runs.
func TestLiveUnansweredRequest(t *testing.T) {
	needLive(t)
	srv := newQueryServer(t, false)
	p := strconv.Itoa(srv.port)
	// Only this port: other traffic on lo, past MaxHeld, would give the
	// request up early.
	// A hold longer than the window (TestLiveHold has the default's).
	r := startLive(t, "-f", "udp port "+p, "-d", "udp.port=="+p+",query", "-V", "--hold", "10s")
	for attempt := range 5 {
		cl := newQueryClient(t, srv.port)
		sent := time.Now()
		cl.handshake(t, 7, false)
		if _, ok := r.lineWith("Handshake Request, session 0x00000007", strconv.Itoa(cl.port), 30*time.Second); !ok {
			t.Logf("attempt %d: the request was not printed (lost by the reader?)", attempt)
			continue
		}
		l := r.waitLine(t, "no response seen within", 10*time.Second)
		t.Logf("the unanswered request was printed %v after it was sent (its window: 5 s)", l.at.Sub(sent))
		r.stop(t, syscall.SIGINT)
		r.captured(t)
		return
	}
	t.Fatal("no unanswered request printed in five attempts")
}

// TestLiveAutostop: -a duration:N ends a capture on time though no
// packet comes (lo may be busy or quiet: either way).
func TestLiveAutostop(t *testing.T) {
	needLive(t)
	srv := newQueryServer(t, false)
	p := strconv.Itoa(srv.port)
	start := time.Now()
	r := startLive(t, "-a", "duration:1", "-Y", "udp.srcport == "+p+" || udp.dstport == "+p)
	took, rest := r.wait(t, start)
	t.Logf("-a duration:1 ended the capture after %v", took)
	if len(rest) != 0 {
		t.Errorf("-a with a filter matching nothing printed %q", rest)
	}
	r.captured(t)
}

// TestPipeOutputAsItHappens: a capture read from a pipe (tcpdump -w - |
// mcdissect -r -) is printed as its packets come, not when the pipe is
// closed.
func TestPipeOutputAsItHappens(t *testing.T) {
	cmd := exec.Command(binary, "-r", "-")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	sample, err := os.ReadFile(querySample)
	if err != nil {
		t.Fatal(err)
	}
	// The file header and the first two packets (a handshake and its
	// response), then nothing until the output is seen.
	first := 24
	for range 2 {
		first += 16 + int(sample[first+8]) | int(sample[first+9])<<8
	}
	if _, err := in.Write(sample[:first]); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "Handshake Response") {
				got <- sc.Text()
				break
			}
		}
		io.Copy(io.Discard, out)
	}()
	select {
	case <-got:
	case <-time.After(20 * time.Second):
		t.Fatal("the first records of a pipe are not printed while the pipe stays open")
	}
	in.Write(sample[first:])
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
}

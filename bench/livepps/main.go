//go:build linux

// Command livepps measures how many packets per second a live capture on
// lo takes without drops: this project's capture back end (package capture,
// default build: TPACKET_V3; built with -tags pcap: libpcap), and tcpdump.
// It sends small UDP datagrams on lo at rising rates, each for -secs
// seconds, to a capturer in a child process filtering on the port, and
// prints per rate what was sent, seen, dropped by the kernel, and the
// capturer's CPU time.
//
//	go build -o /tmp/livepps ./bench/livepps
//	go build -tags pcap -o /tmp/livepps-pcap ./bench/livepps
//	sudo /tmp/livepps -pcap /tmp/livepps-pcap -tcpdump
//
// It needs root (or CAP_NET_RAW). The sender shares the machine with the
// capturer, so the highest rate is bounded by what one goroutine can send.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mcdissect/mcdissect/capture"
)

func main() {
	child := flag.Bool("child", false, "internal: capture and report")
	port := flag.Int("port", 0, "internal: the port to capture")
	rates := flag.String("rates", "25000,50000,100000,200000,400000", "datagrams per second to try")
	secs := flag.Float64("secs", 1, "seconds per rate")
	pcapBin := flag.String("pcap", "", "a livepps built with -tags pcap, to measure libpcap too")
	tcpdump := flag.Bool("tcpdump", false, "measure tcpdump too")
	senders := flag.Int("senders", 2, "sending goroutines")
	flag.Parse()
	if *child {
		runChild(*port)
		return
	}
	self, _ := os.Executable()
	type capturer struct {
		name string
		cmd  func(port int) *exec.Cmd
	}
	cs := []capturer{{"mcdissect capture (default build)", func(p int) *exec.Cmd {
		return exec.Command(self, "-child", "-port", strconv.Itoa(p))
	}}}
	if *pcapBin != "" {
		cs = append(cs, capturer{"mcdissect capture (libpcap build)", func(p int) *exec.Cmd {
			return exec.Command(*pcapBin, "-child", "-port", strconv.Itoa(p))
		}})
	}
	if *tcpdump {
		cs = append(cs, capturer{"tcpdump -w /dev/null", func(p int) *exec.Cmd {
			return exec.Command("tcpdump", "-Z", "root", "-i", "lo", "-nn", "-B", "16384", "-w", "/dev/null", "udp", "dst", "port", strconv.Itoa(p))
		}})
	}
	fmt.Println("| capturer | asked rate/s | sent | sent/s | seen | dropped | capturer CPU | CPU per packet |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, c := range cs {
		for _, r := range strings.Split(*rates, ",") {
			rate, err := strconv.Atoi(strings.TrimSpace(r))
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			d := time.Duration(*secs * float64(time.Second))
			sent, seen, dropped, cpu, err := measure(c.cmd, rate, d, *senders)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s at %d/s: %v\n", c.name, rate, err)
				os.Exit(1)
			}
			per := 0.0
			if seen > 0 {
				per = float64(cpu.Microseconds()) / float64(seen)
			}
			fmt.Printf("| %s | %d | %d | %.0f | %d | %d | %.2f s | %.2f µs |\n", c.name, rate, sent, float64(sent)/d.Seconds(), seen, dropped, cpu.Seconds(), per)
		}
	}
}

var (
	reCaptured = regexp.MustCompile(`(\d+) packets? captured`)
	reDropped  = regexp.MustCompile(`(\d+) packets? dropped by kernel`)
)

// measure starts a capturer, sends for d at rate, stops it and reads its
// counts: from the child's "seen dropped" line, or tcpdump's closing lines.
func measure(mk func(int) *exec.Cmd, rate int, d time.Duration, senders int) (sent, seen, dropped int, cpu time.Duration, err error) {
	sink, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return
	}
	defer sink.Close()
	port := sink.LocalAddr().(*net.UDPAddr).Port
	cmd := mk(port)
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err = cmd.Start(); err != nil {
		return
	}
	// Both kinds of capturer say when they listen: the child on stdout,
	// tcpdump on stderr.
	ready := make(chan struct{})
	var out, errOut strings.Builder
	scan := func(r io.Reader, b *strings.Builder, done chan<- struct{}) {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			l := sc.Text()
			b.WriteString(l + "\n")
			if strings.Contains(l, "listening on") || l == "ready" {
				select {
				case ready <- struct{}{}:
				default:
				}
			}
		}
		close(done)
	}
	d1, d2 := make(chan struct{}), make(chan struct{})
	go scan(stdout, &out, d1)
	go scan(stderr, &errOut, d2)
	select {
	case <-ready:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		return 0, 0, 0, 0, fmt.Errorf("the capturer did not start: %s", errOut.String())
	}
	counts := make(chan int)
	for i := 0; i < senders; i++ {
		go func() {
			n := 0
			defer func() { counts <- n }()
			c, err := net.DialUDP("udp4", nil, &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port})
			if err != nil {
				return
			}
			defer c.Close()
			payload := make([]byte, 32)
			start := time.Now()
			each := float64(rate) / float64(senders)
			for time.Since(start) < d {
				due := int(time.Since(start).Seconds()*each) + 1
				for n < due {
					if _, err := c.Write(payload); err == nil {
						n++
					}
				}
				time.Sleep(200 * time.Microsecond)
			}
		}()
	}
	for i := 0; i < senders; i++ {
		sent += <-counts
	}
	time.Sleep(1500 * time.Millisecond) // the capturers' last blocks (tcpdump's timeout is 1 s)
	cmd.Process.Signal(syscall.SIGINT)
	<-d1
	<-d2
	cmd.Wait()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if m := reCaptured.FindStringSubmatch(errOut.String()); m != nil {
		seen, _ = strconv.Atoi(m[1])
		if m := reDropped.FindStringSubmatch(errOut.String()); m != nil {
			dropped, _ = strconv.Atoi(m[1])
		}
		return
	}
	if _, err = fmt.Sscanf(out.String(), "ready\n%d %d", &seen, &dropped); err != nil {
		err = fmt.Errorf("child output %q: %v (%s)", out.String(), err, errOut.String())
	}
	return
}

// runChild captures udp dst port on lo until SIGINT, then prints what it
// saw and what the kernel dropped.
func runChild(port int) {
	src, err := capture.OpenLive("lo", capture.LiveOptions{Filter: fmt.Sprintf("udp dst port %d", port)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	go func() { <-sig; src.Stop() }()
	fmt.Println("ready")
	n := 0
	for {
		if _, err := src.Next(); err != nil {
			break
		}
		n++
	}
	st := src.Stats()
	src.Close()
	fmt.Printf("%d %d\n", n, st.Dropped)
}

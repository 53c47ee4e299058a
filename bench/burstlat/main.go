//go:build linux

// Command burstlat measures how long a live mcdissect takes to print the
// record of a packet under bursts: minecraft-server-util's N concurrent
// status pings (samples/gen/node client.js msu-status-many) against
// minecraft-protocol's server (server.js status) on 127.0.0.1:PORT, ROUNDS
// times, while mcdissect -i lo -t e writes to a pipe this command reads.
// A line's latency is the time it is read here less the time of its packet
// (the kernel's timestamp, which the line prints, on the same clock).
// tcpdump captures the same traffic, and the records of its capture run
// through mcdissect -r are counted against the live ones.
//
//	go build -o /tmp/mcdissect ./cmd/mcdissect && go build -o /tmp/burstlat ./bench/burstlat
//	sudo /tmp/burstlat -mcd /tmp/mcdissect -n 300 -rounds 5
//
// Each result line gives the load average: the machine may be shared.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	mcd := flag.String("mcd", "/tmp/mcdissect", "the mcdissect binary")
	n := flag.Int("n", 300, "concurrent status pings per round")
	rounds := flag.Int("rounds", 5, "rounds, 2 s apart")
	port := flag.Int("port", 25565, "the server's TCP port")
	args := flag.String("args", "", "more mcdissect flags, e.g. -l")
	keep := flag.String("keep", "", "write each line with its latency in ms to this file")
	perKind := flag.Bool("kinds", false, "also give the latency of each kind of line")
	node := flag.String("node", "", "samples/gen/node (default: found from this source's place)")
	flag.Parse()
	if *node == "" {
		_, self, _, _ := runtime.Caller(0)
		*node = filepath.Join(filepath.Dir(self), "../../samples/gen/node")
	}
	dir, _ := os.MkdirTemp("", "burstlat")
	defer os.RemoveAll(dir)

	srv := exec.Command("node", "server.js", "status", strconv.Itoa(*port), strconv.Itoa(10+3*(*rounds)+30))
	srv.Dir = *node
	must(srv.Start())
	defer srv.Process.Kill()
	time.Sleep(1500 * time.Millisecond)

	pcap := filepath.Join(dir, "tcpdump.pcap")
	td := exec.Command("tcpdump", "-i", "lo", "-s", "0", "-U", "-nn", "-B", "65536", "--time-stamp-precision=nano", "-w", pcap, "tcp port "+strconv.Itoa(*port))
	must(td.Start())

	live := exec.Command(*mcd, append([]string{"-i", "lo", "-t", "e", "-d", fmt.Sprintf("tcp.port==%d,slp", *port)}, strings.Fields(*args)...)...)
	out, err := live.StdoutPipe()
	must(err)
	live.Stderr = os.Stderr
	must(live.Start())
	type line struct {
		at, pkt time.Time
		kind    string
		text    string
	}
	lines := make(chan line, 1<<16)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			at := time.Now()
			// A summary line: the frame number, then the epoch time
			// (the lines of -V's tree under it are not counted).
			f := strings.Fields(sc.Text())
			if len(f) < 2 || !strings.Contains(f[1], ".") {
				continue
			}
			if _, err := strconv.Atoi(f[0]); err != nil {
				continue
			}
			sec, err := strconv.ParseFloat(f[1], 64)
			if err != nil || sec < 1e9 {
				continue
			}
			s, frac := math.Modf(sec)
			kind := ""
			if len(f) > 7 {
				kind = f[6] + " " + f[7] // SLP Status Request, Handshake, ...
			}
			lines <- line{at, time.Unix(int64(s), int64(frac*1e9)), strings.TrimSuffix(kind, ","), sc.Text()}
		}
	}()
	time.Sleep(time.Second)
	var cpu0 syscall.Rusage
	for r := 0; r < *rounds; r++ {
		c := exec.Command("node", "--no-deprecation", "client.js", "msu-status-many", "127.0.0.1", strconv.Itoa(*port), strconv.Itoa(*n))
		c.Dir = *node
		if b, err := c.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "round %d: %v: %s\n", r, err, tail(b))
		}
		time.Sleep(2 * time.Second)
	}
	time.Sleep(time.Second)
	runq := runQueueWait(live.Process.Pid)
	live.Process.Signal(os.Interrupt)
	var lat []float64
	byKind := map[string][]float64{}
	var save *os.File
	if *keep != "" {
		save, _ = os.Create(*keep)
		defer save.Close()
	}
	for l := range lines {
		if save != nil {
			fmt.Fprintf(save, "%.1f\t%s\n", float64(l.at.Sub(l.pkt))/1e6, l.text)
		}
		ms := float64(l.at.Sub(l.pkt)) / 1e6
		lat = append(lat, ms)
		byKind[l.kind] = append(byKind[l.kind], ms)
	}
	live.Wait()
	if ru, ok := live.ProcessState.SysUsage().(*syscall.Rusage); ok {
		cpu0 = *ru
	}
	td.Process.Signal(os.Interrupt)
	td.Wait()
	fileOut, _ := exec.Command(*mcd, "-r", pcap, "-d", fmt.Sprintf("tcp.port==%d,slp", *port)).Output()
	fileRecs := strings.Count(string(fileOut), "\n")
	load, _ := os.ReadFile("/proc/loadavg")
	slices.Sort(lat)
	q := func(p float64) float64 {
		if len(lat) == 0 {
			return math.NaN()
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	cpu := time.Duration(cpu0.Utime.Nano() + cpu0.Stime.Nano())
	fmt.Printf("mcdissect %s: %d records live (%d from tcpdump's capture), packet to line ms: median %.0f, p95 %.0f, max %.0f; CPU %.2f s, %.2f s waiting for a core; load average %s",
		strings.TrimSpace(*args), len(lat), fileRecs, q(0.5), q(0.95), q(1), cpu.Seconds(), runq.Seconds(), strings.Join(strings.Fields(string(load))[:3], " "))
	fmt.Println()
	if *perKind {
		var kinds []string
		for k := range byKind {
			kinds = append(kinds, k)
		}
		slices.Sort(kinds)
		for _, k := range kinds {
			v := byKind[k]
			slices.Sort(v)
			fmt.Printf("  %-28s %5d lines: median %.0f, p95 %.0f, max %.0f ms\n", k, len(v), v[len(v)/2], v[min(len(v)-1, len(v)*95/100)], v[len(v)-1])
		}
	}
}

// runQueueWait is how long the threads of process pid have waited for a
// core, runnable but not running (/proc/PID/task/*/schedstat, field 2).
func runQueueWait(pid int) time.Duration {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	var total time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b)); len(f) >= 2 {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			total += time.Duration(n)
		}
	}
	return total
}

func tail(b []byte) string {
	if len(b) > 300 {
		b = b[len(b)-300:]
	}
	return string(b)
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

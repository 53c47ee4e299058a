// Command mcgen writes a large, deterministic pcap of Minecraft traffic —
// Query over UDP, Server List Ping (status and login) and Classic over
// TCP, many connections interleaved, with split, reordered and
// retransmitted segments — for benchmarks and tests:
//
//	go run ./cmd/mcgen -o bench/out/100.pcap -size 100MB [-seed 1]
//	go run ./cmd/mcgen -o small.pcap -small
//	go run ./cmd/mcgen -o slp.pcap -size 100MB -mix slp   # or query, classic-big, onebyte
//
// The same flags always write the same bytes.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mcdissect/mcdissect/internal/mcgen"
)

func main() {
	out := flag.String("o", "", "output pcap file (required)")
	size := flag.String("size", "100MB", "capture size: bytes, or a number with KB, MB or GB (powers of 1000; KiB, MiB, GiB: 1024)")
	small := flag.Bool("small", false, "preset: a ~1 MB capture with 32 open conversations, as the tests use (overrides -size, -conns)")
	seed := flag.Uint64("seed", 1, "random seed; another seed gives another capture")
	conns := flag.Int("conns", 200, "conversations open at once")
	useCapgen := flag.Bool("capgen", false, "write through internal/capgen (gopacket serialisation): same bytes, slower")
	quiet := flag.Bool("q", false, "no summary on stderr")
	mix := flag.String("mix", "project", "workload: "+strings.Join(mcgen.Mixes, ", ")+" (see mcgen.ApplyMix)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: mcgen -o FILE [-size 100MB | -small] [-seed N] [-conns N]")
		os.Exit(2)
	}
	n, err := parseSize(*size)
	cfg := mcgen.Config{Size: n, Seed: *seed, Conns: *conns, Capgen: *useCapgen}
	if err == nil {
		err = mcgen.ApplyMix(&cfg, *mix)
	}
	if *small {
		cfg, err = mcgen.SmallConfig(*seed), nil
		cfg.Capgen = *useCapgen
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcgen:", err)
		os.Exit(2)
	}
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcgen:", err)
		os.Exit(1)
	}
	t0 := time.Now()
	var st mcgen.Stats
	if *useCapgen {
		// capgen writes each record with two small writes: buffer them.
		bw := bufio.NewWriterSize(f, 1<<20)
		st, err = mcgen.Generate(bw, cfg)
		if err == nil {
			err = bw.Flush()
		}
	} else {
		st, err = mcgen.Generate(f, cfg)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcgen:", err)
		os.Exit(1)
	}
	el := time.Since(t0)
	if !*quiet {
		tot := float64(st.ProtoBytes[0] + st.ProtoBytes[1] + st.ProtoBytes[2])
		fmt.Fprintf(os.Stderr, "mcgen: wrote %s: %d bytes, %d packets (%d UDP, %d TCP) in %.2fs = %.0f MB/s\n",
			*out, st.Bytes, st.Packets, st.UDPPackets, st.TCPPackets, el.Seconds(), float64(st.Bytes)/1e6/el.Seconds())
		fmt.Fprintf(os.Stderr, "mcgen: %d Query sessions, %d SLP status + %d SLP login connections, %d Classic connections\n",
			st.QuerySessions, st.SLPStatus, st.SLPLogin, st.ClassicConns)
		fmt.Fprintf(os.Stderr, "mcgen: bytes Query %.1f%%, SLP %.1f%%, Classic %.1f%%; %d reordered pairs, %d retransmissions, %d resets; %s of capture time\n",
			100*float64(st.ProtoBytes[0])/tot, 100*float64(st.ProtoBytes[1])/tot, 100*float64(st.ProtoBytes[2])/tot,
			st.Reordered, st.Retransmitted, st.Resets, st.Duration.Round(time.Millisecond))
	}
}

// parseSize reads "1000", "100MB", "1GB", "512KiB".
func parseSize(s string) (int64, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, m := range []struct {
		suffix string
		mult   int64
	}{{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"B", 1}} {
		if strings.HasSuffix(u, m.suffix) {
			u, mult = strings.TrimSuffix(u, m.suffix), m.mult
			break
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(u), 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return int64(v * float64(mult)), nil
}

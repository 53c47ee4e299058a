// Command levelbound measures the least time a tree of a capture's Classic
// levels can take: inflating them. -V and JSON show each level's count of
// blocks by type, which needs every block inflated; this times that alone,
// with nothing else of mcdissect's (no reading, reassembly, framing, trees,
// output), so that it can be set against the floor of bench/compare.sh:
//
//	mcdissect -r F -T fields -e tcp.stream -e classic.packet_id -e classic.level.chunk_data \
//	    -Y 'classic.level.chunk_data || classic.packet_id == 2' | go run ./bench/levelbound
//	go run ./bench/floor -r F
//
// It reads those lines (a Level Initialize, packet 2, starts a level on its
// stream; each chunk's bytes, as hex with colons, are joined in order),
// then inflates every level N times (-n, the least is reported) with
// compress/gzip into a 64 KiB window, as mcdissect streams a counted level,
// on one goroutine and then spread over -j of them. Counting the blocks
// comes on top of that, so these are lower bounds.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"
)

func main() {
	n := flag.Int("n", 3, "runs; the least time is reported")
	j := flag.Int("j", runtime.NumCPU(), "goroutines for the spread run")
	flag.Parse()
	levels, err := read(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "levelbound:", err)
		os.Exit(1)
	}
	var comp int
	for _, l := range levels {
		comp += len(l)
	}
	best := func(workers int) (time.Duration, int64) {
		var least time.Duration
		var out int64
		for i := 0; i < *n; i++ {
			t0 := time.Now()
			out = inflateSpread(levels, workers)
			if d := time.Since(t0); i == 0 || d < least {
				least = d
			}
		}
		return least, out
	}
	one, out := best(1)
	spread, _ := best(*j)
	fmt.Printf("levels %d, compressed %d bytes, inflated %d bytes\n", len(levels), comp, out)
	fmt.Printf("inflate on 1 goroutine: %.3f s (%.0f MB/s of blocks)\n", one.Seconds(), float64(out)/one.Seconds()/1e6)
	fmt.Printf("inflate on %d goroutines: %.3f s\n", *j, spread.Seconds())
}

// read groups the chunks of each stream's levels, in order.
func read(r io.Reader) ([][]byte, error) {
	open := map[string]int{} // stream -> index in levels of its level being sent
	var levels [][]byte
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 3 {
			continue
		}
		stream, id, data := f[0], f[1], f[2]
		if id == "2" {
			open[stream] = len(levels)
			levels = append(levels, nil)
			continue
		}
		i, ok := open[stream]
		if !ok || data == "" {
			continue // a chunk without its Level Initialize: not counted
		}
		b, err := hex.DecodeString(strings.ReplaceAll(data, ":", ""))
		if err != nil {
			return nil, fmt.Errorf("stream %s: %v", stream, err)
		}
		levels[i] = append(levels[i], b...)
	}
	return levels, sc.Err()
}

// inflateSpread inflates every level, the levels dealt out to workers
// goroutines, and returns the bytes inflated.
func inflateSpread(levels [][]byte, workers int) int64 {
	var wg sync.WaitGroup
	totals := make([]int64, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(levels); i += workers {
				totals[w] += inflate(levels[i])
			}
		}()
	}
	wg.Wait()
	var t int64
	for _, x := range totals {
		t += x
	}
	return t
}

// inflate inflates one level through a 64 KiB buffer and returns its
// length.
func inflate(l []byte) int64 {
	var zr gzip.Reader
	if len(l) == 0 || zr.Reset(bytes.NewReader(l)) != nil {
		return 0
	}
	buf := make([]byte, 64<<10)
	var total int64
	for {
		k, err := zr.Read(buf)
		total += int64(k)
		if err != nil {
			return total
		}
	}
}

// Command realmix builds a large capture out of the real captures in
// samples/ and ../shared/captures, for bench/compare.sh's "real" mix: the
// one mix whose traffic was not written by this project's generator
// (cmd/mcgen), so a speed target met on mcgen's mixes and missed here is not
// met.
//
//	go run ./bench/realmix -o real.pcap -size 100MB [-seed 1] samples/*.pcap
//
// Each copy is one input capture chosen at random, replayed with its own
// relative timing from a random start inside a window, so many copies are
// open at once, as on a busy server. Copy k moves both loopback addresses to
// 127.a.b.c (k's bytes), so its conversations are distinct from every other
// copy's while the ports, and so the protocol each port names, stay as
// captured. IPv4 header and TCP/UDP checksums are recomputed. Captures that
// are not Ethernet + IPv4, and the hand-made ones (samples/handmade-*), are
// the caller's to leave out; non-IPv4 frames are copied unchanged.
package main

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

type frame struct {
	at   time.Duration // since the capture's first frame
	data []byte
	orig int
}

type capture struct {
	name   string
	frames []frame
	span   time.Duration
}

func main() {
	out := flag.String("o", "", "output pcap (required)")
	size := flag.String("size", "100MB", "output size in bytes, or with KB/MB/GB (powers of 1000)")
	seed := flag.Int64("seed", 1, "random seed")
	window := flag.Duration("window", 2*time.Second, "copies start at random inside each window of this length")
	perWindow := flag.Int("copies", 200, "copies started per window")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: realmix -o out.pcap [-size 100MB] capture.pcap...")
		os.Exit(2)
	}
	limit, err := parseSize(*size)
	if err != nil {
		fmt.Fprintln(os.Stderr, "realmix:", err)
		os.Exit(2)
	}
	var caps []capture
	for _, p := range flag.Args() {
		c, err := load(p)
		if err != nil {
			fmt.Fprintf(os.Stderr, "realmix: %s: %v\n", p, err)
			os.Exit(1)
		}
		caps = append(caps, c)
	}
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "realmix:", err)
		os.Exit(1)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	w := pcapgo.NewWriter(bw)
	if err := w.WriteFileHeader(262144, layers.LinkTypeEthernet); err != nil {
		fmt.Fprintln(os.Stderr, "realmix:", err)
		os.Exit(1)
	}
	rng := rand.New(rand.NewSource(*seed))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	written := int64(24)
	copies, k := 0, 1
	type out1 struct {
		at   time.Duration
		data []byte
		orig int
	}
	for written < limit {
		// One window: its copies' frames, sorted by time; the next window
		// starts after this one's last frame, so the file's timestamps never
		// go back.
		var batch []out1
		end := time.Duration(0)
		for i := 0; i < *perWindow; i++ {
			c := &caps[rng.Intn(len(caps))]
			start := time.Duration(rng.Int63n(int64(*window)))
			for _, fr := range c.frames {
				batch = append(batch, out1{start + fr.at, readdress(fr.data, k), fr.orig})
			}
			if start+c.span > end {
				end = start + c.span
			}
			k++
			copies++
		}
		sort.SliceStable(batch, func(i, j int) bool { return batch[i].at < batch[j].at })
		for _, b := range batch {
			if written >= limit {
				break
			}
			ci := captureInfo(base.Add(b.at), len(b.data), b.orig)
			if err := w.WritePacket(ci, b.data); err != nil {
				fmt.Fprintln(os.Stderr, "realmix:", err)
				os.Exit(1)
			}
			written += 16 + int64(len(b.data))
		}
		base = base.Add(end + time.Millisecond)
	}
	if err := bw.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "realmix:", err)
		os.Exit(1)
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "realmix:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "realmix: %s: %d bytes, %d copies of %d captures\n", *out, written, copies, len(caps))
}

func load(path string) (capture, error) {
	fh, err := os.Open(path)
	if err != nil {
		return capture{}, err
	}
	defer fh.Close()
	r, err := pcapgo.NewReader(bufio.NewReader(fh))
	if err != nil {
		return capture{}, err
	}
	if r.LinkType() != layers.LinkTypeEthernet {
		return capture{}, fmt.Errorf("link type %v: only Ethernet captures are replayed", r.LinkType())
	}
	c := capture{name: path}
	var first time.Time
	for {
		data, ci, err := r.ReadPacketData()
		if err == io.EOF {
			break
		}
		if err != nil {
			return capture{}, err
		}
		if len(c.frames) == 0 {
			first = ci.Timestamp
		}
		at := ci.Timestamp.Sub(first)
		c.frames = append(c.frames, frame{at, append([]byte(nil), data...), ci.Length})
		if at > c.span {
			c.span = at
		}
	}
	if len(c.frames) == 0 {
		return capture{}, fmt.Errorf("no frames")
	}
	return c, nil
}

// readdress returns a copy of an Ethernet frame with both IPv4 addresses
// set to 127.a.b.c from k, and the IPv4, TCP and UDP checksums recomputed
// (over the captured bytes; a frame cut by the snap length keeps its
// checksum fields as they were recomputed over what there is).
func readdress(data []byte, k int) []byte {
	b := append([]byte(nil), data...)
	if len(b) < 14+20 || binary.BigEndian.Uint16(b[12:]) != 0x0800 {
		return b
	}
	ip := b[14:]
	ihl := int(ip[0]&0x0f) * 4
	if ip[0]>>4 != 4 || ihl < 20 || len(ip) < ihl {
		return b
	}
	addr := [4]byte{127, byte(k >> 16), byte(k >> 8), byte(k)}
	copy(ip[12:16], addr[:])
	copy(ip[16:20], addr[:])
	ip[10], ip[11] = 0, 0
	binary.BigEndian.PutUint16(ip[10:], ^sum(ip[:ihl], 0))
	total := int(binary.BigEndian.Uint16(ip[2:]))
	if total > len(ip) || total < ihl {
		total = len(ip)
	}
	if ip[6]&0x3f != 0 || ip[7] != 0 { // a fragment: no transport header to fix
		return b
	}
	seg := ip[ihl:total]
	var at int
	switch ip[9] {
	case 6:
		at = 16
	case 17:
		at = 6
	default:
		return b
	}
	if len(seg) < at+2 {
		return b
	}
	seg[at], seg[at+1] = 0, 0
	var ph uint32
	ph += uint32(binary.BigEndian.Uint16(ip[12:])) + uint32(binary.BigEndian.Uint16(ip[14:]))
	ph += uint32(binary.BigEndian.Uint16(ip[16:])) + uint32(binary.BigEndian.Uint16(ip[18:]))
	ph += uint32(ip[9]) + uint32(len(seg))
	c := ^sum(seg, ph)
	if ip[9] == 17 && c == 0 {
		c = 0xffff
	}
	binary.BigEndian.PutUint16(seg[at:], c)
	return b
}

// sum is the ones' complement sum of b (RFC 1071), starting from acc.
func sum(b []byte, acc uint32) uint16 {
	for len(b) >= 2 {
		acc += uint32(binary.BigEndian.Uint16(b))
		b = b[2:]
	}
	if len(b) == 1 {
		acc += uint32(b[0]) << 8
	}
	for acc>>16 != 0 {
		acc = acc&0xffff + acc>>16
	}
	return uint16(acc)
}

func captureInfo(at time.Time, caplen, orig int) gopacket.CaptureInfo {
	return gopacket.CaptureInfo{Timestamp: at, CaptureLength: caplen, Length: orig}
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}} {
		if strings.HasSuffix(s, u.suffix) {
			mult, s = u.m, strings.TrimSuffix(s, u.suffix)
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return n * mult, nil
}

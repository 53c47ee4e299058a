// Command floor is the "floor" of issue 5: the least work any pcap
// analyzer built on gopacket does, against which mcdissect is measured.
//
//	go run ./bench/floor -r capture.pcap
//
// It reads with pcapgo's ZeroCopyReadPacketData (through the same 64 KB
// bufio.Reader mcdissect reads with), decodes Ethernet, IPv4/IPv6, TCP and
// UDP with one gopacket.DecodingLayerParser, and feeds every TCP segment to
// gopacket/reassembly's Assembler (AssembleWithContext, packet timestamps)
// with a Stream that only counts the bytes it is given. Every -flush-every
// packets it closes connections idle for -timeout of packet time
// (FlushCloseOlderThan), as the reassembly example does, and at the end
// FlushAll. It prints packets, bytes, reassembled bytes and elapsed time.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
	"github.com/gopacket/gopacket/reassembly"
)

// context gives the assembler each packet's capture info.
type context struct{ ci gopacket.CaptureInfo }

func (c *context) GetCaptureInfo() gopacket.CaptureInfo { return c.ci }

type counts struct {
	streams, reassembled, complete int64
}

type factory struct{ c *counts }

func (f factory) New(_, _ gopacket.Flow, _ *layers.TCP, _ reassembly.AssemblerContext) reassembly.Stream {
	f.c.streams++
	return stream(f)
}

// stream counts bytes and keeps nothing.
type stream struct{ c *counts }

func (s stream) Accept(*layers.TCP, gopacket.CaptureInfo, reassembly.TCPFlowDirection, reassembly.Sequence, *bool, reassembly.AssemblerContext) bool {
	return true
}

func (s stream) ReassembledSG(sg reassembly.ScatterGather, _ reassembly.AssemblerContext) {
	n, _ := sg.Lengths()
	s.c.reassembled += int64(n)
}

func (s stream) ReassemblyComplete(reassembly.AssemblerContext) bool {
	s.c.complete++
	return true
}

func main() {
	file := flag.String("r", "", "pcap file to read (required)")
	every := flag.Int("flush-every", 10000, "packets between two FlushCloseOlderThan")
	timeout := flag.Duration("timeout", 2*time.Minute, "close connections idle this long in packet time")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	if *file == "" {
		fmt.Fprintln(os.Stderr, "usage: floor -r FILE [-flush-every N] [-timeout D]")
		os.Exit(2)
	}
	if *cpuprofile != "" {
		pf, err := os.Create(*cpuprofile)
		if err != nil {
			fatal(err)
		}
		pprof.StartCPUProfile(pf)
		defer pprof.StopCPUProfile()
	}
	t0 := time.Now()
	f, err := os.Open(*file)
	if err != nil {
		fatal(err)
	}
	defer f.Close()
	r, err := pcapgo.NewReader(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		fatal(err)
	}

	var (
		eth     layers.Ethernet
		ip4     layers.IPv4
		ip6     layers.IPv6
		tcp     layers.TCP
		udp     layers.UDP
		payload gopacket.Payload
		decoded = make([]gopacket.LayerType, 0, 8)
	)
	parser := gopacket.NewDecodingLayerParser(layers.LayerTypeEthernet, &eth, &ip4, &ip6, &tcp, &udp, &payload)
	parser.IgnoreUnsupported = true

	var c counts
	asm := reassembly.NewAssembler(reassembly.NewStreamPool(factory{&c}))
	var ctx context
	var packets, bytes, tcpSegs, udpDgrams int64
	for {
		data, ci, err := r.ZeroCopyReadPacketData()
		if err == io.EOF {
			break
		}
		if err != nil {
			fatal(err)
		}
		packets++
		bytes += int64(ci.Length)
		_ = parser.DecodeLayers(data, &decoded) // errors: layers we skip
		var netFlow gopacket.Flow
		for _, l := range decoded {
			switch l {
			case layers.LayerTypeIPv4:
				netFlow = ip4.NetworkFlow()
			case layers.LayerTypeIPv6:
				netFlow = ip6.NetworkFlow()
			case layers.LayerTypeUDP:
				udpDgrams++
			case layers.LayerTypeTCP:
				tcpSegs++
				ctx.ci = ci
				asm.AssembleWithContext(netFlow, &tcp, &ctx)
			}
		}
		if packets%int64(*every) == 0 {
			asm.FlushCloseOlderThan(ci.Timestamp.Add(-*timeout))
		}
	}
	closed := asm.FlushAll()
	el := time.Since(t0)
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	fmt.Printf("packets %d bytes %d tcp %d udp %d streams %d reassembled %d flushed-at-end %d elapsed %.3fs file %.0f MB/s\n",
		packets, bytes, tcpSegs, udpDgrams, c.streams, c.reassembled, closed, el.Seconds(), float64(size)/1e6/el.Seconds())
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "floor:", err)
	os.Exit(1)
}

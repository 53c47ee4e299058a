// Package capture is where packets come from: pcap and pcapng files (also
// gzip-compressed, and standard input) and live interfaces, behind one
// interface, Source. Each packet comes with its capture information
// (timestamp, lengths, interface) and its link type; what the packet holds
// is the business of the packages above (analyze). capture imports neither
// analyze nor cmd.
//
// Live capture on Linux, in the default build, is a memory-mapped
// TPACKET_V3 ring on an AF_PACKET socket (afpacket_linux.go; no cgo):
// kernel timestamps in nanoseconds, kernel drop counts, capture filters
// compiled to classic BPF by this package (filter.go). The default filter
// passes the protocols' ports and, on a port shared with other traffic
// (the Classic heartbeat's 80), only the connections of ours: an eBPF
// program keeps their table in the kernel (sharedfilter_linux.go,
// ebpf_linux.go), where eBPF can be loaded; with LiveOptions.Discover it
// also passes the first packets of every flow, and ports added while
// capturing (PortAdder). The libpcap build (-tags pcap,
// live_pcap.go) captures through libpcap instead, which also compiles the
// full tcpdump filter syntax, and passes shared ports whole.
package capture

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// Packet is one captured packet.
type Packet struct {
	// Data is the captured bytes, starting with the link-layer header. It
	// is valid until the next call to the Source's Next (it points into a
	// read buffer or the kernel's ring): copy what must outlive that.
	Data []byte
	// Info holds the timestamp (the kernel's for live captures), the
	// captured and original lengths, and the interface index (the pcapng
	// interface of a file; the kernel's ifindex of a live capture).
	Info     gopacket.CaptureInfo
	LinkType layers.LinkType
}

// Source yields packets.
type Source interface {
	// Next returns the next packet. It returns io.EOF at the end of a file
	// or after Stop or Close, and an error wrapping ErrCut when a file is
	// cut short or damaged after what could be read. Any other error is a
	// failure of a live capture (the interface went down, ...).
	Next() (Packet, error)
	// Stats returns the counters so far (see Stats). Safe to call from
	// any goroutine.
	Stats() Stats
	// Stop makes Next return io.EOF: a blocked Next returns promptly
	// (within 100 ms). Safe to call from any goroutine, more than once.
	Stop()
	// Close releases the source. Call it once Next has returned, not
	// concurrently with Next.
	Close() error
}

// Stats counts what a source saw.
type Stats struct {
	// Received: packets read from a file; for a live capture, the packets
	// the kernel accepted for this capture (those that passed the filter),
	// including those it then dropped.
	Received uint64
	// Dropped: packets the kernel accepted but had no room for in the
	// capture's buffer (-B makes it larger).
	Dropped uint64
	// IfDropped: packets the interface dropped before the kernel saw them
	// (its rx_dropped counter since the capture began), where known.
	IfDropped uint64
}

// MaxSnaplen bounds the buffer a capture's header can make us allocate: a
// hostile or broken header may claim a snap length of 4 GiB. It is also
// the default snap length of live captures, as in tcpdump.
const MaxSnaplen = 262144

// LinkTypeLinuxSLL2 is what `tcpdump -i any` writes since libpcap 1.10
// (LINKTYPE 276), and what live captures on "any" and on links without an
// Ethernet-like header are given.
const LinkTypeLinuxSLL2 = layers.LinkTypeLinuxSLL2

// ErrNotCapture is returned by OpenFile and OpenReader for input that is
// neither pcap nor pcapng.
var ErrNotCapture = errors.New("not a pcap or pcapng capture")

// ErrCut is wrapped by the error Next returns when a file ends in the
// middle of a packet or is damaged: what came before was read. When the
// file just ends early, the error also wraps io.ErrUnexpectedEOF.
var ErrCut = errors.New("capture file cut short or damaged")

type cutError struct{ err error }

func (e cutError) Error() string        { return e.err.Error() }
func (e cutError) Unwrap() error        { return e.err }
func (e cutError) Is(target error) bool { return target == ErrCut }

// cut marks a read error of a file: every one but io.EOF means the file
// ends, or stops making sense, after what was read.
func cut(err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	return cutError{err}
}

// readBuffer is the input's buffer: a packet record (16 bytes of header and
// at most MaxSnaplen of data) always fits, with room for many more. Half a
// MiB rather than one: what a read copies in is still in the core's cache
// when the packets are parsed (summary 0.43-0.47 s against 0.47-0.50).
const readBuffer = 512 << 10

// OpenFile opens a capture file: pcap (micro- or nanosecond, either byte
// order) or pcapng, gzip-compressed or not; "-" is standard input. An error
// opening the file is an *os.PathError.
func OpenFile(path string) (Source, error) {
	if path == "-" {
		return OpenReader(os.Stdin)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	s, err := openReader(f, f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

// OpenReader reads a capture from r, recognised by its first bytes (gzip
// is uncompressed on the way). Close does not close r.
func OpenReader(r io.Reader) (Source, error) { return openReader(r, nil) }

func openReader(r io.Reader, c io.Closer) (Source, error) {
	// The buffer holds a whole packet record of the largest snap length
	// we accept, so that pcap packets are handed out where they lie in it.
	br := bufio.NewReaderSize(r, readBuffer)
	if m, _ := br.Peek(2); len(m) == 2 && m[0] == 0x1f && m[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		br = bufio.NewReaderSize(zr, readBuffer)
	}
	return openRecords(br, c)
}

// fileBase is what every file source does besides reading its format.
// The count of packets read is published every 1024 packets and at the
// end, not at each: an atomic add per packet was measurable.
type fileBase struct {
	c       io.Closer
	n       uint64
	pub     atomic.Uint64
	stopped atomic.Bool
	done    bool
}

func (s *fileBase) count() {
	s.n++
	if s.n&1023 == 0 {
		s.pub.Store(s.n)
	}
}

// end ends the reading with err: io.EOF, or an error wrapping ErrCut.
func (s *fileBase) end(err error) error {
	s.done = true
	s.pub.Store(s.n)
	return cut(err)
}

// Stats counts the packets read; during the reading, to the last 1024.
func (s *fileBase) Stats() Stats { return Stats{Received: s.pub.Load()} }
func (s *fileBase) Stop()        { s.stopped.Store(true) }

func (s *fileBase) Close() error {
	s.done = true
	if s.c != nil {
		c := s.c
		s.c = nil
		return c.Close()
	}
	return nil
}

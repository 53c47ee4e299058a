package analyze

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
)

// MaxSnaplen bounds the buffer a capture's header can make us allocate: a
// hostile or broken header may claim a snap length of 4 GiB.
const MaxSnaplen = 262144

// Source yields packets; data is valid until the next call.
type Source interface {
	Next() (data []byte, ci gopacket.CaptureInfo, link layers.LinkType, err error)
}

// ErrNotCapture is returned by OpenFile for input that is neither pcap nor pcapng.
var ErrNotCapture = errors.New("not a pcap or pcapng capture")

// OpenFile recognises a pcap (micro- or nanosecond, either byte order) or
// pcapng stream by its first bytes.
func OpenFile(r io.Reader) (Source, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	magic, err := br.Peek(4)
	if err != nil {
		if len(magic) == 0 {
			return nil, fmt.Errorf("%w: the input is empty", ErrNotCapture)
		}
		return nil, fmt.Errorf("%w: only %d bytes", ErrNotCapture, len(magic))
	}
	switch binary.LittleEndian.Uint32(magic) {
	case 0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1:
		pr, err := pcapgo.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("pcap header: %w", err)
		}
		if s := pr.Snaplen(); s == 0 || s > MaxSnaplen {
			pr.SetSnaplen(MaxSnaplen)
		}
		return &pcapSource{r: pr, link: pr.LinkType()}, nil
	case 0x0a0d0d0a:
		nr, err := newNgReader(br)
		if err != nil {
			return nil, fmt.Errorf("pcapng section header: %w", err)
		}
		return nr, nil
	}
	return nil, fmt.Errorf("%w: it starts with % x", ErrNotCapture, magic)
}

type pcapSource struct {
	r    *pcapgo.Reader
	link layers.LinkType
}

func (s *pcapSource) Next() ([]byte, gopacket.CaptureInfo, layers.LinkType, error) {
	d, ci, err := s.r.ZeroCopyReadPacketData()
	return d, ci, s.link, err
}

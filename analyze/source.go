package analyze

import (
	"io"

	"github.com/mcdissect/mcdissect/capture"
)

// Source is where Run reads packets: a capture file or a live interface
// (package capture).
type Source = capture.Source

// MaxSnaplen is capture.MaxSnaplen.
const MaxSnaplen = capture.MaxSnaplen

// ErrNotCapture is capture.ErrNotCapture.
var ErrNotCapture = capture.ErrNotCapture

// OpenFile reads a pcap or pcapng capture from r: capture.OpenReader, kept
// for the tests and tools that read captures held in memory.
func OpenFile(r io.Reader) (Source, error) { return capture.OpenReader(r) }

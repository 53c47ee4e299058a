// Package save is -w: it writes the packets a run reads to pcapng, to one
// file or, with -b, a ring of files (capture/ringbuf). Without -Y every
// packet read is written as it is read (Tee). With -Y only the frames of
// matching PDUs are kept (every frame a reassembled PDU was built from, as
// tshark keeps the frames a filter selects), which is known only once the
// PDU completes: their numbers are collected during the run (Record) and
// copied from the input file in a second pass (Close).
package save

import (
	"fmt"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/capture"
	"github.com/mcdissect/mcdissect/capture/ringbuf"
	"github.com/mcdissect/mcdissect/record"
)

// Writer writes the packets of one run.
type Writer struct {
	path     string
	filtered bool
	w        *ringbuf.Writer
	frames   map[uint64]struct{}
	input    string
	err      error
}

// Open makes the writer of path. filtered says that only the frames of
// the records Record is given are written, copied from the file input.
func Open(path string, filtered bool, input string, o ringbuf.Options) (*Writer, error) {
	w, err := ringbuf.Open(path, o)
	if err != nil {
		return nil, fmt.Errorf("-w: %v", err)
	}
	return &Writer{path: path, filtered: filtered, w: w, frames: map[uint64]struct{}{}, input: input}, nil
}

// write appends one packet.
func (fw *Writer) write(data []byte, ci gopacket.CaptureInfo, link layers.LinkType) {
	if fw.err == nil {
		fw.err = fw.w.WritePacket(data, ci, link)
	}
}

type teeSource struct {
	capture.Source
	fw *Writer
}

func (t teeSource) Next() (capture.Packet, error) {
	p, err := t.Source.Next()
	if err == nil {
		t.fw.write(p.Data, p.Info, p.LinkType)
	}
	return p, err
}

// Tee makes src write every packet it yields, unless -Y chooses them.
func (fw *Writer) Tee(src capture.Source) capture.Source {
	if fw.filtered {
		return src
	}
	return teeSource{src, fw}
}

// Record notes the frames of a record that passed the filter. With
// Needs, a Writer reads the records shown (output.Reader).
func (fw *Writer) Record(r *record.Record) error {
	if !fw.filtered {
		return nil
	}
	fw.frames[r.Frame] = struct{}{}
	for _, p := range r.Parts {
		fw.frames[p.Frame] = struct{}{}
	}
	return nil
}

// Needs is what Record reads of a record: its frames, which every record
// carries.
func (fw *Writer) Needs() record.Needs { return record.Needs{} }

// Close writes the frames kept (a second pass over the input) and closes
// the file.
func (fw *Writer) Close() error {
	if fw.filtered && fw.err == nil {
		fw.copyKept()
	}
	if err := fw.w.Close(); err != nil && fw.err == nil {
		fw.err = err
	}
	if fw.err != nil {
		return fmt.Errorf("-w %s: %v", fw.path, fw.err)
	}
	return nil
}

func (fw *Writer) copyKept() {
	src, err := capture.OpenFile(fw.input)
	if err != nil {
		fw.err = err
		return
	}
	defer src.Close()
	for n := uint64(1); ; n++ {
		p, err := src.Next()
		if err != nil {
			return
		}
		if _, ok := fw.frames[n]; ok {
			fw.write(p.Data, p.Info, p.LinkType)
		}
	}
}

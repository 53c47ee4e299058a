package main

import (
	"fmt"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/capture"
	"github.com/mcdissect/mcdissect/capture/ringbuf"
	"github.com/mcdissect/mcdissect/record"
)

// frameWriter implements -w. Without -Y every packet read is written as it
// is read, to one file or, with -b, a ring of files (capture/ringbuf). With
// -Y only the frames of matching PDUs are kept (every frame a reassembled
// PDU was built from, as tshark keeps the frames a filter selects), which is
// known only once the PDU completes: their numbers are collected during the
// run and copied from the input file in a second pass.
type frameWriter struct {
	path     string
	filtered bool
	w        *ringbuf.Writer
	frames   map[uint64]struct{}
	input    string
	err      error
}

func newFrameWriter(path string, filtered bool, o ringbuf.Options) (*frameWriter, error) {
	w, err := ringbuf.Open(path, o)
	if err != nil {
		return nil, fmt.Errorf("-w: %v", err)
	}
	return &frameWriter{path: path, filtered: filtered, w: w, frames: map[uint64]struct{}{}}, nil
}

// write appends one packet.
func (fw *frameWriter) write(data []byte, ci gopacket.CaptureInfo, link layers.LinkType) {
	if fw.err == nil {
		fw.err = fw.w.WritePacket(data, ci, link)
	}
}

type teeSource struct {
	analyze.Source
	fw *frameWriter
}

func (t teeSource) Next() (capture.Packet, error) {
	p, err := t.Source.Next()
	if err == nil {
		t.fw.write(p.Data, p.Info, p.LinkType)
	}
	return p, err
}

// tee makes src write every packet it yields, unless -Y chooses them.
func (fw *frameWriter) tee(src analyze.Source) analyze.Source {
	if fw.filtered {
		return src
	}
	return teeSource{src, fw}
}

// keep notes the frames of a record that passed the filter.
func (fw *frameWriter) keep(r *record.Record) {
	if !fw.filtered {
		return
	}
	fw.frames[r.Frame] = struct{}{}
	for _, p := range r.Parts {
		fw.frames[p.Frame] = struct{}{}
	}
}

// setInput names the file the second pass reads.
func (fw *frameWriter) setInput(path string) { fw.input = path }

func (fw *frameWriter) close() error {
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

func (fw *frameWriter) copyKept() {
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

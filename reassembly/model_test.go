package reassembly

import (
	"cmp"
	"slices"
)

// streamModel is the reference FuzzReassembler holds the Reassembler to: a
// deliberately simple reassembler of one direction that keeps every
// segment it is given, whole, and sorts them by arrival to say what the
// stream is: the first copy of every byte and the frame that carried it.
type streamModel struct {
	segs []modelSeg
}

type modelSeg struct {
	frame uint64
	off   int
	data  []byte
}

func (m *streamModel) add(frame uint64, off int, data []byte) {
	m.segs = append(m.segs, modelSeg{frame: frame, off: off, data: data})
}

// stream returns, for each offset from base to end, the frame of the first
// copy of the byte there (0 when none came) and its value.
func (m *streamModel) stream(base, end int) (frames []uint64, vals []byte) {
	n := max(end-base, 0)
	frames, vals = make([]uint64, n), make([]byte, n)
	segs := slices.Clone(m.segs)
	slices.SortStableFunc(segs, func(a, b modelSeg) int { return cmp.Compare(a.frame, b.frame) })
	for _, s := range segs {
		for i, v := range s.data {
			if o := s.off + i - base; o >= 0 && o < n && frames[o] == 0 {
				frames[o], vals[o] = s.frame, v
			}
		}
	}
	return frames, vals
}

package render

import (
	"slices"

	"github.com/mcdissect/mcdissect/dissect"
)

// appendHexDump appends the PDU's bytes laid out by field: one block per
// leaf field, in offset order, each line giving the offset, up to 16 bytes
// in hex, the same bytes as ASCII, and the field's label on the block's
// first line, so that a learner can match every tree line to its bytes.
// Leaves cover every byte of a PDU (undissected bytes are leaves too), so
// the blocks together are the whole PDU, every byte of it, however long
// a field (a 1024-byte level chunk, a favicon), as tshark's -x shows every
// byte of a frame. hasChild is scratch space for the
// leaf marks, returned for reuse: no allocation per record.
func appendHexDump(dst []byte, p *dissect.PDU, o *Options, hasChild []bool) ([]byte, []bool) {
	hasChild = slices.Grow(hasChild[:0], len(p.Nodes))[:len(p.Nodes)]
	clear(hasChild)
	for i := 1; i < len(p.Nodes); i++ {
		n := &p.Nodes[i]
		if n.Flags&dissect.FlagGenerated == 0 && n.Parent >= 0 {
			hasChild[n.Parent] = true
		}
	}
	for i := range p.Nodes {
		n := &p.Nodes[i]
		if hasChild[i] || n.Flags&dissect.FlagGenerated != 0 || n.Length == 0 && i > 0 {
			continue
		}
		b := p.Data[n.Offset : n.Offset+n.Length]
		mask := redacted(o, n)
		for off := 0; off < len(b) || off == 0; off += 16 {
			chunk := b[off:min(off+16, len(b))]
			dst = appendOffset(dst, int(n.Offset)+off)
			dst = append(dst, "  "...)
			for j := 0; j < 16; j++ {
				switch {
				case j >= len(chunk):
					dst = append(dst, "   "...)
				case mask:
					dst = append(dst, "** "...)
				default:
					dst = append(dst, hexDigits[chunk[j]>>4], hexDigits[chunk[j]&15], ' ')
				}
			}
			dst = append(dst, ' ')
			for j := 0; j < 16; j++ {
				switch {
				case j >= len(chunk):
					dst = append(dst, ' ')
				case mask:
					dst = append(dst, '*')
				case chunk[j] >= 0x20 && chunk[j] < 0x7f:
					dst = append(dst, chunk[j])
				default:
					dst = append(dst, '.')
				}
			}
			if off == 0 {
				dst = append(dst, "  "...)
				dst = append(dst, n.Field.Name...) // n.Name(), without its string
				if n.Key != "" {
					dst = append(append(dst, '.'), n.Key...)
				}
			}
			dst = append(dst, '\n')
			if len(b) == 0 {
				break
			}
		}
	}
	return dst, hasChild
}

const hexDigits = "0123456789abcdef"

func appendOffset(dst []byte, off int) []byte {
	return append(dst, hexDigits[off>>12&15], hexDigits[off>>8&15], hexDigits[off>>4&15], hexDigits[off&15])
}

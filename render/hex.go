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
// byte of a frame. The leaf marks are kept in t.leaves for the next
// record: no allocation per record. A leaf of megabytes (an inflated
// chunk) is megabytes of lines: they are cut into pieces every few lines.
func (t *textRenderer) appendHexDump(dst []byte, p *dissect.PDU) []byte {
	hasChild := slices.Grow(t.leaves[:0], len(p.Nodes))[:len(p.Nodes)]
	t.leaves = hasChild
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
		mask := redacted(&t.o, n)
		for off := 0; off < len(b) || off == 0; off += 16 {
			if off&(hexCutLines*16-1) == 0 {
				dst = t.cut(dst)
			}
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
	return dst
}

// hexCutLines is how many lines of a leaf's block are written between two
// chances to cut (a power of two): some 2.5 KB, so a 64 KiB piece passes
// its size by that at most.
const hexCutLines = 32

const hexDigits = "0123456789abcdef"

func appendOffset(dst []byte, off int) []byte {
	return append(dst, hexDigits[off>>12&15], hexDigits[off>>8&15], hexDigits[off>>4&15], hexDigits[off&15])
}

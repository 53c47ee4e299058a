package render

import (
	"bufio"
	"slices"
	"strconv"
	"time"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/dissect"
)

type textRenderer struct {
	w     *bufio.Writer
	o     Options
	line  []byte
	depth []int // scratch for appendTree
	clock stampCache
}

func (t *textRenderer) Begin() error { return nil }
func (t *textRenderer) End() error   { return t.w.Flush() }

func (t *textRenderer) Record(r *analyze.Record) error {
	t.line = t.Append(t.line[:0], r, false)
	_, err := t.w.Write(t.line)
	return err
}

func (t *textRenderer) Append(dst []byte, r *analyze.Record, _ bool) []byte {
	dst = AppendSummary(dst, r)
	dst = append(dst, '\n')
	if t.o.Verbose {
		dst = appendHeader(dst, r, &t.clock)
		dst, t.depth = appendTree(dst, r, &t.o, t.depth)
	}
	if t.o.Hex {
		dst = AppendHexDump(dst, &r.PDU, &t.o)
	}
	if t.o.Verbose || t.o.Hex {
		dst = append(dst, '\n')
	}
	return dst
}

func (t *textRenderer) Raw(b []byte, _ int) error {
	_, err := t.w.Write(b)
	return err
}

// AppendSummary appends tshark's one-line summary: number, relative time,
// source → destination, protocol, info.
func AppendSummary(dst []byte, r *analyze.Record) []byte {
	var num [32]byte // on the stack: the summary path allocates nothing
	dst = padLeft(dst, strconv.AppendUint(num[:0], r.Frame, 10), 5)
	dst = append(dst, ' ')
	dst = padLeft(dst, appendSeconds(num[:0], r.Rel), 11)
	dst = append(dst, ' ')
	dst = r.Src.AppendTo(dst)
	dst = append(dst, " → "...)
	dst = r.Dst.AppendTo(dst)
	dst = append(dst, ' ')
	dst = append(dst, r.ProtoColumn()...)
	dst = append(dst, ' ')
	dst = dissect.AppendSafe(dst, r.PDU.Info)
	return dst
}

// appendSeconds appends d in seconds with six decimals, rounded to the
// nearest microsecond, as %.6f would print d.Seconds(), but in integers:
// formatting a float per line was a third of the summary's cost.
func appendSeconds(dst []byte, d time.Duration) []byte {
	us := int64(d)
	neg := us < 0
	if neg {
		us = -us
	}
	us = (us + 500) / 1000
	if neg && us != 0 {
		dst = append(dst, '-')
	}
	dst = strconv.AppendInt(dst, us/1e6, 10)
	frac := us % 1e6
	var b [7]byte
	b[0] = '.'
	for i := 6; i >= 1; i-- {
		b[i] = byte('0' + frac%10)
		frac /= 10
	}
	return append(dst, b[:]...)
}

func padLeft(dst, s []byte, w int) []byte {
	for i := len(s); i < w; i++ {
		dst = append(dst, ' ')
	}
	return append(dst, s...)
}

// appendHeader appends the record's frame line and, for reassembled PDUs,
// the frames they came from, as tshark shows them.
func appendHeader(dst []byte, r *analyze.Record, clock *stampCache) []byte {
	dst = append(dst, "Frame "...)
	dst = strconv.AppendUint(dst, r.Frame, 10)
	dst = append(dst, ": "...)
	dst = clock.appendStamp(dst, r.Time)
	dst = append(dst, " UTC"...)
	if r.TCP {
		dst = append(dst, ", TCP stream "...)
		dst = strconv.AppendInt(dst, int64(r.Stream), 10)
	} else {
		dst = append(dst, ", UDP"...)
	}
	dst = append(dst, ", "...)
	switch r.PDU.Dir {
	case dissect.DirC2S:
		dst = append(dst, "client → server"...)
	case dissect.DirS2C:
		dst = append(dst, "server → client"...)
	default:
		dst = append(dst, "direction unknown"...)
	}
	dst = append(dst, '\n')
	if len(r.Parts) > 1 || r.TCP && len(r.Parts) == 1 && r.Parts[0].Frame != r.Frame {
		total := 0
		for _, p := range r.Parts {
			total += p.Bytes
		}
		dst = append(dst, '[')
		dst = strconv.AppendInt(dst, int64(len(r.Parts)), 10)
		plural := "s"
		if len(r.Parts) == 1 {
			plural = ""
		}
		if r.TCP {
			dst = append(dst, " reassembled TCP segment"...)
		} else {
			dst = append(dst, " IPv4 fragment"...)
		}
		dst = append(dst, plural...)
		dst = append(dst, " ("...)
		dst = strconv.AppendInt(dst, int64(total), 10)
		dst = append(dst, " bytes): "...)
		for i, p := range r.Parts {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = append(dst, '#')
			dst = strconv.AppendUint(dst, p.Frame, 10)
			dst = append(dst, '(')
			dst = strconv.AppendInt(dst, int64(p.Bytes), 10)
			dst = append(dst, ')')
		}
		dst = append(dst, "]\n"...)
	}
	return dst
}

// appendTree appends the tree, four spaces a level, each line with its
// byte range, generated items in brackets and expert items under the node
// they concern. depth is scratch space, reused across records.
func appendTree(dst []byte, r *analyze.Record, o *Options, depth []int) ([]byte, []int) {
	p := &r.PDU
	depth = slices.Grow(depth[:0], len(p.Nodes))[:len(p.Nodes)]
	for i := range p.Nodes {
		n := &p.Nodes[i]
		depth[i] = 0
		if n.Parent >= 0 {
			depth[i] = depth[n.Parent] + 1
		}
		dst = appendIndent(dst, depth[i])
		dst = AppendNodeLine(dst, n, o)
		dst = append(dst, '\n')
		for _, e := range p.Experts {
			if int(e.Node) == i {
				dst = appendIndent(dst, depth[i]+1)
				dst = AppendExpert(dst, &e)
				dst = append(dst, '\n')
			}
		}
	}
	return dst, depth
}

func appendIndent(dst []byte, d int) []byte {
	for ; d > 0; d-- {
		dst = append(dst, "    "...)
	}
	return dst
}

// AppendNodeLine appends one tree line: "Label: value [off 3, len 4]".
func AppendNodeLine(dst []byte, n *dissect.Node, o *Options) []byte {
	gen := n.Flags&dissect.FlagGenerated != 0
	if gen {
		dst = append(dst, '[')
	}
	dst = append(dst, n.Field.Label...)
	if n.Key != "" {
		dst = append(dst, " \""...)
		dst = dissect.AppendSafe(dst, n.Key)
		dst = append(dst, '"')
	}
	if n.Field.Type != dissect.FTNone && n.Field.Type != dissect.FTProtocol || n.Text != "" {
		dst = append(dst, ": "...)
		if redacted(o, n) {
			dst = append(dst, redactedText...)
		} else {
			dst = dissect.AppendValue(dst, n)
		}
	}
	if n.Flags&dissect.FlagLittleEndian != 0 {
		dst = append(dst, " (little-endian)"...)
	}
	if gen {
		dst = append(dst, ']')
	} else {
		dst = append(dst, " [off "...)
		dst = strconv.AppendInt(dst, int64(n.Offset), 10)
		dst = append(dst, ", len "...)
		dst = strconv.AppendInt(dst, int64(n.Length), 10)
		dst = append(dst, ']')
	}
	if n.Flags&dissect.FlagTruncated != 0 {
		dst = append(dst, " [truncated]"...)
	}
	if n.Flags&dissect.FlagMalformed != 0 {
		dst = append(dst, " [malformed]"...)
	}
	return dst
}

// AppendExpert appends "[Expert Info (Warning/mc.truncated): message]".
func AppendExpert(dst []byte, e *dissect.ExpertItem) []byte {
	dst = append(dst, "[Expert Info ("...)
	s := e.Info.Severity.String()
	dst = append(dst, s[0]-'a'+'A')
	dst = append(dst, s[1:]...)
	dst = append(dst, '/')
	dst = append(dst, e.Info.Name...)
	dst = append(dst, "): "...)
	dst = dissect.AppendSafe(dst, e.Msg)
	return append(dst, ']')
}

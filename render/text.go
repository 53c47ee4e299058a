package render

import (
	"slices"
	"strings"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"
)

type textRenderer struct {
	batchWriter
	o      Options
	depth  []int // scratch for appendTree
	exps   expertsByNode
	leaves []bool // and for appendHexDump
	heads  lineHeads
	// explained[id] == gen when the field of that ID was explained in the
	// record being written (--explain explains a field once a record).
	explained []uint32
	gen       uint32
	scratch   []byte // for colourise
}

func (t *textRenderer) Begin() error { return nil }
func (t *textRenderer) End() error   { return t.Flush() }

// Record formats r into the renderer's buffer, in pieces (batchWriter).
func (t *textRenderer) Record(r *record.Record) error {
	return t.done(t.Append(t.begin(), r, false))
}

func (t *textRenderer) Append(dst []byte, r *record.Record, _ bool) []byte {
	if t.o.Colour || t.o.Time != "" {
		dst = t.appendSummaryStyled(dst, r)
	} else {
		dst = appendSummary(dst, r)
	}
	dst = append(dst, '\n')
	if t.o.Verbose {
		dst = t.appendLayers(dst, r)
		dst = t.appendTree(dst, r)
	}
	if t.o.Hex {
		dst = t.appendHexDump(dst, &r.PDU)
	}
	if t.o.Verbose || t.o.Hex {
		dst = append(dst, '\n')
	}
	return dst
}

func (t *textRenderer) Raw(b []byte, _ int) error { return t.raw(b) }

// AppendSummary appends tshark's one-line summary: number, relative time,
// source → destination, protocol, info.
func AppendSummary(dst []byte, r *record.Record) []byte { return appendSummary(dst, r) }

// appendSummary is AppendSummary. The addresses are formatted for each
// line, not looked up by address pair: such a table misses the CPU's
// caches where clients send few packets each (Query, SLP pings), and
// costs as much as the formatting elsewhere.
func appendSummary(dst []byte, r *record.Record) []byte {
	var num [32]byte // on the stack: the summary path allocates nothing
	dst = padLeft(dst, dissect.AppendUint(num[:0], r.Frame), 5)
	dst = append(dst, ' ')
	dst = padLeft(dst, appendSeconds(num[:0], r.Rel), 11)
	dst = append(dst, ' ')
	dst = appendSummaryPair(dst, r)
	return dissect.AppendSafe(dst, r.PDU.Info)
}

// appendSummaryPair appends the columns between the time and the info:
// addresses and protocol.
func appendSummaryPair(dst []byte, r *record.Record) []byte {
	dst = appendSummaryAddrs(dst, r)
	dst = append(dst, ' ')
	dst = append(dst, protocols.Column(r.Proto)...)
	return append(dst, ' ')
}

// appendSummaryAddrs appends the summary's source → destination.
func appendSummaryAddrs(dst []byte, r *record.Record) []byte {
	if r.Proto == "icmp" || r.Proto == "icmpv6" {
		// ICMP has no ports: its records carry the addresses alone.
		dst = r.Src.Addr().Unmap().AppendTo(dst)
		dst = append(dst, " → "...)
		return r.Dst.Addr().Unmap().AppendTo(dst)
	}
	dst = appendAddrPort(dst, r.Src)
	dst = append(dst, " → "...)
	return appendAddrPort(dst, r.Dst)
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
	dst = dissect.AppendInt(dst, us/1e6)
	dst = append(dst, '.')
	return dissect.AppendUintPad(dst, uint64(us%1e6), 6)
}

func padLeft(dst, s []byte, w int) []byte {
	if n := w - len(s); n > 0 {
		dst = appendSpaces(dst, n)
	}
	return append(dst, s...)
}

// appendTree appends the tree, four spaces a level, each line with its
// byte range, generated items in brackets and expert items under the node
// they concern.
func (t *textRenderer) appendTree(dst []byte, r *record.Record) []byte {
	p := &r.PDU
	depth := slices.Grow(t.depth[:0], len(p.Nodes))[:len(p.Nodes)]
	t.depth = depth
	if t.gen++; t.gen == 0 { // wrapped: no stale mark may match
		clear(t.explained)
		t.gen = 1
	}
	shown := t.treeShown(r)
	t.exps.index(p)
	for i := range p.Nodes {
		dst = t.cut(dst)
		n := &p.Nodes[i]
		d := 0
		if n.Parent >= 0 {
			d = depth[n.Parent] + 1
		}
		depth[i] = d
		if !shown && d > 0 {
			continue
		}
		if t.o.Colour {
			dst = t.appendNodeColour(dst, n, d)
		} else {
			dst = t.heads.append(dst, n, d)
			dst = appendNodeTail(dst, n, &t.o)
		}
		dst = append(dst, '\n')
		if t.o.Explain {
			dst = t.appendExplain(dst, p, n, d+1)
		}
		for _, k := range t.exps.at(i) {
			e := &p.Experts[k]
			dst = appendIndent(dst, d+1)
			if t.o.Colour {
				dst = append(dst, sgrSeverity(e.Info.Severity)...)
				dst = AppendExpert(dst, e)
				dst = append(dst, sgrReset...)
			} else {
				dst = AppendExpert(dst, e)
			}
			dst = append(dst, '\n')
		}
	}
	return dst
}

// explainWidth is the column explanations are wrapped at.
const explainWidth = 100

// appendExplain appends, under a node's line, its field's explanation
// ("| " lines, word-wrapped, the first time the field shows in the record:
// a list of 300 players is explained once) and the arithmetic of its bytes
// ("= " line, every time, unless --redact masks the node).
func (t *textRenderer) appendExplain(dst []byte, p *dissect.PDU, n *dissect.Node, d int) []byte {
	f := n.Field
	if id := f.ID(); f.Desc != "" && id > 0 {
		if id >= len(t.explained) {
			t.explained = slices.Grow(t.explained, id+1-len(t.explained))[:id+1]
		}
		if t.explained[id] != t.gen {
			t.explained[id] = t.gen
			dst = appendWrapped(dst, f.Desc, d, "| ")
		}
	}
	if f.Worked != nil && !redacted(&t.o, n) {
		start := len(dst)
		dst = appendIndent(dst, d)
		dst = append(dst, "= "...)
		mark := len(dst)
		dst = f.Worked(dst, p, n)
		if len(dst) == mark {
			return dst[:start]
		}
		dst = append(dst, '\n')
	}
	return dst
}

// appendWrapped appends text as lines of at most explainWidth columns
// (a longer word overflows), each indented d levels and prefixed.
func appendWrapped(dst []byte, text string, d int, prefix string) []byte {
	room := explainWidth - 4*d - len(prefix)
	for text != "" {
		cut, cols, space := len(text), 0, -1
		for i, r := range text {
			if r == ' ' {
				space = i
			}
			if cols++; cols > room {
				if space > 0 {
					cut = space
				} else if j := strings.IndexByte(text[i:], ' '); j >= 0 {
					cut = i + j
				}
				break
			}
		}
		dst = appendIndent(dst, d)
		dst = append(dst, prefix...)
		dst = append(dst, text[:cut]...)
		dst = append(dst, '\n')
		text = strings.TrimLeft(text[cut:], " ")
	}
	return dst
}

func appendIndent(dst []byte, d int) []byte { return appendSpaces(dst, 4*d) }

// spaces is the most appendSpaces writes in one copy.
const spaces = "                                                                "

func appendSpaces(b []byte, n int) []byte {
	for ; n > len(spaces); n -= len(spaces) {
		b = append(b, spaces...)
	}
	return append(b, spaces[:n]...)
}

// hasValue reports whether n's line shows a value after a colon.
func hasValue(n *dissect.Node) bool {
	return n.Field.Type != dissect.FTNone && n.Field.Type != dissect.FTProtocol || n.Text != ""
}

// appendNodeHead appends a line's start, all of it the same for every
// node of a field but for the key: '[' for a generated node, the label,
// the key and ": " before a value.
func appendNodeHead(dst []byte, n *dissect.Node) []byte {
	if n.Flags&dissect.FlagGenerated != 0 {
		dst = append(dst, '[')
	}
	dst = append(dst, n.Field.Label...)
	if n.Key != "" {
		dst = append(dst, " \""...)
		dst = dissect.AppendSafe(dst, n.Key)
		dst = append(dst, '"')
	}
	if hasValue(n) {
		dst = append(dst, ": "...)
	}
	return dst
}

// appendNodeTail appends the rest of the line: value, byte range, flags.
func appendNodeTail(dst []byte, n *dissect.Node, o *Options) []byte {
	if hasValue(n) {
		if redacted(o, n) {
			dst = append(dst, redactedText...)
		} else {
			dst = dissect.AppendValue(dst, n)
		}
	}
	if n.Flags&dissect.FlagLittleEndian != 0 {
		dst = append(dst, " (little-endian)"...)
	}
	if n.Flags&dissect.FlagGenerated != 0 {
		dst = append(dst, ']')
	} else {
		dst = appendRange(dst, n.Offset, n.Length)
	}
	if n.Flags&dissect.FlagTruncated != 0 {
		dst = append(dst, " [truncated]"...)
	}
	if n.Flags&dissect.FlagMalformed != 0 {
		dst = append(dst, " [malformed]"...)
	}
	return dst
}

// appendRange appends a line's byte range, " [off N, len M]".
func appendRange(dst []byte, off, n int32) []byte {
	// Byte by byte: the bytes are constants that the compiler stores
	// directly, where a string would cost a copy call for six bytes.
	dst = append(dst, ' ', '[', 'o', 'f', 'f', ' ')
	dst = dissect.AppendInt(dst, int64(off))
	dst = append(dst, ',', ' ', 'l', 'e', 'n', ' ')
	dst = dissect.AppendInt(dst, int64(n))
	return append(dst, ']')
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

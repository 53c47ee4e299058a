package render

import (
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// fieldsRenderer writes one line per record with the -e fields, separated
// by tabs (or -E separator), repeated occurrences joined by commas (or -E
// aggregator). Numbers print in decimal, text escaped, bytes in hex. A
// field of 200,000 occurrences is one line of megabytes: Record cuts it
// into pieces between occurrences (batchWriter).
type fieldsRenderer struct {
	batchWriter
	o      Options
	quoted [256]string // the quote character's escape, doubled (doubleQuotes)
}

func (f *fieldsRenderer) Begin() error {
	if !f.o.Header {
		return nil
	}
	b := f.buf
	for i, fr := range f.o.Fields {
		if i > 0 {
			b = append(b, f.o.Separator...)
		}
		b = f.openQuote(b)
		mark := len(b)
		b = append(b, fr.Name...)
		b = f.closeQuote(b, mark)
	}
	f.buf = append(b, '\n')
	return f.spill()
}

func (f *fieldsRenderer) End() error { return f.Flush() }

// Record formats r into the renderer's buffer, in pieces (batchWriter).
func (f *fieldsRenderer) Record(r *record.Record) error {
	return f.done(f.Append(f.begin(), r, false))
}

func (f *fieldsRenderer) Raw(b []byte, _ int) error { return f.raw(b) }

func (f *fieldsRenderer) Append(b []byte, r *record.Record, _ bool) []byte {
	for i, fr := range f.o.Fields {
		if i > 0 {
			b = append(b, f.o.Separator...)
		}
		b = f.openQuote(b)
		count := 0
		if c := columnOf(fr); c != 0 { // columns.go
			start := len(b)
			b = appendColumn(b, r, c, f.o.Time)
			b = f.closeQuote(b, start)
			continue
		}
		want := f.o.OccurrenceN
		if want == 0 && f.o.Occurrence == 'l' {
			want = -1 // the last: found by counting, so nothing written is taken back
		}
		if want < 0 { // counted from the last
			total := 0
			fr.Each(r, func(*dissect.Node) { total++ })
			want += total + 1
			if want <= 0 {
				want = -1 // before the first: none
			}
		}
		seen := 0
		fr.Each(r, func(n *dissect.Node) {
			seen++
			if f.o.Occurrence == 'f' && count > 0 || want != 0 && seen != want {
				return
			}
			b = f.cut(b) // between occurrences: nothing before is needed again
			mark := len(b)
			if count > 0 {
				b = append(b, f.o.Aggregator...)
			}
			count++
			switch {
			case redacted(&f.o, n):
				b = append(b, redactedText...)
			case n.Field.Type == dissect.FTBytes:
				// AppendRaw's hex, with no quote in it, and cut.
				b = f.doubleQuotes(b, mark)
				b = f.appendHex(b, n.Value.B, ':')
				return
			default:
				b = AppendRaw(b, n)
			}
			b = f.doubleQuotes(b, mark)
		})
		b = f.closeQuote(b, len(b))
	}
	return append(b, '\n')
}

// openQuote opens a field's value in the -E quote character, if any.
func (f *fieldsRenderer) openQuote(b []byte) []byte {
	if f.o.Quote == 0 {
		return b
	}
	return append(b, f.o.Quote)
}

// closeQuote doubles the quote character in b[mark:], the rest of the
// value, and closes the value in it, if there is one.
func (f *fieldsRenderer) closeQuote(b []byte, mark int) []byte {
	if f.o.Quote == 0 {
		return b
	}
	return append(f.doubleQuotes(b, mark), f.o.Quote)
}

// doubleQuotes doubles each -E quote character in b[mark:], as CSV does
// inside a quoted value: a value is quoted a piece at a time, so that a
// piece can be written before the value ends.
func (f *fieldsRenderer) doubleQuotes(b []byte, mark int) []byte {
	q := f.o.Quote
	if q == 0 {
		return b
	}
	if f.quoted[q] == "" {
		f.quoted[q] = string([]byte{q, q})
	}
	return escapeTail(b, mark, &f.quoted)
}

// AppendRaw appends a node's value as -T fields shows it: the number itself
// in decimal (in hex, 0x and as many digits as the field's width, for a
// field whose base is hex), True/False, text escaped but unquoted, bytes
// in hex with colons, like tshark.
func AppendRaw(b []byte, n *dissect.Node) []byte {
	v := n.Value
	switch n.Field.Type {
	case dissect.FTUint, dissect.FTFrameNum:
		if base := n.Field.Base; base == dissect.BaseHex || base == dissect.BaseHexDec {
			// As tshark prints a BASE_HEX field: 0x and the digits of
			// the field's width (tcp.flags 0x0018, query.session_id
			// 0x01010101), the value names left out.
			w := int(n.Length)
			if w == 0 || n.Flags&dissect.FlagGenerated != 0 {
				w = n.Field.Width
			}
			return dissect.AppendHexNum(b, v.N, w)
		}
		return dissect.AppendUint(b, v.N)
	case dissect.FTInt:
		return dissect.AppendInt(b, v.Int())
	case dissect.FTFloat:
		if len(v.B) > 0 { // dissect.FExact
			return append(b, v.B...)
		}
		return strconv.AppendFloat(b, v.Float(), 'f', -1, 64)
	case dissect.FTBool:
		if v.Bool() {
			return append(b, "True"...)
		}
		return append(b, "False"...)
	case dissect.FTString:
		return dissect.AppendSafe(b, v.View())
	case dissect.FTBytes:
		return appendHexSep(b, v.B, ':')
	case dissect.FTAbsTime:
		return dissect.AppendAbsTime(b, v.Time())
	case dissect.FTProtocol:
		return append(b, n.Field.Name...)
	}
	if n.Text != "" {
		return dissect.AppendSafe(b, n.Text)
	}
	return b
}

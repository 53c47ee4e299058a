package render

import (
	"bufio"
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// fieldsRenderer writes one line per record with the -e fields, separated
// by tabs (or -E separator), repeated occurrences joined by commas (or -E
// aggregator). Numbers print in decimal, text escaped, bytes in hex.
type fieldsRenderer struct {
	w    *bufio.Writer
	o    Options
	line []byte
}

func (f *fieldsRenderer) Begin() error {
	if !f.o.Header {
		return nil
	}
	var b []byte
	for i, fr := range f.o.Fields {
		if i > 0 {
			b = append(b, f.o.Separator...)
		}
		start := len(b)
		b = append(b, fr.Name...)
		b = f.quote(b, start)
	}
	b = append(b, '\n')
	_, err := f.w.Write(b)
	return err
}

func (f *fieldsRenderer) End() error { return f.w.Flush() }

func (f *fieldsRenderer) Record(r *record.Record) error {
	f.line = f.Append(f.line[:0], r, false)
	_, err := f.w.Write(f.line)
	return err
}

func (f *fieldsRenderer) Raw(b []byte, _ int) error {
	_, err := f.w.Write(b)
	return err
}

func (f *fieldsRenderer) Append(b []byte, r *record.Record, _ bool) []byte {
	for i, fr := range f.o.Fields {
		if i > 0 {
			b = append(b, f.o.Separator...)
		}
		start, count := len(b), 0
		if c := columnOf(fr); c != 0 { // columns.go
			b = appendColumn(b, r, c, f.o.Time)
			b = f.quote(b, start)
			continue
		}
		want := f.o.OccurrenceN
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
			switch {
			case f.o.Occurrence == 'f' && count > 0, want != 0 && seen != want:
				return
			case f.o.Occurrence == 'l':
				b = b[:start]
				count = 0
			}
			if count > 0 {
				b = append(b, f.o.Aggregator...)
			}
			count++
			if redacted(&f.o, n) {
				b = append(b, redactedText...)
				return
			}
			b = AppendRaw(b, n)
		})
		b = f.quote(b, start)
	}
	return append(b, '\n')
}

// quote wraps b[start:] in the -E quote character, doubling any inside.
func (f *fieldsRenderer) quote(b []byte, start int) []byte {
	q := f.o.Quote
	if q == 0 {
		return b
	}
	inner := 0
	for _, c := range b[start:] {
		if c == q {
			inner++
		}
	}
	n := len(b) - start
	b = append(b, make([]byte, inner+2)...)
	// Move the value right, from its end, doubling quotes on the way.
	w := len(b) - 1
	b[w] = q
	w--
	for r := start + n - 1; r >= start; r-- {
		b[w] = b[r]
		w--
		if b[r] == q {
			b[w] = q
			w--
		}
	}
	b[w] = q
	return b
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
		for i, c := range v.B {
			if i > 0 {
				b = append(b, ':')
			}
			b = append(b, hexDigits[c>>4], hexDigits[c&15])
		}
		return b
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

func (f *fieldsRenderer) Flush() error { return f.w.Flush() }

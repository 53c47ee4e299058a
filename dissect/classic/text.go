package classic

import (
	"math"
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
)

func float32frombits(v uint32) float32 { return math.Float32frombits(v) }

func isColorDigit(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F'
}

func colorIndex(b byte) int {
	switch {
	case b >= '0' && b <= '9':
		return int(b - '0')
	case b >= 'a' && b <= 'f':
		return int(b-'a') + 10
	case b >= 'A' && b <= 'F':
		return int(b-'A') + 10
	}
	return -1
}

// stripColors appends b without its &-colour codes to dst.
func stripColors(dst, b []byte) []byte {
	for i := 0; i < len(b); i++ {
		if b[i] == '&' && i+1 < len(b) && isColorDigit(b[i+1]) {
			i++
			continue
		}
		dst = append(dst, b[i])
	}
	return dst
}

// appendQuote is strconv.AppendQuote for bytes: printable ASCII, the text
// of nearly every string field, is quoted here without making a string of
// it; anything else goes through strconv.
func appendQuote(dst, b []byte) []byte {
	if !printable(b) {
		return strconv.AppendQuote(dst, string(b))
	}
	return appendQuotedASCII(dst, b)
}

// appendQuoted is dissect.AppendQuoted for bytes, the same way.
func appendQuoted(dst, b []byte) []byte {
	if !printable(b) {
		return dissect.AppendQuoted(dst, string(b))
	}
	return appendQuotedASCII(dst, b)
}

func printable(b []byte) bool {
	for _, ch := range b {
		if ch < 0x20 || ch >= 0x7f {
			return false
		}
	}
	return true
}

// appendQuotedASCII quotes printable ASCII as strconv.AppendQuote and
// dissect.AppendQuoted both do: only quotes and backslashes are escaped.
func appendQuotedASCII(dst, b []byte) []byte {
	dst = append(dst, '"')
	for _, ch := range b {
		if ch == '"' || ch == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, ch)
	}
	return append(dst, '"')
}

// padTexts are the padding nodes' texts by padding length, made once:
// nearly every string field has some.
var padTexts = func() (t [2][65]string) {
	for n := 1; n <= 64; n++ {
		t[0][n] = strconv.Itoa(n) + " bytes of space (0x20) padding"
		t[1][n] = strconv.Itoa(n) + " bytes of padding (spaces and NULs)"
	}
	return
}()

// str reads a 64-byte string: the node's value is the text without its
// padding (without colour codes too when strip is set, as classic.message
// is); its children are the text, split into colour runs when it has colour
// codes, and the padding. It returns the value's bytes: the wire's, or
// stripped ones that are the decoder's only until the next packet.
func (d *dec) str(f *dissect.Field, strip bool) ([]byte, int32) {
	c := &d.c
	if c.Failed() || c.Remaining() < 64 {
		if c.Failed() || !c.P.Cut() {
			c.Field(f, 64, dissect.Value{})
			return nil, -1
		}
		return d.cutStr(f, strip), -1
	}
	raw := c.Peek(64)
	base := c.Off()
	n := 64
	for n > 0 && (raw[n-1] == ' ' || raw[n-1] == 0) {
		n--
	}
	text := raw[:n:n]
	hasColor := false
	for i := 0; i+1 < n; i++ {
		if text[i] == '&' && isColorDigit(text[i+1]) {
			hasColor = true
			break
		}
	}
	value := text
	plainA, plainB := -1, -1 // the stripped text in d.out, when made
	node := c.Open(f, 64)
	p := d.pdu()
	// The value is the wire's bytes, & codes included (shown like a
	// string); the stripped text, made with the packet's other texts, is
	// the .plain child's (the one MOTD rule, dissect/motd.go) and, with
	// strip, the Info's.
	p.SetValue(node, dissect.B(text))
	if hasColor {
		if strip || plainOf[f] != nil {
			a := len(d.out)
			d.out = stripColors(d.out, text)
			plainA, plainB = a, len(d.out)
			if strip {
				value = d.out[a:]
			}
		}
		d.colorRuns(text)
	} else if n > 0 {
		c.Field(FieldText, n, dissect.B(text))
	}
	if n < 64 {
		pad := raw[n:]
		i := c.Field(FieldPadding, 64-n, dissect.B(pad))
		p.SetTextFunc(i, func() string {
			for _, b := range pad {
				if b != ' ' {
					return padTexts[1][64-n]
				}
			}
			return padTexts[0][64-n]
		})
	}
	c.Close()
	if pf := plainOf[f]; pf != nil {
		d.addPlain(node, pf, text, plainA, plainB)
	}
	for i, b := range text {
		if b == '&' && (i+1 == len(text) || !isColorDigit(text[i+1])) {
			c.Expert(node, ExpertColorCode, f.Name+" at offset "+strconv.Itoa(base+i)+": '&' not followed by a colour digit 0-9 a-f, shown as text")
			break
		}
	}
	for _, b := range text {
		if b < 0x20 || b >= 0x7f {
			c.Expert(node, ExpertBadString, f.Name+" at offset "+strconv.Itoa(base)+": bytes outside printable US-ASCII (code page 437 glyphs under FullCP437)")
			break
		}
	}
	return value, node
}

// plainOf gives the texts with & colour codes their .plain field: the
// value is the text as sent, the child the text without them (the one
// MOTD rule, dissect/motd.go).
var plainOf = map[*dissect.Field]*dissect.Field{
	FieldServerName: FieldServerNamePlain,
	FieldMOTD:       FieldMOTDPlain,
	FieldMessage:    FieldMessagePlain,
	FieldReason:     FieldReasonPlain,
}

// addPlain adds the .plain child of a string node: the text itself when it
// has no colour code, else the stripped text d.out[a:b].
func (d *dec) addPlain(node int32, pf *dissect.Field, text []byte, a, b int) {
	p := d.pdu()
	i := p.AddGenerated(node, pf, dissect.B(text), "")
	if a >= 0 {
		p.Annotate(i, func() {
			if b > a {
				d.later = append(d.later, pending{node: i, a: int32(a), b: int32(b), value: true})
			} else {
				p.Nodes[i].Value = dissect.Value{}
			}
		})
	}
}

// colorRuns adds one node per run of text in one colour: "&c" starts a red
// run; the text before the first code is in the default colour.
func (d *dec) colorRuns(text []byte) {
	c := &d.c
	start := 0
	color := -1
	flush := func(end int) {
		if end <= start {
			return
		}
		run := text[start:end]
		body, col := run, color
		if col >= 0 {
			body = run[2:]
		}
		i := c.Field(FieldColorRun, end-start, dissect.B(body))
		c.P.Annotate(i, func() {
			a := len(d.out)
			if col >= 0 {
				d.out = append(d.out, '&', run[1], ' ')
				d.out = append(d.out, colorNames[col]...)
			} else {
				d.out = append(d.out, "default colour"...)
			}
			d.out = append(d.out, ": "...)
			d.out = appendQuoted(d.out, body)
			d.textFrom(i, a)
		})
	}
	for i := 0; i+1 < len(text); i++ {
		if text[i] == '&' && isColorDigit(text[i+1]) {
			flush(i)
			start, color = i, colorIndex(text[i+1])
			i++
		}
	}
	flush(len(text))
}

// cutStr reads a string field the capture cut: the field is truncated
// (the cursor's failure over the bytes left), its value the text they
// hold without trailing padding, which is returned, colours stripped when
// strip, for the Info (which says the packet is cut).
func (d *dec) cutStr(f *dissect.Field, strip bool) []byte {
	c := &d.c
	raw := c.Peek(c.Remaining())
	n := len(raw)
	for n > 0 && (raw[n-1] == ' ' || raw[n-1] == 0) {
		n--
	}
	text := raw[:n:n]
	i := c.Field(f, 64, dissect.Value{})
	if p := d.pdu(); i < 0 && len(p.Nodes) > 1 && p.Nodes[len(p.Nodes)-1].Field == f {
		i = int32(len(p.Nodes) - 1) // the node the cursor's failure added, over the bytes left
	}
	if i > 0 {
		d.pdu().Nodes[i].Value = dissect.B(text)
		if pf := plainOf[f]; pf != nil {
			a := len(d.out)
			d.out = stripColors(d.out, text)
			if len(d.out)-a == len(text) { // no colour code
				d.out = d.out[:a]
				a = -1
			}
			d.addPlain(i, pf, text, a, len(d.out))
		}
	}
	if strip {
		d.tmp = stripColors(d.tmp[:0], text)
		return d.tmp
	}
	return text
}

package classic

import (
	"math"
	"strconv"
	"strings"

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

// StripColors returns s without its &-colour codes (& and one hex digit).
func StripColors(s string) string {
	if strings.IndexByte(s, '&') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '&' && i+1 < len(s) && isColorDigit(s[i+1]) {
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// str reads a 64-byte string: the node's value is the text without its
// padding (without colour codes too when strip is set, as classic.message
// is); its children are the text, split into colour runs when it has colour
// codes, and the padding.
func (d *dec) str(f *dissect.Field, strip bool) (string, int32) {
	c := &d.c
	if c.Failed() || c.Remaining() < 64 {
		c.Field(f, 64, dissect.Value{})
		return "", -1
	}
	raw := c.Peek(64)
	base := c.Off()
	n := 64
	for n > 0 && (raw[n-1] == ' ' || raw[n-1] == 0) {
		n--
	}
	text := raw[:n:n]
	node := c.Open(f, 64)
	p := d.pdu()
	hasColor := false
	for i := 0; i+1 < n; i++ {
		if text[i] == '&' && isColorDigit(text[i+1]) {
			hasColor = true
			break
		}
	}
	value := string(text)
	if hasColor {
		if strip {
			value = StripColors(value)
		}
		d.colorRuns(text)
	} else if n > 0 {
		c.Field(FieldText, n, dissect.B(text))
	}
	p.Nodes[node].Value = dissect.S(value)
	if value == "" {
		p.Nodes[node].Value = dissect.B(text) // empty, shown as ""
	}
	if n < 64 {
		pad := raw[n:]
		i := c.Field(FieldPadding, 64-n, dissect.B(pad))
		allSpace := true
		for _, b := range pad {
			if b != ' ' {
				allSpace = false
				break
			}
		}
		if allSpace {
			d.setText(i, strconv.Itoa(64-n)+" bytes of space (0x20) padding")
		} else {
			d.setText(i, strconv.Itoa(64-n)+" bytes of padding (spaces and NULs)")
		}
	}
	c.Close()
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
		body := run
		label := "default colour"
		if color >= 0 {
			body = run[2:]
			label = "&" + string(run[1]) + " " + colorNames[color]
		}
		b := make([]byte, 0, len(label)+len(body)+4)
		b = append(b, label...)
		b = append(b, ": "...)
		b = dissect.AppendQuoted(b, string(body))
		i := c.Field(FieldColorRun, end-start, dissect.B(body))
		d.setText(i, string(b))
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

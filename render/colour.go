package render

import (
	"bytes"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"
)

// Colour for the text output (--color). Every escape sequence in the output
// comes from the constants and tables below: bytes from the wire are
// escaped first (an ESC byte becomes the four characters \x1b, as in every
// mode), and only then are Minecraft's formatting codes, which are
// printable characters, followed by a colour of mcdissect's choosing.

const (
	sgrReset = "\x1b[0m"
	sgrBold  = "\x1b[1m"
)

// Severity colours: error red, warning yellow, note cyan, chat blue.
func sgrSeverity(s dissect.Severity) string {
	switch s {
	case dissect.SevError:
		return "\x1b[1;31m"
	case dissect.SevWarn:
		return "\x1b[33m"
	case dissect.SevNote:
		return "\x1b[36m"
	}
	return "\x1b[34m"
}

// sgrProto colours the protocol column of the summary line: the
// registration's colour, yellow for the layers below (TCP, IP).
func sgrProto(proto string) string {
	if p := protocols.OfRecord(proto); p != nil && p.Colour != "" {
		return p.Colour
	}
	return "\x1b[33m"
}

// mcColour is the SGR sequence of each Minecraft formatting code (the
// character after § or &): 0-9 and a-f are the sixteen chat colours,
// k-o the styles, r the reset. 0 means not a code.
var mcColour = func() (t [128]string) {
	colours := [16]string{
		"30", "34", "32", "36", "31", "35", "33", "37", // black, dark blue, dark green, dark aqua, dark red, dark purple, gold, grey
		"90", "94", "92", "96", "91", "95", "93", "97", // dark grey, blue, green, aqua, red, light purple, yellow, white
	}
	for i, c := range colours {
		t["0123456789abcdef"[i]] = "\x1b[" + c + "m"
		t["0123456789ABCDEF"[i]] = "\x1b[" + c + "m"
	}
	for c, s := range map[byte]string{'k': "8", 'l': "1", 'm': "9", 'n': "4", 'o': "3", 'r': "0"} {
		t[c] = "\x1b[" + s + "m"
		t[c-'a'+'A'] = "\x1b[" + s + "m"
	}
	return
}()

// styledNames are the colour names of the slp.status.description.styled
// form ("[green]"), in the order of the codes 0-f.
var styledNames = [...]string{"black", "dark_blue", "dark_green", "dark_aqua", "dark_red", "dark_purple", "gold", "gray",
	"dark_gray", "blue", "green", "aqua", "red", "light_purple", "yellow", "white"}

// colourise rewrites the escaped text at b[from:] in place so that each
// § or & formatting code (and each [colour] of a styled MOTD) is
// followed by its colour, and the colour reset at the end. scratch is
// the renderer's, grown as needed; the new b and scratch are returned.
// The text must already be escaped: it is scanned for printable codes
// only.
func colourise(b []byte, from int, scratch []byte) ([]byte, []byte) {
	seg := b[from:]
	if bytes.IndexByte(seg, '&') < 0 && !bytes.Contains(seg, []byte("§")) && bytes.IndexByte(seg, '[') < 0 {
		return b, scratch
	}
	scratch = append(scratch[:0], seg...)
	b = b[:from]
	coloured := false
	for i := 0; i < len(scratch); i++ {
		c := scratch[i]
		switch {
		case c == 0xC2 && i+2 < len(scratch) && scratch[i+1] == 0xA7 && scratch[i+2] < 128 && mcColour[scratch[i+2]] != "":
			b = append(b, mcColour[scratch[i+2]]...)
			b = append(b, scratch[i:i+3]...)
			i += 2
			coloured = true
			continue
		case c == '&' && i+1 < len(scratch) && scratch[i+1] < 128 && mcColour[scratch[i+1]] != "":
			b = append(b, mcColour[scratch[i+1]]...)
			b = append(b, scratch[i:i+2]...)
			i++
			coloured = true
			continue
		case c == '[':
			if end := bytes.IndexByte(scratch[i:], ']'); end > 1 && end < 16 {
				if k := styledCode(scratch[i+1 : i+end]); k != 0 {
					b = append(b, mcColour[k]...)
					b = append(b, scratch[i:i+end+1]...)
					i += end
					coloured = true
					continue
				}
			}
		}
		b = append(b, c)
	}
	if coloured {
		b = append(b, sgrReset...)
	}
	return b, scratch
}

// styledCode is the formatting code of a styled-form colour name, 0 if
// none.
func styledCode(name []byte) byte {
	for i, n := range styledNames {
		if string(name) == n {
			return "0123456789abcdef"[i]
		}
	}
	switch string(name) {
	case "bold":
		return 'l'
	case "italic":
		return 'o'
	case "underlined":
		return 'n'
	case "strikethrough":
		return 'm'
	case "obfuscated":
		return 'k'
	case "reset":
		return 'r'
	}
	return 0
}

// appendNodeColour appends a tree line with colour: a protocol's root in
// bold, and a text value's formatting codes followed by their colours.
func (t *textRenderer) appendNodeColour(dst []byte, n *dissect.Node, d int) []byte {
	root := n.Field.Type == dissect.FTProtocol
	if root {
		dst = append(dst, sgrBold...)
	}
	dst = t.heads.append(dst, n, d)
	if n.Field.Type == dissect.FTString && hasValue(n) && !redacted(&t.o, n) {
		start := len(dst)
		dst = dissect.AppendValue(dst, n)
		dst, t.scratch = colourise(dst, start, t.scratch)
		return appendNodeTail(dst, &dissect.Node{Field: noValueField, Flags: n.Flags, Offset: n.Offset, Length: n.Length}, &t.o)
	}
	dst = appendNodeTail(dst, n, &t.o)
	if root {
		dst = append(dst, sgrReset...)
	}
	return dst
}

// noValueField stands in for a node's field when its value is written
// already, so that appendNodeTail writes the rest of its line only.
var noValueField = &dissect.Field{Type: dissect.FTNone}

// appendSummaryStyled is the summary line with -t's time column and
// --color's protocol colour and formatting codes.
func (t *textRenderer) appendSummaryStyled(dst []byte, r *record.Record) []byte {
	var num [40]byte
	dst = padLeft(dst, dissect.AppendUint(num[:0], r.Frame), 5)
	dst = append(dst, ' ')
	dst = padLeft(dst, appendTimeColumn(num[:0], r, t.o.Time), 11)
	dst = append(dst, ' ')
	dst = appendSummaryAddrs(dst, r)
	dst = append(dst, ' ')
	if t.o.Colour {
		dst = append(dst, sgrProto(r.Proto)...)
		dst = append(dst, protocols.Column(r.Proto)...)
		dst = append(dst, sgrReset...)
	} else {
		dst = append(dst, protocols.Column(r.Proto)...)
	}
	dst = append(dst, ' ')
	start := len(dst)
	dst = dissect.AppendSafe(dst, r.PDU.Info)
	if t.o.Colour {
		dst, t.scratch = colourise(dst, start, t.scratch)
	}
	return dst
}

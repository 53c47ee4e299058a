package dissect

import "unicode/utf8"

// The one rule for text that carries Minecraft's formatting codes (MOTDs,
// status descriptions, Classic's server name, MOTD and chat): a field's
// value is the text as sent, § (or Classic's &) codes included, and a
// generated child named after it with ".plain" (query.motd.plain) holds
// the text without them, so that a filter reads either:
// query.motd contains "§a" and query.motd.plain == "A Minecraft Server".

// StripSection appends b to dst without its § formatting codes: each §
// (U+00A7, C2 A7 in UTF-8) and the character after it, as the client
// reads them (§x§R§R§G§G§B§B hex colours are seven such pairs). A § that
// ends the text goes too.
func StripSection(dst, b []byte) []byte {
	for k := 0; k < len(b); {
		if b[k] == 0xC2 && k+1 < len(b) && b[k+1] == 0xA7 {
			k += 2
			if k < len(b) {
				_, n := utf8.DecodeRune(b[k:])
				k += n
			}
			continue
		}
		dst = append(dst, b[k])
		k++
	}
	return dst
}

// HasSection reports whether b holds a § formatting code.
func HasSection(b []byte) bool {
	for k := 0; k+1 < len(b); k++ {
		if b[k] == 0xC2 && b[k+1] == 0xA7 {
			return true
		}
	}
	return false
}

// AddPlain adds under node i the ".plain" child of a text with § codes:
// text itself when it has none (no copy), else a copy without them. It
// adds nothing to a Lite PDU (whose nodes are not kept) or under the root
// index a Lite cursor answers with.
func (p *PDU) AddPlain(i int32, plain *Field, text []byte) {
	if p.Lite || i <= 0 {
		return
	}
	if !HasSection(text) {
		p.AddGenerated(i, plain, B(text), "")
		return
	}
	p.AddGenerated(i, plain, S(string(StripSection(make([]byte, 0, len(text)), text))), "")
}

package slp

import (
	"encoding/base64"
	"encoding/binary"
	"strconv"
	"unicode/utf8"

	"github.com/mcdissect/mcdissect/dissect"
)

// statusTree adds nodes pointing into the JSON text of one PDU.
type statusTree struct {
	c    *Conn
	cur  *dissect.Cursor
	p    *dissect.PDU
	j    *jparser
	base int32 // offset of the JSON text in the PDU
}

func (t *statusTree) add(parent int32, f *dissect.Field, i int32, v dissect.Value) int32 {
	n := &t.j.n[i]
	return t.p.AddNode(parent, f, int(t.base+n.start), int(n.end-n.start), v)
}

func (t *statusTree) pos(i int32) string {
	return "offset " + strconv.Itoa(int(t.base+t.j.n[i].start))
}

// str adds string value i for f; a value of another type is shown raw and
// flagged.
func (t *statusTree) str(parent int32, f *dissect.Field, i int32) (int32, []byte) {
	if t.j.n[i].kind != jString {
		return t.wrongType(parent, f, i, "a string"), nil
	}
	b := t.j.strBytes(i, t.c.scratch[:0])
	n := t.add(parent, f, i, dissect.B(b))
	if t.j.n[i].esc {
		// b is the unescape buffer, which later strings reuse: the node
		// keeps a copy
		t.c.scratch = b[:0]
		t.p.Annotate(n, func() { t.p.Nodes[n].Value = dissect.S(string(b)) })
	}
	return n, b
}

func (t *statusTree) integer(parent int32, f *dissect.Field, i int32) (int64, int32, bool) {
	v, ok := t.j.intValue(i)
	if !ok {
		return 0, t.wrongType(parent, f, i, "an integer"), false
	}
	return v, t.add(parent, f, i, dissect.I(v)), true
}

func (t *statusTree) boolean(parent int32, f *dissect.Field, i int32) int32 {
	if t.j.n[i].kind != jBool {
		return t.wrongType(parent, f, i, "true or false")
	}
	return t.add(parent, f, i, dissect.Bool(t.j.s[t.j.n[i].start] == 't'))
}

func (t *statusTree) wrongType(parent int32, f *dissect.Field, i int32, want string) int32 {
	raw := t.j.raw(i)
	n := t.add(parent, f, i, dissect.B(raw))
	t.p.SetTextFunc(n, func() string { return "(" + jkindName(t.j.n[i].kind) + ") " + safeShort(raw) })
	t.p.AddExpert(n, ExpertJSONType, f.Name+" at "+t.pos(i)+": "+jkindName(t.j.n[i].kind)+" where "+want+" was expected")
	return n
}

func jkindName(k jkind) string {
	return [...]string{"?", "object", "array", "string", "number", "boolean", "null"}[k]
}

// other shows a member this dissector does not know, with its raw value.
func (t *statusTree) other(parent int32, i int32) int32 {
	n := t.add(parent, FieldOther, i, dissect.B(t.j.raw(i)))
	t.p.Annotate(n, func() {
		k := t.j.key(i, nil)
		if isIdent(k) {
			t.p.Nodes[n].Key = string(k)
		}
		t.p.Nodes[n].Text = strconv.Quote(string(k)) + ": " + safeShort(t.j.raw(i))
	})
	return n
}

func isIdent(b []byte) bool {
	if len(b) == 0 || len(b) > 64 {
		return false
	}
	for _, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// statusResponse dissects the Status Response: the JSON string, then the
// JSON as a tree beside it (slp.status), each node over its value's bytes.
func (c *Conn) statusResponse(cur *dissect.Cursor) {
	p := cur.P
	c.borrow()
	lenOff := cur.Off()
	jl, jli, ok := varInt(cur, FieldStatusJSONLen)
	if !ok {
		return
	}
	if jl < 0 {
		cur.Malformed(jli, dissect.ExpertMalformed, "slp.status.json_length at offset "+strconv.Itoa(lenOff)+": negative length")
		cur.Invalid(FieldStatusJSON, "no JSON after a negative length")
		return
	}
	base := int32(cur.Off()) // not read back from the node: in Lite mode there is none
	b, ji := cur.Take(FieldStatusJSON, int(jl))
	if ji < 0 {
		return
	}
	if len(b) > maxStatusChars {
		p.ExpertFunc(ji, ExpertJSONTooLong, func() string {
			if n := utf16Len(b); n > maxStatusChars {
				return "slp.status.json at offset " + strconv.Itoa(int(base)) + ": " + strconv.Itoa(n) + " characters, the protocol allows 32767"
			}
			return ""
		})
	}
	p.ExpertFunc(ji, ExpertStringUTF8, func() string {
		if utf8.Valid(b) {
			return ""
		}
		return "slp.status.json at offset " + strconv.Itoa(int(base)) + ": not valid UTF-8"
	})
	j := &c.jp
	if !j.parse(b) {
		at := "slp.status.json at offset " + strconv.Itoa(int(base)+j.errOff) + " (JSON offset " + strconv.Itoa(j.errOff) + "): "
		if j.limit {
			cur.Expert(ji, ExpertJSONLimit, at+j.err+": the JSON is shown as text only")
		} else {
			cur.Malformed(ji, ExpertJSONInvalid, at+j.err+"; the text is shown as received")
		}
		p.Info = "Status Response (JSON does not parse)"
		return
	}
	if j.ctrlAt >= 0 {
		cur.Expert(ji, ExpertJSONControl, "slp.status.json at offset "+strconv.Itoa(int(base)+j.ctrlAt)+": raw control character "+hexByte(b[j.ctrlAt])+" inside a JSON string (strict JSON escapes it); read leniently")
	}
	// about one node per JSON value, and a few more for the favicon (j.n
	// is bounded by the parser's limit); only the status response asks:
	// other packets have a few nodes, which a pooled PDU mostly has room
	// for already
	p.Reserve(len(j.n) + 8)
	t := statusTree{c: c, cur: cur, p: p, j: j, base: base}
	st := p.AddNode(cur.Parent(), FieldStatus, int(base), len(b), dissect.Value{})
	if j.n[0].kind != jObject {
		t.wrongType(st, FieldOther, 0, "an object")
		return
	}
	var sum statusSummary
	hasPlayers := false
	for m := j.n[0].first; m >= 0; m = j.n[m].next {
		switch {
		case j.keyIs(m, "version"):
			t.version(st, m, &sum)
		case j.keyIs(m, "players"):
			hasPlayers = true
			t.players(st, m, &sum)
		case j.keyIs(m, "description"):
			sum.desc = t.description(st, m)
		case j.keyIs(m, "favicon"):
			t.favicon(st, m)
		case j.keyIs(m, "enforcesSecureChat"):
			t.boolean(st, FieldSecureChat, m)
		case j.keyIs(m, "previewsChat"):
			t.boolean(st, FieldPreviewsChat, m)
		case j.keyIs(m, "forgeData"):
			t.forge(st, m)
		case j.keyIs(m, "modinfo"):
			t.modinfo(st, m)
		default:
			t.other(st, m)
		}
	}
	if !hasPlayers {
		p.AddExpert(st, ExpertNoPlayers, "slp.status at offset "+strconv.Itoa(int(base))+": no \"players\" key (proxies and some plugins leave it out)")
	}
	c.info = sum.appendInfo(c.info[:0])
	p.Info = string(c.info)
}

// statusSummary is what the Info column says of a status response.
type statusSummary struct {
	version           []byte // the version name, cut for the Info column
	proto             int64
	hasProto          bool
	online, max       int64
	hasOnline, hasMax bool
	desc              string
}

// appendInfo formats the Info column: `Status Response, 1.20.6 (766),
// 1/20 players, "A Minecraft Server"`, in one buffer so that the string is
// the only allocation.
func (s *statusSummary) appendInfo(b []byte) []byte {
	b = append(b, "Status Response, "...)
	b = append(b, s.version...)
	b = append(b, " ("...)
	if s.hasProto {
		b = dissect.AppendInt(b, s.proto)
	}
	b = append(b, "), "...)
	b = appendCount(b, s.online, s.hasOnline)
	b = append(b, '/')
	b = appendCount(b, s.max, s.hasMax)
	b = append(b, " players, "...)
	return appendQuotedShort(b, s.desc)
}

func appendCount(b []byte, v int64, ok bool) []byte {
	if !ok {
		return append(b, '?')
	}
	return dissect.AppendInt(b, v)
}

// appendQuotedShort appends strconv.Quote(shortText(s)) without building
// the cut string: the cut text is quoted, then "…" goes inside the quotes.
func appendQuotedShort(b []byte, s string) []byte {
	if len(s) <= 64 {
		return strconv.AppendQuote(b, s)
	}
	n := 64
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	b = strconv.AppendQuote(b, s[:n])
	return append(b[:len(b)-1], "…\""...)
}

// appendShort appends safeShort(b) without building a string.
func appendShort(dst, b []byte) []byte {
	const max = 64
	if len(b) > max {
		n := max
		for n > 0 && !utf8.RuneStart(b[n]) {
			n--
		}
		return append(append(dst, b[:n]...), "…"...)
	}
	return append(dst, b...)
}

func (t *statusTree) version(st, m int32, sum *statusSummary) {
	j := t.j
	if j.n[m].kind != jObject {
		t.wrongType(st, FieldVersion, m, "an object")
		sum.version, sum.hasProto = nil, false
		return
	}
	sum.version, sum.hasProto = nil, false
	vn := t.add(st, FieldVersion, m, dissect.Value{})
	for k := j.n[m].first; k >= 0; k = j.n[k].next {
		switch {
		case j.keyIs(k, "name"):
			_, b := t.str(vn, FieldVersionName, k)
			// b may be the shared unescape buffer, which later strings
			// reuse: the Info column keeps its own copy.
			t.c.vname = appendShort(t.c.vname[:0], b)
			sum.version = t.c.vname
		case j.keyIs(k, "protocol"):
			v, i, ok := t.integer(vn, FieldVersionProto, k)
			if ok {
				sum.proto, sum.hasProto = v, true
				t.p.SetTextFunc(i, func() string { return protocolText(v) })
			}
		default:
			t.other(vn, k)
		}
	}
}

const zeroUUID = "00000000-0000-0000-0000-000000000000"

func (t *statusTree) players(st, m int32, sum *statusSummary) {
	j := t.j
	sum.hasOnline, sum.hasMax = false, false
	if j.n[m].kind != jObject {
		t.wrongType(st, FieldPlayers, m, "an object")
		return
	}
	pn := t.add(st, FieldPlayers, m, dissect.Value{})
	for k := j.n[m].first; k >= 0; k = j.n[k].next {
		switch {
		case j.keyIs(k, "max"):
			if v, _, ok := t.integer(pn, FieldPlayersMax, k); ok {
				sum.max, sum.hasMax = v, true
			}
		case j.keyIs(k, "online"):
			if v, _, ok := t.integer(pn, FieldPlayersOnline, k); ok {
				sum.online, sum.hasOnline = v, true
			}
		case j.keyIs(k, "sample") && j.n[k].kind == jArray:
			t.p.Annotate(pn, func() { t.sample(pn, k) })
		default:
			t.other(pn, k)
		}
	}
}

// sample adds the entries of the players' sample k under pn.
func (t *statusTree) sample(pn, k int32) {
	j := t.j
	motd := false
	var first int32 = -1
	for e := j.n[k].first; e >= 0; e = j.n[e].next {
		if j.n[e].kind != jObject {
			t.wrongType(pn, FieldSample, e, "an object")
			continue
		}
		sn := t.add(pn, FieldSample, e, dissect.Value{})
		if first < 0 {
			first = sn
		}
		for f := j.n[e].first; f >= 0; f = j.n[f].next {
			switch {
			case j.keyIs(f, "name"):
				_, b := t.str(sn, FieldSampleName, f)
				if hasSection(b) {
					motd = true
				}
			case j.keyIs(f, "id"):
				_, b := t.str(sn, FieldSampleID, f)
				if string(b) == zeroUUID {
					motd = true
				}
			default:
				t.other(sn, f)
			}
		}
	}
	if motd {
		t.p.AddExpert(first, ExpertSampleMOTD, "slp.status.players.sample at "+t.pos(k)+": entries with § codes or the all-zero UUID: text lines shown in the player-list tooltip, not players")
	}
}

func hasSection(b []byte) bool {
	for k := 0; k+1 < len(b); k++ {
		if b[k] == 0xC2 && b[k+1] == 0xA7 {
			return true
		}
	}
	return false
}

// description renders the MOTD on a node over its JSON value: its text as
// sent, § codes included (the value), the plain text (.plain, and the
// Info) and, when it has colours or styles, a bracketed rendering of them
// (.styled).
func (t *statusTree) description(st, m int32) string {
	c := t.c
	c.plain, c.styled, c.raw = c.plain[:0], c.styled[:0], c.raw[:0]
	c.chat(t.j, m, 0)
	plain := string(c.plain)
	n := t.add(st, FieldDescription, m, dissect.Value{})
	t.p.Annotate(n, func() {
		raw := plain
		if string(c.raw) != plain {
			raw = string(c.raw)
		}
		t.p.Nodes[n].Value = dissect.S(raw)
	})
	t.p.AddGenerated(n, FieldDescPlain, dissect.S(plain), "")
	if string(c.styled) != plain {
		t.p.AddGeneratedFunc(n, FieldDescStyled, func() (dissect.Value, string) { return dissect.S(string(c.styled)), "" })
	}
	return plain
}

// chatText renders a chat component given as JSON text (a login
// Disconnect reason) to plain text; text that is not JSON is shown as is.
func (c *Conn) chatText(b []byte) string {
	c.borrow()
	var j jparser
	if !j.parse(b) {
		return string(b)
	}
	plain, _ := c.renderChat(&j, 0)
	return plain
}

// The § formatting codes.
var sectionCodes = [128]string{
	'0': "black", '1': "dark_blue", '2': "dark_green", '3': "dark_aqua", '4': "dark_red",
	'5': "dark_purple", '6': "gold", '7': "gray", '8': "dark_gray", '9': "blue",
	'a': "green", 'b': "aqua", 'c': "red", 'd': "light_purple", 'e': "yellow", 'f': "white",
	'k': "obfuscated", 'l': "bold", 'm': "strikethrough", 'n': "underlined", 'o': "italic", 'r': "reset",
}

var chatStyles = [...]string{"bold", "italic", "underlined", "strikethrough", "obfuscated"}

const (
	chatMaxDepth = 32
	chatMaxOut   = 64 << 10
)

// renderChat renders chat component i (a string, an object with text,
// translate, extra..., or an array) as plain text with § codes removed,
// and as text with colours and styles written out: "[gold]Hello".
func (c *Conn) renderChat(j *jparser, i int32) (plain, styled string) {
	c.plain, c.styled, c.raw = c.plain[:0], c.styled[:0], c.raw[:0]
	c.chat(j, i, 0)
	plain = string(c.plain)
	if string(c.styled) == plain {
		return plain, plain
	}
	return plain, string(c.styled)
}

func (c *Conn) chat(j *jparser, i int32, depth int) {
	if depth > chatMaxDepth || len(c.styled) > chatMaxOut {
		return
	}
	n := &j.n[i]
	switch n.kind {
	case jString:
		b := j.strBytes(i, c.scratch[:0])
		c.legacyText(b)
		if n.esc {
			c.scratch = b[:0]
		}
	case jArray:
		for e := n.first; e >= 0; e = j.n[e].next {
			c.chat(j, e, depth+1)
		}
	case jObject:
		if col := j.member(i, "color"); col >= 0 && j.n[col].kind == jString {
			c.styled = append(c.styled, '[')
			c.styled = append(c.styled, j.strBytes(col, nil)...)
			c.styled = append(c.styled, ']')
		}
		for _, s := range chatStyles {
			if v := j.member(i, s); v >= 0 && j.n[v].kind == jBool && j.s[j.n[v].start] == 't' {
				c.styled = append(c.styled, '[')
				c.styled = append(c.styled, s...)
				c.styled = append(c.styled, ']')
			}
		}
		if v := j.member(i, "text"); v >= 0 {
			c.chat(j, v, depth+1)
		}
		if v := j.member(i, "translate"); v >= 0 && j.n[v].kind == jString {
			c.chat(j, v, depth+1)
			if w := j.member(i, "with"); w >= 0 && j.n[w].kind == jArray {
				c.both("[")
				for e, k := j.n[w].first, 0; e >= 0; e, k = j.n[e].next, k+1 {
					if k > 0 {
						c.both(", ")
					}
					c.chat(j, e, depth+1)
				}
				c.both("]")
			}
		}
		if v := j.member(i, "keybind"); v >= 0 && j.n[v].kind == jString {
			c.both("<key ")
			c.chat(j, v, depth+1)
			c.both(">")
		}
		if v := j.member(i, "selector"); v >= 0 && j.n[v].kind == jString {
			c.chat(j, v, depth+1)
		}
		if v := j.member(i, "extra"); v >= 0 {
			c.chat(j, v, depth+1)
		}
	case jNumber, jBool:
		c.both(string(j.raw(i)))
	}
}

func (c *Conn) both(s string) {
	c.plain = append(c.plain, s...)
	c.styled = append(c.styled, s...)
	c.raw = append(c.raw, s...)
}

// legacyText appends text whose § codes are removed from the plain form
// and written out in the styled form. §x§R§R§G§G§B§B is a hex colour.
func (c *Conn) legacyText(b []byte) {
	c.raw = append(c.raw, b...)
	for k := 0; k < len(b); {
		if b[k] == 0xC2 && k+1 < len(b) && b[k+1] == 0xA7 {
			if k+2 >= len(b) {
				k += 2
				continue
			}
			code := b[k+2] | 0x20 // codes are case-insensitive
			if code == 'x' && hexColour(b[k+3:]) {
				c.styled = append(c.styled, "[#"...)
				for q := 0; q < 6; q++ {
					c.styled = append(c.styled, b[k+3+3*q+2])
				}
				c.styled = append(c.styled, ']')
				k += 3 + 18
				continue
			}
			if code < 128 && sectionCodes[code] != "" {
				c.styled = append(c.styled, '[')
				c.styled = append(c.styled, sectionCodes[code]...)
				c.styled = append(c.styled, ']')
			}
			_, size := utf8.DecodeRune(b[k+2:])
			k += 2 + size
			continue
		}
		c.plain = append(c.plain, b[k])
		c.styled = append(c.styled, b[k])
		k++
	}
}

// hexColour checks the "§R§R§G§G§B§B" that follows §x in BungeeCord's
// hex colours: six times C2 A7 and a hex digit.
func hexColour(b []byte) bool {
	if len(b) < 18 {
		return false
	}
	for q := 0; q < 6; q++ {
		d := b[3*q+2] | 0x20
		if b[3*q] != 0xC2 || b[3*q+1] != 0xA7 || !(d >= '0' && d <= '9' || d >= 'a' && d <= 'f') {
			return false
		}
	}
	return true
}

// favicon shows the favicon's data URI and what it holds.
func (t *statusTree) favicon(st, m int32) {
	j := t.j
	if j.n[m].kind != jString {
		t.wrongType(st, FieldFavicon, m, "a string")
		return
	}
	// The node's display ("data:image/png;base64,iVBO… (N characters)")
	// is made by appendFavicon when a tree is printed, not here.
	n := t.add(st, FieldFavicon, m, dissect.Value{})
	t.p.Annotate(n, func() { t.faviconData(n, m) })
}

// faviconData gives favicon node n (JSON value m) its value and what the
// data URI holds, and exports the PNG.
func (t *statusTree) faviconData(n, m int32) {
	j := t.j
	s := j.strBytes(m, t.c.scratch[:0])
	t.p.Nodes[n].Value = dissect.B(s)
	if j.n[m].esc {
		t.c.scratch = s[:0]
		t.p.Nodes[n].Value = dissect.S(string(s))
	}
	bad := func(why string) {
		t.p.AddExpert(n, ExpertFaviconInvalid, "slp.status.favicon at "+t.pos(m)+": "+why)
	}
	const prefix = "data:"
	if len(s) < len(prefix) || string(s[:len(prefix)]) != prefix {
		bad("not a data URI")
		return
	}
	comma := -1
	for k := len(prefix); k < len(s) && k < 256; k++ {
		if s[k] == ',' {
			comma = k
			break
		}
	}
	if comma < 0 {
		bad("no ',' after the data URI's media type")
		return
	}
	meta := s[len(prefix):comma]
	const b64 = ";base64"
	if len(meta) < len(b64) || string(meta[len(meta)-len(b64):]) != b64 {
		bad("the data URI is not base64")
		return
	}
	mime := meta[:len(meta)-len(b64)]
	if string(mime) == "image/png" {
		t.p.AddGenerated(n, FieldFaviconMIME, dissect.S("image/png"), "")
	} else {
		t.p.AddGenerated(n, FieldFaviconMIME, dissect.S(string(mime)), "")
		bad("media type " + strconv.Quote(string(mime)) + ", the vanilla client reads only image/png")
	}
	// count and check the base64 characters, keep the first 32
	var first [32]byte
	nf, chars, pad := 0, 0, 0
	for k := comma + 1; k < len(s); k++ {
		if nf == len(first) && pad == 0 {
			// The bulk of a favicon: a run of base64 characters, checked
			// eight at a time (each table entry is 1 for a base64
			// character, 0 otherwise).
			r := k
			for ; r+8 <= len(s); r += 8 {
				if b64Table[s[r]]&b64Table[s[r+1]]&b64Table[s[r+2]]&b64Table[s[r+3]]&
					b64Table[s[r+4]]&b64Table[s[r+5]]&b64Table[s[r+6]]&b64Table[s[r+7]] == 0 {
					break
				}
			}
			for r < len(s) && b64Table[s[r]] != 0 {
				r++
			}
			chars += r - k
			if k = r; k == len(s) {
				break
			}
		}
		ch := s[k]
		switch {
		case ch == '\n' || ch == '\r':
			continue
		case ch == '=':
			pad++
		case pad > 0 || b64Table[ch] == 0:
			bad("a byte " + hexByte(ch) + " that is not base64 at character " + strconv.Itoa(k))
			return
		}
		if nf < len(first) {
			first[nf] = ch
			nf++
		}
		chars++
	}
	size := chars / 4 * 3
	if chars%4 != 0 {
		size += (chars%4)*6/8 - 0
	}
	size -= pad
	t.p.AddGenerated(n, FieldFaviconSize, dissect.U(uint64(max(size, 0))), "")
	var png [24]byte
	if nf < 32 {
		bad("too short to hold a PNG header")
		return
	}
	if _, err := base64.StdEncoding.Decode(png[:], first[:]); err != nil {
		bad("base64: " + err.Error())
		return
	}
	if string(png[:8]) != "\x89PNG\r\n\x1a\n" || string(png[12:16]) != "IHDR" {
		bad("the data is not a PNG (no signature and IHDR chunk)")
		return
	}
	w, h := binary.BigEndian.Uint32(png[16:]), binary.BigEndian.Uint32(png[20:])
	wi := t.p.AddGenerated(n, FieldFaviconWidth, dissect.U(uint64(w)), "")
	t.p.AddGenerated(n, FieldFaviconHeight, dissect.U(uint64(h)), "")
	if w != 64 || h != 64 {
		t.p.AddExpert(wi, ExpertFaviconSize, "slp.status.favicon at "+t.pos(m)+": "+strconv.Itoa(int(w))+"x"+strconv.Itoa(int(h))+" pixels, the vanilla client expects 64x64")
	}
	if t.p.Export {
		// The PNG itself, for --export-objects favicon: decoded from the
		// characters that are there (the line breaks some servers put in
		// are dropped), never from a size anything declares.
		clean := make([]byte, 0, len(s)-comma-1)
		for _, ch := range s[comma+1:] {
			if ch != '\n' && ch != '\r' {
				clean = append(clean, ch)
			}
		}
		img := make([]byte, base64.StdEncoding.DecodedLen(len(clean)))
		if n, err := base64.StdEncoding.Decode(img, clean); err == nil {
			t.p.Objects = append(t.p.Objects, dissect.Object{Kind: "favicon", Name: "favicon.png", Data: img[:n]})
		}
	}
}

// b64Table is 1 for the characters of standard base64 (not '='), 0 for
// every other byte.
var b64Table = func() (t [256]byte) {
	for c := range t {
		if isB64(byte(c)) {
			t[c] = 1
		}
	}
	return t
}()

func isB64(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/'
}

// appendFavicon displays a favicon: its first 40 bytes, then how many
// characters it has. It is the field's Custom formatter, so the text is
// made only when a tree is printed.
func appendFavicon(dst []byte, n *dissect.Node) []byte {
	v := n.Value
	size := len(v.B)
	buf := append([]byte(nil), v.B[:min(len(v.B), 40)]...)
	buf = append(buf, "… ("...)
	buf = dissect.AppendInt(buf, int64(size))
	buf = append(buf, " characters)"...)
	// escaped as a whole, as the node's text would be
	return dissect.AppendSafe(dst, string(buf))
}

func init() { FieldFavicon.Custom = appendFavicon }

// forge shows Forge's forgeData: FML network version, channels and mods
// as JSON (FML 2/3), and the packed "d" string of Forge 1.18.1+.
func (t *statusTree) forge(st, m int32) {
	j := t.j
	if j.n[m].kind != jObject {
		t.wrongType(st, FieldForge, m, "an object")
		return
	}
	fn := t.add(st, FieldForge, m, dissect.Value{})
	t.p.Annotate(fn, func() { t.forgeMembers(fn, m) })
}

// forgeMembers adds forgeData's members (JSON value m) under fn.
func (t *statusTree) forgeMembers(fn, m int32) {
	j := t.j
	for k := j.n[m].first; k >= 0; k = j.n[k].next {
		switch {
		case j.keyIs(k, "fmlNetworkVersion"):
			t.integer(fn, FieldForgeFML, k)
		case j.keyIs(k, "truncated"):
			t.boolean(fn, FieldForgeTrunc, k)
		case j.keyIs(k, "channels") && j.n[k].kind == jArray:
			for e := j.n[k].first; e >= 0; e = j.n[e].next {
				t.entry(fn, FieldForgeChan, e, []entryKey{{"res", FieldForgeChanRes}, {"version", FieldForgeChanVer}, {"required", FieldForgeChanReq}})
			}
		case (j.keyIs(k, "mods") || j.keyIs(k, "modList")) && j.n[k].kind == jArray:
			t.mods(fn, k)
		case j.keyIs(k, "d") && j.n[k].kind == jString:
			t.forgeD(fn, k)
		default:
			t.other(fn, k)
		}
	}
}

func (t *statusTree) mods(parent, k int32) {
	for e := t.j.n[k].first; e >= 0; e = t.j.n[e].next {
		t.entry(parent, FieldForgeMod, e, []entryKey{{"modId", FieldForgeModID}, {"modid", FieldForgeModID}, {"modmarker", FieldForgeModVer}, {"version", FieldForgeModVer}})
	}
}

type entryKey struct {
	key string
	f   *dissect.Field
}

// entry adds object e as a subtree of f whose known keys get their fields.
func (t *statusTree) entry(parent int32, f *dissect.Field, e int32, keys []entryKey) {
	j := t.j
	if j.n[e].kind != jObject {
		t.wrongType(parent, f, e, "an object")
		return
	}
	n := t.add(parent, f, e, dissect.Value{})
	for k := j.n[e].first; k >= 0; k = j.n[k].next {
		done := false
		for _, ek := range keys {
			if j.keyIs(k, ek.key) {
				if ek.f.Type == dissect.FTBool {
					t.boolean(n, ek.f, k)
				} else {
					t.str(n, ek.f, k)
				}
				done = true
				break
			}
		}
		if !done {
			t.other(n, k)
		}
	}
}

// modinfo shows the FML 1 (1.7-1.12) mod list.
func (t *statusTree) modinfo(st, m int32) {
	j := t.j
	if j.n[m].kind != jObject {
		t.wrongType(st, FieldModinfo, m, "an object")
		return
	}
	mn := t.add(st, FieldModinfo, m, dissect.Value{})
	t.p.Annotate(mn, func() { t.modinfoMembers(mn, m) })
}

// modinfoMembers adds modinfo's members (JSON value m) under mn.
func (t *statusTree) modinfoMembers(mn, m int32) {
	j := t.j
	for k := j.n[m].first; k >= 0; k = j.n[k].next {
		switch {
		case j.keyIs(k, "type"):
			t.str(mn, FieldModinfoType, k)
		case j.keyIs(k, "modList") && j.n[k].kind == jArray:
			t.mods(mn, k)
		default:
			t.other(mn, k)
		}
	}
}

// forgeD unpacks Forge's "d": the first two characters hold the byte count
// (15 bits each, low first), every later character 15 more bits of the
// bytes, least significant first. The bytes are: truncated (bool), mod
// count (big-endian short), per mod a VarInt (channel count << 1 | server
// only), mod ID and, unless server only, version (VarInt-length UTF-8),
// then its channels (name, version, required); then a VarInt count of
// non-mod channels and those channels. Everything found is added as
// generated nodes under the "d" node.
func (t *statusTree) forgeD(parent, k int32) {
	c := t.c
	s := t.j.strBytes(k, c.scratch[:0])
	v := dissect.B(s)
	if t.j.n[k].esc {
		c.scratch = s[:0]
		v = dissect.S(string(s))
	}
	dn := t.add(parent, FieldForgeD, k, v)
	t.p.Nodes[dn].Text = strconv.Itoa(utf8.RuneCount(s)) + " characters of packed data"
	bad := func(why string) {
		t.p.AddExpert(dn, ExpertForgeD, "slp.status.forge.d at "+t.pos(k)+": "+why)
	}
	var hdr [2]rune
	nh := 0
	rest := s
	for nh < 2 && len(rest) > 0 {
		r, size := utf8.DecodeRune(rest)
		hdr[nh] = r & 0x7FFF
		nh++
		rest = rest[size:]
	}
	if nh < 2 {
		bad("fewer than the 2 characters of its size header")
		return
	}
	size := int(hdr[0]) | int(hdr[1])<<15
	chars := utf8.RuneCount(rest)
	if size > chars*15/8+1 || size > 1<<20 {
		bad("declares " + strconv.Itoa(size) + " bytes, " + strconv.Itoa(chars) + " characters carry at most " + strconv.Itoa(chars*15/8))
		return
	}
	buf := c.dbuf[:0]
	var acc uint32
	bits := 0
	for len(rest) > 0 && len(buf) < size {
		r, n := utf8.DecodeRune(rest)
		rest = rest[n:]
		acc |= uint32(r&0x7FFF) << bits
		bits += 15
		for bits >= 8 && len(buf) < size {
			buf = append(buf, byte(acc))
			acc >>= 8
			bits -= 8
		}
	}
	c.dbuf = buf
	t.p.AddGenerated(dn, FieldForgeDSize, dissect.U(uint64(len(buf))), "")
	if len(buf) < size {
		bad("unpacks to " + strconv.Itoa(len(buf)) + " of its " + strconv.Itoa(size) + " bytes")
		return
	}
	r := dreader{b: buf}
	truncated := r.bool()
	t.p.AddGenerated(dn, FieldForgeTrunc, dissect.Bool(truncated), "")
	nmods := int(r.u16())
	for m := 0; m < nmods && r.err == ""; m++ {
		flags := r.varint()
		id := r.utf()
		ver := "(server only: not required by the client)"
		if flags&1 == 0 {
			ver = r.utf()
		}
		if r.err != "" {
			break
		}
		mn := t.p.AddGenerated(dn, FieldForgeMod, dissect.Value{}, id)
		t.p.AddGenerated(mn, FieldForgeModID, dissect.S(id), "")
		t.p.AddGenerated(mn, FieldForgeModVer, dissect.S(ver), "")
		for ch := 0; ch < int(flags>>1) && r.err == ""; ch++ {
			t.dChannel(dn, &r, id)
		}
	}
	if r.err == "" {
		nch := r.varint()
		for ch := 0; ch < nch && r.err == ""; ch++ {
			t.dChannel(dn, &r, "")
		}
	}
	switch {
	case r.err != "" && truncated:
		t.p.AddExpert(dn, ExpertForgeD, "slp.status.forge.d at "+t.pos(k)+": the list stops at unpacked byte "+strconv.Itoa(r.off)+" ("+r.err+"); Forge marked it truncated")
	case r.err != "":
		bad("the mod list does not parse at unpacked byte " + strconv.Itoa(r.off) + ": " + r.err)
	case r.off != len(buf):
		bad(strconv.Itoa(len(buf)-r.off) + " unpacked bytes after the channel list")
	}
}

func (t *statusTree) dChannel(dn int32, r *dreader, mod string) {
	name := r.utf()
	ver := r.utf()
	req := r.bool()
	if r.err != "" {
		return
	}
	if mod != "" {
		name = mod + ":" + name
	}
	cn := t.p.AddGenerated(dn, FieldForgeChan, dissect.Value{}, name)
	t.p.AddGenerated(cn, FieldForgeChanRes, dissect.S(name), "")
	t.p.AddGenerated(cn, FieldForgeChanVer, dissect.S(ver), "")
	t.p.AddGenerated(cn, FieldForgeChanReq, dissect.Bool(req), "")
}

// dreader reads Forge's unpacked bytes, with a sticky error.
type dreader struct {
	b   []byte
	off int
	err string
}

func (r *dreader) need(n int, what string) bool {
	if r.err != "" {
		return false
	}
	if len(r.b)-r.off < n {
		r.err = what + " needs " + strconv.Itoa(n) + " bytes, " + strconv.Itoa(len(r.b)-r.off) + " left"
		return false
	}
	return true
}

func (r *dreader) bool() bool {
	if !r.need(1, "a boolean") {
		return false
	}
	r.off++
	return r.b[r.off-1] != 0
}

func (r *dreader) u16() uint16 {
	if !r.need(2, "the mod count") {
		return 0
	}
	r.off += 2
	return binary.BigEndian.Uint16(r.b[r.off-2:])
}

func (r *dreader) varint() int {
	if r.err != "" {
		return 0
	}
	v, n, st := readVarInt(r.b[r.off:])
	if st != viOK || v < 0 {
		r.err = "a bad VarInt"
		return 0
	}
	r.off += n
	return int(v)
}

func (r *dreader) utf() string {
	n := r.varint()
	if !r.need(n, "a string") {
		return ""
	}
	r.off += n
	return string(r.b[r.off-n : r.off])
}

package slp

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mcdissect/mcdissect/dissect"
)

// legacy dissects a pre-1.7 ping (FE, FE 01, FE 01 FA + MC|PingHost), a
// lone plugin message, the FF kick that answers them, or bytes after them.
func (c *Conn) legacy(cur *dissect.Cursor, k kind) link {
	p := cur.P
	switch k {
	case kLegacyPing:
		cur.Uint8(FieldLegacyID)
		p.Message = "Legacy Server List Ping (beta 1.8-1.3)"
		if cur.Remaining() > 0 || p.Cut() {
			off := cur.Off()
			v, vi := cur.Uint8(FieldLegacyPayload)
			p.Message = "Legacy Server List Ping (1.4-1.5)"
			if vi >= 0 && v != 1 {
				cur.Expert(vi, ExpertLegacyTrailing, "slp.legacy.payload at offset "+strconv.Itoa(off)+": "+strconv.Itoa(int(v))+", expected 1; a vanilla server ignores such a ping")
			}
		}
		p.Info = p.Message
		if cur.Remaining() > 0 && cur.Peek(1)[0] == 0xFA || cur.Remaining() == 0 && p.Cut() && cur.Off() == 2 {
			p.Message = "Legacy Server List Ping (1.6)"
			p.Info = p.Message + c.plugin(cur)
		} else if r := cur.Remaining(); r > 0 {
			c.trailing(cur)
		}
		return link{op: linkHoldLegacy}
	case kLegacyPlug:
		p.Message = "Legacy Plugin Message"
		p.Info = p.Message + c.plugin(cur)
	case kLegacyKick:
		p.Message = "Legacy Kick"
		c.kick(cur)
		return link{op: linkAnswerLegacy}
	default:
		p.Message = "Legacy trailing bytes"
		p.Info = p.Message + ", " + strconv.Itoa(len(p.Data)) + " bytes"
		c.trailing(cur)
	}
	return link{}
}

func (c *Conn) trailing(cur *dissect.Cursor) {
	off := cur.Off()
	r := rest(cur)
	_, i := cur.Take(FieldLegacyTrailing, r)
	cur.Expert(i, ExpertLegacyTrailing, "slp.legacy.trailing at offset "+strconv.Itoa(off)+": "+strconv.Itoa(r)+" bytes after the legacy exchange; the server answers a legacy ping with a kick and closes")
}

// asciiNext tells whether the string of chars characters at the cursor is
// written one byte a character (a peer's mistake: the protocol has
// UTF-16BE, whose first byte is 00 for any ASCII text): its first byte is
// a printable ASCII character.
func asciiNext(cur *dissect.Cursor, chars int) bool {
	b := cur.Peek(1)
	return chars > 0 && len(b) == 1 && b[0] >= 0x20 && b[0] < 0x7f
}

// asciiStr reads a string of chars one-byte characters for f, with an
// expert item naming the mistake.
func asciiStr(cur *dissect.Cursor, f *dissect.Field, chars int) (string, int32) {
	off := cur.Off()
	b, i := cur.Take(f, chars)
	if i < 0 {
		return "", i
	}
	s := string(b)
	cur.P.Nodes[i].Value = dissect.S(s)
	cur.Expert(i, ExpertLegacyASCII, f.Name+" at offset "+strconv.Itoa(off)+": "+strconv.Itoa(chars)+" ASCII bytes, where the protocol has UTF-16BE ("+strconv.Itoa(2*chars)+" bytes)")
	return s, i
}

// utf16Str reads a UTF-16BE string of chars characters for f.
func utf16Str(cur *dissect.Cursor, f *dissect.Field, chars int) (string, int32) {
	b, i := cur.Take(f, 2*chars)
	if i < 0 {
		return "", i
	}
	s := decodeUTF16(b)
	cur.P.Nodes[i].Value = dissect.S(s)
	return s, i
}

// decodeUTF16 decodes UTF-16BE bytes; unpaired surrogates become U+FFFD.
func decodeUTF16(b []byte) string {
	out := make([]byte, 0, len(b)/2)
	for k := 0; k+1 < len(b); k += 2 {
		r := rune(be16(b[k:]))
		if utf16.IsSurrogate(r) && k+3 < len(b) {
			if r2 := utf16.DecodeRune(r, rune(be16(b[k+2:]))); r2 != utf8.RuneError {
				out = utf8.AppendRune(out, r2)
				k += 2
				continue
			}
		}
		if utf16.IsSurrogate(r) {
			r = utf8.RuneError
		}
		out = utf8.AppendRune(out, r)
	}
	return string(out)
}

// charCount reads a legacy short length in characters.
func charCount(cur *dissect.Cursor, f *dissect.Field) (int, bool) {
	off := cur.Off()
	n, i := cur.Int16(f)
	if i < 0 {
		return 0, false
	}
	cur.P.Nodes[i].Value = dissect.U(uint64(uint16(n)))
	if n < 0 {
		cur.Malformed(i, dissect.ExpertMalformed, f.Name+" at offset "+strconv.Itoa(off)+": negative length "+strconv.Itoa(int(n)))
		return 0, false
	}
	return int(n), true
}

// plugin dissects a legacy plugin message (FA): channel, data length and,
// for MC|PingHost, protocol, host and port. It returns text for Info.
func (c *Conn) plugin(cur *dissect.Cursor) string {
	p := cur.P
	start := cur.Off()
	cur.Uint8(FieldLegacyID)
	n, ok := charCount(cur, FieldLegacyChanLen)
	if !ok {
		cur.Invalid(FieldLegacyChannel, "no channel after a bad length")
		return ""
	}
	ascii := asciiNext(cur, n)
	var ch string
	var chi int32
	if ascii {
		ch, chi = asciiStr(cur, FieldLegacyChannel, n)
	} else {
		ch, chi = utf16Str(cur, FieldLegacyChannel, n)
	}
	dlOff := cur.Off()
	dl, dli := cur.Uint16(FieldLegacyDataLen)
	if dli < 0 {
		return ""
	}
	if ch != "MC|PingHost" {
		cur.Expert(chi, ExpertLegacyPingHost, "slp.legacy.channel at offset "+strconv.Itoa(start+3)+": \""+safeShort([]byte(ch))+"\", expected \"MC|PingHost\"")
		if r := min(int(dl), cur.Remaining()); r > 0 || p.Cut() {
			cur.Take(FieldData, int(dl))
		}
		return ", channel " + safeShort([]byte(ch))
	}
	dataStart := cur.Off()
	proto, _ := cur.Uint8(FieldLegacyProtocol)
	hn, ok := charCount(cur, FieldLegacyHostLen)
	if !ok {
		cur.Invalid(FieldLegacyHost, "no host after a bad length")
		return ""
	}
	var host string
	if hn > 0 && asciiNext(cur, hn) {
		host, _ = asciiStr(cur, FieldLegacyHost, hn)
	} else {
		host, _ = utf16Str(cur, FieldLegacyHost, hn)
	}
	var port int32
	if r := cur.Remaining(); r >= 2 && r < 4 && !cur.P.Cut() {
		// minecraft-server-util writes the port as a short
		off := cur.Off()
		v, pi := cur.Uint16(FieldLegacyPort)
		port = int32(v)
		if pi >= 0 {
			cur.P.Nodes[pi].Value = dissect.I(int64(v))
			cur.Expert(pi, ExpertLegacyShortPort, "slp.legacy.port at offset "+strconv.Itoa(off)+": 2 bytes ("+strconv.Itoa(int(v))+"), where the protocol has a 4-byte int")
		}
	} else {
		port, _ = cur.Int32(FieldLegacyPort)
	}
	if cur.Failed() {
		return ""
	}
	if got := cur.Off() - dataStart; got != int(dl) {
		cur.Expert(dli, ExpertLegacyPingHost, "slp.legacy.data_length at offset "+strconv.Itoa(dlOff)+": says "+strconv.Itoa(int(dl))+" bytes, the fields take "+strconv.Itoa(got)+" (a vanilla server ignores such a ping)")
	}
	return ", protocol " + strconv.Itoa(int(proto)) + " (" + LegacyProtocolNames.Name(uint64(proto)) + "), " + safeShort([]byte(host)) + ":" + strconv.Itoa(int(port))
}

// kick dissects the FF kick: a UTF-16BE string, either "§1\0protocol\0
// version\0motd\0online\0max" (1.4+) or "motd§online§max" (beta 1.8-1.3).
func (c *Conn) kick(cur *dissect.Cursor) {
	p := cur.P
	cur.Uint8(FieldLegacyID)
	n, ok := charCount(cur, FieldLegacyStrLen)
	if !ok {
		cur.Invalid(FieldLegacyKick, "no string after a bad length")
		return
	}
	raw := cur.Peek(2 * n)
	if len(raw) < 2*n {
		cur.Take(FieldLegacyKick, 2*n) // fails: cut short
		return
	}
	full := decodeUTF16(raw)
	base := cur.Off()
	// part boundaries, in bytes within raw
	var cuts [8]int
	nc := 0
	format := 0 // 1: §1 format, 2: § format
	if len(raw) >= 6 && be16(raw) == 0xA7 && be16(raw[2:]) == '1' && be16(raw[4:]) == 0 {
		format = 1
		for k := 0; k+1 < len(raw) && nc < len(cuts); k += 2 {
			if be16(raw[k:]) == 0 {
				cuts[nc] = k
				nc++
			}
		}
		if nc != 5 {
			format = 0
		}
	} else {
		// the last two § separate online and max
		for k := len(raw) - 2; k >= 0 && nc < 2; k -= 2 {
			if be16(raw[k:]) == 0xA7 {
				cuts[1-nc] = k
				nc++
			}
		}
		if nc == 2 {
			format = 2
		}
	}
	if format == 0 {
		_, i := cur.Take(FieldLegacyKick, 2*n)
		cur.P.Nodes[i].Value = dissect.S(full)
		cur.Expert(i, ExpertLegacyKick, "slp.legacy.kick at offset "+strconv.Itoa(base)+": "+strconv.Itoa(n)+" characters in neither the \"§1\\0...\" form (5 NUL separators) nor the \"motd§online§max\" form")
		p.Info = "Legacy Kick, " + strconv.Quote(safeShort([]byte(full)))
		return
	}
	cur.Open(FieldLegacyKick, 2*n)
	p.Nodes[cur.Parent()].Value = dissect.S(full)
	// part k spans [start, cut) and its separator (2 bytes) if any
	part := func(f *dissect.Field, start, end int, last bool) (string, int32) {
		ln := end - start
		if !last {
			ln += 2
		}
		s := decodeUTF16(raw[start:end])
		return s, cur.Field(f, ln, dissect.S(s))
	}
	num := func(f *dissect.Field, s string, i int32) string {
		if i < 0 {
			return s
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			p.Nodes[i].Text = strconv.Quote(s)
			cur.Expert(i, ExpertLegacyNumber, f.Name+" at offset "+strconv.Itoa(int(p.Nodes[i].Offset))+": "+strconv.Quote(s)+" is not a decimal number")
			return s
		}
		p.Nodes[i].Value = dissect.I(v)
		if f == FieldLegacyProtocol {
			p.Nodes[i].Value = dissect.U(uint64(v))
		}
		return s
	}
	var motd, online, max string
	if format == 1 {
		part(FieldLegacyMagic, 0, cuts[0], false)
		ps, pi := part(FieldLegacyProtocol, cuts[0]+2, cuts[1], false)
		num(FieldLegacyProtocol, ps, pi)
		ver, _ := part(FieldLegacyVersion, cuts[1]+2, cuts[2], false)
		var motdI int32
		motd, motdI = part(FieldLegacyMOTD, cuts[2]+2, cuts[3], false)
		p.AddPlain(motdI, FieldLegacyMOTDPlain, []byte(motd))
		var oi, mi int32
		online, oi = part(FieldLegacyOnline, cuts[3]+2, cuts[4], false)
		num(FieldLegacyOnline, online, oi)
		max, mi = part(FieldLegacyMax, cuts[4]+2, len(raw), true)
		num(FieldLegacyMax, max, mi)
		p.Info = "Legacy Kick (1.4+), protocol " + ps + ", " + safeShort([]byte(ver)) + ", " + strconv.Quote(safeShort([]byte(motd))) + ", " + online + "/" + max + " players"
	} else {
		var motdI int32
		motd, motdI = part(FieldLegacyMOTD, 0, cuts[0], false)
		p.AddPlain(motdI, FieldLegacyMOTDPlain, []byte(motd))
		var oi, mi int32
		online, oi = part(FieldLegacyOnline, cuts[0]+2, cuts[1], false)
		num(FieldLegacyOnline, online, oi)
		max, mi = part(FieldLegacyMax, cuts[1]+2, len(raw), true)
		num(FieldLegacyMax, max, mi)
		p.Info = "Legacy Kick (beta), " + strconv.Quote(safeShort([]byte(motd))) + ", " + online + "/" + max + " players"
	}
	cur.Close()
}

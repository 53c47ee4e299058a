package render

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"
	"github.com/mcdissect/mcdissect/stats"
)

// The page of -T html: one self-contained file (a lesson a class can open
// from a USB stick) with the packet list, the field tree and the bytes of
// each record, as Wireshark shows them. The records are embedded as JSON
// in <script type="application/json">, escaped so that nothing from the
// wire can close the element, and the page's script builds the DOM with
// textContent only: a MOTD holding "</script>" stays text. The
// Content-Security-Policy allows no request at all (images are data:
// URIs) and only the page's own script and style, by hash.

//go:embed html_page.js
var htmlScript string

//go:embed html_page.css
var htmlStyle string

// htmlPageScript is the page's one script: the filter language
// (html_filter.js), the conversation view (html_follow.js), then the page.
var htmlPageScript = htmlFilterScript + htmlFollowScript + htmlScript

// HTMLMaxRecords and HTMLMaxBytes bound what one page holds: the records
// shown and the bytes of their embedded JSON. Past either, the renderer
// stops the run (record.ErrStop) and the page says that it shows the
// first records only, with the hint to choose with -Y or -c. Records of
// a busy capture (cmd/mcgen's mix) take about 2 KB of page each, so the
// byte cap comes first there, near 18,000 records: a 32 MB page, which
// headless chromium opened in 19 s on a 2-core machine under a load of
// 19; 10,000 small Query records are 6.5 MB.
var (
	HTMLMaxRecords = 25000
	HTMLMaxBytes   = 32 << 20
)

// htmlRenderer writes the page. It is not an Appender: the page's field
// table and its caps need the records one after another, in order, so
// the command gives it every record on one goroutine.
type htmlRenderer struct {
	w      *bufio.Writer
	o      Options
	n      int   // records written
	size   int   // bytes of record JSON written
	capped bool  // a record was refused: the page shows the first n
	fields []int // field ID -> 1 + index in ftab, 0 if not yet used
	ftab   []*dissect.Field
	exps   []*dissect.ExpertInfo
	expIdx map[*dissect.ExpertInfo]int
	buf    []byte
	show   []byte
	hider  hider            // which nodes' values do not show (--redact)
	live   *livePage        // the page --serve serves (html_live.go), nil for -T html
	ex     *stats.Exchanges // the exchanges of the records written (html_follow.go)
}

func newHTML(w *bufio.Writer, o Options) *htmlRenderer {
	return &htmlRenderer{w: w, o: o, expIdx: map[*dissect.ExpertInfo]int{}, ex: stats.NewExchanges()}
}

// cspHash is the CSP source of an inline element's text.
func cspHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
}

// htmlCSP forbids every request: no source for anything but the page's
// own script and style (by hash) and data: images.
var htmlCSP = "default-src 'none'; script-src " + cspHash(htmlPageScript) + "; style-src " + cspHash(htmlStyles) +
	"; img-src data:; base-uri 'none'; form-action 'none'"

func (h *htmlRenderer) Begin() error {
	h.w.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	csp, style := htmlCSP, htmlStyles
	if h.live != nil {
		csp, style = h.live.csp, h.live.style
	}
	h.w.WriteString("<meta http-equiv=\"Content-Security-Policy\" content=\"" + csp + "\">\n")
	h.w.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	h.w.WriteString("<meta name=\"generator\" content=\"mcdissect -T html\">\n")
	h.w.WriteString("<link rel=\"icon\" href=\"data:,\">\n<title>mcdissect</title>\n")
	h.w.WriteString("<style>" + style + "</style>\n</head>\n<body>\n")
	h.w.WriteString(htmlBody)
	_, err := h.w.WriteString("<script type=\"application/json\" id=\"mc-records\">[")
	return err
}

// htmlBody is the page's skeleton; the script fills it.
const htmlBody = `<header id="bar"><span id="brand">mcdissect</span><span id="title"></span>
<input id="filter" type="search" spellcheck="false" placeholder="Display filter, as -Y: query, slp.status.favicon, query.type == 0, frame.time &gt;= &quot;2026-11-22 10:19&quot;; /text searches the list" aria-label="display filter" aria-describedby="filtererr">
<span id="count"></span></header>
<pre id="filtererr" role="alert" hidden></pre>
<noscript><p class="hint">This page shows the capture with its own script, which your browser does not run. The same tree is in the text output: mcdissect -r FILE -V -x.</p></noscript>
<div id="banner" hidden></div>
<main id="panes">
<section id="list" tabindex="0" aria-label="packet list"><div id="listhead" class="row head"><span class="c-no">No.</span><span class="c-time">Time</span><span class="c-src">Source</span><span class="c-arrow"></span><span class="c-dst">Destination</span><span class="c-proto">Protocol</span><span class="c-info">Info</span></div><div id="rows"></div></section>
<section id="tree" aria-label="field tree"><p class="hint">Select a record in the list above.</p></section>
<section id="side"><div id="explain" aria-live="polite"><p class="hint">Click a field or a byte: its explanation shows here.</p></div>
<div id="hex" aria-label="bytes"></div></section>
</main>
`

func (h *htmlRenderer) Record(r *record.Record) error {
	if h.capped {
		return record.ErrStop
	}
	h.buf = h.appendRecord(h.buf[:0], r)
	if h.n >= HTMLMaxRecords || h.size+len(h.buf) > HTMLMaxBytes {
		h.capped = true
		return record.ErrStop
	}
	if h.n > 0 {
		h.w.WriteByte(',')
	}
	h.w.WriteByte('\n')
	h.n++
	h.size += len(h.buf)
	h.ex.Record(r)
	_, err := h.w.Write(h.buf)
	return err
}

// Warning says why the page shows only part of the capture, "" if it
// shows all of it.
func (h *htmlRenderer) Warning() string {
	if !h.capped {
		return ""
	}
	return htmlCapText(h.n)
}

func htmlCapText(n int) string {
	return "the capture is too big for one page: it shows the first " + strconv.Itoa(n) + " records (at most " +
		strconv.Itoa(HTMLMaxRecords) + " records or " + strconv.Itoa(HTMLMaxBytes>>20) +
		" MB of them); choose what to show with -Y FILTER or -c COUNT"
}

func (h *htmlRenderer) End() error {
	h.w.WriteString("\n]</script>\n<script type=\"application/json\" id=\"mc-meta\">")
	b := append(h.buf[:0], "{\"title\": "...)
	b = appendHTMLJSON(b, h.o.Title)
	b = append(b, ", \"records\": "...)
	b = strconv.AppendInt(b, int64(h.n), 10)
	if h.capped {
		b = append(b, ", \"capped\": "...)
		b = appendHTMLJSON(b, "This page shows the first "+strconv.Itoa(h.n)+" records only: the capture is too big for one page (at most "+
			strconv.Itoa(HTMLMaxRecords)+" records or "+strconv.Itoa(HTMLMaxBytes>>20)+" MB). Choose what to show with -Y FILTER or -c COUNT.")
	}
	b = h.live.appendMeta(b) // html_live.go
	b = append(b, ",\n\"fields\": ["...)
	for i, f := range h.ftab {
		if i > 0 {
			b = append(b, ",\n"...)
		}
		b = appendFieldEntry(b, f)
	}
	b = append(b, "],\n\"experts\": ["...)
	for i, e := range h.exps {
		if i > 0 {
			b = append(b, ",\n"...)
		}
		b = appendExpertEntry(b, e)
	}
	b = append(b, ']')
	b = h.appendExchanges(b) // html_follow.go
	b = append(b, ",\n\"ff\": "...)
	b = append(b, pageFilterTable().table...) // with pcols and pprotos
	b = append(b, '}')
	h.buf = b
	h.w.Write(b)
	script := htmlPageScript
	if h.live != nil {
		script = h.live.script
	}
	h.w.WriteString("</script>\n<script>" + script + "</script>\n</body>\n</html>\n")
	return h.w.Flush()
}

// appendFieldEntry appends f's entry of the page's field table: [name,
// label, explanation, type].
func appendFieldEntry(b []byte, f *dissect.Field) []byte {
	b = append(b, '[')
	b = appendHTMLJSON(b, f.Name)
	b = append(b, ',')
	b = appendHTMLJSON(b, f.Label)
	b = append(b, ',')
	b = appendHTMLJSON(b, fieldExplanation(f))
	b = append(b, ',')
	b = appendHTMLJSON(b, f.Type.String())
	return append(b, ']')
}

// appendExpertEntry appends e's entry of the page's expert table: [name,
// severity, summary].
func appendExpertEntry(b []byte, e *dissect.ExpertInfo) []byte {
	b = append(b, '[')
	b = appendHTMLJSON(b, e.Name)
	b = append(b, ',')
	b = appendHTMLJSON(b, e.Severity.String())
	b = append(b, ',')
	b = appendHTMLJSON(b, e.Summary)
	return append(b, ']')
}

// Raw is refused: the page's field table and cap need every record
// through Record, in order.
func (h *htmlRenderer) Raw(b []byte, n int) error {
	return errors.New("render: the html page takes its records through Record, in order")
}

func (h *htmlRenderer) Flush() error { return h.w.Flush() }

// fieldExplanation is the explanation the page shows for a field: its
// description (dissect.Field.Desc). One place, so that what explains a
// field grows here.
func fieldExplanation(f *dissect.Field) string { return f.Desc }

// nodeExplanation is what the page adds to the field's explanation for
// node i itself (arithmetic on its bytes), "" for nothing: one place for
// per-node explanations, next to fieldExplanation. It is not asked about
// nodes --redact hides. It is the field's Worked hook, the arithmetic
// that -V --explain shows too.
func nodeExplanation(p *dissect.PDU, i int) string {
	n := &p.Nodes[i]
	if n.Field.Worked == nil {
		return ""
	}
	return string(n.Field.Worked(nil, p, n))
}

// fieldIndex is f's index in the page's field table, added on first use.
func (h *htmlRenderer) fieldIndex(f *dissect.Field) int {
	id := f.ID()
	if id == 0 {
		for i, g := range h.ftab {
			if g == f {
				return i
			}
		}
		h.ftab = append(h.ftab, f)
		return len(h.ftab) - 1
	}
	if id >= len(h.fields) {
		h.fields = append(h.fields, make([]int, id+1-len(h.fields))...)
	}
	if h.fields[id] == 0 {
		h.ftab = append(h.ftab, f)
		h.fields[id] = len(h.ftab)
	}
	return h.fields[id] - 1
}

func (h *htmlRenderer) expertIndex(e *dissect.ExpertInfo) int {
	if i, ok := h.expIdx[e]; ok {
		return i
	}
	h.exps = append(h.exps, e)
	h.expIdx[e] = len(h.exps) - 1
	return len(h.exps) - 1
}

// Caps on what a node's value that is not a view of its record's bytes
// (wireRange) adds for the page's filter and colours: a longer value is
// left out (null), and the page's filter says that it could not read
// every value. Made values are short (a status description's text, a
// Forge mod list): no sample holds one of more than 4 KiB.
const (
	htmlMaxStringValue = 64 << 10
	htmlMaxBytesValue  = 64 << 10
)

// appendRecord appends r's object. Keys are short: a page of 10,000
// records carries each of them per node.
//
//	f frame, t time column, s/d source and destination, p protocol column,
//	i info, k protocol (mc.protocol), m message, dir, st tcp.stream (-1
//	for UDP), h header lines, x bytes (base64), wl length on the wire,
//	parts [[frame, bytes]...], mask [[offset, length]...] (redacted), n
//	nodes [field, parent, offset, length, flags, line, value, key],
//	e experts [node, expert, message], img [[node, data URI, caption]...],
//	w {node: explanation}.
func (h *htmlRenderer) appendRecord(b []byte, r *record.Record) []byte {
	p := &r.PDU
	b = append(b, "{\"f\":"...)
	b = strconv.AppendUint(b, r.Frame, 10)
	b = append(b, ",\"t\":\""...)
	b = appendSeconds(b, r.Rel)
	b = append(b, "\",\"s\":"...)
	b = appendHTMLJSON(b, r.Src.String())
	b = append(b, ",\"d\":"...)
	b = appendHTMLJSON(b, r.Dst.String())
	b = append(b, ",\"p\":"...)
	b = appendHTMLJSON(b, protocols.Column(r.Proto))
	b = append(b, ",\"i\":"...)
	h.show = dissect.AppendSafe(h.show[:0], p.Info)
	b = appendHTMLJSON(b, string(h.show))
	b = append(b, ",\"k\":"...)
	b = appendHTMLJSON(b, r.Proto)
	b = append(b, ",\"m\":"...)
	b = appendHTMLJSON(b, p.Message)
	b = append(b, ",\"dir\":\""...)
	b = append(b, p.Dir.String()...)
	b = append(b, "\",\"st\":"...)
	if r.TCP {
		b = strconv.AppendInt(b, int64(r.Stream), 10)
	} else {
		b = append(b, "-1"...)
	}
	b = append(b, ",\"h\":"...)
	h.show = appendHeader(h.show[:0], r)
	b = appendHTMLJSON(b, strings.TrimSuffix(string(h.show), "\n"))
	if p.WireLen > len(p.Data) {
		b = append(b, ",\"wl\":"...)
		b = strconv.AppendInt(b, int64(p.WireLen), 10)
	}
	if len(r.Parts) > 0 {
		b = append(b, ",\"parts\":["...)
		for i, pt := range r.Parts {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = strconv.AppendUint(b, pt.Frame, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(pt.Bytes), 10)
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	data := p.Data
	masked := h.maskedRanges(p)
	h.hider.index(&h.o, p, masked)
	if len(masked) > 0 {
		data = append([]byte(nil), data...)
		b = append(b, ",\"mask\":["...)
		for i, m := range masked {
			clear(data[m[0] : m[0]+m[1]])
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(m[0]), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(m[1]), 10)
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	b = append(b, ",\"x\":\""...)
	b = base64.StdEncoding.AppendEncode(b, data)
	b = append(b, "\",\"n\":["...)
	for i := range p.Nodes {
		if i > 0 {
			b = append(b, ',')
		}
		b = h.appendNode(b, p, i, masked)
	}
	b = append(b, ']')
	if len(p.Experts) > 0 {
		b = append(b, ",\"e\":["...)
		for i, e := range p.Experts {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(e.Node), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(h.expertIndex(e.Info)), 10)
			b = append(b, ',')
			b = appendHTMLJSON(b, string(dissect.AppendSafe(h.show[:0], e.Msg)))
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	b = h.appendPseudo(b, r) // html_filter.go
	b = h.appendImages(b, r.Proto, p, masked)
	b = h.appendFollow(b, r) // html_follow.go
	first := true
	for i := range p.Nodes {
		if h.hider.hide[i] {
			continue
		}
		s := nodeExplanation(p, i)
		if s == "" {
			continue
		}
		if first {
			b = append(b, ",\"w\":{"...)
			first = false
		} else {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, "\":"...)
		b = appendHTMLJSON(b, s)
	}
	if !first {
		b = append(b, '}')
	}
	return append(b, '}')
}

// maskedRanges are the byte ranges of the nodes --redact masks, nil
// without --redact.
func (h *htmlRenderer) maskedRanges(p *dissect.PDU) [][2]int { return maskedRanges(&h.o, p) }

func maskedRanges(o *Options, p *dissect.PDU) [][2]int {
	if !o.Redact {
		return nil
	}
	var out [][2]int
	for i := range p.Nodes {
		n := &p.Nodes[i]
		if redacted(o, n) && n.Length > 0 && int(n.Offset)+int(n.Length) <= len(p.Data) {
			out = append(out, [2]int{int(n.Offset), int(n.Length)})
		}
	}
	return out
}

func (h *htmlRenderer) appendNode(b []byte, p *dissect.PDU, i int, masked [][2]int) []byte {
	n := &p.Nodes[i]
	secret := h.hider.hide[i]
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(h.fieldIndex(n.Field)), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(n.Parent), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(n.Offset), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(n.Length), 10)
	b = append(b, ',')
	b = strconv.AppendUint(b, uint64(n.Flags), 10)
	b = append(b, ',')
	// The tree line without its byte range, which the page shows apart.
	s := appendNodeHead(h.show[:0], n)
	if hasValue(n) {
		if secret {
			s = append(s, redactedText...)
		} else {
			s = dissect.AppendValue(s, n)
		}
	}
	if n.Flags&dissect.FlagLittleEndian != 0 {
		s = append(s, " (little-endian)"...)
	}
	if n.Flags&dissect.FlagGenerated != 0 {
		s = append(s, ']')
	}
	h.show = s
	b = appendHTMLJSON(b, string(s))
	b = append(b, ',')
	if secret || !hasValue(n) {
		b = append(b, "null"...)
	} else if off, length, ok := wireRange(p, n); ok {
		// [offset, length] in the record's bytes (html_filter.go)
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(off), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(length), 10)
		b = append(b, ']')
	} else {
		b = appendHTMLValue(b, n)
	}
	if n.Key != "" {
		b = append(b, ',')
		b = appendHTMLJSON(b, n.Key)
	}
	return append(b, ']')
}

// appendHTMLValue appends n's typed value for the page's filter and
// colours: numbers (past 2^53 and exact decimals as strings), booleans,
// text (capped), bytes as hex (capped).
func appendHTMLValue(b []byte, n *dissect.Node) []byte {
	v := n.Value
	switch n.Field.Type {
	case dissect.FTUint, dissect.FTFrameNum:
		return appendPageValue(b, 'u', v)
	case dissect.FTInt:
		return appendPageValue(b, 'i', v)
	case dissect.FTFloat:
		if len(v.B) > 0 {
			return appendPageValue(b, 'f', v)
		}
		if f := v.Float(); !math.IsNaN(f) && !math.IsInf(f, 0) {
			return strconv.AppendFloat(b, f, 'g', -1, 64)
		}
	case dissect.FTBool:
		return strconv.AppendBool(b, v.Bool())
	case dissect.FTString:
		if len(v.B) <= htmlMaxStringValue {
			return appendHTMLJSON(b, v.View())
		}
	case dissect.FTBytes:
		if len(v.B) <= htmlMaxBytesValue {
			b = append(b, '"')
			b = hex.AppendEncode(b, v.B)
			return append(b, '"')
		}
	case dissect.FTAbsTime:
		// Nanoseconds since 1970 as a string: a JavaScript number holds
		// them to about a quarter of a microsecond only; the page reads
		// them as a BigInt.
		b = append(b, '"')
		b = strconv.AppendInt(b, v.Int(), 10)
		return append(b, '"')
	}
	return append(b, "null"...)
}

// appendHTMLJSON appends s as a JSON string that is safe inside a
// <script> element: besides JSON's escapes (controls, quotes, invalid
// UTF-8 as U+FFFD, U+2028/2029 and format characters), <, > and & are
// written \u003c, \u003e and \u0026, so that no "</script>" or "<!--"
// can appear in the element, whatever the wire held.
func appendHTMLJSON(b []byte, s string) []byte {
	start := len(b)
	b = appendJSONString(b, s)
	k := start
	for ; k < len(b); k++ {
		if c := b[k]; c == '<' || c == '>' || c == '&' {
			break
		}
	}
	if k == len(b) {
		return b
	}
	tail := append([]byte(nil), b[k:]...)
	b = b[:k]
	for _, c := range tail {
		switch c {
		case '<':
			b = append(b, `\u003c`...)
		case '>':
			b = append(b, `\u003e`...)
		case '&':
			b = append(b, `\u0026`...)
		default:
			b = append(b, c)
		}
	}
	return b
}

package render

import (
	"bufio"
	"bytes"
	_ "embed"
	"strconv"
	"sync"

	"github.com/mcdissect/mcdissect/record"
)

// The lesson page, live (--serve): the -T html page without records, whose
// script (html_live.js, run after the page's own) receives them from the
// server that served it, as server-sent events, and appends them to the
// packet list. The records and the field and expert tables they index are
// the JSON the static page embeds, made by the same renderer: one
// encoding, delivered two ways. The page builds the DOM as the static page
// does, with textContent only. Its CSP is the static page's, but for
// connect-src 'self': the one request it makes is to the event stream of
// the origin that served it (and a browser reconnecting it).

//go:embed html_live.js
var htmlLiveScript string

//go:embed html_live.css
var htmlLiveStyle string

// LiveEvents is the path of the live page's event stream, relative to the
// page.
const LiveEvents = "events"

// livePage is what the live page has instead of the static page's script,
// style and CSP.
type livePage struct{ csp, style, script string }

var liveAssets = sync.OnceValue(func() *livePage {
	script := htmlPageScript + htmlLiveScript
	style := htmlStyles + htmlLiveStyle
	return &livePage{
		script: script,
		style:  style,
		csp: "default-src 'none'; script-src " + cspHash(script) + "; style-src " + cspHash(style) +
			"; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'",
	}
})

// LiveCSP is the live page's Content-Security-Policy, which its server may
// send as a header too.
func LiveCSP() string { return liveAssets().csp }

// appendMeta adds to the page's META what the live script reads: where the
// events are, and how much one page holds (HTMLMaxRecords, HTMLMaxBytes).
func (l *livePage) appendMeta(b []byte) []byte {
	if l == nil {
		return b
	}
	b = append(b, ", \"live\": {\"events\": "...)
	b = appendHTMLJSON(b, LiveEvents)
	b = append(b, ", \"maxRecords\": "...)
	b = strconv.AppendInt(b, int64(HTMLMaxRecords), 10)
	b = append(b, ", \"maxBytes\": "...)
	b = strconv.AppendInt(b, int64(HTMLMaxBytes), 10)
	return append(b, '}')
}

// LivePage is the page --serve serves: the -T html page of o, with no
// record, which receives them from LiveEvents.
func LivePage(o Options) []byte {
	var out bytes.Buffer
	h := newHTML(bufio.NewWriter(&out), o)
	h.live = liveAssets()
	h.Begin()
	h.End()
	return out.Bytes()
}

// LiveEncoder makes the live page's JSON: each record as the static page
// embeds it, and the entries of the field and expert tables the records
// index, which grow as records use new fields. It is not safe for
// concurrent use.
type LiveEncoder struct {
	h       *htmlRenderer
	fields  [][]byte
	experts [][]byte
}

// NewLiveEncoder makes an encoder for the options of the page.
func NewLiveEncoder(o Options) *LiveEncoder {
	return &LiveEncoder{h: newHTML(nil, o)}
}

// Record appends r's JSON object to b. The tables may grow: Fields and
// Experts then have the entries it indexes.
func (e *LiveEncoder) Record(b []byte, r *record.Record) []byte {
	b = e.h.appendRecord(b, r)
	for len(e.fields) < len(e.h.ftab) {
		e.fields = append(e.fields, appendFieldEntry(nil, e.h.ftab[len(e.fields)]))
	}
	for len(e.experts) < len(e.h.exps) {
		e.experts = append(e.experts, appendExpertEntry(nil, e.h.exps[len(e.experts)]))
	}
	return b
}

// Fields is the field table so far, an entry's JSON each. Entries are
// only ever added: a caller may keep the slice, and read it while Record
// adds more.
func (e *LiveEncoder) Fields() [][]byte { return e.fields }

// Experts is the expert table so far, as Fields.
func (e *LiveEncoder) Experts() [][]byte { return e.experts }

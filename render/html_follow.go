package render

import (
	_ "embed"
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
	"github.com/mcdissect/mcdissect/stats"
)

// The page's conversation view (html_follow.js): the selected record's
// conversation as -z follow,mc prints it, and a diagram of its requests
// and responses. What it needs of each record comes with the record: its
// transcript text beyond the summary ("tx"), and its kind when it is not
// a PDU ("kd": gap, undissected, note); what it needs of the exchanges
// comes with the page's metadata ("ex", from stats.Exchanges, the tracker
// of -z mc,exchanges), once every record is written.

//go:embed html_follow.js
var htmlFollowScript string

//go:embed html_follow.css
var htmlFollowStyle string

// htmlStyles is the page's one style element.
var htmlStyles = htmlStyle + htmlFollowStyle

// kindNames are the "kd" of records that are not PDUs.
var kindNames = [...]string{record.KindUndissected: "undissected", record.KindGap: "gap", record.KindConflict: "conflict", record.KindNote: "note"}

// appendFollow appends r's keys for the conversation view.
func (h *htmlRenderer) appendFollow(b []byte, r *record.Record) []byte {
	if r.Kind != record.KindPDU && int(r.Kind) < len(kindNames) {
		b = append(b, ",\"kd\":\""...)
		b = append(b, kindNames[r.Kind]...)
		b = append(b, '"')
	}
	p := &r.PDU
	for i := range p.Nodes {
		if p.Nodes[i].Field.Role == dissect.RoleText && h.hider.hide[i] {
			return b // a secret stays out of the transcript too
		}
	}
	if t := stats.TranscriptText(r); t != "" {
		b = append(b, ",\"tx\":"...)
		b = appendHTMLJSON(b, string(dissect.AppendSafe(h.show[:0], t)))
	}
	return b
}

// appendExchanges appends the exchanges of the records written, as
// [request, response, asked, outcome, seconds or null]: indexes of
// records, -1 for no response; the time is the response's or the
// session's.
func (h *htmlRenderer) appendExchanges(b []byte) []byte {
	b = append(b, ",\n\"ex\": ["...)
	first := true
	for _, e := range h.ex.Rows() {
		if e.Request >= h.n {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(e.Request), 10)
		b = append(b, ',')
		resp := e.Response
		if resp >= h.n {
			resp = -1
		}
		b = strconv.AppendInt(b, int64(resp), 10)
		b = append(b, ',')
		b = appendHTMLJSON(b, e.Asked)
		b = append(b, ',')
		b = appendHTMLJSON(b, e.Outcome)
		b = append(b, ',')
		if d, ok := e.Took(); ok {
			b = strconv.AppendFloat(b, d.Seconds(), 'f', 6, 64)
		} else {
			b = append(b, "null"...)
		}
		b = append(b, ']')
	}
	return append(b, ']')
}

package render

import (
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
)

// appendImages appends ",\"img\":[[node, uri, caption]...]" for the
// pictures the record's protocol shows beside its tree (its registration's
// Pictures: an SLP favicon, a Classic level's map), nothing if it has
// none. A picture of a field --redact masks is not shown.
func (h *htmlRenderer) appendImages(b []byte, proto string, p *dissect.PDU, masked [][2]int) []byte {
	reg := protocols.OfRecord(proto)
	if reg == nil || reg.Pictures == nil {
		return b
	}
	first := true
	reg.Pictures(p, func(node int32, uri, caption string) {
		if node < 0 || int(node) >= len(p.Nodes) || h.hider.hide[node] {
			return
		}
		if first {
			b = append(b, ",\"img\":["...)
			first = false
		} else {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(node), 10)
		b = append(b, ',')
		b = appendHTMLJSON(b, uri)
		b = append(b, ',')
		b = appendHTMLJSON(b, caption)
		b = append(b, ']')
	})
	if !first {
		b = append(b, ']')
	}
	return b
}

package render

import (
	_ "embed"
	"encoding/hex"
	"slices"
	"strconv"
	"sync"
	"unsafe"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// The page's filter box runs the -Y language in the browser
// (html_filter.js): every filter of filter/testdata/shared.txt keeps the
// same records there as -Y does (TestHTMLFilterAgrees). It needs what the
// Go filter reads: the type of every field that can be named (the page's
// field table lists only the fields its records use), the values of the
// record pseudo-fields (frame, ip, tcp, udp, eth, mc.*), which are no
// nodes of the tree, and the tree's values exact: integers past 2^53 and
// times as decimal strings, texts and bytes that are the node's own wire
// bytes as 0 (the page reads them from the record's bytes).

//go:embed html_filter.js
var htmlFilterScript string

// pageFilter is the table of every registered field for the page's
// filter (META.ff), and what each record carries of the pseudo-fields:
// the values of the columns (pf), one a column, and which protocols below
// Minecraft it has (pr, a bit mask). The pseudo-fields that derive says
// how to make are made by the page from what each record holds anyway,
// and carried by none.
type pageFilter struct {
	table  []byte // the JSON array
	cols   []record.FieldRef
	kinds  []byte // each column's kind
	protos []record.FieldRef
}

// derive gives, for each pseudo-field the page makes itself, the rule it
// follows (html_filter.js, pseudoOf): a member of the record ({"r": key}:
// f frame, k protocol, dir direction, m message if any, st the TCP stream
// if not -1, e its expert items' names, parts its frames), both ends of a
// conversation ({"both": [first, second]}: in the order the combined
// field gives them, Ethernet's destination first as in tshark), a flag of tcp.flags ({"bit": [field,
// mask]}), or frame.time_epoch from frame.time ({"epoch": field}).
// TestPageDerive checks each rule against the field on every sample.
var derive = map[string]string{
	"frame.number":          `{"r":"f"}`,
	"mc.protocol":           `{"r":"k"}`,
	"mc.direction":          `{"r":"dir"}`,
	"mc.message":            `{"r":"m"}`,
	"tcp.stream":            `{"r":"st"}`,
	"mc.expert":             `{"r":"e"}`,
	"mc.reassembled.frames": `{"r":"parts"}`,
	"ip.addr":               `{"both":["ip.src","ip.dst"]}`,
	"ipv6.addr":             `{"both":["ipv6.src","ipv6.dst"]}`,
	"tcp.port":              `{"both":["tcp.srcport","tcp.dstport"]}`,
	"udp.port":              `{"both":["udp.srcport","udp.dstport"]}`,
	"eth.addr":              `{"both":["eth.dst","eth.src"]}`,
	"tcp.flags.fin":         `{"bit":["tcp.flags",1]}`,
	"tcp.flags.syn":         `{"bit":["tcp.flags",2]}`,
	"tcp.flags.reset":       `{"bit":["tcp.flags",4]}`,
	"tcp.flags.push":        `{"bit":["tcp.flags",8]}`,
	"tcp.flags.ack":         `{"bit":["tcp.flags",16]}`,
	"frame.time_epoch":      `{"epoch":"frame.time"}`,
}

// The kinds of the table, as the filter types its fields: n a label, p a
// protocol below Minecraft (present or not), w a dissected protocol (its
// PDU's bytes), u unsigned, i signed, b boolean, f float, s text, x bytes,
// 4 and 6 addresses, t an absolute time.
var pageFilterTable = sync.OnceValue(func() *pageFilter {
	pf := &pageFilter{}
	b := []byte{'['}
	i := 0
	var cols, protos []byte
	for _, reg := range dissect.Registries() {
		for _, f := range reg.Fields() {
			ref, err := record.ResolveField(f.Name)
			if err != nil {
				continue
			}
			if i > 0 {
				b = append(b, ",\n"...)
			}
			k := pageKind(ref)
			b = append(b, '[')
			b = appendHTMLJSON(b, f.Name)
			b = append(b, ",\""...)
			b = append(b, k)
			b = append(b, "\",\""...)
			if f.Keyed {
				b = append(b, 'k')
			}
			rule, derived := derive[f.Name]
			if !ref.NeedsTree() || f == record.PFExpert {
				b = append(b, 'p')
				switch {
				case derived:
				case k == 'p':
					protos = appendComma(protos, i)
					pf.protos = append(pf.protos, ref)
				default:
					cols = appendComma(cols, i)
					pf.cols = append(pf.cols, ref)
					pf.kinds = append(pf.kinds, k)
				}
			}
			b = append(b, "\","...)
			if len(f.Names) > 0 && (k == 'u' || k == 'i') {
				b = append(b, '{')
				for j, v := range sortedKeys(f.Names) {
					if j > 0 {
						b = append(b, ',')
					}
					b = append(b, '"')
					if k == 'i' {
						b = strconv.AppendInt(b, int64(v), 10)
					} else {
						b = strconv.AppendUint(b, v, 10)
					}
					b = append(b, "\":"...)
					b = appendHTMLJSON(b, f.Names[v])
				}
				b = append(b, '}')
			} else {
				b = append(b, '0')
			}
			if derived {
				b = append(b, ',')
				b = append(b, rule...)
			}
			b = append(b, ']')
			i++
		}
	}
	b = append(b, "],\n\"pcols\": ["...)
	b = append(b, cols...)
	b = append(b, "],\n\"pprotos\": ["...)
	b = append(b, protos...)
	pf.table = append(b, ']')
	return pf
})

func appendComma(b []byte, i int) []byte {
	if len(b) > 0 {
		b = append(b, ',')
	}
	return strconv.AppendInt(b, int64(i), 10)
}

func pageKind(ref record.FieldRef) byte {
	switch ref.Field.Type {
	case dissect.FTUint, dissect.FTFrameNum:
		return 'u'
	case dissect.FTInt:
		return 'i'
	case dissect.FTBool:
		return 'b'
	case dissect.FTFloat:
		return 'f'
	case dissect.FTString:
		switch ref.AddrFamily() {
		case 4:
			return '4'
		case 6:
			return '6'
		}
		return 's'
	case dissect.FTBytes:
		return 'x'
	case dissect.FTAbsTime:
		return 't'
	case dissect.FTProtocol:
		if ref.NeedsTree() {
			return 'w'
		}
		return 'p'
	}
	return 'n'
}

func sortedKeys(n dissect.Names) []uint64 {
	ks := make([]uint64, 0, len(n))
	for k := range n {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// appendPseudo appends what the record carries of the pseudo-fields:
// `,"pf":[…]`, each column's values (null when it has none, the value
// when it has one, an array of them when several; trailing nulls left
// out), and `,"pr":N`, the bit mask of the protocols it has among
// pprotos.
func (h *htmlRenderer) appendPseudo(b []byte, r *record.Record) []byte {
	pf := pageFilterTable()
	b = append(b, ",\"pf\":["...)
	start, end := len(b), len(b) // end: past the last column with a value
	for j, ref := range pf.cols {
		if j > 0 {
			b = append(b, ',')
		}
		n, at := 0, len(b)
		ref.Each(r, func(nd *dissect.Node) {
			if n == 1 {
				b = append(b[:at], append([]byte{'['}, b[at:]...)...)
			}
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = appendPageValue(b, pf.kinds[j], nd.Value)
		})
		switch n {
		case 0:
			b = append(b, "null"...)
		default:
			if n > 1 {
				b = append(b, ']')
			}
			end = len(b)
		}
	}
	if end == start {
		b = b[:start]
	} else {
		b = b[:end]
	}
	b = append(b, "],\"pr\":"...)
	var mask uint64
	for j, ref := range pf.protos {
		ref.Each(r, func(*dissect.Node) { mask |= 1 << j })
	}
	return strconv.AppendUint(b, mask, 10)
}

// maxSafe is the largest integer a JavaScript number holds exactly.
const maxSafe = 1<<53 - 1

// appendPageValue appends a value of kind k as the page's filter reads it.
func appendPageValue(b []byte, k byte, v dissect.Value) []byte {
	switch k {
	case 'u':
		if v.N > maxSafe {
			b = append(b, '"')
			b = strconv.AppendUint(b, v.N, 10)
			return append(b, '"')
		}
		return strconv.AppendUint(b, v.N, 10)
	case 'i':
		if x := v.Int(); x > maxSafe || x < -maxSafe {
			b = append(b, '"')
			b = strconv.AppendInt(b, x, 10)
			return append(b, '"')
		}
		return strconv.AppendInt(b, v.Int(), 10)
	case 'b':
		if v.N != 0 {
			return append(b, '1')
		}
		return append(b, '0')
	case 'f':
		if len(v.B) > 0 { // dissect.FExact: the exact decimal
			return appendHTMLJSON(b, v.View())
		}
		return appendHTMLJSON(b, strconv.FormatFloat(v.Float(), 'g', -1, 64))
	case 's', '4', '6':
		return appendHTMLJSON(b, v.View())
	case 'x':
		b = append(b, '"')
		b = hex.AppendEncode(b, v.B)
		return append(b, '"')
	case 't':
		b = append(b, '"')
		b = strconv.AppendInt(b, v.Int(), 10)
		return append(b, '"')
	}
	return append(b, "null"...)
}

// wireRange reports where in the PDU's bytes a text or bytes node's value
// lies, when it is a view of them (most are: decoders copy nothing), so
// that the page reads it from the record's bytes instead of holding it a
// second time. unsafe: addresses are compared only, nothing is read or
// written through them.
func wireRange(p *dissect.PDU, n *dissect.Node) (off, length int, ok bool) {
	t := n.Field.Type
	v := n.Value.B
	if t != dissect.FTString && t != dissect.FTBytes || len(v) == 0 || len(p.Data) == 0 {
		return 0, 0, false
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(p.Data)))
	at := uintptr(unsafe.Pointer(unsafe.SliceData(v)))
	if at < lo || at+uintptr(len(v)) > lo+uintptr(len(p.Data)) {
		return 0, 0, false
	}
	return int(at - lo), len(v), true
}

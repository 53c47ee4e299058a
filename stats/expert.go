package stats

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/filter"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"
)

// expertStat is -z expert[,error|warn|note|chat|comment][,FILTER]: the
// expert items of the PDUs shown (and matching FILTER), counted by
// severity, protocol and message, in tshark's table: a section per
// severity, most severe first, rows in order of first appearance. The
// severity argument keeps that severity and those above it; mcdissect's
// items are notes, warnings and errors, so chat and comment keep them all.
type expertStat struct {
	records
	lowest dissect.Severity
	flt    *filter.Filter
	idx    map[expertKey]int
	rows   []expertRow
	others [dissect.SevError + 1]int // items past maxStatRows rows, by severity
}

type expertKey struct {
	sev         dissect.Severity
	proto, text string
}

type expertRow struct {
	k     expertKey
	group string
	n     int
}

// newExpertStat parses what follows "expert": "", ",warn", ",note,slp",
// ",slp" (a filter alone).
func newExpertStat(args string) (*expertStat, error) {
	s := &expertStat{lowest: dissect.SevNote, idx: map[expertKey]int{}}
	if args == "" {
		return s, nil
	}
	if args[0] != ',' {
		return nil, fmt.Errorf("-z expert%s: use -z expert[,error|warn|note|chat][,FILTER]", args)
	}
	args = args[1:]
	level, rest, more := strings.Cut(args, ",")
	known := true
	switch strings.ToLower(level) {
	case "error":
		s.lowest = dissect.SevError
	case "warn":
		s.lowest = dissect.SevWarn
	case "note", "chat", "comment":
	default:
		known = false
	}
	flt := args
	if known {
		flt = ""
		if more {
			flt = rest
		}
	}
	if flt != "" {
		f, err := filter.Compile(flt)
		if err != nil {
			return nil, fmt.Errorf("-z expert filter %q: %v", flt, err)
		}
		s.flt = f
	}
	return s, nil
}

func (s *expertStat) Record(r *record.Record) {
	if len(r.PDU.Experts) == 0 || s.flt != nil && !s.flt.Match(r) {
		return
	}
	proto := protocols.Column(r.Proto)
	for _, e := range r.PDU.Experts {
		if e.Info.Severity < s.lowest {
			continue
		}
		text := e.Msg
		if text == "" {
			text = e.Info.Summary
		}
		k := expertKey{e.Info.Severity, proto, text}
		i, ok := s.idx[k]
		if !ok {
			if len(s.rows) >= maxStatRows {
				if int(k.sev) < len(s.others) {
					s.others[k.sev]++
				}
				continue
			}
			i = len(s.rows)
			s.idx[k] = i
			s.rows = append(s.rows, expertRow{k: k, group: expertGroup(e.Info.Name)})
		}
		s.rows[i].n++
	}
}

func (s *expertStat) Print(w io.Writer) {
	for _, sec := range []struct {
		sev   dissect.Severity
		label string
	}{{dissect.SevError, "Errors"}, {dissect.SevWarn, "Warns"}, {dissect.SevNote, "Notes"}} {
		total, any := s.others[sec.sev], s.others[sec.sev] > 0
		for i := range s.rows {
			if s.rows[i].k.sev == sec.sev {
				total += s.rows[i].n
				any = true
			}
		}
		if !any {
			continue
		}
		fmt.Fprintf(w, "\n%s (%d)\n=============\n", sec.label, total)
		fmt.Fprintln(w, "   Frequency      Group           Protocol  Summary")
		for i := range s.rows {
			if r := &s.rows[i]; r.k.sev == sec.sev {
				fmt.Fprintf(w, "%12d %10s %18s  %s\n", r.n, r.group, r.k.proto, safe(r.k.text))
			}
		}
		if n := s.others[sec.sev]; n > 0 {
			fmt.Fprintf(w, "%12d %10s %18s  %s\n", n, "", "", fmt.Sprintf("[items of messages past the table's %d rows]", maxStatRows))
		}
	}
}

// expertGroup is the Wireshark expert group of an item (tshark's Group
// column), from its name: mcdissect's items are registered without one.
// Missing, retransmitted and reordered bytes, requests and responses that
// do not pair up, are Sequence; bytes that break the protocol's rules are
// Malformed; bytes no field explains, Undecoded; a forged or exposed
// secret, Security; the rest, Protocol.
func expertGroup(name string) string {
	has := func(parts ...string) bool {
		for _, p := range parts {
			if strings.Contains(name, p) {
				return true
			}
		}
		return false
	}
	switch {
	case has("undissected", "trailing"):
		return "Undecoded"
	case has(".gap", "retransmission", ".response.", ".ping.unmatched", "evicted", ".token.", "fragments"):
		return "Sequence"
	case has("key_forged", "salt_exposed"):
		return "Security"
	case has("malformed", "truncated", "panic", ".bad", "invalid", "too_long", "too_large", ".length", "varint", "unknown_packet", "bomb", "mismatch", "size_mismatch"):
		return "Malformed"
	}
	return "Protocol"
}

func (*expertStat) Reads() Reads { return Reads{Records: true, Trees: true} }

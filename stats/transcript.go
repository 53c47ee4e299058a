package stats

import (
	"fmt"
	"io"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
	"github.com/mcdissect/mcdissect/record"
)

// Transcript is r as one line of a conversation's transcript (-z
// follow,mc, the page's conversation view): its protocol and summary
// line, and what the message says when the summary does not show it
// whole (RoleText: an SLP status JSON, a Classic chat line), with a data
// URI (a favicon) cut to its start and length. Escaped as every text from
// the wire is.
func Transcript(r *record.Record) string {
	line := protocols.Column(r.Proto) + " " + r.PDU.Info
	if t := TranscriptText(r); t != "" {
		line += ": " + t
	}
	return string(dissect.AppendSafe(nil, line))
}

// TranscriptText is what Transcript adds to the summary line, "" when
// the summary says it all.
func TranscriptText(r *record.Record) string {
	for i := range r.PDU.Nodes {
		n := &r.PDU.Nodes[i]
		if n.Field.Role != dissect.RoleText {
			continue
		}
		t := n.Value.View()
		if t == "" || strings.Contains(r.PDU.Info, t) || strings.Contains(r.PDU.Info, plainText(n)) {
			return ""
		}
		return shortenDataURIs(t)
	}
	return ""
}

var dataURI = regexp.MustCompile(`data:[a-z/+.-]+;base64,[A-Za-z0-9+/=]{64,}`)

// shortenDataURIs keeps the first 32 characters of each base64 data URI
// and says how many more there were.
func shortenDataURIs(s string) string {
	return dataURI.ReplaceAllStringFunc(s, func(u string) string {
		i := strings.Index(u, ",") + 1
		return u[:i+32] + "… (" + strconv.Itoa(len(u)-i-32) + " more characters)"
	})
}

// followMCStat is -z follow,mc,N (TCP stream N) or -z
// follow,mc,ADDR:PORT,ADDR:PORT (a UDP conversation, or a TCP one by its
// ends): the transcript of one conversation, each record one line in
// order, both directions, in the frame of tshark's follow.
type followMCStat struct {
	records
	stream int // -1: by ends
	ends   [2]netip.AddrPort
	filter string

	started        bool
	client, server netip.AddrPort
	lines          []string
	size           int
	full           bool
}

func newFollowMCStat(args string) (*followMCStat, error) {
	parts := strings.Split(args, ",")
	s := &followMCStat{stream: -1}
	switch len(parts) {
	case 1:
		n, err := strconv.Atoi(parts[0])
		if err != nil || n < 0 {
			break
		}
		s.stream, s.filter = n, "tcp.stream eq "+parts[0]
		return s, nil
	case 2:
		for i, p := range parts {
			ap, err := netip.ParseAddrPort(p)
			if err != nil {
				return nil, fmt.Errorf("-z follow,mc,%s: %q is not ADDR:PORT (an IPv6 address in brackets: [::1]:25565)", args, p)
			}
			s.ends[i] = ap
		}
		s.filter = s.ends[0].String() + " <-> " + s.ends[1].String()
		return s, nil
	}
	return nil, fmt.Errorf("-z follow,mc,%s: use -z follow,mc,N (the TCP stream, tcp.stream) or -z follow,mc,ADDR:PORT,ADDR:PORT (a UDP or TCP conversation by its two ends)", args)
}

func (*followMCStat) Reads() Reads { return Reads{Records: true, Trees: true} }

func (s *followMCStat) Record(r *record.Record) {
	if s.stream >= 0 {
		if !r.TCP || r.Stream != s.stream {
			return
		}
	} else if !(r.Src == s.ends[0] && r.Dst == s.ends[1] || r.Src == s.ends[1] && r.Dst == s.ends[0]) {
		return
	}
	if !s.started {
		s.started = true
		s.client, s.server = r.Src, r.Dst
		if r.PDU.Dir == dissect.DirS2C {
			s.client, s.server = r.Dst, r.Src
		}
	}
	arrow := "C → S"
	if r.Src == s.server {
		arrow = "C ← S"
	}
	line := fmt.Sprintf("%7d %12s  %s  %s", r.Frame, fmtSeconds(r.Rel), arrow, Transcript(r))
	if s.full || s.size+len(line) > maxFollowBytes {
		s.full = true
		return
	}
	s.size += len(line)
	s.lines = append(s.lines, line)
}

func fmtSeconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 6, 64) }

func (s *followMCStat) Print(w io.Writer) {
	const sep = "===================================================================\n"
	fmt.Fprintf(w, "\n%sFollow: mc,transcript\nFilter: %s\n", sep, s.filter)
	if s.started {
		fmt.Fprintf(w, "Node 0: %s (client)\nNode 1: %s (server)\n", s.client, s.server)
	} else {
		fmt.Fprint(w, "Node 0: :0\nNode 1: :0\n")
	}
	for _, l := range s.lines {
		fmt.Fprintln(w, l)
	}
	if s.full {
		fmt.Fprintf(w, "[mcdissect: the transcript holds more than %d MB: the rest is not shown]\n", maxFollowBytes>>20)
	}
	fmt.Fprint(w, sep)
}

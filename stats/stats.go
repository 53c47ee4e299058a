package stats

import (
	"fmt"
	"io"
	"net/netip"
	"sort"
	"strings"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// Stat is one -z statistic: it reads what Reads says of a run (the frames
// read, the records shown, their trees) and prints a table at the end.
// Tables keep the order of first appearance, or sort on counts with names
// as the tie-break, so that runs are reproducible.
type Stat interface {
	// Reads says what of the run the statistic reads.
	Reads() Reads
	// Frame is given every frame read, Minecraft or not, in order.
	Frame(f record.FrameInfo)
	// Record is given every record shown (that passes -Y), in order.
	Record(r *record.Record)
	// Print writes the table.
	Print(w io.Writer)
}

// Reads is what a statistic reads of a run.
type Reads struct {
	Frames  bool // every frame read (Frame)
	Records bool // every record shown (Record)
	Trees   bool // the records' trees and expert items, not only their summary columns
	// Payloads: it shows the frames' payload bytes as read, which
	// --redact cannot mask (what holds a secret, in what encoding, and
	// which bytes no dissector understood is known of records only).
	Payloads bool
}

// New makes the statistic spec names (-z's argument).
func New(spec string) (Stat, error) {
	switch spec {
	case "mc,stat":
		return &msgStat{idx: map[[3]string]int{}}, nil
	case "mc,packets":
		return &msgStat{idx: map[[3]string]int{}, byDir: true}, nil
	case "conv,mc":
		return &convStat{idx: map[convKey]int{}}, nil
	case "mc,servers":
		return newServersStat(), nil
	case "mc,exchanges":
		return newExchangesStat(false), nil
	case "mc,exchanges,json":
		return newExchangesStat(true), nil
	case "mc,rtt":
		return newRTTStat(), nil
	case "conv,tcp":
		return newNetConvStat(kindTCP), nil
	case "conv,udp":
		return newNetConvStat(kindUDP), nil
	case "conv,ip":
		return newNetConvStat(kindIPv4), nil
	case "conv,ipv6":
		return newNetConvStat(kindIPv6), nil
	case "endpoints,ip":
		return newEndpointsStat(kindIPv4), nil
	case "endpoints,ipv6":
		return newEndpointsStat(kindIPv6), nil
	case "io,phs":
		return &phsStat{}, nil
	case "endpoints,tcp":
		return newEndpointsStat(kindTCP), nil
	case "endpoints,udp":
		return newEndpointsStat(kindUDP), nil
	}
	if args, ok := strings.CutPrefix(spec, "io,stat,"); ok {
		return newIOStat(args)
	}
	if spec == "expert" || strings.HasPrefix(spec, "expert,") {
		return newExpertStat(strings.TrimPrefix(spec, "expert"))
	}
	if args, ok := strings.CutPrefix(spec, "follow,mc,"); ok {
		return newFollowMCStat(args)
	}
	if args, ok := strings.CutPrefix(spec, "follow,"); ok {
		return newFollowStat(args)
	}
	return nil, fmt.Errorf("-z %q: unknown statistic; -z help lists them", spec)
}

// help is what -z help prints, one statistic a line, as tshark's.
var help = [][2]string{
	{"conv,mc", "Minecraft conversations: client, server, protocol, PDUs and bytes each way"},
	{"conv,tcp", "TCP conversations: frames and bytes each way (as tshark)"},
	{"conv,udp", "UDP conversations: frames and bytes each way (as tshark)"},
	{"conv,ip", "IPv4 conversations: frames and bytes each way (as tshark)"},
	{"conv,ipv6", "IPv6 conversations: frames and bytes each way (as tshark)"},
	{"endpoints,ip", "IPv4 endpoints: frames and bytes sent and received (as tshark)"},
	{"endpoints,ipv6", "IPv6 endpoints: frames and bytes sent and received (as tshark)"},
	{"endpoints,tcp", "TCP endpoints (address and port): frames and bytes sent and received (as tshark)"},
	{"endpoints,udp", "UDP endpoints (address and port): frames and bytes sent and received (as tshark)"},
	{"expert", "expert items by severity, group, protocol and message (as tshark)"},
	{"expert,SEVERITY[,FILTER]", "the same at SEVERITY (error, warn, note or chat) and above, of the PDUs matching FILTER"},
	{"follow,mc,N", "the transcript of TCP stream N (or ADDR:PORT,ADDR:PORT, a UDP conversation): each message one line, both directions, chat and status JSON as text"},
	{"follow,tcp|udp,ascii|hex|raw,N", "the payload of TCP or UDP stream N (or ADDR:PORT,ADDR:PORT), chunk by chunk (as tshark)"},
	{"io,phs", "the protocol hierarchy: frames and bytes under each protocol of their stack (as tshark; the payload by its Minecraft protocol)"},
	{"io,stat,INTERVAL[,FILTER...]", "frames and bytes per INTERVAL seconds (0: the whole capture), and the PDUs matching each display FILTER"},
	{"mc,exchanges", "one row per exchange or session: client, server, protocol, what was asked, outcome, duration, bytes each way, version, player"},
	{"mc,exchanges,json", "the same rows as JSON lines, for ingestion"},
	{"mc,rtt", "Query response, status response and ping round-trip times per server: count, min, median, p95, max; then each server's requests by outcome (answered, unanswered, closed, refused...)"},
	{"mc,servers", "a census of every server seen: protocols, MOTD, version, players, favicon, mods, first and last seen, clients"},
	{"mc,packets", "PDUs and bytes by protocol, message and direction (a Java session's packet types each way)"},
	{"mc,stat", "PDUs and bytes by protocol and message"},
}

// HelpNames is a shell pipeline that takes the statistics' names from -z
// help's output (PrintHelp), for the completion scripts.
const HelpNames = `awk 'NR > 1 { print $1 }'`

// PrintHelp is -z help.
func PrintHelp(w io.Writer) {
	fmt.Fprintln(w, "     mcdissect -z <statistic>[,<arguments>] (repeatable; -q shows the statistics only)")
	for _, h := range help {
		fmt.Fprintf(w, "     %-30s %s\n", h[0], h[1])
	}
}

// records is what statistics of records only embed: they read no frame.
type records struct{}

func (records) Frame(record.FrameInfo) {}

// frames is what statistics of frames only embed: they read no record.
type frames struct{}

func (frames) Record(*record.Record) {}

const rule = "==================================================================================\n"

// msgStat counts PDUs and bytes per protocol and message (like -z
// http,tree), and per direction too for mc,packets. The bytes are each
// PDU's own, not what a decoder inflated or decrypted from them.
type msgStat struct {
	records
	byDir bool
	idx   map[[3]string]int
	rows  []msgRow
}

type msgRow struct {
	proto, msg, dir string
	n, bytes        int
}

func (s *msgStat) Record(r *record.Record) {
	msg := r.PDU.Message
	switch r.Kind {
	case record.KindGap:
		msg = "[missing bytes]"
	case record.KindUndissected:
		msg = "[undissected bytes]"
	}
	dir := ""
	if s.byDir {
		dir = r.PDU.Dir.String()
	}
	k := [3]string{r.Proto, msg, dir}
	i, ok := s.idx[k]
	if !ok {
		i = len(s.rows)
		s.idx[k] = i
		s.rows = append(s.rows, msgRow{proto: r.Proto, msg: msg, dir: dir})
	}
	s.rows[i].n++
	s.rows[i].bytes += len(r.PDU.OwnBytes()) + r.GapLength
}

func (s *msgStat) Print(w io.Writer) {
	rows := append([]msgRow(nil), s.rows...)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].proto < rows[j].proto })
	if s.byDir {
		fmt.Fprint(w, rule, "Minecraft packets by protocol, message and direction\n", rule)
		fmt.Fprintf(w, "%-10s %-44s %-9s %8s %12s\n", "Protocol", "Message", "Direction", "PDUs", "Bytes")
		for _, r := range rows {
			fmt.Fprintf(w, "%-10s %-44s %-9s %8d %12d\n", r.proto, safe(r.msg), r.dir, r.n, r.bytes)
		}
		fmt.Fprint(w, rule)
		return
	}
	fmt.Fprint(w, rule, "Minecraft PDUs by protocol and message\n", rule)
	fmt.Fprintf(w, "%-10s %-44s %8s %12s\n", "Protocol", "Message", "PDUs", "Bytes")
	for _, r := range rows {
		fmt.Fprintf(w, "%-10s %-44s %8d %12d\n", r.proto, safe(r.msg), r.n, r.bytes)
	}
	fmt.Fprint(w, rule)
}

// convStat lists conversations: client address, server, protocol, PDUs
// and bytes each way. A client's ports are one row (a Query client or a
// server-list pinger opens a new port for each request: a row per port
// grew without end on a capture that runs for days), and past maxConvRows
// the newcomers are counted in one "others" row, last.
type convKey struct {
	client netip.Addr
	server netip.AddrPort
	proto  string
}

type convRow struct {
	k                  convKey
	c2s, s2c           int
	c2sBytes, s2cBytes int
	first, last        time.Duration
	seen               bool // others: has counted a record
}

type convStat struct {
	records
	idx    map[convKey]int
	rows   []convRow
	others convRow
	max    int // rows before "others" (maxConvRows)
}

// maxConvRows bounds the table: a table of more rows is no longer read.
const maxConvRows = 500

func (s *convStat) Record(r *record.Record) {
	client, server := r.Src, r.Dst
	if r.PDU.Dir == dissect.DirS2C {
		client, server = server, client
	}
	k := convKey{client.Addr(), server, r.Proto}
	var row *convRow
	if i, ok := s.idx[k]; ok {
		row = &s.rows[i]
	} else if len(s.rows) < s.maxRows() {
		s.idx[k] = len(s.rows)
		s.rows = append(s.rows, convRow{k: k, first: r.Rel})
		row = &s.rows[len(s.rows)-1]
	} else {
		row = &s.others
		if !row.seen {
			row.seen, row.first = true, r.Rel
		}
	}
	row.last = r.Rel
	if r.PDU.Dir == dissect.DirS2C {
		row.s2c++
		row.s2cBytes += len(r.PDU.OwnBytes())
	} else {
		row.c2s++
		row.c2sBytes += len(r.PDU.OwnBytes())
	}
}

func (s *convStat) maxRows() int {
	if s.max > 0 {
		return s.max
	}
	return maxConvRows
}

func (s *convStat) Print(w io.Writer) {
	fmt.Fprint(w, rule, "Minecraft conversations\n", rule)
	fmt.Fprintf(w, "%-23s %-23s %-8s %6s %8s %6s %8s %10s %10s\n", "Client", "Server", "Proto", "C→S", "Bytes", "S→C", "Bytes", "Start", "Duration")
	line := func(client, server, proto string, r *convRow) {
		fmt.Fprintf(w, "%-23s %-23s %-8s %6d %8d %6d %8d %10.6f %10.6f\n", client, server, proto,
			r.c2s, r.c2sBytes, r.s2c, r.s2cBytes, r.first.Seconds(), (r.last - r.first).Seconds())
	}
	for i := range s.rows {
		r := &s.rows[i]
		line(r.k.client.String(), r.k.server.String(), r.k.proto, r)
	}
	if s.others.seen {
		line("others", "", "", &s.others)
	}
	fmt.Fprint(w, rule)
}

func safe(s string) string { return string(dissect.AppendSafe(nil, s)) }

func (*msgStat) Reads() Reads  { return Reads{Records: true} }
func (*convStat) Reads() Reads { return Reads{Records: true} }

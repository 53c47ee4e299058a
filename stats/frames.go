package stats

import (
	"fmt"
	"io"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcdissect/mcdissect/filter"
	"github.com/mcdissect/mcdissect/record"
)

// The statistics over frames count them as tshark does: every frame read,
// Minecraft or not, with its length on the wire. They are fed on the
// reading goroutine (analyze.Options.OnFrame), apart from the records.

// maxStatRows bounds a conversation or endpoint table: a capture that runs
// for days meets millions of client ports. Past it, new rows are summed in
// one "others" line.
const maxStatRows = 1 << 16

// netConvStat is -z conv,tcp, conv,udp, conv,ip and conv,ipv6: frames
// and bytes each way per conversation, in tshark's layout ("<-" is B to
// A, A being the source of the conversation's first frame), the most
// frames first and, among equals, in order of first frame, as tshark
// lists them. A TCP conversation is a stream (tcp.stream): a 4-tuple
// reused after its connection ended is another row, as in tshark.
type netConvStat struct {
	frames
	kind   netKind
	idx    map[convEnds]int
	rows   []netConvRow
	others netConvRow
	first  time.Time
}

// netKind says which frames a conversation or endpoint table counts and
// how it names them.
type netKind struct {
	name      string // "TCP", "UDP", "IPv4", "IPv6"
	transport uint8  // 6 or 17; 0 for an IP table, which counts every IP frame
	v6        bool   // an IP table: IPv6 (else IPv4)
}

var (
	kindTCP  = netKind{name: "TCP", transport: 6}
	kindUDP  = netKind{name: "UDP", transport: 17}
	kindIPv4 = netKind{name: "IPv4"}
	kindIPv6 = netKind{name: "IPv6", v6: true}
)

// ports tells whether the table names ports (TCP and UDP).
func (k netKind) ports() bool { return k.transport != 0 }

// counts reports whether f is one of the table's frames.
func (k netKind) counts(f *record.FrameInfo) bool {
	if k.transport != 0 {
		return f.Transport == k.transport
	}
	return f.IP && f.Src.Addr().Is6() == k.v6
}

// ends are f's two ends as the table names them: without ports for an IP
// table.
func (k netKind) ends(f *record.FrameInfo) (netip.AddrPort, netip.AddrPort) {
	if k.transport == 0 {
		return netip.AddrPortFrom(f.Src.Addr(), 0), netip.AddrPortFrom(f.Dst.Addr(), 0)
	}
	return f.Src, f.Dst
}

func (k netKind) name1(a netip.AddrPort) string {
	if k.transport == 0 {
		return a.Addr().String()
	}
	return a.Addr().String() + ":" + strconv.Itoa(int(a.Port()))
}

// convEnds keys a conversation: its ends as first seen, and the TCP stream
// (-1 for the other tables).
type convEnds struct {
	a, b   netip.AddrPort
	stream int
}

type netConvRow struct {
	a, b             netip.AddrPort
	aFrames, bFrames int // frames sent by a, by b
	aBytes, bBytes   int
	start, last      time.Time
	used             bool
}

func newNetConvStat(k netKind) *netConvStat {
	return &netConvStat{kind: k, idx: map[convEnds]int{}}
}

func (s *netConvStat) Frame(f record.FrameInfo) {
	if s.first.IsZero() {
		s.first = f.Time
	}
	if !s.kind.counts(&f) {
		return
	}
	src, dst := s.kind.ends(&f)
	stream := -1
	if s.kind.transport == 6 {
		stream = f.TCP.Stream
	}
	var row *netConvRow
	fromA := true
	if i, ok := s.idx[convEnds{src, dst, stream}]; ok {
		row = &s.rows[i]
	} else if i, ok := s.idx[convEnds{dst, src, stream}]; ok {
		row, fromA = &s.rows[i], false
	} else if len(s.rows) < maxStatRows {
		s.idx[convEnds{src, dst, stream}] = len(s.rows)
		s.rows = append(s.rows, netConvRow{a: src, b: dst, start: f.Time})
		row = &s.rows[len(s.rows)-1]
	} else {
		row = &s.others
		if !row.used {
			row.start = f.Time
		}
	}
	row.used = true
	row.last = f.Time
	if fromA {
		row.aFrames++
		row.aBytes += f.Len
	} else {
		row.bFrames++
		row.bBytes += f.Len
	}
}

func (s *netConvStat) Print(w io.Writer) {
	const eq = "================================================================================\n"
	fmt.Fprint(w, eq, s.kind.name, " Conversations\nFilter:<No Filter>\n")
	indent, width := "", 20
	if s.kind.ports() {
		indent, width = "            ", 26
	}
	fmt.Fprintln(w, indent+"                                               |       <-      | |       ->      | |     Total     |    Relative    |   Duration   |")
	fmt.Fprintln(w, indent+"                                               | Frames  Bytes | | Frames  Bytes | | Frames  Bytes |      Start     |              |")
	// The duration is a difference of times relative to the first frame,
	// in seconds as float64, as tshark works it out: its last digit
	// rounds as tshark's does.
	line := func(a, b string, r *netConvRow) {
		fmt.Fprintf(w, "%-*s <-> %-*s  %6d %-9s  %6d %-9s  %6d %-9s  %14s %14.4f\n", width, a, width, b,
			r.bFrames, bytesCol(r.bBytes), r.aFrames, bytesCol(r.aBytes), r.aFrames+r.bFrames, bytesCol(r.aBytes+r.bBytes),
			fmtRel(r.start.Sub(s.first)), r.last.Sub(s.first).Seconds()-r.start.Sub(s.first).Seconds())
	}
	for _, i := range byFrames(len(s.rows), func(i int) int { return s.rows[i].aFrames + s.rows[i].bFrames }) {
		r := &s.rows[i]
		line(s.kind.name1(r.a), s.kind.name1(r.b), r)
	}
	if s.others.used {
		line("[others]", "[table full: "+strconv.Itoa(maxStatRows)+" rows]", &s.others)
	}
	fmt.Fprint(w, eq)
}

// byFrames is the order tshark lists conversations and endpoints in: the
// most frames first, equals in the order they were first seen.
func byFrames(n int, frames func(int) int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return frames(j) - frames(i) })
	return order
}

// bytesCol is tshark's "1121 bytes" column: SI units from ten thousand
// on, the quotient truncated (Wireshark's format_size).
func bytesCol(n int) string {
	switch {
	case n/1e12 >= 10:
		return strconv.Itoa(n/1e12) + " TB"
	case n/1e9 >= 10:
		return strconv.Itoa(n/1e9) + " GB"
	case n/1e6 >= 10:
		return strconv.Itoa(n/1e6) + " MB"
	case n/1e3 >= 10:
		return strconv.Itoa(n/1e3) + " kB"
	}
	return strconv.Itoa(n) + " bytes"
}

// fmtRel prints a relative time with nanoseconds, as tshark's Relative Start.
func fmtRel(d time.Duration) string {
	return strconv.FormatInt(int64(d/time.Second), 10) + "." + fmt.Sprintf("%09d", int64(d%time.Second))
}

// endpointsStat is -z endpoints,ip (IPv4), endpoints,ipv6, endpoints,tcp
// and endpoints,udp: frames and bytes per address (and port), sent and
// received, the most frames first, as tshark.
type endpointsStat struct {
	frames
	kind   netKind
	idx    map[netip.AddrPort]int
	rows   []endpointRow
	others endpointRow
}

type endpointRow struct {
	addr     netip.AddrPort
	txF, rxF int
	txB, rxB int
	used     bool
}

func newEndpointsStat(k netKind) *endpointsStat {
	return &endpointsStat{kind: k, idx: map[netip.AddrPort]int{}}
}

func (s *endpointsStat) Frame(f record.FrameInfo) {
	if !s.kind.counts(&f) {
		return
	}
	src, dst := s.kind.ends(&f)
	s.row(src, func(r *endpointRow) { r.txF++; r.txB += f.Len })
	s.row(dst, func(r *endpointRow) { r.rxF++; r.rxB += f.Len })
}

func (s *endpointsStat) row(a netip.AddrPort, fn func(*endpointRow)) {
	var r *endpointRow
	if i, ok := s.idx[a]; ok {
		r = &s.rows[i]
	} else if len(s.rows) < maxStatRows {
		s.idx[a] = len(s.rows)
		s.rows = append(s.rows, endpointRow{addr: a})
		r = &s.rows[len(s.rows)-1]
	} else {
		r = &s.others
	}
	r.used = true
	fn(r)
}

func (s *endpointsStat) Print(w io.Writer) {
	const eq = "================================================================================\n"
	fmt.Fprint(w, eq, s.kind.name, " Endpoints\nFilter:<No Filter>\n")
	if s.kind.ports() {
		fmt.Fprintln(w, "                       |  Port  ||  Packets  | |  Bytes  | | Tx Packets | | Tx Bytes | | Rx Packets | | Rx Bytes |")
	} else {
		fmt.Fprintln(w, "                       |  Packets  | |  Bytes  | | Tx Packets | | Tx Bytes | | Rx Packets | | Rx Bytes |")
	}
	line := func(r *endpointRow, others bool) {
		name := r.addr.Addr().String()
		if others {
			name = "[others]"
		}
		if s.kind.ports() {
			port := strconv.Itoa(int(r.addr.Port()))
			if others {
				port = ""
			}
			fmt.Fprintf(w, "%-20s      %5s %10d %13d %10d %15d %11d %15d   \n", name, port, r.txF+r.rxF, r.txB+r.rxB, r.txF, r.txB, r.rxF, r.rxB)
			return
		}
		fmt.Fprintf(w, "%-20s %11d %13d %10d %15d %11d %15d   \n", name, r.txF+r.rxF, r.txB+r.rxB, r.txF, r.txB, r.rxF, r.rxB)
	}
	for _, i := range byFrames(len(s.rows), func(i int) int { return s.rows[i].txF + s.rows[i].rxF }) {
		line(&s.rows[i], false)
	}
	if s.others.used {
		line(&s.others, true)
	}
	fmt.Fprint(w, eq)
}

// ioStat is -z io,stat,INTERVAL[,FILTER...]: frames and bytes per interval
// (every frame read), and for each FILTER the PDUs matching it and their
// bytes. tshark's filters select frames; mcdissect's select PDUs, so those
// columns say PDUs. An interval of 0 is the whole capture.
type ioStat struct {
	interval time.Duration
	specs    []string
	flts     []*filter.Filter
	first    time.Time
	last     time.Time
	frames   []ioCell   // per interval
	pdus     [][]ioCell // per filter, per interval
	recFirst time.Time
	prec     int // decimals of the times shown
}

type ioCell struct{ n, bytes int }

// maxIntervals bounds the table: a small interval over a long capture
// would otherwise grow without end.
const maxIntervals = 1 << 20

func newIOStat(args string) (*ioStat, error) {
	parts := splitStatArgs(args)
	if len(parts) == 0 || parts[0] == "" {
		return nil, fmt.Errorf("-z io,stat needs an interval in seconds, e.g. -z io,stat,1")
	}
	sec, err := strconv.ParseFloat(parts[0], 64)
	if err != nil || sec < 0 {
		return nil, fmt.Errorf("-z io,stat,%s: the interval must be a number of seconds (0 for the whole capture)", parts[0])
	}
	s := &ioStat{interval: time.Duration(sec * float64(time.Second)), prec: 3}
	if sec > 0 {
		// tshark shows times with as many decimals as the interval has.
		s.prec = 0
		if _, frac, ok := strings.Cut(parts[0], "."); ok {
			s.prec = min(len(strings.TrimRight(frac, "0")), 6)
		}
	}
	if sec > 0 && s.interval < time.Microsecond {
		return nil, fmt.Errorf("-z io,stat,%s: the interval must be at least 0.000001 s", parts[0])
	}
	for _, p := range parts[1:] {
		f, err := filter.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("-z io,stat filter %q: %v", p, err)
		}
		s.specs = append(s.specs, p)
		s.flts = append(s.flts, f)
	}
	s.pdus = make([][]ioCell, len(s.flts))
	return s, nil
}

// splitStatArgs splits "1,udp,\"a,b\"" on commas outside double quotes.
func splitStatArgs(s string) []string {
	var out []string
	var cur strings.Builder
	q := false
	for _, c := range s {
		switch {
		case c == '"':
			q = !q
		case c == ',' && !q:
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteRune(c)
		}
	}
	return append(out, cur.String())
}

func (s *ioStat) slot(t time.Time) int {
	if s.interval <= 0 {
		return 0
	}
	i := int(t.Sub(s.first) / s.interval)
	return min(max(i, 0), maxIntervals-1)
}

func (s *ioStat) Frame(f record.FrameInfo) {
	if s.first.IsZero() {
		s.first = f.Time
	}
	if f.Time.After(s.last) {
		s.last = f.Time
	}
	i := s.slot(f.Time)
	for len(s.frames) <= i {
		s.frames = append(s.frames, ioCell{})
	}
	s.frames[i].n++
	s.frames[i].bytes += f.Len
}

// Record counts a record in the columns of the filters it matches. It runs
// on the back end's goroutine, which may be ahead of or behind the reading
// one: records' slots are placed by their own time against the first
// record's, and the frames' first time is what the table uses.
func (s *ioStat) Record(r *record.Record) {
	if len(s.flts) == 0 {
		return
	}
	if s.recFirst.IsZero() {
		s.recFirst = r.Time.Add(-r.Rel) // the capture's first frame
	}
	i := 0
	if s.interval > 0 {
		i = min(max(int(r.Rel/s.interval), 0), maxIntervals-1)
	}
	for k, f := range s.flts {
		if !f.Match(r) {
			continue
		}
		col := s.pdus[k]
		for len(col) <= i {
			col = append(col, ioCell{})
		}
		col[i].n++
		col[i].bytes += len(r.PDU.OwnBytes()) + r.GapLength
		s.pdus[k] = col
	}
}

func (s *ioStat) Print(w io.Writer) {
	dur := s.last.Sub(s.first)
	iv := s.interval
	if iv <= 0 || iv > dur {
		iv = dur // one row, the whole capture, as tshark
	}
	n := len(s.frames)
	for _, col := range s.pdus {
		n = max(n, len(col))
	}
	n = max(n, 1)
	prec := s.prec
	if iv == dur {
		prec = 3
	}
	secs := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', prec, 64) }
	durText := secs(dur)
	if prec == 0 {
		durText = strconv.FormatFloat(dur.Seconds(), 'f', 6, 64)
	}
	mag := len(secs(dur))
	// Cells, then widths.
	type column struct {
		head  [2]string
		cells [][2]string
	}
	cols := []column{{head: [2]string{"Frames", "Bytes"}}}
	for range s.flts {
		cols = append(cols, column{head: [2]string{"PDUs", "Bytes"}})
	}
	var labels []string
	for i := 0; i < n; i++ {
		from := time.Duration(i) * iv
		to := from + iv
		end := secs(min(to, dur))
		if prec == 0 {
			// Whole seconds: tshark pads both ends to three places
			// and calls the last one's end "Dur".
			w := max(mag, 3)
			if to > dur {
				end = "Dur"
			}
			labels = append(labels, fmt.Sprintf("%*s <> %-*s", w, secs(from), w, end))
		} else {
			labels = append(labels, fmt.Sprintf("%*s <> %*s", mag, secs(from), mag, end))
		}
		get := func(cells []ioCell) ioCell {
			if i < len(cells) {
				return cells[i]
			}
			return ioCell{}
		}
		c := get(s.frames)
		cols[0].cells = append(cols[0].cells, [2]string{strconv.Itoa(c.n), strconv.Itoa(c.bytes)})
		for k := range s.flts {
			c := get(s.pdus[k])
			cols[k+1].cells = append(cols[k+1].cells, [2]string{strconv.Itoa(c.n), strconv.Itoa(c.bytes)})
		}
	}
	lw := len("Interval")
	for _, l := range labels {
		lw = max(lw, len(l))
	}
	// A row's label is framed "| label |", or "|label|" for whole seconds,
	// whose labels take the frame's spaces.
	framed := func(l string) string {
		if prec == 0 {
			return fmt.Sprintf("|%-*s|", lw, l)
		}
		return fmt.Sprintf("| %-*s |", lw, l)
	}
	if prec == 0 {
		lw = max(lw, len("Interval")+2)
	}
	var widths [][2]int
	total := len(framed(""))
	for _, c := range cols {
		w0, w1 := len(c.head[0]), len(c.head[1])
		for _, v := range c.cells {
			w0, w1 = max(w0, len(v[0])), max(w1, len(v[1]))
		}
		widths = append(widths, [2]int{w0, w1})
		total += w0 + w1 + 6
	}
	head := []string{"IO Statistics", "", "Duration: " + durText + " secs", "Interval: " + fmt.Sprintf("%*s", mag, secs(iv)) + " secs", ""}
	if len(s.flts) == 0 {
		head = append(head, "Col 1: Frames and bytes")
	} else {
		head = append(head, "Col 1: Frames and bytes (every frame)")
		for k, sp := range s.specs {
			head = append(head, fmt.Sprintf("    %d: %s (PDUs)", k+2, sp))
		}
	}
	for _, h := range head {
		total = max(total, len(h)+4)
	}
	bar := strings.Repeat("=", total)
	dash := "|" + strings.Repeat("-", total-2) + "|"
	fmt.Fprintln(w) // tshark's io,stat starts with an empty line
	fmt.Fprintln(w, bar)
	for _, h := range head {
		fmt.Fprintf(w, "| %-*s |\n", total-4, h)
	}
	fmt.Fprintln(w, dash)
	var b strings.Builder
	b.WriteString(framed(""))
	for k := range cols {
		cw := widths[k][0] + widths[k][1] + 5
		fmt.Fprintf(&b, "%-*s|", cw, strconv.Itoa(k+1))
	}
	fmt.Fprintln(w, pad(b.String(), total))
	b.Reset()
	if prec == 0 {
		fmt.Fprintf(&b, "| %-*s |", lw-2, "Interval")
	} else {
		fmt.Fprintf(&b, "| %-*s |", lw, "Interval")
	}
	for k, c := range cols {
		fmt.Fprintf(&b, " %*s | %*s |", widths[k][0], c.head[0], widths[k][1], c.head[1])
	}
	fmt.Fprintln(w, pad(b.String(), total))
	fmt.Fprintln(w, dash)
	for i, l := range labels {
		b.Reset()
		b.WriteString(framed(l))
		for k, c := range cols {
			fmt.Fprintf(&b, " %*s | %*s |", widths[k][0], c.cells[i][0], widths[k][1], c.cells[i][1])
		}
		fmt.Fprintln(w, pad(b.String(), total))
	}
	fmt.Fprintln(w, bar)
}

// pad ends a table line at the table's width.
func pad(s string, width int) string {
	if n := len(s); n < width {
		return s[:n-1] + strings.Repeat(" ", width-n) + "|"
	}
	return s
}

func (*netConvStat) Reads() Reads   { return Reads{Frames: true} }
func (*endpointsStat) Reads() Reads { return Reads{Frames: true} }

// Reads: the frames, and with filters the records they match, with their
// trees when a filter reads a tree field.
func (s *ioStat) Reads() Reads {
	r := Reads{Frames: true, Records: len(s.flts) > 0}
	for _, f := range s.flts {
		r.Trees = r.Trees || f.NeedsTree()
	}
	return r
}

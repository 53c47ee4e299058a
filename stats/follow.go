package stats

import (
	"fmt"
	"io"
	"net/netip"
	"strconv"
	"strings"

	"github.com/mcdissect/mcdissect/record"
)

// followStat is -z follow,tcp|udp,ascii|hex|raw,N (or ADDR:PORT,ADDR:PORT
// for N): the payload of one conversation, chunk by chunk, as tshark's
// follow prints it. It reads frames: tshark follows the TCP segments as
// they were sent, not the PDUs, so the chunks are the segments' new bytes
// in sequence order. The algorithm is tshark's (follow_tcp_tap_listener):
// a segment that starts where the direction's stream has got to is a
// chunk; one that starts past it waits, and is used when the bytes before
// it arrive, or with a "[N bytes missing in capture file]" chunk when the
// other side acknowledges past them; bytes seen already are dropped. UDP
// streams are numbered as tshark's udp.stream: address and port pairs, in
// order of first frame.
type followStat struct {
	frames
	udp    bool
	mode   string
	stream int               // the stream followed; -1 when ends says
	ends   [2]netip.AddrPort // the address form
	filter string            // the Filter: line

	// UDP stream numbering, until stream N is found.
	udpIdx map[[2]netip.AddrPort]int

	started        bool
	client, server netip.AddrPort
	seq            [2]uint32 // next expected relative sequence number, client 0, server 1
	written        [2]int    // bytes written in order (tshark's bytes_written)
	frags          [2][]followChunk
	chunks         []followChunk
	held           int  // bytes held in chunks and frags
	full           bool // past maxFollowBytes: later bytes are dropped, and Print says so
}

type followChunk struct {
	server bool
	seq    uint32
	data   []byte
}

// maxFollowBytes bounds what a follow holds until it prints (tshark
// writes it to a temporary file instead).
var maxFollowBytes = 256 << 20

// newFollowStat parses "tcp,MODE,N" or "udp,MODE,ADDR:PORT,ADDR:PORT".
func newFollowStat(args string) (*followStat, error) {
	parts := strings.Split(args, ",")
	usage := fmt.Errorf("-z follow,%s: use -z follow,tcp|udp,ascii|hex|raw,N (the stream index, tcp.stream) or -z follow,tcp|udp,MODE,ADDR:PORT,ADDR:PORT", args)
	if len(parts) != 3 && len(parts) != 4 {
		return nil, usage
	}
	s := &followStat{stream: -1}
	switch parts[0] {
	case "tcp":
	case "udp":
		s.udp = true
	default:
		return nil, usage
	}
	switch parts[1] {
	case "ascii", "hex", "raw":
		s.mode = parts[1]
	default:
		return nil, fmt.Errorf("-z follow,%s: the mode is ascii, hex or raw, not %q", args, parts[1])
	}
	tp := "tcp"
	if s.udp {
		tp = "udp"
	}
	if len(parts) == 3 {
		n, err := strconv.Atoi(parts[2])
		if err != nil || n < 0 {
			return nil, usage
		}
		s.stream = n
		s.filter = tp + ".stream eq " + parts[2]
		if s.udp {
			s.udpIdx = map[[2]netip.AddrPort]int{}
		}
		return s, nil
	}
	for i, p := range parts[2:] {
		ap, err := netip.ParseAddrPort(p)
		if err != nil {
			return nil, fmt.Errorf("-z follow,%s: %q is not ADDR:PORT (an IPv6 address in brackets: [::1]:25565)", args, p)
		}
		s.ends[i] = ap
	}
	s.filter = followAddrFilter(tp, s.ends[0], s.ends[1])
	return s, nil
}

// followAddrFilter is the filter tshark shows for the address form.
func followAddrFilter(tp string, a, b netip.AddrPort) string {
	v := ""
	if a.Addr().Is6() {
		v = "v6"
	}
	half := func(x, y netip.AddrPort) string {
		return fmt.Sprintf("((ip%s.src eq %s and %s.srcport eq %d) and (ip%s.dst eq %s and %s.dstport eq %d))",
			v, x.Addr(), tp, x.Port(), v, y.Addr(), tp, y.Port())
	}
	return half(a, b) + " or " + half(b, a)
}

func (s *followStat) Reads() Reads { return Reads{Frames: true, Payloads: true} }

// match tells whether f belongs to the stream followed.
func (s *followStat) match(f *record.FrameInfo) bool {
	want := uint8(6)
	if s.udp {
		want = 17
	}
	if f.Transport != want || !f.IP {
		return false
	}
	if s.stream < 0 || (s.udp && s.udpIdx == nil) {
		return f.Src == s.ends[0] && f.Dst == s.ends[1] || f.Src == s.ends[1] && f.Dst == s.ends[0]
	}
	if !s.udp {
		return f.TCP.Stream == s.stream
	}
	k := [2]netip.AddrPort{f.Src, f.Dst}
	if lessAddrPort(f.Dst, f.Src) {
		k = [2]netip.AddrPort{f.Dst, f.Src}
	}
	i, ok := s.udpIdx[k]
	if !ok {
		if len(s.udpIdx) > s.stream {
			return false // numbered past N: not the stream followed
		}
		i = len(s.udpIdx)
		s.udpIdx[k] = i
	}
	if i != s.stream {
		return false
	}
	// Found: from here the stream is its two ends; the numbering is done.
	s.ends, s.udpIdx = k, nil
	return true
}

func lessAddrPort(a, b netip.AddrPort) bool {
	if c := a.Addr().Compare(b.Addr()); c != 0 {
		return c < 0
	}
	return a.Port() < b.Port()
}

func (s *followStat) Frame(f record.FrameInfo) {
	if !s.match(&f) {
		return
	}
	if !s.started {
		s.started, s.client, s.server = true, f.Src, f.Dst
	}
	server := f.Src != s.client
	if s.udp {
		s.add(followChunk{server: server, data: f.Payload})
		return
	}
	s.segment(&f, server)
}

// add keeps a chunk in order, copying its bytes (Payload is a view).
func (s *followStat) add(c followChunk) {
	if s.full || s.held+len(c.data) > maxFollowBytes {
		s.full = true
		return
	}
	c.data = append([]byte(nil), c.data...)
	s.held += len(c.data)
	s.chunks = append(s.chunks, c)
}

// seqLT and seqGT compare sequence numbers modulo 2^32.
func seqLT(a, b uint32) bool { return int32(a-b) < 0 }
func seqGT(a, b uint32) bool { return int32(a-b) > 0 }

// segment is tshark's follow_tcp_tap_listener for one segment.
func (s *followStat) segment(f *record.FrameInfo, server bool) {
	d := 0
	if server {
		d = 1
	}
	seq := f.TCP.Seq
	if f.TCP.SYN {
		seq++
	}
	data := f.Payload
	length := uint32(f.TCP.Len)
	// An acknowledgement past bytes the other direction is missing: the
	// receiver had them, the capture did not.
	if len(s.frags[1-d]) > 0 {
		for s.useFrag(1-d, f.TCP.Ack, true) {
		}
	}
	if s.written[d] == 0 && s.seq[d] == 0 {
		s.seq[d] = seq
	}
	if seqLT(seq, s.seq[d]) {
		next := seq + length
		if seqGT(next, s.seq[d]) {
			off := s.seq[d] - seq
			if uint32(len(data)) <= off {
				data = nil
			} else {
				data = data[off:]
			}
			seq, length = s.seq[d], next-s.seq[d]
		}
	}
	if len(data) == 0 || seqLT(seq, s.seq[d]) {
		return
	}
	c := followChunk{server: server, seq: seq, data: data}
	if seq == s.seq[d] {
		s.seq[d] += length
		s.written[d] += len(data)
		s.add(c)
		for s.useFrag(d, 0, false) {
		}
		return
	}
	// Out of order: it waits for the bytes before it.
	if s.full || s.held+len(data) > maxFollowBytes {
		s.full = true
		return
	}
	c.data = append([]byte(nil), data...)
	s.held += len(data)
	s.frags[d] = append(s.frags[d], c)
}

// useFrag is tshark's check_follow_fragments: it applies one waiting
// segment of direction d that fits, or, when useAck and ack lies past the
// lowest waiting one, a chunk saying how many bytes the capture missed.
// It reports whether it applied one.
func (s *followStat) useFrag(d int, ack uint32, useAck bool) bool {
	fr := s.frags[d]
	if len(fr) == 0 {
		return false
	}
	lowest := fr[0].seq
	for i := range fr {
		c := &fr[i]
		if seqGT(lowest, c.seq) {
			lowest = c.seq
		}
		if seqLT(c.seq, s.seq[d]) {
			end := c.seq + uint32(len(c.data))
			if seqGT(end, s.seq[d]) {
				pos := s.seq[d] - c.seq
				if uint32(len(c.data)) > pos {
					s.chunks = append(s.chunks, followChunk{server: d == 1, data: c.data[pos:]})
				}
				s.seq[d] += uint32(len(c.data)) - pos
			}
			s.frags[d] = append(fr[:i], fr[i+1:]...)
			return true
		}
		if c.seq == s.seq[d] {
			if len(c.data) > 0 {
				s.chunks = append(s.chunks, *c)
			}
			s.seq[d] += uint32(len(c.data))
			s.frags[d] = append(fr[:i], fr[i+1:]...)
			return true
		}
	}
	if useAck && seqGT(ack, lowest) {
		// tshark's chunk holds the text and its terminating NUL.
		msg := "[" + strconv.Itoa(int(int32(lowest-s.seq[d]))) + " bytes missing in capture file]\x00"
		s.chunks = append(s.chunks, followChunk{server: d == 1, seq: lowest, data: []byte(msg)})
		s.seq[d] = lowest
		return true
	}
	return false
}

func (s *followStat) Print(w io.Writer) {
	const sep = "===================================================================\n"
	tp := "tcp"
	if s.udp {
		tp = "udp"
	}
	fmt.Fprintf(w, "\n%sFollow: %s,%s\nFilter: %s\n", sep, tp, s.mode, s.filter)
	node := func(a netip.AddrPort) string {
		if !s.started {
			return ":0"
		}
		if a.Addr().Is6() {
			return "[" + a.Addr().String() + "]:" + strconv.Itoa(int(a.Port()))
		}
		return a.String()
	}
	fmt.Fprintf(w, "Node 0: %s\nNode 1: %s\n", node(s.client), node(s.server))
	var pos [2]int
	var line []byte
	for _, c := range s.chunks {
		d := 0
		prefix := ""
		if c.server {
			d, prefix = 1, "\t"
		}
		switch s.mode {
		case "ascii":
			line = append(line[:0], prefix...)
			line = strconv.AppendInt(line, int64(len(c.data)), 10)
			line = append(line, '\n')
			for _, b := range c.data {
				if b != '\r' && b != '\n' && (b < 0x20 || b > 0x7e) {
					b = '.'
				}
				line = append(line, b)
			}
			line = append(line, '\n')
			w.Write(line)
		case "raw":
			line = append(line[:0], prefix...)
			line = appendHexLower(line, c.data)
			line = append(line, '\n')
			w.Write(line)
		case "hex":
			followHex(w, prefix, pos[d], c.data)
		}
		pos[d] += len(c.data)
	}
	if s.full {
		fmt.Fprintf(w, "[mcdissect: the stream holds more than %d MB: the rest is not shown]\n", maxFollowBytes>>20)
	}
	fmt.Fprint(w, sep)
}

func appendHexLower(b, data []byte) []byte {
	const digits = "0123456789abcdef"
	for _, c := range data {
		b = append(b, digits[c>>4], digits[c&15])
	}
	return b
}

// followHex prints data as tshark's follow hex dump: an 8-digit offset in
// the direction's stream, 16 bytes a line in two groups of 8, and their
// printable ASCII.
func followHex(w io.Writer, prefix string, off int, data []byte) {
	const digits = "0123456789abcdef"
	var line [80]byte
	for i := 0; i < len(data); i += 16 {
		n := min(16, len(data)-i)
		for k := range line {
			line[k] = ' '
		}
		o := strconv.AppendInt(nil, int64(off+i), 16)
		copy(line[8-len(o):8], strings.ToUpper(string(o)))
		for k := 0; k < 8-len(o); k++ {
			line[k] = '0'
		}
		hx, as := 10, 60
		for k := 0; k < n; k++ {
			c := data[i+k]
			line[hx], line[hx+1] = digits[c>>4], digits[c&15]
			hx += 3
			if c >= 0x20 && c < 0x7f {
				line[as] = c
			} else {
				line[as] = '.'
			}
			as++
			if k == 7 {
				hx++
				as++
			}
		}
		if line[as-1] == ' ' {
			as--
		}
		fmt.Fprintf(w, "%s%s\n", prefix, line[:as])
	}
}

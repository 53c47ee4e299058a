package reassembly

import (
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// Toy framers, independent of any real protocol.

// markFramer frames [0xAA][n][n bytes]. After a gap it resynchronises on the
// next 0xAA (resync) or gives up (lost).
type markFramer struct{ lost bool }

func (f markFramer) frame(buf []byte, afterGap bool) FrameResult {
	if afterGap && buf[0] != 0xAA {
		if f.lost {
			return Lost()
		}
		for i, b := range buf {
			if b == 0xAA {
				return Skip(i)
			}
		}
		return Skip(len(buf))
	}
	if buf[0] != 0xAA {
		return Lost()
	}
	if len(buf) < 2 {
		return NeedMore(0)
	}
	n := 2 + int(buf[1])
	if len(buf) < n {
		return NeedMore(n)
	}
	return OK(n)
}

// prefixFramer frames [n][n bytes]; every byte string frames.
func prefixFrame(buf []byte) FrameResult {
	n := 1 + int(buf[0])
	if len(buf) < n {
		return NeedMore(n)
	}
	return OK(n)
}

// fixedFramer frames PDUs of n bytes.
func fixedFrame(n int) func([]byte) FrameResult {
	return func(buf []byte) FrameResult {
		if len(buf) < n {
			return NeedMore(n)
		}
		return OK(n)
	}
}

// bigFramer frames [4-byte big-endian length][body]: a hostile length asks
// for up to 4 GiB.
func bigFrame(buf []byte) FrameResult {
	if len(buf) < 4 {
		return NeedMore(0)
	}
	n := 4 + int(uint32(buf[0])<<24|uint32(buf[1])<<16|uint32(buf[2])<<8|uint32(buf[3]))
	if len(buf) < n {
		return NeedMore(n)
	}
	return OK(n)
}

// recorder is a ConnHandler that formats every unit as one line.
type recorder struct {
	frame func(d Dir, buf []byte, afterGap bool) FrameResult
	log   *[]string
	units *[]Unit // copies, for the fuzz invariants
}

func (rc *recorder) Frame(d Dir, buf []byte, afterGap bool) FrameResult {
	return rc.frame(d, buf, afterGap)
}

func (rc *recorder) Deliver(u *Unit) {
	if rc.log != nil {
		*rc.log = append(*rc.log, formatUnit(u))
	}
	if rc.units != nil {
		c := *u
		c.Data = append([]byte(nil), u.Data...)
		c.Parts = append([]Part(nil), u.Parts...)
		*rc.units = append(*rc.units, c)
	}
}

// formatUnit writes a unit the way the expectations in the tests read:
// "s0 c2s pdu @0+3 #3 [#3(3)]", plus the reason when there is one.
func formatUnit(u *Unit) string {
	var b strings.Builder
	d := "c2s"
	if u.Dir == ServerToClient {
		d = "s2c"
	}
	fmt.Fprintf(&b, "s%d %s %s @%d+%d #%d", u.Conn.Stream, d, u.Kind, u.StreamOffset, u.Length, u.Frame)
	if len(u.Parts) > 0 {
		b.WriteString(" [")
		for i, p := range u.Parts {
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "#%d(%d)", p.Frame, p.Bytes)
		}
		b.WriteString("]")
	}
	if u.Reason != "" {
		fmt.Fprintf(&b, " %q", u.Reason)
	}
	return b.String()
}

// Segment scripts.

var t0 = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

const (
	cISN = 1000
	sISN = 5000
)

// pkt is one segment of a test script. Frames are numbered from 1 in script
// order; at is the packet time in milliseconds after t0.
type pkt struct {
	s2c     bool
	seq     uint32
	flags   string // any of S A F R
	payload []byte
	at      int
	conn    int // 4-tuple number: different client ports
	ack     uint32
}

// c2s and s2c build data segments relative to the default ISNs: off is the
// stream offset (ISN+1 is offset 0).
func c2s(off int, payload ...byte) pkt {
	return pkt{seq: uint32(cISN + 1 + off), flags: "A", payload: payload}
}

func s2c(off int, payload ...byte) pkt {
	return pkt{s2c: true, seq: uint32(sISN + 1 + off), flags: "A", payload: payload}
}

func (p pkt) with(flags string) pkt { p.flags = flags; return p }
func (p pkt) atMs(ms int) pkt       { p.at = ms; return p }
func (p pkt) onConn(n int) pkt      { p.conn = n; return p }

var handshake = []pkt{
	{seq: cISN, flags: "S"},
	{s2c: true, seq: sISN, flags: "SA"},
	{seq: cISN + 1, flags: "A"},
}

var (
	clientIP = netip.MustParseAddr("10.0.0.1")
	serverIP = netip.MustParseAddr("10.0.0.2")
)

const serverPort = 25565

// feed plays a script; frame numbers are first+index.
func feed(r *Reassembler, first uint64, script []pkt) {
	for i, p := range script {
		feedOne(r, first+uint64(i), p)
	}
}

func feedOne(r *Reassembler, frame uint64, p pkt) {
	cip, sip := clientIP.As4(), serverIP.As4()
	cport := layers.TCPPort(50000 + p.conn)
	tcp := &layers.TCP{Seq: p.seq, SrcPort: cport, DstPort: serverPort}
	netFlow := gopacket.NewFlow(layers.EndpointIPv4, cip[:], sip[:])
	if p.s2c {
		tcp.SrcPort, tcp.DstPort = serverPort, cport
		netFlow = netFlow.Reverse()
	}
	tcp.SYN = strings.Contains(p.flags, "S")
	tcp.ACK = strings.Contains(p.flags, "A")
	tcp.FIN = strings.Contains(p.flags, "F")
	tcp.RST = strings.Contains(p.flags, "R")
	tcp.Ack = p.ack
	// Feed gets a buffer that is scribbled over afterwards, as a capture
	// layer reusing its buffer would, so any byte kept by mistake shows.
	buf := append([]byte(nil), p.payload...)
	tcp.Payload = buf
	ci := gopacket.CaptureInfo{Timestamp: t0.Add(time.Duration(p.at) * time.Millisecond), CaptureLength: len(buf), Length: len(buf)}
	r.Feed(frame, ci, netFlow, tcp)
	for i := range buf {
		buf[i] = 0xEE
	}
}

// pdu builds a markFramer PDU with n body bytes of value v.
func pdu(n int, v byte) []byte {
	b := []byte{0xAA, byte(n)}
	for i := 0; i < n; i++ {
		b = append(b, v)
	}
	return b
}

func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// sameStats compares Stats but for PeakQueued: with viaStore, bytes that
// come in order are held for a moment too.
func sameStats(a, b Stats) bool {
	a.PeakQueued, b.PeakQueued = 0, 0
	return a == b
}

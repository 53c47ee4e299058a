package slp

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

// The pipeline frames a TCP connection on one goroutine (one Conn) and
// decodes it on another (a second Conn from NewConn, on which Frame is
// never called). These tests replay the SLP samples through a small
// stdlib-only TCP reassembler and check that decoding on a second Conn,
// after all the framing is done, gives exactly what one Conn doing both
// gives; and that Lite decoding gives the same Message, Info, Dir and
// Pending as full decoding.

// tcpSeg is one TCP segment of a classic pcap file (Ethernet, IPv4).
type tcpSeg struct {
	frame    uint64
	time     time.Time
	src, dst string
	sport    uint16
	dport    uint16
	seq      uint32
	syn, ack bool
	fin, rst bool
	payload  []byte
}

func readTCP(path string) ([]tcpSeg, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) < 24 || binary.LittleEndian.Uint32(b) != 0xa1b2c3d4 {
		return nil, fmt.Errorf("%s: not a little-endian microsecond pcap", path)
	}
	if lt := binary.LittleEndian.Uint32(b[20:]); lt != 1 {
		return nil, fmt.Errorf("%s: link type %d, want Ethernet", path, lt)
	}
	var out []tcpSeg
	var frame uint64
	for off := 24; off+16 <= len(b); {
		sec, usec := binary.LittleEndian.Uint32(b[off:]), binary.LittleEndian.Uint32(b[off+4:])
		incl := int(binary.LittleEndian.Uint32(b[off+8:]))
		off += 16
		if off+incl > len(b) {
			return nil, fmt.Errorf("%s: record cut", path)
		}
		pkt := b[off : off+incl]
		off += incl
		frame++
		if len(pkt) < 14+20 || binary.BigEndian.Uint16(pkt[12:]) != 0x0800 {
			continue
		}
		ip := pkt[14:]
		ihl := int(ip[0]&15) * 4
		tot := int(binary.BigEndian.Uint16(ip[2:]))
		if ip[9] != 6 || tot > len(ip) || tot < ihl+20 {
			continue
		}
		tcp := ip[ihl:tot]
		doff := int(tcp[12]>>4) * 4
		if doff < 20 || doff > len(tcp) {
			continue
		}
		fl := tcp[13]
		sp, dp := binary.BigEndian.Uint16(tcp), binary.BigEndian.Uint16(tcp[2:])
		out = append(out, tcpSeg{
			frame: frame, time: time.Unix(int64(sec), int64(usec)*1000).UTC(),
			src:   fmt.Sprintf("%d.%d.%d.%d:%d", ip[12], ip[13], ip[14], ip[15], sp),
			dst:   fmt.Sprintf("%d.%d.%d.%d:%d", ip[16], ip[17], ip[18], ip[19], dp),
			sport: sp, dport: dp,
			seq: binary.BigEndian.Uint32(tcp[4:]),
			fin: fl&1 != 0, syn: fl&2 != 0, rst: fl&4 != 0, ack: fl&16 != 0,
			payload: tcp[doff:],
		})
	}
	return out, nil
}

// chunk is in-order stream bytes of one direction, as a reassembler hands
// them to the framing loop; afterGap says bytes are missing before them.
type chunk struct {
	conn     int
	dir      dissect.Dir
	data     []byte
	afterGap bool
	end      bool // the connection ended (data is empty)
	frame    uint64
	time     time.Time
	client   string
	server   string
}

type held struct {
	seq  uint32
	data []byte
	seg  *tcpSeg
}

type halfState struct {
	next  uint32
	valid bool
	gap   bool // the next bytes delivered follow missing ones
	held  []held
}

type connState struct {
	id             int
	client, server string
	half           [2]halfState // [0] client to server
	fin            [2]bool
	ended          bool
}

// streams reassembles the segments into chunks, in capture order: bytes
// are delivered as soon as they are in order; segments past a hole are
// held until the hole fills or the direction ends (FIN, RST or the end of
// the capture), when they are delivered after a gap.
func streams(segs []tcpSeg) []chunk {
	var out []chunk
	conns := map[string]*connState{}
	var order []*connState
	key := func(a, b string) string {
		if a < b {
			return a + "|" + b
		}
		return b + "|" + a
	}
	deliver := func(c *connState, d int, h *halfState, s *tcpSeg, seq uint32, data []byte) {
		diff := int32(seq - h.next)
		if diff > 0 {
			h.held = append(h.held, held{seq, data, s})
			return
		}
		if int(-diff) >= len(data) {
			return // all of it was delivered already
		}
		data = data[-diff:]
		dir := dissect.DirC2S
		if d == 1 {
			dir = dissect.DirS2C
		}
		out = append(out, chunk{conn: c.id, dir: dir, data: data, afterGap: h.gap, frame: s.frame, time: s.time, client: c.client, server: c.server})
		h.gap = false
		h.next += uint32(len(data))
	}
	drain := func(c *connState, d int, force bool) {
		h := &c.half[d]
		for len(h.held) > 0 {
			sort.SliceStable(h.held, func(i, j int) bool { return int32(h.held[i].seq-h.held[j].seq) < 0 })
			x := h.held[0]
			if int32(x.seq-h.next) > 0 {
				if !force {
					return
				}
				h.gap = true
				h.next = x.seq
			}
			h.held = h.held[1:]
			deliver(c, d, h, x.seg, x.seq, x.data)
		}
	}
	end := func(c *connState, s *tcpSeg) {
		if c.ended {
			return
		}
		drain(c, 0, true)
		drain(c, 1, true)
		c.ended = true
		out = append(out, chunk{conn: c.id, end: true, frame: s.frame, time: s.time, client: c.client, server: c.server})
	}
	var last *tcpSeg
	for k := range segs {
		s := &segs[k]
		last = s
		c := conns[key(s.src, s.dst)]
		if c == nil || c.ended && s.syn && !s.ack {
			c = &connState{id: len(order)}
			switch {
			case s.syn && !s.ack, !s.syn && s.sport > s.dport:
				c.client, c.server = s.src, s.dst
			default:
				c.client, c.server = s.dst, s.src
			}
			conns[key(s.src, s.dst)] = c
			order = append(order, c)
		}
		if c.ended {
			continue
		}
		d := 0
		if s.src == c.server {
			d = 1
		}
		h := &c.half[d]
		if s.syn {
			h.next, h.valid = s.seq+1, true
		}
		if len(s.payload) > 0 {
			if !h.valid {
				// the capture starts mid-stream
				h.next, h.valid, h.gap = s.seq, true, true
			}
			seq := s.seq
			if s.syn {
				seq++
			}
			deliver(c, d, h, s, seq, s.payload)
			drain(c, d, false)
		}
		if s.fin {
			drain(c, d, true)
			c.fin[d] = true
		}
		if s.rst || c.fin[0] && c.fin[1] {
			end(c, s)
		}
	}
	for _, c := range order {
		if last != nil {
			end(c, last)
		}
	}
	return out
}

// unit is what the framing loop hands the decoding side: a PDU, a gap,
// bytes left undissected, or the end of the connection.
type unitKind uint8

const (
	uPDU unitKind = iota
	uGap
	uUndissected
	uEnd
)

type unit struct {
	kind unitKind
	conn int
	dir  dissect.Dir
	data []byte
	meta dissect.Meta
}

type frameHalf struct {
	buf      []byte
	afterGap bool
	lost     bool
}

// frameAll runs the framing loop over the chunks, calling Frame on the
// Conn that newConn gives for each connection, and returns the units in
// order. decode, when not nil, is called for each unit as soon as it is
// made (the single-goroutine pipeline); otherwise the units are decoded
// later, on other Conns.
func frameAll(chunks []chunk, conns map[int]*Conn, decode func(unit)) []unit {
	var units []unit
	halves := map[int]*[2]frameHalf{}
	emit := func(u unit) {
		units = append(units, u)
		if decode != nil {
			decode(u)
		}
	}
	for _, ch := range chunks {
		c := conns[ch.conn]
		if c == nil {
			c = NewConn()
			conns[ch.conn] = c
			halves[ch.conn] = &[2]frameHalf{}
		}
		m := dissect.Meta{Frame: ch.frame, Time: ch.time, Client: ch.client, Server: ch.server, Dir: ch.dir}
		if ch.end {
			for d := range 2 {
				h := &halves[ch.conn][d]
				if len(h.buf) > 0 {
					dir := dissect.Dir(d + 1)
					emit(unit{kind: uUndissected, conn: ch.conn, dir: dir, data: h.buf, meta: dissect.Meta{Frame: ch.frame, Time: ch.time, Client: ch.client, Server: ch.server, Dir: dir}})
					h.buf = nil
				}
			}
			emit(unit{kind: uEnd, conn: ch.conn, meta: m})
			continue
		}
		h := &halves[ch.conn][di(ch.dir)]
		if ch.afterGap {
			if len(h.buf) > 0 {
				emit(unit{kind: uUndissected, conn: ch.conn, dir: ch.dir, data: h.buf, meta: m})
				h.buf = nil
			}
			emit(unit{kind: uGap, conn: ch.conn, dir: ch.dir, meta: m})
			h.afterGap = true
		}
		if h.lost {
			emit(unit{kind: uUndissected, conn: ch.conn, dir: ch.dir, data: ch.data, meta: m})
			continue
		}
		h.buf = append(h.buf[:len(h.buf):len(h.buf)], ch.data...)
		for len(h.buf) > 0 && !h.lost {
			f := c.Frame(ch.dir, h.buf, h.afterGap)
			switch f.Status {
			case dissect.FrameOK:
				emit(unit{kind: uPDU, conn: ch.conn, dir: ch.dir, data: h.buf[:f.Len:f.Len], meta: m})
				h.buf = h.buf[f.Len:]
				h.afterGap = false
				continue
			case dissect.FrameSkip:
				n := min(f.Len, len(h.buf))
				emit(unit{kind: uUndissected, conn: ch.conn, dir: ch.dir, data: h.buf[:n], meta: m})
				h.buf = h.buf[n:]
				continue
			case dissect.FrameLost:
				emit(unit{kind: uUndissected, conn: ch.conn, dir: ch.dir, data: h.buf, meta: m})
				h.buf, h.lost = nil, true
			}
			break
		}
		if len(h.buf) == 0 {
			h.buf = nil
		}
	}
	return units
}

// decoded is what a decoding run produced: every PDU (kept, since a
// response adds to its request), and after each unit the Pending marks of
// all PDUs so far.
type decoded struct {
	pdus    []*dissect.PDU
	pending []string
	snaps   []string // each PDU's nodes as decoded, before later links add to it
	nNodes  []int
}

// dumpNodes is dump for the first n nodes, without expert items.
func dumpNodes(p *dissect.PDU, n int) string {
	var b strings.Builder
	for i := range p.Nodes[:n] {
		nd := &p.Nodes[i]
		b.WriteString(nd.Name() + " [" + itoa(int(nd.Offset)) + "+" + itoa(int(nd.Length)) + "]: " + dissecttest.Display(nd) + "\n")
	}
	return b.String()
}

// checkSnaps fails if a PDU's nodes changed after it was decoded: no value
// may point into a buffer the Conn reuses (or gives to the next one).
func checkSnaps(t *testing.T, d *decoded) {
	t.Helper()
	for k, p := range d.pdus {
		if got := dumpNodes(p, d.nNodes[k]); got != d.snaps[k] {
			t.Errorf("PDU %d (%s) changed after decoding:\n%s\nnow:\n%s", k, p.Message, d.snaps[k], got)
		}
	}
}

// decoder decodes units on the Conns of conns (made on first use), in
// Lite mode when lite is set.
func decoder(conns map[int]*Conn, lite bool, out *decoded) func(unit) {
	return func(u unit) {
		c := conns[u.conn]
		if c == nil {
			c = NewConn()
			conns[u.conn] = c
		}
		switch u.kind {
		case uPDU:
			p := &dissect.PDU{Lite: lite}
			c.Decode(p, u.data, u.meta)
			out.pdus = append(out.pdus, p)
			out.snaps = append(out.snaps, dumpNodes(p, len(p.Nodes)))
			out.nNodes = append(out.nNodes, len(p.Nodes))
		case uGap:
			if g, ok := any(c).(interface{ Gap(dissect.Dir) }); ok {
				g.Gap(u.dir)
			}
		case uEnd:
			c.Close(dissect.ConnEnd{})
		}
		var b strings.Builder
		for _, p := range out.pdus {
			if p.Pending {
				b.WriteByte('P')
			} else {
				b.WriteByte('.')
			}
		}
		out.pending = append(out.pending, b.String())
	}
}

func slpSamples(t *testing.T) []string {
	var files []string
	for _, pat := range []string{"slp-*.pcap", "handmade-*slp*.pcap", "login-*.pcap"} {
		m, err := filepath.Glob(filepath.Join("..", "..", "samples", pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("found only %d SLP samples", len(files))
	}
	return files
}

func sampleChunks(t *testing.T, path string) []chunk {
	segs, err := readTCP(path)
	if err != nil {
		t.Fatal(err)
	}
	return streams(segs)
}

// full is everything a PDU shows: summary, Pending and the whole tree.
func full(p *dissect.PDU) string {
	return summary(p) + "\n" + dump(p)
}

func summary(p *dissect.PDU) string {
	return fmt.Sprintf("%s | %s | %v | pending %v", p.Message, p.Info, p.Dir, p.Pending)
}

// liteSummary is what Lite decoding must say as full decoding does.
func liteSummary(p *dissect.PDU) string {
	return fmt.Sprintf("%s | %s | %v", p.Message, p.Info, p.Dir)
}

// TestSplitFrameDecode: frame every SLP sample with one Conn per
// connection and decode with another, after all the framing; the PDUs,
// their trees and their Pending marks at every step are those of one
// Conn framing and decoding in turn.
func TestSplitFrameDecode(t *testing.T) {
	for _, path := range slpSamples(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			chunks := sampleChunks(t, path)
			var one decoded
			oneConns := map[int]*Conn{}
			frameAll(chunks, oneConns, decoder(oneConns, false, &one))

			var two decoded
			units := frameAll(chunks, map[int]*Conn{}, nil)
			dec := decoder(map[int]*Conn{}, false, &two)
			for _, u := range units {
				dec(u)
			}
			t.Logf("%d units, %d PDUs", len(units), len(one.pdus))
			compareRuns(t, &one, &two, full)
			checkSnaps(t, &one)
			checkSnaps(t, &two)
		})
	}
}

// TestLiteSamples: Lite decoding of every SLP sample gives the same
// Message, Info and Dir as full decoding, and no Lite PDU is ever Pending
// (what a response adds is in the tree only).
func TestLiteSamples(t *testing.T) {
	for _, path := range slpSamples(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			chunks := sampleChunks(t, path)
			units := frameAll(chunks, map[int]*Conn{}, nil)
			var fullRun, liteRun decoded
			df, dl := decoder(map[int]*Conn{}, false, &fullRun), decoder(map[int]*Conn{}, true, &liteRun)
			for _, u := range units {
				df(u)
				dl(u)
			}
			if len(fullRun.pdus) != len(liteRun.pdus) {
				t.Fatalf("%d PDUs, then %d Lite", len(fullRun.pdus), len(liteRun.pdus))
			}
			for k := range fullRun.pdus {
				if x, y := liteSummary(fullRun.pdus[k]), liteSummary(liteRun.pdus[k]); x != y {
					t.Errorf("PDU %d differs:\n%s\nLite:\n%s", k, x, y)
				}
			}
			for _, marks := range liteRun.pending {
				if strings.Contains(marks, "P") {
					t.Fatalf("a Lite PDU was Pending: %s", marks)
				}
			}
			for _, p := range liteRun.pdus {
				if len(p.Nodes) != 1 {
					t.Errorf("%s: Lite PDU has %d nodes", p.Message, len(p.Nodes))
				}
			}
		})
	}
}

func compareRuns(t *testing.T, a, b *decoded, show func(*dissect.PDU) string) {
	t.Helper()
	if len(a.pdus) != len(b.pdus) {
		t.Fatalf("%d PDUs, then %d", len(a.pdus), len(b.pdus))
	}
	for k := range a.pdus {
		if x, y := show(a.pdus[k]), show(b.pdus[k]); x != y {
			t.Errorf("PDU %d differs:\n%s\nthen:\n%s", k, x, y)
		}
	}
	if strings.Join(a.pending, "\n") != strings.Join(b.pending, "\n") {
		t.Errorf("Pending marks differ:\n%s\nthen:\n%s", strings.Join(a.pending, "\n"), strings.Join(b.pending, "\n"))
	}
}

// TestBuffersReused decodes status responses full of escaped strings (the
// ones unescaped into reused buffers) on connections that follow one
// another, each closed before the next takes its buffers, and two on one
// connection: no PDU's tree changes after it was decoded.
func TestBuffersReused(t *testing.T) {
	status := func(k int) string {
		s := func(v string) string { return jsonString(v + " \\ " + string(rune('A'+k))) }
		var raw []byte
		raw = append(raw, 0, 0, 1, 0)
		raw = append(raw, mcstr("mod"+string(rune('a'+k)))...)
		raw = append(raw, mcstr("1."+string(rune('0'+k)))...)
		raw = append(raw, 0)
		fav, _ := pngFavicon(64+k, 64)
		return `{"version":{"name":` + s("Paper") + `,"protocol":767},"players":{"max":20,"online":1,"sample":[{"name":` + s("Alex") + `,"id":` + s("id") + `}]},` +
			`"description":{"text":` + s("A \u00a7aserver") + `,"color":` + s("gold") + `},"favicon":` + jsonString(fav) + `,` +
			`"forgeData":{"mods":[{"modId":` + s("forge") + `,"modmarker":` + s("47") + `}],"d":` + jsonString(forgeEncode(raw)) + `},` +
			`"x\\u0041":` + s("other") + `}`
	}
	var d decoded
	dec := func(c *Conn, k int) {
		for _, st := range []step{{c2s, seedHandshake}, {c2s, seedStatusReq}, {s2c, statusResp(status(k))}} {
			p := &dissect.PDU{}
			c.Decode(p, st.data, dissect.Meta{Dir: st.dir})
			d.pdus = append(d.pdus, p)
			d.snaps = append(d.snaps, dumpNodes(p, len(p.Nodes)))
			d.nNodes = append(d.nNodes, len(p.Nodes))
		}
	}
	for k := range 4 {
		c := NewConn()
		dec(c, k)
		c.Close(dissect.ConnEnd{})
	}
	c := NewConn()
	dec(c, 5)
	p := &dissect.PDU{}
	resp := statusResp(status(6))
	c.Decode(p, resp, dissect.Meta{Dir: s2c})
	c.Close(dissect.ConnEnd{})
	if !strings.Contains(d.snaps[2], `"Paper \\ A"`) || !strings.Contains(d.snaps[2], "mod.id") {
		t.Fatalf("the escaped strings are not in the tree:\n%s", d.snaps[2])
	}
	checkSnaps(t, &d)
}

// TestDecodeConcurrently decodes the 100 connections of the concurrent
// sample on several goroutines at once, as the pipeline may: the buffers
// the Conns pass on through the shared pool must not mix (run with -race).
func TestDecodeConcurrently(t *testing.T) {
	chunks := sampleChunks(t, filepath.Join("..", "..", "samples", "slp-status-concurrent.pcap"))
	units := frameAll(chunks, map[int]*Conn{}, nil)
	var want decoded
	dec := decoder(map[int]*Conn{}, false, &want)
	for _, u := range units {
		dec(u)
	}
	const workers = 4
	got := make([]decoded, workers)
	done := make(chan struct{})
	for w := range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			dec := decoder(map[int]*Conn{}, w%2 == 1, &got[w])
			for _, u := range units {
				dec(u)
			}
		}()
	}
	for range workers {
		<-done
	}
	for w := range workers {
		if w%2 == 1 {
			// Lite: the same summaries; its Pending marks are none.
			if len(got[w].pdus) != len(want.pdus) {
				t.Fatalf("worker %d: %d PDUs, want %d", w, len(got[w].pdus), len(want.pdus))
			}
			for k := range want.pdus {
				if x, y := liteSummary(want.pdus[k]), liteSummary(got[w].pdus[k]); x != y {
					t.Errorf("worker %d, PDU %d differs:\n%s\nLite:\n%s", w, k, x, y)
				}
			}
			checkSnaps(t, &got[w])
			continue
		}
		compareRuns(t, &want, &got[w], full)
		checkSnaps(t, &got[w])
	}
}

package mcgen

import "net/netip"

// mss is the largest TCP payload of a segment (Ethernet MTU 1500 minus
// IPv4, TCP and the timestamp option real stacks send).
const mss = 1448

// Probabilities, per mille, of the TCP disorders a flow makes.
const (
	pmSplit   = 80  // a burst that fits one segment is cut in two anyway
	pmShort   = 150 // a full-sized segment is sent shorter than the MSS
	pmHold    = 200 // a streaming side keeps a tail (part of a PDU) for later
	pmReorder = 8   // the next two segments go out in the wrong order
	pmDup     = 4   // a segment is retransmitted whole
	pmOverlap = 3   // the tail of a segment is retransmitted
	pmReset   = 30  // a connection ends with an RST instead of FINs
)

// flow is one TCP connection of a conversation: what each side has queued
// and not yet sent, and how it is cut into segments.
type flow struct {
	g    *gen
	c    tcpConn
	pend [2][]byte // queued stream bytes per side: 0 client, 1 server
	base [2]int    // stream offset of pend[s][0]
}

func (f *flow) open(g *gen, cl, sv netip.AddrPort) {
	f.g = g
	f.c = g.be.tcp(cl, sv, g.clock, uint32(g.r.next()), uint32(g.r.next()))
	f.pend[0], f.pend[1] = f.pend[0][:0], f.pend[1][:0]
	f.base = [2]int{}
}

// begin brings the connection's clock to the generator's at the start of
// a step; end brings the generator's clock forward to the connection's.
func (f *flow) begin() { f.c.setNow(f.g.clock) }
func (f *flow) end() {
	if t := f.c.now(); t > f.g.clock {
		f.g.clock = t
	}
}

// wait moves the connection's clock, e.g. for a peer's think time.
func (f *flow) wait(us int) { f.c.setNow(f.c.now() + int64(us)) }

func (f *flow) handshake() {
	f.c.handshake()
	f.g.st.TCPPackets += 3
}

func (f *flow) seg(s, off int, data []byte) {
	f.c.segmentAt(s == 0, off, data)
	f.g.st.TCPPackets++
}

// emit sends what side s has queued. With hold, the side may keep a tail
// for its next emit, so that PDUs straddle segments sent at different times.
func (f *flow) emit(s int, hold bool) {
	r := &f.g.r
	p := f.pend[s]
	seg := mss
	if m := f.g.cfg.MaxSeg; m > 0 && m < mss {
		seg = m
	}
	sent := 0
	for sent < len(p) {
		rem := len(p) - sent
		n := rem
		if n > seg {
			n = seg
			if seg >= 4 && r.permille(pmShort) {
				n = r.between(seg/2, seg)
			}
		} else if rem > 1 && r.permille(pmSplit) {
			n = r.between(1, rem-1)
		}
		off := f.base[s] + sent
		if hold && n == rem && rem > 1 && r.permille(pmHold) {
			n = r.between(1, rem-1)
			f.seg(s, off, p[sent:sent+n])
			sent += n
			break
		}
		switch {
		case rem > n && r.permille(pmReorder):
			n2 := min(rem-n, seg)
			f.seg(s, off+n, p[sent+n:sent+n+n2])
			f.seg(s, off, p[sent:sent+n])
			f.g.st.Reordered++
			n += n2
		case r.permille(pmDup):
			f.seg(s, off, p[sent:sent+n])
			f.wait(r.between(200, 3000))
			f.seg(s, off, p[sent:sent+n])
			f.g.st.Retransmitted++
		case n > 8 && r.permille(pmOverlap):
			f.seg(s, off, p[sent:sent+n])
			f.wait(r.between(200, 3000))
			k := r.between(1, n-1)
			f.seg(s, off+k, p[sent+k:sent+n])
			f.g.st.Retransmitted++
		default:
			f.seg(s, off, p[sent:sent+n])
		}
		sent += n
	}
	f.base[s] += sent
	f.pend[s] = p[:copy(p, p[sent:])]
}

// finish sends everything still queued and closes the connection: FINs, or
// now and then an RST from either side.
func (f *flow) finish() {
	f.emit(0, false)
	f.emit(1, false)
	if f.g.r.permille(pmReset) {
		f.c.reset(f.g.r.intn(2) == 0)
		f.g.st.TCPPackets++
		f.g.st.Resets++
		return
	}
	f.c.close()
	f.g.st.TCPPackets += 3
}

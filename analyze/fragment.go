package analyze

import (
	"net/netip"
	"time"

	"github.com/mcdissect/mcdissect/record"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// maxFragLists bounds the datagrams whose fragment frames are remembered.
const maxFragLists = 1024

// fragment hands an IPv4 fragment to gopacket's defragmenter. Fragments are
// copied first: the defragmenter keeps them, and the reader reuses its
// buffer. When the last one arrives, the whole datagram is decoded as if it
// had come in one frame, listing the frames it was built from.
func (a *Analyzer) fragment(ci gopacket.CaptureInfo) {
	in := a.ip4
	in.Contents = append([]byte(nil), a.ip4.Contents...)
	in.Payload = append([]byte(nil), a.ip4.Payload...)
	in.SrcIP = append([]byte(nil), a.ip4.SrcIP...)
	in.DstIP = append([]byte(nil), a.ip4.DstIP...)
	a.keepHead(0)
	key := a.frags.add(&in, a.frame, ci.Timestamp, len(in.Payload), &a.net.cur)
	whole, err := a.defrag.DefragIPv4WithTimestamp(&in, ci.Timestamp)
	if err != nil || whole == nil {
		return
	}
	parts := a.frags.take(key)
	switch whole.Protocol {
	case layers.IPProtocolUDP:
		var udp layers.UDP
		if udp.DecodeFromBytes(whole.Payload, gopacket.NilDecodeFeedback) != nil {
			return
		}
		s, _ := netip.AddrFromSlice(whole.SrcIP)
		d, _ := netip.AddrFromSlice(whole.DstIP)
		wire := len(udp.Payload)
		if udp.Length >= 8 {
			wire = int(udp.Length) - 8
		}
		a.handleUDP(ci, netip.AddrPortFrom(s, uint16(udp.SrcPort)), netip.AddrPortFrom(d, uint16(udp.DstPort)), udp.Payload, wire, parts)
	case layers.IPProtocolTCP:
		var tcp layers.TCP
		if tcp.DecodeFromBytes(whole.Payload, gopacket.NilDecodeFeedback) != nil {
			return
		}
		a.tcpState.packet(a.frame, ci, whole.NetworkFlow(), &tcp)
	}
}

type fragKey struct {
	src, dst netip.Addr
	id       uint16
}

type fragList struct {
	key   fragKey
	parts []record.Part
	last  uint64
	ts    time.Time // of the last fragment
	head  head      // its frame's, for the record that says they never completed
}

// fragFrames remembers which frames carried each datagram's fragments.
type fragFrames struct {
	m map[fragKey]*fragList
}

func (f *fragFrames) add(ip *layers.IPv4, frame uint64, ts time.Time, n int, h *head) fragKey {
	if f.m == nil {
		f.m = map[fragKey]*fragList{}
	}
	s, _ := netip.AddrFromSlice(ip.SrcIP)
	d, _ := netip.AddrFromSlice(ip.DstIP)
	k := fragKey{s, d, ip.Id}
	l := f.m[k]
	if l == nil {
		if len(f.m) >= maxFragLists {
			return k
		}
		l = &fragList{key: k}
		f.m[k] = l
	}
	l.parts = append(l.parts, record.Part{Frame: frame, Bytes: n})
	l.last, l.ts, l.head = frame, ts, *h
	return k
}

// take returns and forgets the frames of a completed datagram.
func (f *fragFrames) take(k fragKey) []record.Part {
	l := f.m[k]
	if l == nil {
		return nil
	}
	delete(f.m, k)
	return l.parts
}

// discardOlderThan forgets lists whose last fragment is older than t (the
// defragmenter gives them up then too) or far behind in frames, and
// returns them: their datagrams never completed.
func (f *fragFrames) discardOlderThan(frame uint64, t time.Time) []*fragList {
	var old []*fragList
	for k, l := range f.m {
		if frame-l.last > 100000 || l.ts.Before(t) {
			delete(f.m, k)
			old = append(old, l)
		}
	}
	return old
}

// rest returns and forgets every list: at the end of the input, their
// datagrams never completed.
func (f *fragFrames) rest() []*fragList {
	var old []*fragList
	for k, l := range f.m {
		delete(f.m, k)
		old = append(old, l)
	}
	return old
}

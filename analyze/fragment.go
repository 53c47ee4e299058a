package analyze

import (
	"encoding/binary"
	"net/netip"
	"strconv"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/budget"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/ipfrag"
	"github.com/mcdissect/mcdissect/record"
)

// IP fragments, of both versions, are reassembled by ipfrag within its
// bounds; a datagram completed is decoded as if it had come in its last
// fragment's frame, listing the frames it was built from. Every datagram
// given up (timed out, pushed out by the bounds, malformed, left at the
// end) is reported: one note each for the first maxFragNotes, then one
// note at the end with the count of the rest.

// maxFragNotes bounds the notes of single datagrams given up.
const maxFragNotes = 1000

// fragTimeout is how long, in packet time, fragments wait for the rest of
// their datagram (Linux's ipfrag_time).
const fragTimeout = 30 * time.Second

// frag6 is an IPv6 fragment header's content, as decodeIPv6 found it.
type frag6 struct {
	off     int
	more    bool
	id      uint32
	next    uint8
	payload []byte
}

// fragState is the front end's fragment reassembly.
type fragState struct {
	d     *ipfrag.Defragmenter[head]
	acct  *budget.Account
	f6    frag6
	noted int                       // single notes made
	more  [ipfrag.Malformed + 1]int // given up past maxFragNotes, by reason
	moreB [ipfrag.Malformed + 1]int // and their bytes
	last  [2]netip.Addr             // the addresses of the last one counted
}

func newFragState(b *budget.Budget) fragState {
	var fs fragState
	fs.acct = b.Account("IP fragments", func(need int64) int64 { return fs.d.Shed(need) })
	fs.d = ipfrag.New[head](ipfrag.Limits{Timeout: fragTimeout, Account: fs.acct})
	return fs
}

// fragment hands a fragment to the defragmenter, and decodes the datagram
// it completes.
func (a *Analyzer) fragment(k ipfrag.Key, off int, more bool, payload []byte, ci gopacket.CaptureInfo) {
	a.keepHead(0)
	r, ok := a.frags.d.Add(k, off, more, payload, a.frame, ci.Timestamp, a.net.cur)
	a.fragGivenUp(a.frame, a.now)
	if !ok {
		return
	}
	if r.Overlap {
		a.stats.FragOverlaps++
	}
	next, body := k.Proto, r.Payload
	if k.V6 {
		next, body = skipExt6(next, body)
	}
	parts := make([]record.Part, len(r.Parts))
	for i, p := range r.Parts {
		parts[i] = record.Part{Frame: p.Frame, Bytes: p.Bytes}
	}
	switch next {
	case uint8(layers.IPProtocolUDP):
		var udp layers.UDP
		if udp.DecodeFromBytes(body, gopacket.NilDecodeFeedback) != nil {
			return
		}
		wire := len(udp.Payload)
		if udp.Length >= 8 {
			wire = int(udp.Length) - 8
		}
		a.handleUDP(ci, netip.AddrPortFrom(k.Src, uint16(udp.SrcPort)), netip.AddrPortFrom(k.Dst, uint16(udp.DstPort)), udp.Payload, wire, parts)
	case uint8(layers.IPProtocolTCP):
		var tcp layers.TCP
		if tcp.DecodeFromBytes(body, gopacket.NilDecodeFeedback) != nil {
			return
		}
		et := layers.EndpointIPv4
		if k.V6 {
			et = layers.EndpointIPv6
		}
		a.tcpState.packet(a.frame, ci, gopacket.NewFlow(et, k.Src.AsSlice(), k.Dst.AsSlice()), &tcp)
	}
}

// fragment4 hands the IPv4 fragment just decoded to fragment.
func (a *Analyzer) fragment4(ci gopacket.CaptureInfo) {
	s, _ := netip.AddrFromSlice(a.ip4.SrcIP)
	d, _ := netip.AddrFromSlice(a.ip4.DstIP)
	k := ipfrag.Key{Src: s, Dst: d, ID: uint32(a.ip4.Id), Proto: uint8(a.ip4.Protocol)}
	a.fragment(k, int(a.ip4.FragOffset)*8, a.ip4.Flags&layers.IPv4MoreFragments != 0, a.ip4.Payload, ci)
}

// fragment6 hands the IPv6 fragment decodeIPv6 found to fragment.
func (a *Analyzer) fragment6(ci gopacket.CaptureInfo) {
	s, _ := netip.AddrFromSlice(a.ip6.SrcIP)
	d, _ := netip.AddrFromSlice(a.ip6.DstIP)
	f := &a.frags.f6
	a.fragment(ipfrag.Key{Src: s, Dst: d, ID: f.id, Proto: f.next, V6: true}, f.off, f.more, f.payload, ci)
}

// IPv6 extension headers mcdissect steps over to reach TCP or UDP.
const (
	ext6HopByHop = 0
	ext6Routing  = 43
	ext6Fragment = 44
	ext6AH       = 51
	ext6DestOpts = 60
)

// extLen is the length of the extension header of type next at the start
// of b, or 0 if b cannot hold it.
func extLen(next uint8, b []byte) int {
	if len(b) < 2 {
		return 0
	}
	n := (int(b[1]) + 1) * 8
	if next == ext6AH {
		n = (int(b[1]) + 2) * 4
	}
	if n > len(b) {
		return 0
	}
	return n
}

// skipExt6 steps over the extension headers at the start of a reassembled
// IPv6 datagram's payload (those after its fragment header) and returns
// the upper-layer protocol and its bytes.
func skipExt6(next uint8, b []byte) (uint8, []byte) {
	for range 8 {
		switch next {
		case ext6HopByHop, ext6Routing, ext6DestOpts, ext6AH:
			n := extLen(next, b)
			if n == 0 {
				return 255, nil
			}
			next, b = b[0], b[n:]
			continue
		}
		break
	}
	return next, b
}

// decodeIPv6 decodes an IPv6 packet: the fixed header, the extension
// headers (hop-by-hop, routing, destination options, authentication)
// and TCP or UDP behind them, or the fragment header (its fragment is
// reassembled: a.frags.f6). It sets a.decoded and a.l3len.
func (a *Analyzer) decodeIPv6(data []byte, truncated *bool) error {
	a.decoded = a.decoded[:0]
	df := &a.trunc
	*df = false
	if err := a.ip6.DecodeFromBytes(data, df); err != nil {
		return err
	}
	end := len(data)
	if plen := int(binary.BigEndian.Uint16(data[4:6])); plen > 0 && 40+plen < end {
		end = 40 + plen // link-layer padding after the packet
	} else if plen > 0 && 40+plen > end {
		*truncated = true
	}
	a.decoded = append(a.decoded, layers.LayerTypeIPv6)
	next, pos := data[6], 40
	for range 8 {
		switch next {
		case ext6HopByHop, ext6Routing, ext6DestOpts, ext6AH:
			n := extLen(next, data[pos:end])
			if n == 0 {
				*truncated = true
				a.l3len = pos
				return nil
			}
			next, pos = data[pos], pos+n
			continue
		case ext6Fragment:
			if end-pos < 8 {
				*truncated = true
				a.l3len = pos
				return nil
			}
			fo := binary.BigEndian.Uint16(data[pos+2 : pos+4])
			a.frags.f6 = frag6{off: int(fo>>3) * 8, more: fo&1 != 0, id: binary.BigEndian.Uint32(data[pos+4 : pos+8]),
				next: data[pos], payload: data[pos+8 : end]}
			a.l3len = pos + 8
			a.decoded = append(a.decoded, layers.LayerTypeIPv6Fragment)
			return nil
		}
		break
	}
	a.l3len = pos
	var err error
	switch next {
	case uint8(layers.IPProtocolTCP):
		if err = a.tcp.DecodeFromBytes(data[pos:end], df); err == nil {
			a.decoded = append(a.decoded, layers.LayerTypeTCP)
		}
	case uint8(layers.IPProtocolUDP):
		if err = a.udp.DecodeFromBytes(data[pos:end], df); err == nil {
			a.decoded = append(a.decoded, layers.LayerTypeUDP)
		}
	}
	*truncated = *truncated || bool(*df)
	return err
}

// fragGivenUp reports the datagrams the defragmenter gave up since it was
// last asked, at frame (0: each at its last fragment's frame, at the end).
func (a *Analyzer) fragGivenUp(frame uint64, t time.Time) {
	fs := &a.frags
	for _, g := range fs.d.GivenUp() {
		a.stats.FragsGivenUp++
		n := 0
		for _, p := range g.Parts {
			n += p.Bytes
		}
		if fs.noted >= maxFragNotes {
			fs.more[g.Reason]++
			fs.moreB[g.Reason] += n
			fs.last = [2]netip.Addr{g.Key.Src, g.Key.Dst}
			continue
		}
		fs.noted++
		at, atT := frame, t
		if at == 0 {
			at, atT = g.Parts[len(g.Parts)-1].Frame, time.Unix(0, g.Tag.t).UTC()
		}
		kind, ver := noteFragments, "IPv4"
		if g.Key.V6 {
			kind, ver = noteFragments6, "IPv6"
		}
		parts := make([]record.Part, len(g.Parts))
		for i, p := range g.Parts {
			parts[i] = record.Part{Frame: p.Frame, Bytes: p.Bytes}
		}
		tag := g.Tag
		a.fragNote(at, atT, &tag, kind, g.Key.Src, g.Key.Dst, parts,
			ver+" datagram "+strconv.FormatUint(uint64(g.Key.ID), 10)+" from "+g.Key.Src.String()+" to "+g.Key.Dst.String()+": "+
				strconv.Itoa(len(g.Parts))+" fragment(s) of "+strconv.Itoa(n)+" bytes captured, never completed: "+g.Reason.String())
	}
}

// fragRest reports, at the end, the count of the datagrams given up past
// maxFragNotes.
func (a *Analyzer) fragRest() {
	fs := &a.frags
	total, bytes := 0, 0
	msg := ""
	for r := ipfrag.Timeout; r <= ipfrag.Malformed; r++ {
		if fs.more[r] == 0 {
			continue
		}
		total += fs.more[r]
		bytes += fs.moreB[r]
		if msg != "" {
			msg += ", "
		}
		msg += strconv.Itoa(fs.more[r]) + " " + r.String()
	}
	if total == 0 {
		return
	}
	a.fragNote(a.frame, a.now, nil, noteFragments, fs.last[0], fs.last[1], nil,
		strconv.Itoa(total)+" more IP datagrams ("+strconv.Itoa(bytes)+" bytes of fragments) never completed, past the "+
			strconv.Itoa(maxFragNotes)+" reported one by one: "+msg)
}

// fragNote makes the note of datagrams given up.
func (a *Analyzer) fragNote(frame uint64, t time.Time, h *head, kind int, src, dst netip.Addr, parts []record.Part, msg string) {
	j := a.newJob()
	j.op, j.kind, j.frame, j.time, j.dir, j.udp = opEmit, record.KindNote, frame, t, dissect.DirUnknown, udpNone
	j.head = a.addHead(h)
	j.gapLen = kind
	j.reason = msg
	b := a.pp.cur
	j.addrs = int32(len(b.addrs))
	b.addrs = append(b.addrs, netip.AddrPortFrom(src, 0), netip.AddrPortFrom(dst, 0))
	a.addParts(j, parts)
	a.commit(nil)
}

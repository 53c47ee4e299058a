package capgen

import (
	"encoding/binary"
	"net/netip"
	"strings"
	"time"

	"github.com/gopacket/gopacket/layers"
)

// Hostile captures: inputs built to make an analyzer keep state, each of a
// size the caller picks (small in tests, full scale to measure memory).
// They are written to a Writer like any other traffic and are deterministic.

// hostileStart is the time of every hostile capture's first packet.
var hostileStart = time.Unix(1700000000, 0).UTC()

// HostileServer is the server every hostile capture talks to.
var HostileServer = netip.MustParseAddrPort("10.0.0.1:25565")

// hostileClient is client number i: a distinct address and port.
func hostileClient(i int) netip.AddrPort {
	a := [4]byte{10, byte(1 + i>>16), byte(i >> 8), byte(i)}
	return netip.AddrPortFrom(netip.AddrFrom4(a), uint16(1024+i%60000))
}

// SYNFlood writes n connections that never carry a byte: a bare SYN from
// each client, or with synAck a SYN+ACK from the server to each (a
// capture started after the SYNs, or a backscatter flood).
func (w *Writer) SYNFlood(n int, synAck bool) {
	w.Step = time.Microsecond
	t := hostileStart
	for i := range n {
		cl := hostileClient(i)
		c := w.TCP(cl, HostileServer, t)
		if synAck {
			c.seg(false, c.isn[1], c.isn[0]+1, func(t *layers.TCP) { t.SYN, t.ACK = true, true }, nil, -1)
		} else {
			c.seg(true, c.isn[0], 0, func(t *layers.TCP) { t.SYN = true }, nil, -1)
		}
		t = c.Now
	}
}

// slpFrame is a Server List Ping frame: VarInt length, then body.
func slpFrame(body []byte) []byte {
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(body)))
	return append(b, body...)
}

// slpStatusRequest is a status ping's handshake and status request.
func slpStatusRequest() []byte {
	hs := []byte{0x00}
	hs = binary.AppendUvarint(hs, 767) // protocol
	hs = append(hs, 9)
	hs = append(hs, "localhost"...)
	hs = append(hs, 0x63, 0xdd, 1)
	return append(slpFrame(hs), slpFrame([]byte{0x00})...)
}

// slpStatusResponse is a status response frame carrying json.
func slpStatusResponse(json string) []byte {
	body := []byte{0x00}
	body = binary.AppendUvarint(body, uint64(len(json)))
	return slpFrame(append(body, json...))
}

// OneByteSegments writes one status ping whose response, a JSON document
// of about size bytes, the server sends one byte per segment.
func (w *Writer) OneByteSegments(size int) {
	w.Step = time.Microsecond
	c := w.TCP(hostileClient(0), HostileServer, hostileStart)
	c.Handshake()
	c.Send(true, slpStatusRequest())
	c.MSS = 1
	c.Send(false, slpStatusResponse(`{"description":"`+strings.Repeat("a", max(size-20, 0))+`"}`))
	c.Close()
}

// GarbageStream writes one connection to the Minecraft port whose client
// sends n bytes that are neither SLP nor Classic, and whose server sends
// n/4 bytes back, in 1460-byte segments.
func (w *Writer) GarbageStream(n int) {
	w.Step = time.Microsecond
	c := w.TCP(hostileClient(0), HostileServer, hostileStart)
	c.Handshake()
	c.MSS = 1460
	b := xorshiftBytes(64 << 10)
	b[0] = 0xff // not a VarInt-framed handshake, not FE, not 00 07
	for sent := 0; sent < n; {
		k := min(len(b), n-sent)
		c.Send(true, b[:k])
		sent += k
		if sent%(4*len(b)) == 0 {
			c.Send(false, b[1:len(b)/4+1])
		}
	}
	c.Close()
}

// Favicon writes one status ping whose response holds a favicon of about
// size bytes of base64, in 1460-byte segments.
func (w *Writer) Favicon(size int) {
	w.Step = time.Microsecond
	c := w.TCP(hostileClient(0), HostileServer, hostileStart)
	c.Handshake()
	c.Send(true, slpStatusRequest())
	c.MSS = 1460
	c.Send(false, slpStatusResponse(`{"description":"big","players":{"max":20,"online":0},"version":{"name":"1.21","protocol":767},"favicon":"data:image/png;base64,`+strings.Repeat("iVBORw0K", size/8)+`"}`))
	c.Close()
}

// IncompleteFragments writes n IPv4 datagrams of which only the first
// fragment is captured, from time t (zero: the hostile captures' start).
func (w *Writer) IncompleteFragments(n int, t time.Time) {
	if t.IsZero() {
		t = hostileStart
	}
	payload := make([]byte, 64)
	for i := range n {
		udp := make([]byte, 8+len(payload))
		binary.BigEndian.PutUint16(udp[0:], hostileClient(i).Port())
		binary.BigEndian.PutUint16(udp[2:], 25565)
		binary.BigEndian.PutUint16(udp[4:], uint16(8+len(payload)+1000))
		copy(udp[8:], payload)
		w.ipFragment(t, hostileClient(i).Addr(), HostileServer.Addr(), uint16(i), 0, true, udp)
		t = t.Add(time.Microsecond)
	}
}

// ipFragment writes one IPv4 fragment of a UDP datagram at byte offset
// off (a multiple of 8).
func (w *Writer) ipFragment(t time.Time, src, dst netip.Addr, id uint16, off int, more bool, data []byte) {
	if w.err != nil {
		return
	}
	frame := make([]byte, 14+20+len(data))
	copy(frame[0:], []byte{0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x08, 0x00})
	ip := frame[14:]
	ip[0] = 0x45
	binary.BigEndian.PutUint16(ip[2:], uint16(20+len(data)))
	binary.BigEndian.PutUint16(ip[4:], id)
	fo := uint16(off / 8)
	if more {
		fo |= 0x2000
	}
	binary.BigEndian.PutUint16(ip[6:], fo)
	ip[8], ip[9] = 64, byte(layers.IPProtocolUDP)
	s, d := src.As4(), dst.As4()
	copy(ip[12:], s[:])
	copy(ip[16:], d[:])
	var sum uint32
	for i := 0; i < 20; i += 2 {
		sum += uint32(binary.BigEndian.Uint16(ip[i:]))
	}
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	binary.BigEndian.PutUint16(ip[10:], ^uint16(sum))
	copy(ip[20:], data)
	w.Raw(t, frame)
}

// PartialPDUs writes n connections each of which leaves a status response
// of about 2 MB one segment short of complete, all open at once: the
// reassembler holds every one of them until the end.
func (w *Writer) PartialPDUs(n int) { w.PartialPDUsOf(n, 2000000) }

// PartialPDUsOf is PartialPDUs with status responses of about size bytes.
func (w *Writer) PartialPDUsOf(n, size int) {
	w.Step = time.Microsecond
	resp := slpStatusResponse(`{"description":"` + strings.Repeat("b", size) + `"}`)
	t := hostileStart
	conns := make([]*TCPConn, n)
	for i := range conns {
		c := w.TCP(hostileClient(i), HostileServer, t)
		c.Handshake()
		c.Send(true, slpStatusRequest())
		c.MSS = 1460
		t = c.Now
		conns[i] = c
	}
	for _, c := range conns {
		c.Now = t
		c.Send(false, resp[:len(resp)-1])
		t = c.Now
	}
}

// HeldBehindRequest writes a status request that is never answered, then
// n status pings answered by responses of about size bytes: every record
// after the request waits behind it for its response.
func (w *Writer) HeldBehindRequest(n, size int) {
	w.Step = time.Microsecond
	c := w.TCP(hostileClient(0), HostileServer, hostileStart)
	c.Handshake()
	c.Send(true, slpStatusRequest())
	resp := slpStatusResponse(`{"description":"` + strings.Repeat("c", size) + `"}`)
	t := c.Now
	for i := 1; i <= n; i++ {
		c := w.TCP(hostileClient(i), HostileServer, t)
		c.Handshake()
		c.Send(true, slpStatusRequest())
		c.MSS = 1460
		c.Send(false, resp)
		c.Close()
		t = c.Now
	}
}

// OutOfOrderBytes writes n connections whose server sends k one-byte
// segments after a byte that never comes: every one is queued out of order.
func (w *Writer) OutOfOrderBytes(n, k int) {
	w.Step = time.Microsecond
	t := hostileStart
	for i := range n {
		c := w.TCP(hostileClient(i), HostileServer, t)
		c.Handshake()
		c.Send(true, slpStatusRequest())
		c.Skip(false, 1)
		c.MSS = 1
		c.Send(false, make([]byte, k))
		t = c.Now
	}
}

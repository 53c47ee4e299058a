package capgen

import (
	"encoding/binary"
	"net/netip"
	"strings"
	"time"
)

// Hostile captures of the layers below Minecraft: fragments that never
// complete, IPv6 extension headers and fragments, stacked VLAN tags.

// hostileServer6 is the IPv6 server of the hostile captures.
var hostileServer6 = netip.MustParseAddr("fd00::1")

// hostileClient6 is IPv6 client number i, at the port hostileClient gives.
func hostileClient6(i int) netip.AddrPort {
	a := hostileServer6.As16()
	a[12], a[13], a[14], a[15] = 0, byte(i>>16), byte(i>>8), byte(i)
	a[11] = 1
	return netip.AddrPortFrom(netip.AddrFrom16(a), hostileClient(i).Port())
}

// FragmentLists writes n IPv4 datagrams of 64,000 bytes, each from its own
// client with its own IP ID, sent as 1480-byte fragments of which every one
// but the last is captured: n fragment lists that never complete, held by
// whatever defragments them until they time out.
//
// Real peers do not produce it: a host that loses the last fragment of
// every datagram it sends is not a Minecraft client. It exists because a
// flood of fragments is an attack anyone can send (about 70 Mbit/s makes
// thousands of lists in a defragmenter's 30-second window), and memory must
// stay bounded under it.
func (w *Writer) FragmentLists(n int) {
	const size, frag = 64000, 1480
	t := hostileStart
	udp := make([]byte, size)
	binary.BigEndian.PutUint16(udp[2:], 25565)
	binary.BigEndian.PutUint16(udp[4:], size)
	for i := range n {
		cl := hostileClient(i)
		binary.BigEndian.PutUint16(udp[0:], cl.Port())
		for off := 0; off+frag < size; off += frag {
			w.ipFragment(t, cl.Addr(), HostileServer.Addr(), uint16(i), off, true, udp[off:off+frag])
			t = t.Add(time.Microsecond)
		}
	}
}

// IPv6Fragmented writes n Query full stat exchanges over IPv6 whose
// response, 3,000 bytes of player names, comes in fragments of 1,232 bytes
// (the first behind a Hop-by-Hop header), and n Server List Pings whose
// handshake comes in fragments of 24 bytes.
//
// The Query response is what real IPv6 networks do to a full stat longer
// than 1280 bytes (a server with many players). The SLP handshake in 24-byte
// fragments is hand-made (no TCP stack sends segments larger than its path
// MTU): it exists so that a TCP payload behind a Fragment header is checked
// too.
func (w *Writer) IPv6Fragmented(n int) {
	w.Step = time.Microsecond
	var id uint32
	t := hostileStart
	players := make([]string, 200)
	for k := range players {
		players[k] = "player_" + strings.Repeat("x", 7) + string(rune('a'+k%26))
	}
	for i := range n {
		cl := hostileClient6(i)
		sv := netip.AddrPortFrom(hostileServer6, 25565)
		sess := uint32(i + 1)
		w.UDP(t, cl, sv, queryHandshakeRequest(sess))
		w.UDP(t.Add(100*time.Microsecond), sv, cl, queryHandshakeResponse(sess, 1000+i))
		w.UDP(t.Add(200*time.Microsecond), cl, sv, queryStatRequest(sess, 1000+i, true))
		w.Edit = IPv6Fragments(1232, true, &id)
		w.UDP(t.Add(300*time.Microsecond), sv, cl, queryFullStat(sess, queryVanillaKV("fragmented"), players))
		w.Edit = nil
		t = t.Add(time.Millisecond)

		c := w.TCP(hostileClient6(n+i), sv, t)
		c.Handshake()
		w.Edit = IPv6Fragments(24, false, &id)
		c.Send(true, append(slpHandshake(1), slpPacket(0)...))
		w.Edit = nil
		c.Send(false, slpPacket(0, slpString(slpStatusJSON("behind fragments"))))
		c.Close()
		t = c.Now
	}
}

// IPv6ExtensionHeaders writes n Query full stat exchanges and n Server
// List Pings over IPv6, every packet carrying a Hop-by-Hop and a
// Destination Options header (one PadN option each) before UDP or TCP.
//
// Real Minecraft peers do not add options headers; routers and hosts on the
// path may (Hop-by-Hop router alerts, Destination Options of tunnels and
// mobility). It exists so that packets behind them are dissected, not
// dropped.
func (w *Writer) IPv6ExtensionHeaders(n int) {
	w.Step = time.Microsecond
	w.Edit = IPv6Options(IPv6HopByHop, IPv6DestOpts)
	defer func() { w.Edit = nil }()
	t := hostileStart
	sv := netip.AddrPortFrom(hostileServer6, 25565)
	for i := range n {
		cl := hostileClient6(i)
		sess := uint32(i + 1)
		w.UDP(t, cl, sv, queryHandshakeRequest(sess))
		w.UDP(t.Add(100*time.Microsecond), sv, cl, queryHandshakeResponse(sess, 1000+i))
		w.UDP(t.Add(200*time.Microsecond), cl, sv, queryStatRequest(sess, 1000+i, true))
		w.UDP(t.Add(300*time.Microsecond), sv, cl, queryFullStat(sess, queryVanillaKV("behind options"), []string{"alex", "steve"}))
		t = t.Add(time.Millisecond)
		c := w.TCP(hostileClient6(n+i), sv, t)
		c.Handshake()
		c.Send(true, append(slpHandshake(1), slpPacket(0)...))
		c.Send(false, slpPacket(0, slpString(slpStatusJSON("behind options"))))
		c.Send(true, slpPing(uint64(i)))
		c.Send(false, slpPing(uint64(i)))
		c.Close()
		t = c.Now
	}
}

// StackedVLANs writes n Query basic stat exchanges and n Server List Pings
// in frames with VLAN tags: by turns an outer 0x9100 tag alone, 0x9100
// over 0x8100, 0x88a8 over 0x8100 (802.1ad) and 0x8100 over 0x8100.
//
// Real peers never tag frames; switches and capture points do, and 0x9100
// is the TPID older provider bridges (and some Linux setups) use for the
// outer tag. It exists so that every tag stack a capture point may write is
// read through.
func (w *Writer) StackedVLANs(n int) {
	w.Step = time.Microsecond
	defer func() { w.Edit = nil }()
	stacks := [][]uint16{{0x9100}, {0x9100, 0x8100}, {0x88a8, 0x8100}, {0x8100, 0x8100}}
	t := hostileStart
	for i := range n {
		w.Edit = VLANTags(stacks[i%len(stacks)]...)
		cl := hostileClient(i)
		sess := uint32(i + 1)
		q := netip.AddrPortFrom(HostileServer.Addr(), 25565)
		w.UDP(t, cl, q, queryHandshakeRequest(sess))
		w.UDP(t.Add(100*time.Microsecond), q, cl, queryHandshakeResponse(sess, 1000+i))
		w.UDP(t.Add(200*time.Microsecond), cl, q, queryStatRequest(sess, 1000+i, false))
		w.UDP(t.Add(300*time.Microsecond), q, cl, queryBasicStat(sess, "tagged"))
		t = t.Add(time.Millisecond)
		c := w.TCP(hostileClient(n+i), HostileServer, t)
		c.Handshake()
		c.Send(true, append(slpHandshake(1), slpPacket(0)...))
		c.Send(false, slpPacket(0, slpString(slpStatusJSON("tagged"))))
		c.Close()
		t = c.Now
	}
}

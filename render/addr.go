package render

import (
	"net/netip"

	"github.com/mcdissect/mcdissect/dissect"
)

// appendAddr appends a as a.AppendTo does. IPv4 addresses, most of what
// a capture holds, are written from a table of the 256 octets: netip
// formats each octet digit by digit, and -V writes four addresses a
// record (summary and network line) that a cache seldom has, as each
// client of a Query-heavy capture sends few packets.
func appendAddr(dst []byte, a netip.Addr) []byte {
	if !a.Is4() {
		return a.AppendTo(dst)
	}
	// Into an array first, three digits and a dot stored for each octet
	// whatever its length, then one copy: no copy call per octet.
	var buf [16]byte
	p := 0
	for _, o := range a.As4() {
		e := octets[o]
		buf[p], buf[p+1], buf[p+2] = e[0], e[1], e[2]
		p += int(e[3])
		buf[p] = '.'
		p++
	}
	return append(dst, buf[:p-1]...)
}

// appendAddrPort appends p as p.AppendTo does.
func appendAddrPort(dst []byte, p netip.AddrPort) []byte {
	if !p.Addr().Is4() {
		return p.AppendTo(dst)
	}
	dst = appendAddr(dst, p.Addr())
	dst = append(dst, ':')
	return dissect.AppendUint(dst, uint64(p.Port()))
}

// octets are the decimal forms of 0 to 255: up to three digits, then
// how many.
var octets = func() (t [256][4]byte) {
	for i := range t {
		n := copy(t[i][:3], dissect.AppendUint(nil, uint64(i)))
		t[i][3] = byte(n)
	}
	return
}()

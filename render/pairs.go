package render

import (
	"net/netip"

	"github.com/mcdissect/mcdissect/record"
)

// pairCache keeps the formatted addresses, transport and protocol of
// recent records by address pair: a capture has a few hundred
// conversations at a time, each with many PDUs, and formatting two
// addresses and ports costs more than finding them here. It is
// direct-mapped: a clash just formats again.
type pairCache struct {
	slots [4096]pairSlot
}

type pairSlot struct {
	src, dst netip.AddrPort
	proto    string
	stream   int
	tcp      bool
	text     []byte
}

// text returns build's text for r, from the cache when r has the same
// addresses, transport, stream and protocol as the record it was last
// built for: build may use those and nothing else of r. The text is valid
// until the next call.
func (c *pairCache) text(r *record.Record, build func([]byte, *record.Record) []byte) []byte {
	s := &c.slots[pairHash(r.Src, r.Dst)%uint32(len(c.slots))]
	if s.text == nil || s.src != r.Src || s.dst != r.Dst || s.proto != r.Proto || s.stream != r.Stream || s.tcp != r.TCP {
		s.src, s.dst, s.proto, s.stream, s.tcp = r.Src, r.Dst, r.Proto, r.Stream, r.TCP
		s.text = build(s.text[:0], r)
	}
	return s.text
}

// pairHash mixes the ports, which tell a host's conversations apart, and
// the addresses' last bytes, which tell the hosts apart.
func pairHash(src, dst netip.AddrPort) uint32 {
	a, b := src.Addr().As16(), dst.Addr().As16()
	h := uint32(src.Port())<<16 | uint32(dst.Port())
	h ^= uint32(a[15])<<24 | uint32(a[14])<<16 | uint32(b[15])<<8 | uint32(b[14])
	h *= 0x9e3779b1 // Fibonacci hashing: the high bits mix all the input
	return h >> 20
}

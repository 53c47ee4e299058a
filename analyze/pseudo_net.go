package analyze

import (
	"net/netip"

	"github.com/mcdissect/mcdissect/dissect"
)

// The combined network pseudo-fields of Wireshark (either end of a
// conversation) and the protocol names of the layers below Minecraft, so
// that the filters tshark users type first work: tcp.port == 25565,
// ip.addr == 10.0.0.0/8, udp, ipv6. A combined field has two occurrences,
// source first, as in Wireshark's tree: tcp.port == 25565 is true when
// either end uses the port, tcp.port != 25565 when neither does.
// (eth.addr is in pseudo_eth.go.)
var (
	PFIPAddr   = regIP.Str("ip.addr", "Source or destination address")
	PFIPv6Addr = regIPv6.Str("ipv6.addr", "Source or destination address")
	PFUDPPort  = regUDP.Uint("udp.port", "Source or destination port", dissect.BaseDec, nil)
	PFTCPPort  = regTCP.Uint("tcp.port", "Source or destination port", dissect.BaseDec, nil)
)

// isNetPseudo reports whether f is one of this file's fields or a protocol
// name whose presence a record's addresses decide.
func isNetPseudo(f *dissect.Field) bool {
	switch f {
	case PFIPAddr, PFIPv6Addr, PFUDPPort, PFTCPPort,
		regFrame.Root(), regIP.Root(), regIPv6.Root(), regUDP.Root(), regTCP.Root(), dissect.Core.Root():
		return true
	}
	return false
}

func (r *Record) isIPv4() bool { return r.Src.Addr().Is4() || r.Src.Addr().Is4In6() }
func (r *Record) isIPv6() bool { return r.Src.Addr().IsValid() && !r.isIPv4() }

// eachNet emits the values of the fields isNetPseudo knows. A protocol
// name's occurrence has no value: mcdissect keeps no bytes of those layers.
func eachNet(r *Record, f *dissect.Field, emit func(dissect.Value)) {
	switch f {
	case regFrame.Root(), dissect.Core.Root():
		emit(dissect.Value{})
	case regIP.Root():
		if r.isIPv4() {
			emit(dissect.Value{})
		}
	case regIPv6.Root():
		if r.isIPv6() {
			emit(dissect.Value{})
		}
	case regTCP.Root():
		if r.TCP {
			emit(dissect.Value{})
		}
	case regUDP.Root():
		if !r.TCP && r.Src.IsValid() {
			emit(dissect.Value{})
		}
	case PFIPAddr:
		if r.isIPv4() {
			emit(dissect.B(r.Src.Addr().Unmap().AppendTo(r.pseudoText[:0])))
			emit(dissect.B(r.Dst.Addr().Unmap().AppendTo(r.pseudoText[:0])))
		}
	case PFIPv6Addr:
		if r.isIPv6() {
			emit(dissect.B(r.Src.Addr().AppendTo(r.pseudoText[:0])))
			emit(dissect.B(r.Dst.Addr().AppendTo(r.pseudoText[:0])))
		}
	case PFUDPPort:
		if !r.TCP && r.Src.IsValid() {
			emit(dissect.U(uint64(r.Src.Port())))
			emit(dissect.U(uint64(r.Dst.Port())))
		}
	case PFTCPPort:
		if r.TCP {
			emit(dissect.U(uint64(r.Src.Port())))
			emit(dissect.U(uint64(r.Dst.Port())))
		}
	}
}

// AddrFamily is 4 for the IPv4 address fields (ip.src, ip.dst, ip.addr), 6
// for the IPv6 ones, 0 for every other field. Their values show as text
// (-e, -T json); filters compare them as addresses, with CIDR prefixes,
// through EachAddr.
func (f FieldRef) AddrFamily() int {
	switch f.Field {
	case PFIPSrc, PFIPDst, PFIPAddr:
		return 4
	case PFIPv6Src, PFIPv6Dst, PFIPv6Addr:
		return 6
	}
	return 0
}

// EachAddr calls fn with every address an address field (AddrFamily != 0)
// has in r, in the order Each gives them, without formatting any text.
func (f FieldRef) EachAddr(r *Record, fn func(netip.Addr)) {
	switch f.Field {
	case PFIPSrc, PFIPDst, PFIPAddr:
		if !r.isIPv4() {
			return
		}
		if f.Field != PFIPDst {
			fn(r.Src.Addr().Unmap())
		}
		if f.Field != PFIPSrc {
			fn(r.Dst.Addr().Unmap())
		}
	case PFIPv6Src, PFIPv6Dst, PFIPv6Addr:
		if !r.isIPv6() {
			return
		}
		if f.Field != PFIPv6Dst {
			fn(r.Src.Addr())
		}
		if f.Field != PFIPv6Src {
			fn(r.Dst.Addr())
		}
	}
}

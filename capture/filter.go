package capture

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/gopacket/gopacket/layers"
	"golang.org/x/net/bpf"
)

// This file compiles the common part of tcpdump's capture filter language
// into classic BPF, for the default build's kernel filter. It does what
// libpcap's gencode does for these primitives, test for test (a
// differential test runs both over the same packets):
//
//	ip, ip6, arp, rarp, tcp, udp, icmp, icmp6
//	[ip|ip6|arp] [src|dst|src or dst|src and dst] host ADDR
//	[ip|ip6] [src|dst|...] net CIDR            (also ADDR, 10, 10.1, 10.1.2)
//	[tcp|udp] [src|dst|...] port N | portrange N-M
//	and &&, or ||, not !, parentheses
//
// As in tcpdump, a bare value takes the qualifiers of the primitive before
// it: "host a or b", "tcp port 80 or 443". Anything else (names to look up,
// byte offsets, vlan, ...) is refused with ErrFilterUnsupported: the libpcap
// build compiles the whole language.

// ErrFilterUnsupported is wrapped by the error for a filter this compiler
// does not handle.
var ErrFilterUnsupported = errors.New("the built-in filter compiler handles host, net, port, portrange, ip, ip6, tcp, udp, icmp, arp with src/dst, and/or/not and parentheses; the libpcap build (go build -tags pcap ./cmd/mcdissect) compiles every tcpdump filter")

// A layout says where a link type's frames keep the ethertype and the
// network header.
type layout struct {
	name string
	// etherOff is the offset of the ethertype; -1 when the link has none
	// (raw IP: the version nibble tells), -2 when the kernel gives it as
	// an ancillary value (a cooked socket's skb->protocol).
	etherOff int
	nl       uint32 // where the network header starts
}

var (
	layoutEthernet = layout{"Ethernet", 12, 14}
	layoutSLL      = layout{"Linux cooked", 14, 16}
	layoutSLL2     = layout{"Linux cooked v2", 0, 20}
	layoutRaw      = layout{"raw IP", -1, 0}
	// layoutCooked is what a cooked (SOCK_DGRAM) packet socket's filter
	// sees: the packet from its network header, the protocol aside.
	layoutCooked = layout{"cooked socket", -2, 0}
)

func layoutOf(link layers.LinkType) (layout, error) {
	switch link {
	case layers.LinkTypeEthernet:
		return layoutEthernet, nil
	case layers.LinkTypeLinuxSLL:
		return layoutSLL, nil
	case LinkTypeLinuxSLL2:
		return layoutSLL2, nil
	case layers.LinkTypeRaw, 12, layers.LinkTypeIPv4, layers.LinkTypeIPv6:
		return layoutRaw, nil
	}
	return layout{}, fmt.Errorf("capture filters for link type %v: %w", link, ErrFilterUnsupported)
}

// CompileFilter compiles a tcpdump filter expression for frames of the
// given link type into a program that returns snaplen for a packet it
// accepts and 0 for one it rejects.
func CompileFilter(expr string, link layers.LinkType, snaplen int) ([]bpf.Instruction, error) {
	l, err := layoutOf(link)
	if err != nil {
		return nil, err
	}
	n, err := parseFilter(expr, l)
	if err != nil {
		return nil, err
	}
	return assemble(n, snaplen)
}

// PortsExpr is the default kernel filter as a tcpdump expression: TCP and
// UDP on the given ports, IP fragments after the first (they carry no
// ports, and the reassembler needs them), IPv6 ones included, and ICMP of
// both versions (a port or host unreachable answers a Minecraft request;
// ICMP is little traffic).
func PortsExpr(ports []uint16) string {
	var b strings.Builder
	b.WriteString("(")
	for i, p := range ports {
		if i > 0 {
			b.WriteString(" or ")
		}
		fmt.Fprintf(&b, "port %d", p)
	}
	b.WriteString(") or (ip and ip[6:2] & 0x1fff != 0) or (ip6 and ip6[6] == 44) or icmp or icmp6")
	return b.String()
}

// portsFilter builds the node PortsExpr describes (the byte tests are not
// in the built-in language; they are built here directly).
func portsFilter(ports []uint16, l layout) node {
	var n node = constN(false)
	for _, p := range ports {
		n = orN{n, portN(l, 0, dirAny, uint32(p), uint32(p))}
	}
	n = orN{n, andN{etherN(l, ethIPv4), cmpN{ld: load{off: l.nl + 6, size: 2}, op: opSet, val: 0x1fff}}}
	n = orN{n, andN{etherN(l, ethIPv6), cmpN{ld: load{off: l.nl + 6, size: 1}, op: opEq, val: 44}}}
	n = orN{n, andN{etherN(l, ethIPv4), cmpN{ld: load{off: l.nl + 9, size: 1}, op: opEq, val: 1}}}
	n = orN{n, andN{etherN(l, ethIPv6), cmpN{ld: load{off: l.nl + 6, size: 1}, op: opEq, val: 58}}}
	return n
}

// The tree of a filter.
type node interface{}

type (
	andN struct{ a, b node }
	orN  struct{ a, b node }
	notN struct{ a node }
	// cmpN loads a value, masks it and compares it.
	cmpN struct {
		ld   load
		mask uint32 // 0: none
		op   cmpOp
		val  uint32
	}
	constN bool
)

type cmpOp int

const (
	opEq cmpOp = iota
	opGt
	opGe
	opSet // any of val's bits set
)

// load reads size bytes at off from the frame's start, or from the start
// of the IPv4 header's payload (ind: the header length is taken from the
// header at nl), or an ancillary value of the kernel's (anc).
type load struct {
	off  uint32
	size int
	ind  bool
	nl   uint32
	ext  bpf.Extension
	anc  bool // ext is to be loaded (ExtProto is 0)
}

const (
	ethIPv4 = 0x0800
	ethIPv6 = 0x86dd
	ethARP  = 0x0806
	ethRARP = 0x8035
)

// etherN tests the frame's network protocol.
func etherN(l layout, et uint16) node {
	switch l.etherOff {
	case -1:
		switch et {
		case ethIPv4:
			return cmpN{ld: load{off: 0, size: 1}, mask: 0xf0, op: opEq, val: 0x40}
		case ethIPv6:
			return cmpN{ld: load{off: 0, size: 1}, mask: 0xf0, op: opEq, val: 0x60}
		}
		return constN(false)
	case -2:
		return cmpN{ld: load{ext: bpf.ExtProto, anc: true}, op: opEq, val: uint32(et)}
	}
	return cmpN{ld: load{off: uint32(l.etherOff), size: 2}, op: opEq, val: uint32(et)}
}

// ipProtoN tests the transport protocol: the IPv4 protocol field, and for
// IPv6 the next header directly or behind a fragment header, as libpcap.
func ipProtoN(l layout, v4, v6 bool, proto uint32) node {
	var n node = constN(false)
	if v4 {
		n = andN{etherN(l, ethIPv4), cmpN{ld: load{off: l.nl + 9, size: 1}, op: opEq, val: proto}}
	}
	if v6 {
		direct := cmpN{ld: load{off: l.nl + 6, size: 1}, op: opEq, val: proto}
		frag := andN{cmpN{ld: load{off: l.nl + 6, size: 1}, op: opEq, val: 44}, cmpN{ld: load{off: l.nl + 40, size: 1}, op: opEq, val: proto}}
		n = orN{n, andN{etherN(l, ethIPv6), orN{direct, frag}}}
	}
	return n
}

type dir int

const (
	dirAny dir = iota // src or dst
	dirSrc
	dirDst
	dirBoth // src and dst
)

// combine applies a direction to a test made for the source and one for
// the destination.
func combine(d dir, src, dst node) node {
	switch d {
	case dirSrc:
		return src
	case dirDst:
		return dst
	case dirBoth:
		return andN{src, dst}
	}
	return orN{src, dst}
}

// portN: TCP, UDP or SCTP (proto 0), or the one given, over IPv4 (first
// fragments only) or IPv6 (next header directly), ports in [lo, hi].
func portN(l layout, proto uint32, d dir, lo, hi uint32) node {
	protos := []uint32{132, 6, 17}
	if proto != 0 {
		protos = []uint32{proto}
	}
	rng := func(ld load) node {
		if lo == hi {
			return cmpN{ld: ld, op: opEq, val: lo}
		}
		return andN{cmpN{ld: ld, op: opGe, val: lo}, notN{cmpN{ld: ld, op: opGt, val: hi}}}
	}
	var p4, p6 node = constN(false), constN(false)
	for _, p := range protos {
		p4 = orN{p4, cmpN{ld: load{off: l.nl + 9, size: 1}, op: opEq, val: p}}
		p6 = orN{p6, cmpN{ld: load{off: l.nl + 6, size: 1}, op: opEq, val: p}}
	}
	v4 := andN{etherN(l, ethIPv4), andN{p4, andN{
		notN{cmpN{ld: load{off: l.nl + 6, size: 2}, op: opSet, val: 0x1fff}},
		combine(d, rng(load{ind: true, nl: l.nl, off: 0, size: 2}), rng(load{ind: true, nl: l.nl, off: 2, size: 2}))}}}
	v6 := andN{etherN(l, ethIPv6), andN{p6,
		combine(d, rng(load{off: l.nl + 40, size: 2}), rng(load{off: l.nl + 42, size: 2}))}}
	return orN{v6, v4}
}

// addrN compares len(addr)/4 words at off with addr under mask.
func addrN(off uint32, addr, mask []byte) node {
	var n node = constN(true)
	for i := 0; i+4 <= len(addr); i += 4 {
		m := uint32(mask[i])<<24 | uint32(mask[i+1])<<16 | uint32(mask[i+2])<<8 | uint32(mask[i+3])
		if m == 0 {
			continue
		}
		a := uint32(addr[i])<<24 | uint32(addr[i+1])<<16 | uint32(addr[i+2])<<8 | uint32(addr[i+3])
		c := cmpN{ld: load{off: off + uint32(i), size: 4}, op: opEq, val: a & m}
		if m != 0xffffffff {
			c.mask = m
		}
		n = andN{n, c}
	}
	return n
}

// hostN: an IPv4 or IPv6 host or network, in IP headers and, for IPv4
// without a protocol qualifier, in ARP and RARP as libpcap does.
func hostN(l layout, proto string, d dir, ip net.IP, mask net.IPMask) (node, error) {
	if v4 := ip.To4(); v4 != nil {
		m := []byte(mask)
		if len(m) == 16 {
			m = m[12:]
		}
		ipn := andN{etherN(l, ethIPv4), combine(d, addrN(l.nl+12, v4, m), addrN(l.nl+16, v4, m))}
		arp := func(et uint16) node {
			return andN{etherN(l, et), combine(d, addrN(l.nl+14, v4, m), addrN(l.nl+24, v4, m))}
		}
		switch proto {
		case "ip":
			return ipn, nil
		case "arp":
			return arp(ethARP), nil
		case "rarp":
			return arp(ethRARP), nil
		case "":
			return orN{orN{ipn, arp(ethARP)}, arp(ethRARP)}, nil
		}
		return nil, fmt.Errorf("%q with an IPv4 address: %w", proto, ErrFilterUnsupported)
	}
	if proto != "" && proto != "ip6" {
		return nil, fmt.Errorf("%q with an IPv6 address: %w", proto, ErrFilterUnsupported)
	}
	return andN{etherN(l, ethIPv6), combine(d, addrN(l.nl+8, ip, mask), addrN(l.nl+24, ip, mask))}, nil
}

// The parser.

type parser struct {
	toks []string
	pos  int
	l    layout
	// the qualifiers of the last primitive, for a bare value after it
	last *prim
}

type prim struct {
	proto string // "", ip, ip6, arp, rarp, tcp, udp
	d     dir
	kind  string // host, net, port, portrange
}

func tokenize(s string) []string {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case c == '(' || c == ')':
			toks = append(toks, s[i:i+1])
			i++
		case c == '!' || c == '&' || c == '|':
			if i+1 < len(s) && (c == '&' || c == '|') && s[i+1] == c {
				toks = append(toks, s[i:i+2])
				i += 2
				continue
			}
			toks = append(toks, s[i:i+1])
			i++
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n()!&|", rune(s[j])) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		}
	}
	return toks
}

func parseFilter(expr string, l layout) (node, error) {
	p := &parser{toks: tokenize(expr), l: l}
	if len(p.toks) == 0 {
		return constN(true), nil
	}
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.toks) {
		return nil, fmt.Errorf("filter %q: unexpected %q", expr, p.toks[p.pos])
	}
	return n, nil
}

func (p *parser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *parser) take() string {
	t := p.peek()
	if t != "" {
		p.pos++
	}
	return t
}

func (p *parser) or() (node, error) {
	n, err := p.and()
	if err != nil {
		return nil, err
	}
	for t := p.peek(); t == "or" || t == "||"; t = p.peek() {
		p.take()
		m, err := p.and()
		if err != nil {
			return nil, err
		}
		n = orN{n, m}
	}
	return n, nil
}

func (p *parser) and() (node, error) {
	n, err := p.unary()
	if err != nil {
		return nil, err
	}
	for t := p.peek(); t == "and" || t == "&&"; t = p.peek() {
		p.take()
		m, err := p.unary()
		if err != nil {
			return nil, err
		}
		n = andN{n, m}
	}
	return n, nil
}

func (p *parser) unary() (node, error) {
	switch t := p.peek(); t {
	case "not", "!":
		p.take()
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		return notN{n}, nil
	case "(":
		p.take()
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.take() != ")" {
			return nil, errors.New("filter: missing )")
		}
		return n, nil
	case "":
		return nil, errors.New("filter: an expression is missing at the end")
	}
	return p.primitive()
}

var protoWords = map[string]bool{"ip": true, "ip6": true, "arp": true, "rarp": true, "tcp": true, "udp": true, "icmp": true, "icmp6": true}

// unsupportedWords are tcpdump's other keywords, refused by name rather
// than taken for host names.
var unsupportedWords = map[string]bool{"ether": true, "vlan": true, "mpls": true, "less": true, "greater": true, "proto": true,
	"broadcast": true, "multicast": true, "gateway": true, "sctp": true, "igmp": true, "pppoed": true, "pppoes": true,
	"decnet": true, "inbound": true, "outbound": true, "ifname": true, "len": true, "geneve": true, "protochain": true, "mask": true}

var kindWords = map[string]bool{"host": true, "net": true, "port": true, "portrange": true}

func (p *parser) primitive() (node, error) {
	start := p.pos
	var q prim
	qualified := false
	if protoWords[p.peek()] {
		q.proto = p.take()
		qualified = true
	}
	if t := p.peek(); t == "src" || t == "dst" {
		p.take()
		q.d = dirSrc
		if t == "dst" {
			q.d = dirDst
		}
		// "src or dst", "src and dst"
		if p.pos+1 < len(p.toks) && (p.toks[p.pos] == "or" || p.toks[p.pos] == "and") && (p.toks[p.pos+1] == "src" || p.toks[p.pos+1] == "dst") && p.toks[p.pos+1] != t {
			if p.toks[p.pos] == "or" {
				q.d = dirAny
			} else {
				q.d = dirBoth
			}
			p.pos += 2
		}
		qualified = true
	}
	if kindWords[p.peek()] {
		q.kind = p.take()
		qualified = true
	}
	if q.proto != "" && q.kind == "" && q.d == dirAny && !(p.pos > start+1) {
		// a protocol alone: "tcp", "ip6"
		return p.protoAlone(q.proto)
	}
	if !qualified {
		if t := p.peek(); unsupportedWords[t] || strings.ContainsAny(t, "[]=<>+*") {
			return nil, fmt.Errorf("filter: %q: %w", t, ErrFilterUnsupported)
		}
		// A bare value takes the last primitive's qualifiers.
		if p.last == nil {
			return nil, fmt.Errorf("filter: %q needs a qualifier before it (host, net, port, ...)", p.peek())
		}
		q = *p.last
	}
	if q.kind == "" {
		q.kind = "host"
		if strings.Contains(p.peek(), "/") {
			q.kind = "net"
		}
	}
	v := p.take()
	if v == "" || v == "(" || v == ")" {
		return nil, fmt.Errorf("filter: %s needs a value", q.kind)
	}
	p.last = &q
	switch q.kind {
	case "host", "net":
		ip, mask, err := parseNet(v, q.kind == "net")
		if err != nil {
			return nil, err
		}
		switch q.proto {
		case "tcp", "udp", "icmp", "icmp6":
			return nil, fmt.Errorf("filter: %q with %s: %w", q.proto, q.kind, ErrFilterUnsupported)
		}
		return hostN(p.l, q.proto, q.d, ip, mask)
	default: // port, portrange
		var proto uint32
		switch q.proto {
		case "":
		case "tcp":
			proto = 6
		case "udp":
			proto = 17
		default:
			return nil, fmt.Errorf("filter: %q with %s: %w", q.proto, q.kind, ErrFilterUnsupported)
		}
		lo, hi, err := parsePorts(v, q.kind == "portrange")
		if err != nil {
			return nil, err
		}
		return portN(p.l, proto, q.d, lo, hi), nil
	}
}

func (p *parser) protoAlone(proto string) (node, error) {
	l := p.l
	switch proto {
	case "ip":
		return etherN(l, ethIPv4), nil
	case "ip6":
		return etherN(l, ethIPv6), nil
	case "arp":
		return etherN(l, ethARP), nil
	case "rarp":
		return etherN(l, ethRARP), nil
	case "tcp":
		return ipProtoN(l, true, true, 6), nil
	case "udp":
		return ipProtoN(l, true, true, 17), nil
	case "icmp":
		return ipProtoN(l, true, false, 1), nil
	case "icmp6":
		return ipProtoN(l, false, true, 58), nil
	}
	return nil, fmt.Errorf("filter: %q: %w", proto, ErrFilterUnsupported)
}

// parseNet reads an address, a CIDR network, or (for net) an IPv4 network
// of 1 to 3 numbers whose mask is as long as they are, as libpcap.
func parseNet(v string, isNet bool) (net.IP, net.IPMask, error) {
	if ip := net.ParseIP(v); ip != nil {
		if ip.To4() != nil {
			return ip, net.CIDRMask(32, 32), nil
		}
		return ip, net.CIDRMask(128, 128), nil
	}
	if !isNet {
		if strings.Contains(v, "/") {
			return nil, nil, fmt.Errorf("filter: %q is a network: use net", v)
		}
		return nil, nil, fmt.Errorf("filter: host %q: names are not looked up: %w", v, ErrFilterUnsupported)
	}
	if ipn, bits, ok := strings.Cut(v, "/"); ok {
		ip := net.ParseIP(ipn)
		if ip == nil && !strings.Contains(ipn, ":") {
			ip, _, _ = partialV4(ipn)
		}
		n, err := strconv.Atoi(bits)
		if ip == nil || err != nil {
			return nil, nil, fmt.Errorf("filter: net %q is not an address/bits", v)
		}
		size := 128
		if ip.To4() != nil {
			size = 32
		}
		if n < 0 || n > size {
			return nil, nil, fmt.Errorf("filter: net %q: mask length %d", v, n)
		}
		m := net.CIDRMask(n, size)
		if !ip.Mask(m).Equal(ip) {
			return nil, nil, fmt.Errorf("filter: net %q has bits set outside its mask", v)
		}
		return ip, m, nil
	}
	ip, parts, ok := partialV4(v)
	if !ok {
		return nil, nil, fmt.Errorf("filter: net %q: names are not looked up: %w", v, ErrFilterUnsupported)
	}
	return ip, net.CIDRMask(8*parts, 32), nil
}

// partialV4 reads 1 to 4 dotted decimal numbers as the start of an IPv4
// address.
func partialV4(v string) (net.IP, int, bool) {
	f := strings.Split(v, ".")
	if len(f) > 4 {
		return nil, 0, false
	}
	ip := net.IPv4(0, 0, 0, 0).To4()
	for i, s := range f {
		n, err := strconv.ParseUint(s, 10, 8)
		if err != nil {
			return nil, 0, false
		}
		ip[i] = byte(n)
	}
	return ip, len(f), true
}

func parsePorts(v string, isRange bool) (uint32, uint32, error) {
	num := func(s string) (uint32, error) {
		n, err := strconv.ParseUint(s, 10, 16)
		if err != nil {
			return 0, fmt.Errorf("filter: port %q: only numbers: %w", s, ErrFilterUnsupported)
		}
		return uint32(n), nil
	}
	if !isRange {
		n, err := num(v)
		return n, n, err
	}
	a, b, ok := strings.Cut(v, "-")
	if !ok {
		return 0, 0, fmt.Errorf("filter: portrange %q: want N-M", v)
	}
	lo, err := num(a)
	if err != nil {
		return 0, 0, err
	}
	hi, err := num(b)
	if err != nil {
		return 0, 0, err
	}
	if lo > hi {
		lo, hi = hi, lo
	}
	return lo, hi, nil
}

// Code generation: each test jumps to the label of its true or its false
// outcome; a conditional jump too far for its 8-bit offset becomes a short
// jump over two unconditional ones.

type op struct {
	ins   bpf.Instruction // plain instruction
	cond  bool
	test  bpf.JumpTest
	val   uint32
	t, f  int // labels of a conditional jump
	jump  int // label of an unconditional jump; -1 none
	label int // a label's number; -1 when not a label
	long  bool
}

type gen struct {
	ops    []op
	labels int
}

func (g *gen) newLabel() int { g.labels++; return g.labels - 1 }

func (g *gen) place(l int)             { g.ops = append(g.ops, op{label: l, jump: -1}) }
func (g *gen) plain(i bpf.Instruction) { g.ops = append(g.ops, op{ins: i, label: -1, jump: -1}) }
func (g *gen) goTo(l int)              { g.ops = append(g.ops, op{label: -1, jump: l}) }
func (g *gen) branch(test bpf.JumpTest, v uint32, t, f int) {
	g.ops = append(g.ops, op{cond: true, test: test, val: v, t: t, f: f, label: -1, jump: -1})
}

func (g *gen) emit(n node, t, f int) {
	switch n := n.(type) {
	case andN:
		m := g.newLabel()
		g.emit(n.a, m, f)
		g.place(m)
		g.emit(n.b, t, f)
	case orN:
		m := g.newLabel()
		g.emit(n.a, t, m)
		g.place(m)
		g.emit(n.b, t, f)
	case notN:
		g.emit(n.a, f, t)
	case constN:
		if n {
			g.goTo(t)
		} else {
			g.goTo(f)
		}
	case cmpN:
		ld := n.ld
		switch {
		case ld.anc:
			g.plain(bpf.LoadExtension{Num: ld.ext})
		case ld.ind:
			g.plain(bpf.LoadMemShift{Off: ld.nl})
			g.plain(bpf.LoadIndirect{Off: ld.nl + ld.off, Size: ld.size})
		default:
			g.plain(bpf.LoadAbsolute{Off: ld.off, Size: ld.size})
		}
		if n.mask != 0 {
			g.plain(bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: n.mask})
		}
		switch n.op {
		case opEq:
			g.branch(bpf.JumpEqual, n.val, t, f)
		case opGt:
			g.branch(bpf.JumpGreaterThan, n.val, t, f)
		case opGe:
			g.branch(bpf.JumpGreaterOrEqual, n.val, t, f)
		case opSet:
			g.branch(bpf.JumpBitsSet, n.val, t, f)
		}
	default:
		panic(fmt.Sprintf("capture: unknown filter node %T", n))
	}
}

// maxInstructions is the kernel's limit (BPF_MAXINSNS).
const maxInstructions = 4096

func assemble(n node, snaplen int) ([]bpf.Instruction, error) {
	g := &gen{}
	accept, reject := g.newLabel(), g.newLabel()
	g.emit(n, accept, reject)
	g.place(accept)
	g.plain(bpf.RetConstant{Val: uint32(snaplen)})
	g.place(reject)
	g.plain(bpf.RetConstant{Val: 0})

	pos := make([]int, g.labels)
	size := func(o *op) int {
		switch {
		case o.label >= 0:
			return 0
		case o.cond && o.long:
			return 3
		}
		return 1
	}
	for {
		at := 0
		for i := range g.ops {
			if g.ops[i].label >= 0 {
				pos[g.ops[i].label] = at
			}
			at += size(&g.ops[i])
		}
		if at > maxInstructions {
			return nil, fmt.Errorf("filter: %d instructions, over the kernel's limit of %d", at, maxInstructions)
		}
		changed := false
		at = 0
		for i := range g.ops {
			o := &g.ops[i]
			if o.cond && !o.long && (pos[o.t]-at-1 > 255 || pos[o.f]-at-1 > 255) {
				o.long, changed = true, true
			}
			at += size(o)
		}
		if !changed {
			break
		}
	}
	var prog []bpf.Instruction
	for i := range g.ops {
		o := &g.ops[i]
		at := len(prog)
		switch {
		case o.label >= 0:
		case o.cond && o.long:
			prog = append(prog,
				bpf.JumpIf{Cond: o.test, Val: o.val, SkipTrue: 0, SkipFalse: 1},
				bpf.Jump{Skip: uint32(pos[o.t] - at - 2)},
				bpf.Jump{Skip: uint32(pos[o.f] - at - 3)})
		case o.cond:
			prog = append(prog, bpf.JumpIf{Cond: o.test, Val: o.val, SkipTrue: uint8(pos[o.t] - at - 1), SkipFalse: uint8(pos[o.f] - at - 1)})
		case o.jump >= 0:
			prog = append(prog, bpf.Jump{Skip: uint32(pos[o.jump] - at - 1)})
		default:
			prog = append(prog, o.ins)
		}
	}
	return prog, nil
}

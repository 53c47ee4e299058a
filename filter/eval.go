package filter

import (
	"bytes"
	"cmp"
	"math"
	"net/netip"
	"regexp"
	"strconv"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// kind is a value's type as the filter sees it.
type kind uint8

const (
	kNone  kind = iota // a label or a layer without bytes: presence only
	kUint              // unsigned integers and frame numbers
	kInt               // signed integers
	kBool              // 0 or 1
	kFloat             // float64 bits in val.n
	kStr               // text in val.b
	kBytes             // bytes in val.b (byte fields, protocols, slices)
	kAddr              // an IP address in val.a, its prefix length in val.n
	kTime              // an instant: nanoseconds since 1970, signed, in val.n
)

var kindNames = [...]string{"label", "unsigned integer", "signed integer", "boolean", "float", "string", "byte string", "address", "date and time"}

func (k kind) String() string { return kindNames[k] }

// etype is an entity's static type.
type etype struct {
	k     kind
	fam   int           // 4 or 6 for kAddr
	names dissect.Names // an integer field's value names, for literals
}

func (t etype) String() string {
	if t.k == kAddr {
		return "IPv" + strconv.Itoa(t.fam) + " address"
	}
	return t.k.String()
}

// val is one value of an entity. Bytes are views, valid during one Match.
type val struct {
	n uint64
	b []byte
	a netip.Addr
}

// ctx is the scratch of one Match: the values entities collect, and the
// bytes functions make. Both keep their capacity, so a filter that has
// run on a few records allocates nothing more.
type ctx struct {
	vals  []val
	arena []byte
}

// keep returns the arena bytes from start on as a slice later appends
// cannot overwrite.
func (c *ctx) keep(start int) []byte { return c.arena[start:len(c.arena):len(c.arena)] }

// entity is something with values: a field, a slice, a function's result.
type entity interface {
	typ() etype
	collect(c *ctx, r *record.Record) // appends its values to c.vals
}

type fieldEnt struct {
	ref  record.FieldRef
	t    etype
	wire bool // its value is the bytes it spans in the PDU: a protocol, a sliced number
}

func (e *fieldEnt) typ() etype { return e.t }

func (e *fieldEnt) collect(c *ctx, r *record.Record) {
	if e.t.k == kAddr {
		bits := uint64(32)
		if e.t.fam == 6 {
			bits = 128
		}
		e.ref.EachAddr(r, func(a netip.Addr) { c.vals = append(c.vals, val{n: bits, a: a}) })
		return
	}
	k, wire := e.t.k, e.wire
	e.ref.Each(r, func(n *dissect.Node) {
		if n.Field != e.ref.Field && !sameKind(k, n.Field.Type) || k != kNone && n.Field.Type == dissect.FTNone {
			return // a field sharing the name, with a type that does not compare, or no value to compare
		}
		v := val{n: n.Value.N, b: n.Value.B}
		if wire {
			v.b = nodeBytes(r, n)
		} else if k == kBool && v.n != 0 {
			v.n = 1
		}
		c.vals = append(c.vals, v)
	})
}

// sameKind reports whether a node of type t (a field sharing the filter
// name of a field of kind k: dissect.Field.Alts) has a value that
// compares as k's.
func sameKind(k kind, t dissect.FieldType) bool {
	switch t {
	case dissect.FTUint, dissect.FTInt, dissect.FTFrameNum:
		return k == kUint || k == kInt
	case dissect.FTBool:
		return k == kBool
	case dissect.FTFloat:
		return k == kFloat
	case dissect.FTString:
		return k == kStr
	case dissect.FTBytes:
		return k == kBytes
	}
	return false
}

// nodeBytes are the bytes a node spans in its PDU.
func nodeBytes(r *record.Record, n *dissect.Node) []byte {
	d := r.PDU.Data
	lo, hi := int(n.Offset), int(n.Offset)+int(n.Length)
	if lo < 0 || hi > len(d) || lo > hi {
		return nil
	}
	return d[lo:hi]
}

// sliceMode is how a slice's two numbers are read.
type sliceMode uint8

const (
	sliceLen   sliceMode = iota // [i:j]: j bytes from i; [i] is [i:1], [:j] is [0:j]
	sliceEnd                    // [i-j]: i to j inclusive
	sliceToEnd                  // [i:]: i to the end
)

type sliceEnt struct {
	in   entity
	i, j int
	mode sliceMode
}

func (e *sliceEnt) typ() etype { return etype{k: kBytes} }

func (e *sliceEnt) collect(c *ctx, r *record.Record) {
	base := len(c.vals)
	e.in.collect(c, r)
	out := base
	for _, v := range c.vals[base:] {
		if b, ok := e.cut(v.b); ok {
			c.vals[out] = val{b: b}
			out++
		}
	}
	c.vals = c.vals[:out]
}

// cut applies the slice to b; a range not wholly inside b has no value,
// as in Wireshark, where frame[100-199] implies 200 bytes or more.
func (e *sliceEnt) cut(b []byte) ([]byte, bool) {
	n := len(b)
	s := e.i
	if s < 0 {
		s += n
	}
	if s < 0 || s >= n {
		return nil, false
	}
	var end int
	switch e.mode {
	case sliceLen:
		end = s + e.j
	case sliceEnd:
		end = e.j
		if end < 0 {
			end += n
		}
		end++
	default:
		end = n
	}
	if end > n || end <= s {
		return nil, false
	}
	return b[s:end], true
}

// The functions.

type lenFunc struct{ in entity }

func (e *lenFunc) typ() etype { return etype{k: kUint} }
func (e *lenFunc) collect(c *ctx, r *record.Record) {
	base := len(c.vals)
	e.in.collect(c, r)
	for i := base; i < len(c.vals); i++ {
		c.vals[i] = val{n: uint64(len(c.vals[i].b))}
	}
}

type countFunc struct{ in entity }

func (e *countFunc) typ() etype { return etype{k: kUint} }
func (e *countFunc) collect(c *ctx, r *record.Record) {
	base := len(c.vals)
	e.in.collect(c, r)
	n := len(c.vals) - base
	c.vals = c.vals[:base]
	if n > 0 { // count of an absent field has no value: the implicit exists test
		c.vals = append(c.vals, val{n: uint64(n)})
	}
}

type caseFunc struct {
	in    entity
	upper bool
}

func (e *caseFunc) typ() etype { return etype{k: kStr} }
func (e *caseFunc) collect(c *ctx, r *record.Record) {
	base := len(c.vals)
	e.in.collect(c, r)
	for i := base; i < len(c.vals); i++ {
		start := len(c.arena)
		for _, ch := range c.vals[i].b {
			if e.upper && ch >= 'a' && ch <= 'z' {
				ch -= 'a' - 'A'
			} else if !e.upper && ch >= 'A' && ch <= 'Z' {
				ch += 'a' - 'A'
			}
			c.arena = append(c.arena, ch)
		}
		c.vals[i] = val{b: c.keep(start)}
	}
}

type stringFunc struct{ in entity }

func (e *stringFunc) typ() etype { return etype{k: kStr} }
func (e *stringFunc) collect(c *ctx, r *record.Record) {
	base := len(c.vals)
	e.in.collect(c, r)
	k := e.in.typ().k
	for i := base; i < len(c.vals); i++ {
		v, start := c.vals[i], len(c.arena)
		switch k {
		case kUint:
			c.arena = strconv.AppendUint(c.arena, v.n, 10)
		case kInt:
			c.arena = strconv.AppendInt(c.arena, int64(v.n), 10)
		case kFloat:
			c.arena = strconv.AppendFloat(c.arena, math.Float64frombits(v.n), 'f', -1, 64)
		case kAddr:
			c.arena = v.a.AppendTo(c.arena)
		}
		c.vals[i] = val{b: c.keep(start)}
	}
}

type bitAnd struct {
	in   entity
	mask uint64
}

func (e *bitAnd) typ() etype { return e.in.typ() }
func (e *bitAnd) collect(c *ctx, r *record.Record) {
	base := len(c.vals)
	e.in.collect(c, r)
	for i := base; i < len(c.vals); i++ {
		c.vals[i].n &= e.mask
	}
}

// The tests.

type node interface {
	eval(c *ctx, r *record.Record) bool
}

type andN struct{ a, b node }
type orN struct{ a, b node }
type xorN struct{ a, b node }
type notN struct{ a node }

func (n *andN) eval(c *ctx, r *record.Record) bool { return n.a.eval(c, r) && n.b.eval(c, r) }
func (n *orN) eval(c *ctx, r *record.Record) bool  { return n.a.eval(c, r) || n.b.eval(c, r) }
func (n *xorN) eval(c *ctx, r *record.Record) bool { return n.a.eval(c, r) != n.b.eval(c, r) }
func (n *notN) eval(c *ctx, r *record.Record) bool { return !n.a.eval(c, r) }

// existsN is a field (or slice) alone: true when it has a value; with
// nonzero, a bitwise and alone: true when a value is not zero.
type existsN struct {
	e       entity
	nonzero bool
}

func (n *existsN) eval(c *ctx, r *record.Record) bool {
	if fe, ok := n.e.(*fieldEnt); ok && !n.nonzero && fe.t.k != kAddr {
		// present: a node of the field, or of one sharing its name
		// (dissect.Field.Alts) whatever its type; no value is read
		found := false
		fe.ref.Each(r, func(*dissect.Node) { found = true })
		return found
	}
	base := len(c.vals)
	n.e.collect(c, r)
	ok := false
	for _, v := range c.vals[base:] {
		if !n.nonzero || v.n != 0 {
			ok = true
			break
		}
	}
	c.vals = c.vals[:base]
	return ok
}

// rel is a relation between two values.
type rel uint8

const (
	rEq rel = iota
	rNe
	rLt
	rLe
	rGt
	rGe
	rContains
	rMatches
)

// cmpN compares the values of lhs with constants or with the values of
// another entity: true when the relation holds for any pair, or with all,
// for every pair. Either side without values makes it false.
type cmpN struct {
	lhs    entity
	k      kind
	r      rel
	all    bool
	consts []val
	rhs    entity
	re     *regexp.Regexp
}

func (n *cmpN) eval(c *ctx, r *record.Record) bool {
	base := len(c.vals)
	n.lhs.collect(c, r)
	mid := len(c.vals)
	rs := n.consts
	if n.rhs != nil {
		n.rhs.collect(c, r)
		rs = c.vals[mid:]
	}
	ls := c.vals[base:mid]
	ok := len(ls) > 0 && len(rs) > 0
	if ok {
		ok = n.all
	pairs:
		for i := range ls {
			for j := range rs {
				if n.test(&ls[i], &rs[j]) != n.all {
					ok = !n.all
					break pairs
				}
			}
		}
	}
	c.vals = c.vals[:base]
	return ok
}

func (n *cmpN) test(a, b *val) bool {
	switch n.r {
	case rEq:
		return compare(n.k, a, b) == 0
	case rNe:
		return compare(n.k, a, b) != 0
	case rLt:
		return compare(n.k, a, b) < 0
	case rLe:
		return compare(n.k, a, b) <= 0
	case rGt:
		return compare(n.k, a, b) > 0
	case rGe:
		return compare(n.k, a, b) >= 0
	case rContains:
		return bytes.Contains(a.b, b.b)
	case rMatches:
		return n.re.Match(a.b)
	}
	return false
}

// compare orders two values of kind k. Addresses compare under the
// shorter of their prefixes: 10.1.2.3 equals 10.0.0.0/8.
func compare(k kind, a, b *val) int {
	switch k {
	case kUint, kBool:
		return cmp.Compare(a.n, b.n)
	case kInt, kTime:
		return cmp.Compare(int64(a.n), int64(b.n))
	case kFloat:
		// Times in seconds (frame.time_epoch) carry their exact decimal
		// text, to the nanosecond, which a float64 cannot hold: two such
		// decimals compare exactly.
		if len(a.b) > 0 && len(b.b) > 0 {
			if c, ok := cmpDecimal(a.b, b.b); ok {
				return c
			}
		}
		return cmp.Compare(math.Float64frombits(a.n), math.Float64frombits(b.n))
	case kStr, kBytes:
		return bytes.Compare(a.b, b.b)
	case kAddr:
		bits := int(min(a.n, b.n))
		if bits < a.a.BitLen() {
			pa, _ := a.a.Prefix(bits)
			pb, _ := b.a.Prefix(bits)
			return pa.Addr().Compare(pb.Addr())
		}
		return a.a.Compare(b.a)
	}
	return 0
}

// inN is membership of a set of values and inclusive ranges.
type inN struct {
	lhs   entity
	k     kind
	elems []elem
	all   bool
}

type elem struct {
	lo, hi val
	rng    bool
}

func (n *inN) eval(c *ctx, r *record.Record) bool {
	base := len(c.vals)
	n.lhs.collect(c, r)
	vs := c.vals[base:]
	ok := len(vs) > 0 && n.all
	for i := range vs {
		if n.member(&vs[i]) != n.all {
			ok = !n.all
			break
		}
	}
	c.vals = c.vals[:base]
	return ok
}

func (n *inN) member(v *val) bool {
	for i := range n.elems {
		e := &n.elems[i]
		if e.rng {
			if compare(n.k, v, &e.lo) >= 0 && compare(n.k, v, &e.hi) <= 0 {
				return true
			}
		} else if compare(n.k, v, &e.lo) == 0 {
			return true
		}
	}
	return false
}

// cmpDecimal orders two plain decimals ([-]digits[.digits], no exponent)
// exactly; ok is false when either is not one.
func cmpDecimal(a, b []byte) (c int, ok bool) {
	na, ia, fa, ok1 := splitDecimal(a)
	nb, ib, fb, ok2 := splitDecimal(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	zero := func(i, f []byte) bool { return len(i) == 0 && len(f) == 0 }
	if zero(ia, fa) {
		na = false
	}
	if zero(ib, fb) {
		nb = false
	}
	if na != nb {
		if na {
			return -1, true
		}
		return 1, true
	}
	c = cmp.Compare(len(ia), len(ib))
	if c == 0 {
		c = bytes.Compare(ia, ib)
	}
	if c == 0 {
		c = bytes.Compare(fa, fb) // trailing zeros gone: a prefix is smaller
	}
	if na {
		c = -c
	}
	return c, true
}

// splitDecimal splits a plain decimal into its sign, its integer digits
// without leading zeros and its fraction digits without trailing zeros.
func splitDecimal(s []byte) (neg bool, ip, fp []byte, ok bool) {
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	ip, fp, _ = bytes.Cut(s, []byte{'.'})
	if len(ip) == 0 && len(fp) == 0 {
		return false, nil, nil, false
	}
	for _, part := range [][]byte{ip, fp} {
		for _, c := range part {
			if c < '0' || c > '9' {
				return false, nil, nil, false
			}
		}
	}
	ip = bytes.TrimLeft(ip, "0")
	fp = bytes.TrimRight(fp, "0")
	return neg, ip, fp, true
}

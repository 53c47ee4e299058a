package filter

import (
	"encoding/hex"
	"fmt"
	"math"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/record"
)

// parser is a recursive-descent parser over the token stream that type-
// checks as it goes and builds the tree of tests Match evaluates.
type parser struct {
	expr   string
	toks   []token
	i      int
	tree   bool           // a field of the tree was resolved
	layers netlayers.Want // the fields of the layers resolved
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) peek2() token {
	if p.i+1 < len(p.toks) {
		return p.toks[p.i+1]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.k != tEOF {
		p.i++
	}
	return t
}

// is reports whether t is one of the words or operators in alts.
func is(t token, alts ...string) bool {
	return (t.k == tWord || t.k == tOp) && slices.Contains(alts, t.s)
}

func (p *parser) accept(alts ...string) bool {
	if is(p.peek(), alts...) {
		p.i++
		return true
	}
	return false
}

func (p *parser) errTok(t token, msg string) *Error { return errAt(p.expr, t.pos, t.end, msg) }

func (p *parser) unexpected(t token) *Error {
	if t.k == tEOF {
		return errAt(p.expr, t.pos, t.end, "Unexpected end of filter expression.")
	}
	return p.errTok(t, strconv.Quote(p.expr[t.pos:t.end])+" was unexpected in this context.")
}

// keywords cannot be field names or literals.
var keywords = []string{"and", "or", "xor", "not", "in", "eq", "ne", "lt", "le", "gt", "ge",
	"any_eq", "all_ne", "all_eq", "any_ne", "contains", "matches", "bitwise_and"}

func (p *parser) parseExpr() (node, error) {
	a, err := p.parseXor()
	for err == nil && p.accept("or", "||") {
		var b node
		if b, err = p.parseXor(); err == nil {
			a = &orN{a, b}
		}
	}
	return a, err
}

func (p *parser) parseXor() (node, error) {
	a, err := p.parseAnd()
	for err == nil && p.accept("xor", "^^") {
		var b node
		if b, err = p.parseAnd(); err == nil {
			a = &xorN{a, b}
		}
	}
	return a, err
}

func (p *parser) parseAnd() (node, error) {
	a, err := p.parseNot()
	for err == nil && p.accept("and", "&&") {
		var b node
		if b, err = p.parseNot(); err == nil {
			a = &andN{a, b}
		}
	}
	return a, err
}

func (p *parser) parseNot() (node, error) {
	if p.accept("not", "!") {
		a, err := p.parseNot()
		if err != nil {
			return nil, err
		}
		return &notN{a}, nil
	}
	if t := p.peek(); is(t, "(") {
		p.next()
		n, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		if !p.accept(")") {
			if p.peek().k == tEOF {
				return nil, p.errTok(t, `The closing ")" of this "(" is missing.`)
			}
			return nil, p.unexpected(p.peek())
		}
		return n, nil
	}
	return p.parseTest()
}

// relations maps each spelling of a relation to what it tests, and
// whether for all pairs of values or any.
var relations = map[string]struct {
	r   rel
	all bool
}{
	"==": {rEq, false}, "eq": {rEq, false}, "any_eq": {rEq, false},
	"!=": {rNe, true}, "ne": {rNe, true}, "all_ne": {rNe, true},
	"===": {rEq, true}, "all_eq": {rEq, true},
	"!==": {rNe, false}, "any_ne": {rNe, false}, "~=": {rNe, false},
	"<": {rLt, false}, "lt": {rLt, false}, "<=": {rLe, false}, "le": {rLe, false},
	">": {rGt, false}, "gt": {rGt, false}, ">=": {rGe, false}, "ge": {rGe, false},
	"contains": {rContains, false}, "matches": {rMatches, false}, "~": {rMatches, false},
}

func (p *parser) parseTest() (node, error) {
	quant := ""
	if t := p.peek(); t.k == tWord && (t.s == "any" || t.s == "all") && p.peek2().k == tWord {
		quant = t.s
		p.next()
	}
	lhs, err := p.parseValue()
	if err != nil {
		return nil, err
	}
	t := p.peek()
	if rl, ok := relations[t.s]; ok && (t.k == tOp || t.k == tWord) {
		p.next()
		rhs, err := p.parseValue()
		if err != nil {
			return nil, err
		}
		all := rl.all
		if quant != "" {
			all = quant == "all"
		}
		return p.compare(lhs, t, rl.r, all, rhs)
	}
	if is(t, "in") || is(t, "not") && is(p.peek2(), "in") {
		neg := p.accept("not")
		p.next()
		n, err := p.parseSet(lhs, quant == "all")
		if err != nil || !neg {
			return n, err
		}
		return &notN{n}, nil
	}
	if quant != "" {
		return nil, p.errTok(t, `"`+quant+`" needs a comparison after the field, as in `+quant+` tcp.port > 1024.`)
	}
	return p.exists(lhs)
}

// operand is one side of a test as parsed: an entity, or a literal whose
// type the other side decides.
type operand struct {
	e        entity // nil for a literal
	lit      token
	pos, end int
	field    bool // a field itself, not a slice or a function's value
}

func (o *operand) text(p *parser) string { return p.expr[o.pos:o.end] }

// parseValue reads an entity and any bitwise and masks after it.
func (p *parser) parseValue() (operand, error) {
	o, err := p.parseEntity()
	if err != nil {
		return o, err
	}
	for {
		t := p.peek()
		if !is(t, "&", "bitwise_and") {
			return o, nil
		}
		p.next()
		m, err := p.parseEntity()
		if err != nil {
			return o, err
		}
		if o.e == nil {
			return o, p.errLiteralSide(o, t)
		}
		k := o.e.typ().k
		if k != kUint && k != kInt {
			return o, errAt(p.expr, o.pos, o.end, fmt.Sprintf("%s (type=%s) cannot be used with the bitwise and: only integer fields can.", o.text(p), o.e.typ()))
		}
		if m.e != nil {
			return o, errAt(p.expr, m.pos, m.end, "The mask of a bitwise and must be a number, like 0x80.")
		}
		vs, err := p.literal(o, m, rEq)
		if err != nil {
			return o, err
		}
		o.e, o.end, o.field = &bitAnd{in: o.e, mask: vs[0].n}, m.end, false
	}
}

func (p *parser) parseEntity() (operand, error) {
	t := p.next()
	o := operand{lit: t, pos: t.pos, end: t.end}
	switch t.k {
	case tWord:
		if slices.Contains(keywords, t.s) {
			return o, p.unexpected(t)
		}
		if ref, err := record.ResolveField(t.s); err == nil {
			o.e, o.field = fieldEntity(ref), true
			p.tree = p.tree || ref.NeedsTree()
			p.layers = p.layers.Or(ref.Layers())
		} else if is(p.peek(), "(") {
			if err := p.parseCall(&o); err != nil {
				return o, err
			}
		}
	case tString, tChar:
	default:
		return o, p.unexpected(t)
	}
	for p.peek().k == tSlice {
		if err := p.parseSlice(&o, p.next()); err != nil {
			return o, err
		}
	}
	return o, nil
}

// fieldEntity types a resolved field.
func fieldEntity(ref record.FieldRef) *fieldEnt {
	e := &fieldEnt{ref: ref, t: etype{names: ref.Field.Names}}
	switch ref.Field.Type {
	case dissect.FTUint, dissect.FTFrameNum:
		e.t.k = kUint
	case dissect.FTInt:
		e.t.k = kInt
	case dissect.FTBool:
		e.t.k = kBool
	case dissect.FTFloat:
		e.t.k = kFloat
	case dissect.FTString:
		e.t.k = kStr
		if f := ref.AddrFamily(); f != 0 {
			e.t.k, e.t.fam = kAddr, f
		}
	case dissect.FTBytes:
		e.t.k = kBytes
	case dissect.FTAbsTime:
		e.t.k = kTime
	case dissect.FTProtocol:
		// A dissected protocol is the bytes of its PDU; the layers below
		// (frame, ip, tcp, udp) and mc are only present or not.
		if ref.NeedsTree() {
			e.t.k, e.wire = kBytes, true
		}
	}
	if e.t.k == kNone {
		// A name with no value of its own (an NBT form) that stands for
		// fields with one too (dissect.Field.Alts: the JSON string of
		// older versions) compares as the first of those, as Wireshark
		// checks a comparison against the fields sharing a name.
		for _, a := range ref.Field.Alts {
			if ae := fieldEntity(record.FieldRef{Field: a}); ae.t.k != kNone {
				e.t = ae.t
				break
			}
		}
	}
	return e
}

var functions = []string{"len", "count", "lower", "upper", "string"}

func (p *parser) parseCall(o *operand) error {
	name := o.lit
	open := p.next()
	arg, err := p.parseValue()
	if err != nil {
		return err
	}
	if t := p.peek(); !is(t, ")") {
		if t.k == tEOF {
			return p.errTok(open, `The closing ")" of this "(" is missing.`)
		}
		if is(t, ",") {
			return p.errTok(t, "Function "+name.s+"() takes one argument.")
		}
		return p.unexpected(t)
	}
	o.end = p.next().end
	if !slices.Contains(functions, name.s) {
		msg := "Function '" + name.s + "' does not exist"
		if slices.Contains([]string{"max", "min", "abs"}, name.s) {
			msg = "Function '" + name.s + "' is not supported by mcdissect"
		}
		return p.errTok(name, msg+" (functions: "+strings.Join(functions, ", ")+").")
	}
	if arg.e == nil {
		return errAt(p.expr, arg.pos, arg.end, "Only fields can be used as parameter for "+name.s+"().")
	}
	k := arg.e.typ().k
	bad := func(what string) error {
		return errAt(p.expr, arg.pos, arg.end, fmt.Sprintf("Only %s can be used as parameter for %s(), not %s (type=%s).", what, name.s, arg.text(p), arg.e.typ()))
	}
	switch name.s {
	case "len":
		if k != kStr && k != kBytes {
			return bad("string and byte fields")
		}
		o.e = &lenFunc{arg.e}
	case "count":
		if !arg.field {
			return bad("fields")
		}
		o.e = &countFunc{arg.e}
	case "lower", "upper":
		if k != kStr {
			return bad("string type fields")
		}
		o.e = &caseFunc{in: arg.e, upper: name.s == "upper"}
	case "string":
		if k != kUint && k != kInt && k != kFloat && k != kAddr {
			return bad("number and address fields")
		}
		o.e = &stringFunc{arg.e}
	}
	return nil
}

// parseSlice applies [i:j], [i-j], [i], [:j] or [i:] to o.
func (p *parser) parseSlice(o *operand, t token) error {
	if o.e == nil && o.lit.k == tWord && looksLikeField(o.lit.s) {
		return p.errNotField(*o)
	}
	if o.e == nil {
		return p.errTok(t, "Only a field or a function's value can be sliced, not "+o.text(p)+".")
	}
	if k := o.e.typ().k; k != kStr && k != kBytes {
		// A field of the tree slices as the bytes it spans on the wire
		// (query.magic[0] == fe); generated ones span none, so have no slice.
		if fe, ok := o.e.(*fieldEnt); ok && fe.ref.NeedsTree() {
			o.e = &fieldEnt{ref: fe.ref, t: etype{k: kBytes}, wire: true}
		}
	}
	if k := o.e.typ().k; k != kStr && k != kBytes {
		return errAt(p.expr, o.pos, o.end, fmt.Sprintf("%s (type=%s) has no bytes in mcdissect, so it cannot be sliced.", o.text(p), o.e.typ()))
	}
	s := strings.ReplaceAll(t.s, " ", "")
	bad := p.errTok(t, strconv.Quote(t.s)+" is not a valid slice: write [i:j] (j bytes from i), [i-j] (i to j), [i], [:j] or [i:].")
	if strings.Contains(s, ",") {
		return p.errTok(t, "Concatenated slices ("+t.s+") are not supported by mcdissect.")
	}
	num := func(s string) (int, bool) {
		if s == "" || len(s) > 10 {
			return 0, false
		}
		n, err := strconv.Atoi(s)
		return n, err == nil
	}
	e := &sliceEnt{in: o.e}
	var ok bool
	if a, b, colon := strings.Cut(s, ":"); colon {
		switch {
		case a == "" && b == "":
			return bad
		case b == "":
			e.mode = sliceToEnd
			e.i, ok = num(a)
		default:
			if a == "" {
				a = "0"
			}
			e.mode = sliceLen
			var ok2 bool
			e.i, ok = num(a)
			e.j, ok2 = num(b)
			ok = ok && ok2 && e.j > 0
		}
	} else if k := strings.Index(s[min(1, len(s)):], "-"); k >= 0 {
		k++ // a leading minus is the sign of i
		e.mode = sliceEnd
		var ok2 bool
		e.i, ok = num(s[:k])
		e.j, ok2 = num(s[k+1:])
		ok = ok && ok2 && (e.i < 0) == (e.j < 0) && e.i <= e.j
	} else {
		e.mode, e.j = sliceLen, 1
		e.i, ok = num(s)
	}
	if !ok {
		return bad
	}
	o.e, o.end, o.field = e, t.end, false
	return nil
}

// exists is a value alone as a test.
func (p *parser) exists(o operand) (node, error) {
	if o.e == nil {
		return nil, p.errNotField(o)
	}
	switch e := o.e.(type) {
	case *bitAnd:
		return &existsN{e: e, nonzero: true}, nil
	case *lenFunc, *countFunc, *caseFunc, *stringFunc:
		return nil, errAt(p.expr, o.pos, o.end, o.text(p)+" is not a test by itself: compare its value, as in len(classic.username) > 3.")
	}
	return &existsN{e: o.e}, nil
}

// errNotField is the error for a word that is neither a field nor
// something a field could be compared with here.
func (p *parser) errNotField(o operand) error {
	if o.lit.k == tWord && looksLikeField(o.lit.s) {
		msg := strconv.Quote(o.lit.s) + " is not a valid protocol or protocol field."
		if s := suggest(o.lit.s); s != "" {
			msg += " Did you mean " + strconv.Quote(s) + "?"
		}
		return errAt(p.expr, o.pos, o.end, msg)
	}
	return errAt(p.expr, o.pos, o.end, o.text(p)+" is a value, not a field: compare a field with it, as in tcp.port == 25565.")
}

func (p *parser) errLiteralSide(o operand, op token) error {
	if o.lit.k == tWord && looksLikeField(o.lit.s) {
		return p.errNotField(o)
	}
	return errAt(p.expr, o.pos, o.end, fmt.Sprintf("Left side of %q expression must be a field or function, not %s.", op.s, o.text(p)))
}

// looksLikeField: a name, not a number, address or byte string.
func looksLikeField(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	if _, err := hex.DecodeString(strings.NewReplacer(".", "", "-", "").Replace(s)); err == nil {
		return false // fe.fd
	}
	return true
}

// misspelt reports whether a word that is no field reads as a misspelt
// one: a name under a protocol's prefix, as tcp.prot.
func misspelt(tok token) bool {
	if tok.k != tWord || !looksLikeField(tok.s) {
		return false
	}
	i := strings.IndexByte(tok.s, '.')
	if i <= 0 {
		return false
	}
	_, err := record.ResolveField(tok.s[:i])
	return err == nil
}

// compare builds a comparison of lhs and rhs.
func (p *parser) compare(lhs operand, op token, r rel, all bool, rhs operand) (node, error) {
	if lhs.e == nil {
		return nil, p.errLiteralSide(lhs, op)
	}
	t := lhs.e.typ()
	if err := p.checkRel(lhs, op, r); err != nil {
		return nil, err
	}
	n := &cmpN{lhs: lhs.e, k: t.k, r: r, all: all}
	if rhs.e != nil {
		rt := rhs.e.typ()
		if r == rMatches {
			return nil, errAt(p.expr, rhs.pos, rhs.end, "The right side of matches must be a quoted regular expression.")
		}
		if rt.k != t.k || rt.fam != t.fam {
			return nil, errAt(p.expr, lhs.pos, rhs.end, fmt.Sprintf("%s (type=%s) and %s (type=%s) cannot be compared.", lhs.text(p), t, rhs.text(p), rt))
		}
		n.rhs = rhs.e
		return n, nil
	}
	if r == rMatches {
		if rhs.lit.k != tString {
			return nil, errAt(p.expr, rhs.pos, rhs.end, "The right side of matches must be a quoted regular expression, not "+rhs.text(p)+".")
		}
		re, err := regexp.Compile("(?i)" + rhs.lit.s)
		if err != nil {
			return nil, errAt(p.expr, rhs.pos, rhs.end, "Invalid regular expression: "+strings.TrimPrefix(err.Error(), "error parsing regexp: ")+".")
		}
		n.re, n.consts = re, []val{{}}
		return n, nil
	}
	vs, err := p.literal(lhs, rhs, r)
	if err != nil {
		return nil, err
	}
	n.consts = vs
	return n, nil
}

// checkRel says whether values of lhs's type can take part in r.
func (p *parser) checkRel(lhs operand, op token, r rel) error {
	t := lhs.e.typ()
	if t.k == kNone {
		return errAt(p.expr, lhs.pos, lhs.end, fmt.Sprintf("%s has no value in mcdissect: it can only be tested for presence, as in %s alone.", lhs.text(p), lhs.text(p)))
	}
	if (r == rContains || r == rMatches) && t.k != kStr && t.k != kBytes {
		return errAt(p.expr, lhs.pos, lhs.end, fmt.Sprintf("%s (type=%s) cannot participate in %s comparison.", lhs.text(p), t, op.s))
	}
	return nil
}

// literal converts a literal to values of lhs's type: one, or for a value
// name several integers may share, all of them.
func (p *parser) literal(lhs operand, o operand, r rel) ([]val, error) {
	t := lhs.e.typ()
	if o.e != nil {
		return nil, errAt(p.expr, o.pos, o.end, "A set or mask holds values, not fields: "+o.text(p)+".")
	}
	tok := o.lit
	fail := func(msg string) ([]val, error) {
		if _, err := record.ResolveField(tok.s); err == nil && tok.k == tWord {
			return nil, errAt(p.expr, o.pos, o.end, "A set or mask holds values, not fields: "+o.text(p)+".")
		}
		if misspelt(tok) {
			return nil, p.errNotField(o)
		}
		return nil, errAt(p.expr, o.pos, o.end, msg)
	}
	one := func(v val) ([]val, error) { return []val{v}, nil }
	switch t.k {
	case kUint, kInt:
		if tok.k == tChar {
			return one(val{n: uint64(tok.s[0])})
		}
		if tok.k == tWord && !strings.Contains(tok.s, "_") {
			if t.k == kUint {
				if n, err := strconv.ParseUint(tok.s, 0, 64); err == nil {
					return one(val{n: n})
				}
			} else if n, err := strconv.ParseInt(tok.s, 0, 64); err == nil {
				return one(val{n: uint64(n)})
			}
		}
		if t.names != nil {
			var keys []uint64
			for k, name := range t.names {
				if name == tok.s {
					keys = append(keys, k)
				}
			}
			if len(keys) > 0 {
				if r != rEq && r != rNe {
					return nil, errAt(p.expr, o.pos, o.end, "A value name ("+o.text(p)+") can only be compared with ==, !=, === or !==, or used in a set.")
				}
				slices.Sort(keys)
				vs := make([]val, len(keys))
				for i, k := range keys {
					vs[i].n = k
				}
				return vs, nil
			}
			return fail(fmt.Sprintf("%s is neither a number nor one of the value names of %s (%s).", o.text(p), lhs.text(p), nameList(t.names)))
		}
		if tok.k == tString {
			return fail(fmt.Sprintf("%s is a string; %s is a %s: compare it with a number, unquoted.", o.text(p), lhs.text(p), t))
		}
		if t.k == kUint && strings.HasPrefix(tok.s, "-") {
			return fail(fmt.Sprintf("%s is negative; %s is unsigned.", o.text(p), lhs.text(p)))
		}
		return fail(strconv.Quote(tok.s) + " is not a valid number.")
	case kBool:
		if tok.k == tWord {
			switch strings.ToLower(tok.s) {
			case "true":
				return one(val{n: 1})
			case "false":
				return one(val{n: 0})
			}
			if n, err := strconv.ParseInt(tok.s, 0, 64); err == nil {
				return one(val{n: b2u(n != 0)})
			}
		}
		return fail(o.text(p) + " is not a valid boolean: write True, False, 1 or 0.")
	case kFloat:
		if tok.k == tWord {
			if f, err := strconv.ParseFloat(tok.s, 64); err == nil && !strings.Contains(tok.s, "_") {
				// The text too, for exact comparison with times (cmpDecimal).
				return one(val{n: floatBits(f), b: []byte(tok.s)})
			}
		}
		return fail(strconv.Quote(tok.s) + " is not a valid number.")
	case kStr:
		// Unquoted words are strings too, as in Wireshark, but not one
		// that reads as a misspelt field.
		if misspelt(tok) {
			return nil, p.errNotField(o)
		}
		return one(val{b: []byte(tok.s)})
	case kBytes:
		if tok.k != tWord {
			return one(val{b: []byte(tok.s)})
		}
		if b, ok := parseBytes(tok.s); ok {
			return one(val{b: b})
		}
		return fail(strconv.Quote(tok.s) + " is not a valid byte string: write fe:fd:09, fe.fd, fefd, 0xfe or \"text\".")
	case kAddr:
		if tok.k == tWord {
			if v, ok := parseAddr(tok.s, t.fam); ok {
				return one(v)
			}
		}
		what := "IPv4 address"
		if t.fam == 6 {
			what = "IPv6 address"
		}
		if tok.k == tString {
			return fail(fmt.Sprintf("%s is a string; %s is an %s: write it without quotes.", o.text(p), lhs.text(p), what))
		}
		return fail(fmt.Sprintf("%q is not a valid %s or CIDR prefix.", tok.s, what))
	case kTime:
		if tok.k != tWord && tok.k != tString {
			return fail(o.text(p) + " is not a valid absolute time. " + timeExample)
		}
		ns, e := parseAbsTime(tok.s, time.Local)
		if e != nil {
			return nil, p.timeError(o, e)
		}
		return one(val{n: uint64(ns)})
	}
	return nil, errAt(p.expr, lhs.pos, lhs.end, lhs.text(p)+" has no value to compare.")
}

// timeError places a time literal's error: under the bad part when the
// literal's text is its source (a word, a string without escapes), else
// under the whole literal.
func (p *parser) timeError(o operand, e *timeErr) error {
	src := p.expr[o.pos:o.end]
	off := -1
	switch {
	case o.lit.k == tWord:
		off = o.pos
	case strings.HasPrefix(src, `r"`):
		off = o.pos + 2
	case !strings.Contains(src, `\`):
		off = o.pos + 1
	}
	if e.to == 0 || off < 0 {
		return errAt(p.expr, o.pos, o.end, e.msg)
	}
	return errAt(p.expr, off+e.from, off+e.to, e.msg)
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func nameList(n dissect.Names) string {
	var s []string
	for _, v := range n {
		s = append(s, strconv.Quote(v))
	}
	slices.Sort(s)
	s = slices.Compact(s)
	if len(s) > 8 {
		s = append(s[:8], "…")
	}
	return strings.Join(s, ", ")
}

// parseBytes reads a byte string: hex pairs separated by colons, dots or
// hyphens (fe:fd:09, fe.fd, fe-fd), one or two digits each; or hex pairs
// run together (fefd); or a one-byte hex number (0xfe).
func parseBytes(s string) ([]byte, bool) {
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		n, err := strconv.ParseUint(s[2:], 16, 8)
		if err != nil {
			return nil, false
		}
		return []byte{byte(n)}, true
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ':' || r == '.' || r == '-' })
	if len(parts) == 1 && len(s) != len(parts[0]) || len(parts) == 0 {
		return nil, false
	}
	if len(parts) == 1 {
		b, err := hex.DecodeString(s)
		return b, err == nil && len(b) > 0
	}
	// Separators one at a time, between pairs: no leading, trailing or double ones.
	if strings.Join(parts, "") != strings.NewReplacer(":", "", ".", "", "-", "").Replace(s) || len(strings.Join(parts, ":")) != len(s) {
		return nil, false
	}
	b := make([]byte, 0, len(parts))
	for _, p := range parts {
		if len(p) > 2 {
			return nil, false
		}
		n, err := strconv.ParseUint(p, 16, 8)
		if err != nil {
			return nil, false
		}
		b = append(b, byte(n))
	}
	return b, true
}

// parseAddr reads an address of the family, with an optional /prefix.
func parseAddr(s string, fam int) (val, bool) {
	a, bits := netip.Addr{}, -1
	if strings.Contains(s, "/") {
		pf, err := netip.ParsePrefix(s)
		if err != nil {
			return val{}, false
		}
		a, bits = pf.Addr(), pf.Bits()
	} else {
		var err error
		if a, err = netip.ParseAddr(s); err != nil {
			return val{}, false
		}
	}
	if a.Zone() != "" || fam == 4 && !a.Is4() || fam == 6 && !a.Is6() {
		return val{}, false
	}
	if bits < 0 {
		bits = a.BitLen()
	}
	return val{a: a, n: uint64(bits)}, true
}

// parseSet reads { elem, lo..hi, ... } for lhs in { ... }.
func (p *parser) parseSet(lhs operand, all bool) (node, error) {
	open := p.peek()
	if !p.accept("{") {
		return nil, p.errTok(open, "A set is written in braces: tcp.port in {25565, 25575}.")
	}
	if lhs.e == nil {
		return nil, p.errLiteralSide(lhs, token{s: "in"})
	}
	if err := p.checkRel(lhs, token{s: "in"}, rEq); err != nil {
		return nil, err
	}
	n := &inN{lhs: lhs.e, k: lhs.e.typ().k, all: all}
	for {
		t := p.peek()
		if is(t, "}") && len(n.elems) > 0 {
			p.next()
			return n, nil
		}
		if t.k == tEOF {
			return nil, p.errTok(open, `The closing "}" of this set is missing.`)
		}
		lo, err := p.setValue(lhs)
		if err != nil {
			return nil, err
		}
		if p.accept("..") {
			hi, err := p.setValue(lhs)
			if err != nil {
				return nil, err
			}
			if len(lo) != 1 || len(hi) != 1 {
				return nil, p.errTok(t, "A range is between two values, not value names that stand for several.")
			}
			n.elems = append(n.elems, elem{lo: lo[0], hi: hi[0], rng: true})
		} else {
			for _, v := range lo {
				n.elems = append(n.elems, elem{lo: v})
			}
		}
		p.accept(",")
	}
}

func (p *parser) setValue(lhs operand) ([]val, error) {
	t := p.next()
	if t.k != tWord && t.k != tString && t.k != tChar || slices.Contains(keywords, t.s) && t.k == tWord {
		return nil, p.unexpected(t)
	}
	return p.literal(lhs, operand{lit: t, pos: t.pos, end: t.end}, rEq)
}

func floatBits(f float64) uint64 { return math.Float64bits(f) }

// suggest finds the registered field name closest to a misspelt one, if
// one is within two edits.
func suggest(name string) string {
	best, bestD := "", 3
	for _, reg := range dissect.Registries() {
		for _, f := range reg.Fields() {
			if d := editDistance(name, f.Name, bestD); d < bestD && 3*d <= len(name) {
				best, bestD = f.Name, d
			}
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, or limit when it is
// limit or more.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}

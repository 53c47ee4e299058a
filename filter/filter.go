// Package filter compiles Wireshark-style display filters (-Y) and matches
// them against records:
//
//	query.type == 0 && mc.direction == "s2c"
//	slp.status.players.online >= 10 || !classic
//	classic.message contains "hello"    query.motd matches "^§"
//
// A bare field name is true when the field is present. Comparisons are true
// when any occurrence compares (Wireshark's "any" semantics); != is the
// negation of ==. Integer fields with a value-name table also compare with
// the name: query.type == "Handshake".
package filter

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/dissect"
)

// Filter is a compiled display filter.
type Filter struct{ root node }

// Match reports whether r passes the filter.
func (f *Filter) Match(r *analyze.Record) bool { return f.root.eval(r) }

type node interface{ eval(r *analyze.Record) bool }

type and struct{ a, b node }
type or struct{ a, b node }
type not struct{ a node }

func (n and) eval(r *analyze.Record) bool { return n.a.eval(r) && n.b.eval(r) }
func (n or) eval(r *analyze.Record) bool  { return n.a.eval(r) || n.b.eval(r) }
func (n not) eval(r *analyze.Record) bool { return !n.a.eval(r) }

type present struct{ ref analyze.FieldRef }

func (n present) eval(r *analyze.Record) bool {
	found := false
	n.ref.Each(r, func(*dissect.Node) { found = true })
	return found
}

type op uint8

const (
	opEq op = iota
	opNe
	opLt
	opGt
	opLe
	opGe
	opContains
	opMatches
)

var opNames = map[string]op{
	"==": opEq, "eq": opEq, "!=": opNe, "ne": opNe, "<": opLt, "lt": opLt, ">": opGt, "gt": opGt,
	"<=": opLe, "le": opLe, ">=": opGe, "ge": opGe, "contains": opContains, "matches": opMatches, "~": opMatches,
}

// compare is a comparison of one field with a literal, typed at compile time.
type compare struct {
	ref   analyze.FieldRef
	op    op
	num   float64 // numeric literal
	isNum bool
	str   string // text literal, or the value name to compare with
	raw   []byte // bytes literal
	re    *regexp.Regexp
}

func (c *compare) eval(r *analyze.Record) bool {
	any := false
	c.ref.Each(r, func(n *dissect.Node) {
		if !any && c.one(n) {
			any = true
		}
	})
	if c.op == opNe {
		return !any
	}
	return any
}

func (c *compare) one(n *dissect.Node) bool {
	f := n.Field
	switch f.Type {
	case dissect.FTUint, dissect.FTInt, dissect.FTFloat, dissect.FTFrameNum, dissect.FTBool:
		if !c.isNum {
			if f.Names != nil && (c.op == opEq || c.op == opNe) {
				return f.Names.Name(n.Value.N) == c.str
			}
			return false
		}
		var v float64
		switch f.Type {
		case dissect.FTInt:
			v = float64(n.Value.Int())
		case dissect.FTFloat:
			v = n.Value.Float()
		default:
			v = float64(n.Value.N)
		}
		switch c.op {
		case opEq, opNe:
			return v == c.num
		case opLt:
			return v < c.num
		case opGt:
			return v > c.num
		case opLe:
			return v <= c.num
		case opGe:
			return v >= c.num
		}
		return false
	case dissect.FTBytes:
		b := n.Value.B
		switch c.op {
		case opEq, opNe:
			return bytes.Equal(b, c.raw)
		case opContains:
			return bytes.Contains(b, c.raw)
		}
		return false
	}
	s := n.Value.View() // compared here, never kept
	if n.Text != "" && f.Type == dissect.FTNone {
		s = n.Text
	}
	switch c.op {
	case opEq, opNe:
		return s == c.str
	case opLt:
		return s < c.str
	case opGt:
		return s > c.str
	case opLe:
		return s <= c.str
	case opGe:
		return s >= c.str
	case opContains:
		return strings.Contains(s, c.str)
	case opMatches:
		return c.re.MatchString(s)
	}
	return false
}

// Compile parses a display filter.
func Compile(expr string) (*Filter, error) {
	p := &parser{toks: nil}
	if err := p.lex(expr); err != nil {
		return nil, fmt.Errorf("display filter %q: %v", expr, err)
	}
	n, err := p.or()
	if err == nil && p.pos < len(p.toks) {
		err = fmt.Errorf("unexpected %q", p.toks[p.pos].s)
	}
	if err != nil {
		return nil, fmt.Errorf("display filter %q: %v", expr, err)
	}
	return &Filter{root: n}, nil
}

type tokKind uint8

const (
	tWord tokKind = iota
	tString
	tOp
	tLParen
	tRParen
)

type token struct {
	k tokKind
	s string
}

type parser struct {
	toks []token
	pos  int
}

func (p *parser) lex(s string) error {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case c == '(':
			p.toks = append(p.toks, token{tLParen, "("})
			i++
		case c == ')':
			p.toks = append(p.toks, token{tRParen, ")"})
			i++
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return fmt.Errorf("unterminated string at offset %d", i)
			}
			v, err := strconv.Unquote(s[i : j+1])
			if err != nil {
				return fmt.Errorf("bad string at offset %d: %v", i, err)
			}
			p.toks = append(p.toks, token{tString, v})
			i = j + 1
		case strings.ContainsRune("=!<>&|~", rune(c)):
			j := i + 1
			for j < len(s) && strings.ContainsRune("=<>&|", rune(s[j])) {
				j++
			}
			p.toks = append(p.toks, token{tOp, s[i:j]})
			i = j
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n()\"=!<>&|~", rune(s[j])) {
				j++
			}
			p.toks = append(p.toks, token{tWord, s[i:j]})
			i = j
		}
	}
	return nil
}

func (p *parser) peek() (token, bool) {
	if p.pos < len(p.toks) {
		return p.toks[p.pos], true
	}
	return token{}, false
}

func (p *parser) or() (node, error) {
	a, err := p.and()
	if err != nil {
		return nil, err
	}
	for {
		t, ok := p.peek()
		if !ok || !(t.k == tOp && t.s == "||" || t.k == tWord && t.s == "or") {
			return a, nil
		}
		p.pos++
		b, err := p.and()
		if err != nil {
			return nil, err
		}
		a = or{a, b}
	}
}

func (p *parser) and() (node, error) {
	a, err := p.not()
	if err != nil {
		return nil, err
	}
	for {
		t, ok := p.peek()
		if !ok || !(t.k == tOp && t.s == "&&" || t.k == tWord && t.s == "and") {
			return a, nil
		}
		p.pos++
		b, err := p.not()
		if err != nil {
			return nil, err
		}
		a = and{a, b}
	}
}

func (p *parser) not() (node, error) {
	t, ok := p.peek()
	if ok && (t.k == tOp && t.s == "!" || t.k == tWord && t.s == "not") {
		p.pos++
		a, err := p.not()
		if err != nil {
			return nil, err
		}
		return not{a}, nil
	}
	return p.primary()
}

func (p *parser) primary() (node, error) {
	t, ok := p.peek()
	if !ok {
		return nil, fmt.Errorf("unexpected end of filter")
	}
	if t.k == tLParen {
		p.pos++
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		if t, ok := p.peek(); !ok || t.k != tRParen {
			return nil, fmt.Errorf("missing )")
		}
		p.pos++
		return n, nil
	}
	if t.k != tWord {
		return nil, fmt.Errorf("expected a field name, got %q", t.s)
	}
	p.pos++
	ref, err := analyze.ResolveField(t.s)
	if err != nil {
		return nil, err
	}
	ot, ok := p.peek()
	if !ok {
		return present{ref}, nil
	}
	o, isOp := opNames[ot.s]
	if !isOp || ot.k == tString {
		return present{ref}, nil
	}
	p.pos++
	vt, ok := p.peek()
	if !ok || vt.k != tWord && vt.k != tString {
		return nil, fmt.Errorf("%s %s: missing value", t.s, ot.s)
	}
	p.pos++
	return newCompare(ref, o, vt)
}

func newCompare(ref analyze.FieldRef, o op, v token) (node, error) {
	c := &compare{ref: ref, op: o, str: v.s}
	switch ref.Field.Type {
	case dissect.FTUint, dissect.FTInt, dissect.FTFloat, dissect.FTFrameNum, dissect.FTBool:
		if o == opContains || o == opMatches {
			return nil, fmt.Errorf("%s is a number: use ==, !=, <, >, <=, >=", ref.Name)
		}
		switch strings.ToLower(v.s) {
		case "true":
			c.num, c.isNum = 1, true
		case "false":
			c.num, c.isNum = 0, true
		default:
			if n, err := strconv.ParseInt(v.s, 0, 64); err == nil {
				c.num, c.isNum = float64(n), true
			} else if f, err := strconv.ParseFloat(v.s, 64); err == nil {
				c.num, c.isNum = f, true
			} else if ref.Field.Names == nil {
				return nil, fmt.Errorf("%s is a number; %q is not", ref.Name, v.s)
			} else if o != opEq && o != opNe {
				return nil, fmt.Errorf("%s: a value name only compares with == or !=", ref.Name)
			} else if !hasName(ref.Field.Names, v.s) {
				return nil, fmt.Errorf("%s is a number; %q is not one of its value names", ref.Name, v.s)
			}
		}
	case dissect.FTBytes:
		if o != opEq && o != opNe && o != opContains {
			return nil, fmt.Errorf("%s is bytes: use ==, != or contains", ref.Name)
		}
		h := strings.NewReplacer(":", "", " ", "", "-", "").Replace(v.s)
		b, err := hex.DecodeString(h)
		if err != nil {
			if v.k == tString {
				b = []byte(v.s)
			} else {
				return nil, fmt.Errorf("%s is bytes; %q is not hex like fe:fd", ref.Name, v.s)
			}
		}
		c.raw = b
	default:
		if o == opMatches {
			re, err := regexp.Compile(v.s)
			if err != nil {
				return nil, fmt.Errorf("%s matches: %v", ref.Name, err)
			}
			c.re = re
		}
	}
	return c, nil
}

func hasName(n dissect.Names, s string) bool {
	for _, v := range n {
		if v == s {
			return true
		}
	}
	return false
}

// Package filter compiles display filters (-Y) in the language of
// Wireshark 4 and matches them against records:
//
//	tcp.port == 25565 && slp.handshake.next_state in {1, 2}
//	ip.addr == 10.0.0.0/8 and not query
//	classic.username[0:2] == "al" || lower(query.motd) contains "survival"
//	query.magic[0] == fe    len(slp.status.favicon) > 4096    udp.srcport & 0x0f == 5
//
// The grammar, from loosest to tightest binding:
//
//	expr     = xor { ("or" | "||") xor }
//	xor      = and { ("xor" | "^^") and }
//	and      = not { ("and" | "&&") not }
//	not      = ("not" | "!") not | "(" expr ")" | test
//	test     = ["any" | "all"] value [ relation value | ["not"] "in" set ]
//	relation = == eq any_eq | != ne all_ne | === all_eq | !== any_ne | ~= |
//	           < lt | <= le | > gt | >= ge | contains | matches | ~
//	set      = "{" element { [","] element } "}"    element = literal [".." literal]
//	value    = entity { ("&" | "bitwise_and") literal }
//	entity   = (field | function "(" value ")" | literal) [ "[" slice "]" ]
//	slice    = i:j (from i, j bytes) | i-j (i to j inclusive) | i | :j | i:    (i < 0 counts from the end)
//
// Strings, bytes and protocols slice by their value; other fields of the
// tree by the bytes they span on the wire (query.magic[0] == fe). A slice
// that does not fit in a value gives no value.
//
// A field alone is true when it is present. A field may occur several
// times in a record (tcp.port holds both ports): == is true when any
// occurrence is equal, != when all differ (not ==), === when all are
// equal, !== when any differs; the other relations when any occurrence
// satisfies them, or all with "all". Every comparison needs the field
// present: ip.dst != 10.0.0.1 is false where there is no ip.dst, as in
// Wireshark; "x not in {…}" is "not (x in {…})". matches is a Go regular
// expression, case-insensitive unless it starts with (?-i), as Wireshark's
// PCRE2 default. Literals take the type of the field they are compared
// with: numbers in decimal, 0x hex, 0 octal or 0b binary, 'c' characters;
// True and False; "strings" with C escapes and r"raw" strings; byte
// strings fe:fd:09, fe.fd, fe-fd or fefd; IPv4 and IPv6 addresses with an
// optional /prefix; the value names of a field (query.type == "Handshake");
// absolute times (frame.time) in tshark's forms, ISO 8601 or
// "Nov 22, 2026 10:19:40.5", local time without a zone (timelit.go).
// Times compare as times, to the nanosecond, and a float that carries its
// exact decimal (frame.time_epoch) compares exactly with a decimal literal.
// Functions: len, count, lower, upper (ASCII), string.
//
// Errors name the bad token and show it under a caret, at compile time (a
// bad time literal: under its bad part). The -T html page runs the same
// language in the browser (render/html_filter.js); testdata/shared.txt is
// the list of filters both must treat alike.
package filter

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/record"
)

// Filter is a compiled display filter. Match may be called from several
// goroutines; they take turns.
type Filter struct {
	root   node
	tree   bool           // a field it reads comes from the dissection tree
	layers netlayers.Want // the fields of the layers it reads
	mu     sync.Mutex
	c      ctx
}

// NeedsTree reports whether the filter reads a field of the dissection
// tree (or its bytes, or its expert items). A filter on record fields
// only (frame, ip, tcp, udp, mc.protocol, mc.direction, mc.message) works
// on PDUs decoded without trees.
func (f *Filter) NeedsTree() bool { return f.tree }

// Match reports whether r passes the filter.
func (f *Filter) Match(r *record.Record) bool {
	f.mu.Lock()
	f.c.vals, f.c.arena = f.c.vals[:0], f.c.arena[:0]
	ok := f.root.eval(&f.c, r)
	f.mu.Unlock()
	return ok
}

// Compile parses and type-checks a display filter. Its error is an *Error.
func Compile(expr string) (*Filter, error) {
	toks, err := lex(expr)
	if err != nil {
		return nil, err
	}
	p := &parser{expr: expr, toks: toks}
	n, err := p.parseExpr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.k != tEOF {
		return nil, p.unexpected(t)
	}
	return &Filter{root: n, tree: p.tree, layers: p.layers}, nil
}

// Error is a filter that does not compile: what is wrong, and where. Its
// text is the message, then the expression and a caret under the bad
// token, as tshark shows them:
//
//	"tcp.prot" is not a valid protocol or protocol field.
//	    tcp.prot == 1
//	    ^~~~~~~~
type Error struct {
	Expr     string
	Pos, End int // byte offsets of the bad token in Expr
	Msg      string
}

func errAt(expr string, pos, end int, msg string) *Error {
	return &Error{Expr: expr, Pos: pos, End: end, Msg: msg}
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Msg)
	b.WriteString("\n    ")
	b.WriteString(strings.NewReplacer("\n", " ", "\r", " ").Replace(e.Expr))
	b.WriteString("\n    ")
	for _, c := range e.Expr[:e.Pos] {
		if c == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteByte('^')
	for n := utf8.RuneCountInString(e.Expr[e.Pos:e.End]); n > 1; n-- {
		b.WriteByte('~')
	}
	return b.String()
}

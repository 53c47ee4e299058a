package filter

import (
	"bytes"
	"encoding/binary"
	"errors"
	"net/netip"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/mcdissect/mcdissect/analyze"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/dissect/query"
	"github.com/mcdissect/mcdissect/record"
)

var samples sync.Map // file name -> []*record.Record

// sample dissects a capture of samples/ through the whole pipeline, once.
func sample(tb testing.TB, name string) []*record.Record {
	tb.Helper()
	if v, ok := samples.Load(name); ok {
		return v.([]*record.Record)
	}
	fh, err := os.Open("../samples/" + name)
	if err != nil {
		tb.Fatal(err)
	}
	defer fh.Close()
	src, err := analyze.OpenFile(fh)
	if err != nil {
		tb.Fatal(err)
	}
	var recs []*record.Record
	emit := func(r *record.Record) error { recs = append(recs, r.Clone()); return nil }
	if _, err := analyze.Run(src, analyze.New(analyze.Options{}, analyze.SinkFunc(emit))); err != nil {
		tb.Fatal(err)
	}
	if len(recs) == 0 {
		tb.Fatalf("%s: no records", name)
	}
	samples.Store(name, recs)
	return recs
}

// v6records are a Query handshake over IPv6, decoded by the real
// dissector: no sample capture has IPv6.
func v6records() []*record.Record {
	req := []byte{0xfe, 0xfd, 0x09, 0x00, 0x00, 0x00, 0x01}
	c, s := netip.MustParseAddrPort("[2001:db8::1]:40000"), netip.MustParseAddrPort("[2001:db8:1::2]:25565")
	r1 := &record.Record{Frame: 1, Src: c, Dst: s, Stream: -1, Proto: "query"}
	query.Decode(&r1.PDU, req, len(req), dissect.DirC2S)
	r2 := &record.Record{Frame: 2, Src: s, Dst: c, Stream: 0, TCP: true, Proto: "tcp"}
	r2.PDU.Reset(nil, 0)
	v6head(r1, 17, c, s, 8)
	v6head(r2, 6, s, c, 20)
	return []*record.Record{r1, r2}
}

// v6head gives r the layers of a raw IPv6 frame from src to dst whose
// next header is proto (UDP or TCP, a header of n bytes).
func v6head(r *record.Record, proto byte, src, dst netip.AddrPort, n int) {
	h := make([]byte, 40+n)
	h[0] = 0x60
	binary.BigEndian.PutUint16(h[4:], uint16(n))
	h[6], h[7] = proto, 64
	a, b := src.Addr().As16(), dst.Addr().As16()
	copy(h[8:], a[:])
	copy(h[24:], b[:])
	binary.BigEndian.PutUint16(h[40:], src.Port())
	binary.BigEndian.PutUint16(h[42:], dst.Port())
	if proto == 6 {
		h[52] = 5 << 4
	} else {
		binary.BigEndian.PutUint16(h[44:], uint16(n))
	}
	r.SetLayers(h, &netlayers.Frame{Number: r.Frame, Link: netlayers.LinkRaw,
		WireLen: len(h), CapLen: len(h), Protocols: r.Proto, Stream: r.Stream})
}

// The oracles below read records directly, not through FieldRef, so that
// a test compares the filter with a second, plain implementation.

func texts(r *record.Record, name string) []string {
	var out []string
	for i := range r.PDU.Nodes {
		if n := &r.PDU.Nodes[i]; n.Name() == name {
			out = append(out, string(n.Value.B))
		}
	}
	return out
}

func nums(r *record.Record, name string) []uint64 {
	var out []uint64
	for i := range r.PDU.Nodes {
		if n := &r.PDU.Nodes[i]; n.Name() == name {
			out = append(out, n.Value.N)
		}
	}
	return out
}

func has(r *record.Record, name string) bool { return len(nums(r, name)) > 0 }

// full: a Full Stat response, with its key/value section.
func full(r *record.Record) bool { return len(texts(r, "query.kv.map")) > 0 }

func anyOf[T any](vs []T, f func(T) bool) bool {
	for _, v := range vs {
		if f(v) {
			return true
		}
	}
	return false
}

func port(r *record.Record, p uint16) bool { return r.Src.Port() == p || r.Dst.Port() == p }
func c2s(r *record.Record) bool            { return r.PDU.Dir == dissect.DirC2S }

func TestMatch(t *testing.T) {
	const q, cl = "query-full.pcap", "classic-session.pcap"
	const slp = "slp-status-craftping.pcap"
	loop := netip.MustParseAddr("127.0.0.1")
	type R = *record.Record
	for _, c := range []struct {
		file, expr string
		want       func(r R) bool
		trivial    bool // all or none of the records match: allowed for this case
	}{
		// presence, protocols and logic
		{q, "udp", func(r R) bool { return !r.TCP }, true},
		{q, "tcp", func(r R) bool { return r.TCP }, true},
		{q, "ip and frame and mc", func(r R) bool { return true }, true},
		{q, "ipv6", func(r R) bool { return false }, true},
		{q, "query.player", func(r R) bool { return has(r, "query.player") }, true},
		{q, "query.kv.hostname", func(r R) bool { return full(r) && r.PDU.Dir == dissect.DirS2C }, false},
		{slp, "slp.handshake.next_state", func(r R) bool { return has(r, "slp.handshake.next_state") }, false},
		{q, "!(frame.number > 2) || mc.direction == \"c2s\"", func(r R) bool { return r.Frame <= 2 || c2s(r) }, false},
		{q, "frame.number > 1 and frame.number < 4 or frame.number == 20", func(r R) bool { return r.Frame == 2 || r.Frame == 3 || r.Frame == 20 }, false},
		{q, "not frame.number == 1 and frame.number < 3", func(r R) bool { return r.Frame == 2 }, false},
		{q, "frame.number == 1 xor frame.number < 3", func(r R) bool { return r.Frame == 2 }, false},
		{q, "frame.number < 5 ^^ mc.direction == \"c2s\"", func(r R) bool { return (r.Frame < 5) != c2s(r) }, false},
		{q, "frame.number <= 4 && frame.number ge 3 || frame.number eq 7", func(r R) bool { return r.Frame == 3 || r.Frame == 4 || r.Frame == 7 }, false},
		// relations and their multi-occurrence semantics
		{q, "udp.port == 44928", func(r R) bool { return port(r, 44928) }, false},
		{q, "udp.port != 44928", func(r R) bool { return !port(r, 44928) }, false},
		{q, "udp.port ne 25575", func(r R) bool { return false }, true},
		{q, "udp.port all_ne 1", func(r R) bool { return true }, true},
		{q, "udp.port === 25575", func(r R) bool { return false }, true},
		{q, "udp.port !== 25575", func(r R) bool { return true }, true},
		{q, "udp.port any_ne 25575", func(r R) bool { return true }, true},
		{q, "udp.port ~= 25575", func(r R) bool { return true }, true},
		{q, "udp.port all_eq 25575", func(r R) bool { return false }, true},
		{q, "udp.port any_eq 44928", func(r R) bool { return port(r, 44928) }, false},
		{q, "tcp.port != 1", func(r R) bool { return false }, true}, // != needs the field present
		{q, "udp.srcport == 25575", func(r R) bool { return r.Src.Port() == 25575 }, false},
		{q, "udp.dstport lt 45000 && udp.dstport > 40000", func(r R) bool { p := r.Dst.Port(); return p < 45000 && p > 40000 }, false},
		{q, "udp.srcport <= 42203", func(r R) bool { return r.Src.Port() <= 42203 }, false},
		{q, "udp.srcport le 42203", func(r R) bool { return r.Src.Port() <= 42203 }, false},
		{q, "udp.srcport gt 42203", func(r R) bool { return r.Src.Port() > 42203 }, false},
		{q, "all udp.port > 30000", func(r R) bool { return r.Src.Port() > 30000 && r.Dst.Port() > 30000 }, true},
		{q, "any udp.port > 30000", func(r R) bool { return true }, true},
		{q, "all udp.port > 25000", func(r R) bool { return true }, true},
		{q, "udp.dstport > udp.srcport", func(r R) bool { return r.Dst.Port() > r.Src.Port() }, false},
		{q, "udp.dstport == udp.srcport", func(r R) bool { return false }, true},
		{q, "ip.src == ip.dst", func(r R) bool { return true }, true},
		{q, "frame.time_relative < 0.001", func(r R) bool { return r.Rel.Seconds() < 0.001 }, false},
		// integers: bases, characters, value names, bitwise and
		{q, "frame.number == 0b11 || frame.number == 010 || frame.number == 0xc", func(r R) bool { return r.Frame == 3 || r.Frame == 8 || r.Frame == 12 }, false},
		{q, `frame.number == '\x01' || frame.number == '\002'`, func(r R) bool { return r.Frame <= 2 }, false},
		{q, "frame.number & 1", func(r R) bool { return r.Frame&1 != 0 }, false},
		{q, "frame.number & 0x3 == 2", func(r R) bool { return r.Frame&3 == 2 }, false},
		{q, "frame.number bitwise_and 4", func(r R) bool { return r.Frame&4 != 0 }, false},
		{q, "query.type == 9", func(r R) bool { return anyOf(nums(r, "query.type"), func(v uint64) bool { return v == 9 }) }, false},
		{q, "query.type eq Handshake", func(r R) bool { return anyOf(nums(r, "query.type"), func(v uint64) bool { return v == 9 }) }, false},
		{q, `query.type != "Handshake"`, func(r R) bool { return anyOf(nums(r, "query.type"), func(v uint64) bool { return v != 9 }) }, false},
		{q, "query.session_id == 0x00000304", func(r R) bool { return r.Frame <= 4 }, false},
		// sets
		{q, "frame.number in {1..3, 7}", func(r R) bool { return r.Frame <= 3 || r.Frame == 7 }, false},
		{q, "frame.number in {1 2 5}", func(r R) bool { return r.Frame == 1 || r.Frame == 2 || r.Frame == 5 }, false},
		{q, "frame.number not in {1..18}", func(r R) bool { return r.Frame > 18 }, false},
		{q, "tcp.port not in {1}", func(r R) bool { return true }, true}, // not (x in S): true where x is absent
		{q, "all frame.number in {1..5}", func(r R) bool { return r.Frame <= 5 }, false},
		{q, "udp.port in {44928, 49662}", func(r R) bool { return port(r, 44928) || port(r, 49662) }, false},
		{q, "query.type in {Handshake}", func(r R) bool { return anyOf(nums(r, "query.type"), func(v uint64) bool { return v == 9 }) }, false},
		{q, `mc.protocol in {"query", "slp"}`, func(r R) bool { return true }, true},
		{q, `query.kv.map in {"a" .. "x"}`, func(r R) bool { return full(r) }, false},
		{q, "frame.time_relative in {0 .. 0.0002}", func(r R) bool { return r.Rel.Seconds() <= 0.0002 }, false},
		// addresses
		{q, "ip.src == 127.0.0.1", func(r R) bool { return r.Src.Addr() == loop }, true},
		{q, "ip.addr == 127.0.0.0/8", func(r R) bool { return true }, true},
		{q, "ip.addr == 10.0.0.0/8", func(r R) bool { return false }, true},
		{q, "ip.dst eq 127.0.0.2/31", func(r R) bool { return false }, true},
		{q, "ip.dst == 127.0.0.0/31", func(r R) bool { return true }, true},
		{q, "ip.src in {127.0.0.0 .. 127.0.0.3}", func(r R) bool { return true }, true},
		{q, "ip.src > 127.0.0.0 && ip.src < 127.0.0.2", func(r R) bool { return true }, true},
		{q, `string(ip.src) == "127.0.0.1"`, func(r R) bool { return true }, true},
		{slp, "tcp.port == 25566 && slp.handshake.next_state in {1, 2}", func(r R) bool { return has(r, "slp.handshake.next_state") }, false},
		{slp, "tcp.srcport == 25566", func(r R) bool { return r.TCP && r.Src.Port() == 25566 }, false},
		{slp, "tcp.port in {25566, 25567} && tcp.stream == 0", func(r R) bool { return r.TCP && r.Stream == 0 }, true},
		// strings: escapes, contains, matches, functions, slices
		{q, `query.kv.map == "world"`, func(r R) bool { return anyOf(texts(r, "query.kv.map"), func(s string) bool { return s == "world" }) }, false},
		{q, `query.kv.map == world`, func(r R) bool { return full(r) }, false},
		{q, `query.kv.map == "\x77or\154d" && query.kv.map == r"world"`, func(r R) bool { return full(r) }, false},
		{q, `query.motd contains "HIBERN"`, func(r R) bool { return full(r) }, false},
		{q, `query.motd contains "hibern"`, func(r R) bool { return false }, true},
		{q, `query.motd matches "hibernat"`, func(r R) bool { return full(r) }, false},
		{q, `query.motd ~ "(?-i)hibernat"`, func(r R) bool { return false }, true},
		{q, `query.motd ~ "^\xc2\xa7f"`, func(r R) bool { return full(r) }, false},
		{q, `upper(query.kv.map) == "WORLD" && lower(query.kv.game_id) == "minecraft"`, func(r R) bool { return full(r) }, false},
		{q, `len(query.kv.map) == 5 && len(query.kv.map) != 4`, func(r R) bool { return full(r) }, false},
		{q, `count(query.kv) >= 9`, func(r R) bool { return len(texts(r, "query.kv.map")) > 0 }, false},
		{q, `count(tcp.port) == 0`, func(r R) bool { return false }, true}, // count of an absent field has no value
		{q, `count(udp.port) == 2`, func(r R) bool { return true }, true},
		{q, `string(frame.number) matches "[13579]$"`, func(r R) bool { return r.Frame%2 == 1 }, false},
		{q, `string(udp.srcport) contains "44"`, func(r R) bool { return strings.Contains(r.Src.String(), ":44") }, false},
		{q, `query.motd[0:2] == "\xc2\xa7"`, func(r R) bool { return full(r) }, false},
		{q, "query.magic[0] == fe", func(r R) bool { return has(r, "query.magic") }, false},
		{q, "query.magic[0:2] == fe:fd && query.magic[1-1] == fd && query.magic[-1] == 0xfd", func(r R) bool { return has(r, "query.magic") }, false},
		{q, "query.magic[0:2] == fe.fd && query.magic[:2] == fefd && query.magic[0:] == fe-fd", func(r R) bool { return has(r, "query.magic") }, false},
		{q, "query[0:3] == fe:fd:09", func(r R) bool { return c2s(r) && anyOf(nums(r, "query.type"), func(v uint64) bool { return v == 9 }) }, false},
		{q, "query[0:3] contains fd", func(r R) bool { return c2s(r) }, false},
		{q, "query.magic[1:2]", func(r R) bool { return false }, true}, // out of range: no value
		{q, "query.magic[2]", func(r R) bool { return false }, true},
		{q, "query.magic[-2:]", func(r R) bool { return has(r, "query.magic") }, false},
		{q, "len(query.motd[2:]) > 2", func(r R) bool { return full(r) }, false},
		{cl, `classic.username[0:2] == "al"`, func(r R) bool {
			return anyOf(texts(r, "classic.username"), func(s string) bool { return strings.HasPrefix(s, "al") })
		}, false},
		{cl, `classic.username in {"alice", "bob"}`, func(r R) bool { return has(r, "classic.username") }, false},
		{cl, `classic.player_name contains "li" && classic.packet_id == 7`, func(r R) bool {
			return anyOf(texts(r, "classic.player_name"), func(s string) bool { return strings.Contains(s, "li") })
		}, false},
		{cl, `classic.username > "b"`, func(r R) bool { return anyOf(texts(r, "classic.username"), func(s string) bool { return s > "b" }) }, false},
	} {
		t.Run(c.expr, func(t *testing.T) {
			f, err := Compile(c.expr)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			recs := sample(t, c.file)
			for _, r := range recs {
				got, want := f.Match(r), c.want(r)
				if got != want {
					t.Errorf("frame %d: matched %v, want %v", r.Frame, got, want)
				}
				if got {
					n++
				}
			}
			if !c.trivial && (n == 0 || n == len(recs)) {
				t.Errorf("%d of %d records match: the case tests nothing", n, len(recs))
			}
		})
	}
}

func TestIPv6(t *testing.T) {
	recs := v6records()
	for _, c := range []struct {
		expr string
		want string // the frames that match
	}{
		{"ipv6", "12"},
		{"ip", ""},
		{"ipv6.addr == 2001:db8::/32", "12"},
		{"ipv6.src == 2001:db8::1", "1"},
		{"ipv6.dst == 2001:db8:1::/48", "1"},
		{"ipv6.addr == 2001:db8:1::2 && udp", "1"},
		{"ipv6.src in {2001:db8:: .. 2001:db8::ffff}", "1"},
		{"tcp.port == 25565 || ip.addr == 10.0.0.0/8", "2"},
		{`string(ipv6.src) == "2001:db8:1::2"`, "2"},
	} {
		f, err := Compile(c.expr)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		got := ""
		for _, r := range recs {
			if f.Match(r) {
				got += string(rune('0' + r.Frame))
			}
		}
		if got != c.want {
			t.Errorf("%s: matched %q, want %q", c.expr, got, c.want)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	for _, c := range []struct {
		expr  string
		msg   string // in the message
		caret string // the text under the caret
	}{
		{"tcp.prot == 1", `"tcp.prot" is not a valid protocol or protocol field. Did you mean "tcp.port"?`, "tcp.prot"},
		{"tcp.prot", "not a valid protocol or protocol field", "tcp.prot"},
		{"query.nope", "not a valid protocol or protocol field", "query.nope"},
		{"ip.src == tcp.prot", "not a valid protocol or protocol field", "tcp.prot"},
		{"query.motd == query.mtod", "not a valid protocol or protocol field", "query.mtod"},
		{"query.motd == www.example.com", "", ""}, // an unquoted string
		{"frame (udp)", `"(" was unexpected in this context.`, "("},
		{"query.type ==", "Unexpected end of filter expression.", ""},
		{"query.type == abc", "neither a number nor one of the value names of query.type", "abc"},
		{"frame.number == abc", `"abc" is not a valid number.`, "abc"},
		{`frame.number == "abc"`, "is a string; frame.number is a unsigned integer", `"abc"`},
		{"frame.number == 1.5", `"1.5" is not a valid number.`, "1.5"},
		{"frame.number == -1", "is negative", "-1"},
		{"frame.number == 1_0", "not a valid number", "1_0"},
		{`classic.key_valid == maybe`, "not a valid boolean", "maybe"},
		{`frame.time_relative == x`, "not a valid number", "x"},
		{"query.magic[0] == xyz", "not a valid byte string", "xyz"},
		{"query.magic[0] == 0xfefd", "not a valid byte string", "0xfefd"},
		{"query.magic[0] == fe:", "not a valid byte string", "fe:"},
		{"ip.src == ::1", `"::1" is not a valid IPv4 address or CIDR prefix.`, "::1"},
		{"ip.src == 1.2.3.4/33", "not a valid IPv4 address", "1.2.3.4/33"},
		{"ipv6.src == 10.0.0.1", "not a valid IPv6 address", "10.0.0.1"},
		{`ip.src == "127.0.0.1"`, "write it without quotes", `"127.0.0.1"`},
		{"(query.type == 9", `The closing ")" of this "(" is missing.`, "("},
		{"query.type == 9)", `")" was unexpected in this context.`, ")"},
		{`query.motd == "x`, "The final quote was missing", `"x`},
		{`query.motd == "\q"`, `Invalid escape sequence \q.`, `\q`},
		{`frame.number == 'ab'`, "A character constant holds one byte", `'ab'`},
		{"query.type contains 1", "cannot participate in contains comparison", "query.type"},
		{`ip.src matches "1"`, "cannot participate in matches comparison", "ip.src"},
		{`query.motd matches x`, "must be a quoted regular expression", "x"},
		{`query.motd matches "("`, "Invalid regular expression", `"("`},
		{`query.motd matches query.motd`, "must be a quoted regular expression", "query.motd"},
		{"query.type == 9 query.map", `"query.map" was unexpected in this context.`, "query.map"},
		{"", "Unexpected end of filter expression.", ""},
		{"1 == frame.number", `Left side of "==" expression must be a field or function, not 1.`, "1"},
		{"25565", "is a value, not a field", "25565"},
		{`"x"`, "is a value, not a field", `"x"`},
		{"udp.payload[1:2", "The right bracket was missing from a slice.", "["},
		{"frame.number[0] == 1", "has no bytes in mcdissect, so it cannot be sliced", "frame.number"},
		{"ip.src[0] == 1", "cannot be sliced", "ip.src"},
		{"query.motd[x] == 1", "is not a valid slice", "[x]"},
		{"query.motd[1:0] == 1", "is not a valid slice", "[1:0]"},
		{"query.motd[3-1] == 1", "is not a valid slice", "[3-1]"},
		{"query.motd[1,2] == 1", "Concatenated slices", "[1,2]"},
		{"query.typo[0] == 1", "not a valid protocol or protocol field", "query.typo"},
		{"foo(frame.number)", "Function 'foo' does not exist", "foo"},
		{"max(frame.number) == 1", "Function 'max' is not supported", "max"},
		{"len(frame.number) == 1", "Only string and byte fields can be used as parameter for len()", "frame.number"},
		{"upper(ip.src) == \"x\"", "Only string type fields can be used as parameter for upper()", "ip.src"},
		{"string(query.motd) == \"x\"", "Only number and address fields can be used as parameter for string()", "query.motd"},
		{"count(query.motd[0:1]) == 1", "Only fields can be used as parameter for count()", "query.motd[0:1]"},
		{"len(1) == 1", "Only fields can be used as parameter for len()", "1"},
		{"len(query.motd, query.motd) == 1", "takes one argument", ","},
		{"len(query.motd)", "is not a test by itself", "len(query.motd)"},
		{"len(query.motd", `The closing ")" of this "(" is missing.`, "("},
		{"frame.number in {}", `"}" was unexpected in this context.`, "}"},
		{"frame.number in {1", `The closing "}" of this set is missing.`, "{"},
		{"frame.number in 1", "A set is written in braces", "1"},
		{"frame.number in {udp.port}", "holds values, not fields", "udp.port"},
		{"query.type in {Handshake .. 3}", "", ""}, // valid: a name with one value is a value
		{"query.type < Handshake", "can only be compared with ==", "Handshake"},
		{"query.motd & 1", "only integer fields can", "query.motd"},
		{"frame.number & x", "not a valid number", "x"},
		{"frame.number & udp.port", "must be a number", "udp.port"},
		{"mc.gap == 1", "can only be tested for presence", "mc.gap"},
		{"tcp == 1", "can only be tested for presence", "tcp"},
		{"tcp contains 1", "can only be tested for presence", "tcp"},
		{"ip.src == ipv6.src", "cannot be compared", "ip.src == ipv6.src"},
		{"udp.port == query.motd", "cannot be compared", "udp.port == query.motd"},
		{"all udp.port", `"all" needs a comparison`, ""},
		{"frame.number == 1 and", "Unexpected end of filter expression.", ""},
		{"frame.number == 1 # x", `"#" was unexpected in this context.`, "#"},
		{"frame.number == == 1", `"==" was unexpected in this context.`, "=="},
		{"not", "Unexpected end of filter expression.", ""},
		{"frame.number contains", "Unexpected end", ""},
	} {
		_, err := Compile(c.expr)
		if c.msg == "" {
			if err != nil {
				t.Errorf("%q: %v", c.expr, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: error %v, want an *Error", c.expr, err)
			continue
		}
		if !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%q: message %q, want one saying %q", c.expr, e.Msg, c.msg)
		}
		if got := c.expr[e.Pos:e.End]; got != c.caret {
			t.Errorf("%q: caret under %q, want %q", c.expr, got, c.caret)
		}
	}
}

// TestErrorText: the message, the expression and the caret line, as
// tshark prints them; tabs stay tabs so the caret stays in its column, and
// characters count as one column each.
func TestErrorText(t *testing.T) {
	for _, c := range []struct{ expr, want string }{
		{"tcp.prot == 1", "\"tcp.prot\" is not a valid protocol or protocol field. Did you mean \"tcp.port\"?\n    tcp.prot == 1\n    ^~~~~~~~"},
		{"query.motd == \"§\" and\tx == 1", "\"x\" is not a valid protocol or protocol field.\n    query.motd == \"§\" and\tx == 1\n                         \t^"},
		{"frame.number ==", "Unexpected end of filter expression.\n    frame.number ==\n                   ^"},
	} {
		_, err := Compile(c.expr)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\n%v\nwant\n%s", c.expr, err, c.want)
		}
	}
}

// TestLex: escapes, raw strings, words split at "..", operators longest first.
func TestLex(t *testing.T) {
	toks, err := lex(`a.b==="\x41\101\u00e9\n\"" r"\d\"" '\'' {1..2} !==fe:fd[-2:]~=`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tk := range toks {
		got = append(got, tk.s)
	}
	want := []string{"a.b", "===", "AAé\n\"", `\d\"`, "'", "{", "1", "..", "2", "}", "!==", "fe:fd", "-2:", "~=", ""}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("tokens %q, want %q", got, want)
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string][]byte{
		"fe:fd:09": {0xfe, 0xfd, 9}, "fe.fd": {0xfe, 0xfd}, "fe-fd": {0xfe, 0xfd}, "fefd": {0xfe, 0xfd},
		"0xfe": {0xfe}, "a": nil, "f:e": {0xf, 0xe}, "fe:": nil, ":fe": nil, "fe::fd": nil, "fe:fd.09": {0xfe, 0xfd, 9},
		"fee:fd": nil, "xx": nil, "0x100": nil, "": nil,
	} {
		got, ok := parseBytes(in)
		if ok != (want != nil) || !bytes.Equal(got, want) {
			t.Errorf("%q: %x %v, want %x", in, got, ok, want)
		}
	}
}

// TestMatchAllocs: a compiled filter of simple comparisons allocates
// nothing per record once it has run.
func TestMatchAllocs(t *testing.T) {
	recs := sample(t, "query-full.pcap")
	for _, expr := range []string{
		"udp.port == 25575",
		"ip.addr == 127.0.0.0/8 && frame.number in {1..10}",
		`query.type == 9 || query.kv.map == "world"`,
		`query.motd contains "HIB" && !tcp`,
		"query.magic[0] == fe",
		`string(frame.number) matches "[13579]$"`,
		`lower(query.motd) contains "hib"`,
	} {
		f, err := Compile(expr)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			f.Match(r)
		}
		if n := testing.AllocsPerRun(20, func() {
			for _, r := range recs {
				f.Match(r)
			}
		}); n != 0 {
			t.Errorf("%s: %.0f allocations per run over %d records", expr, n, len(recs))
		}
	}
}

func BenchmarkMatch(b *testing.B) {
	recs := sample(b, "query-full.pcap")
	for _, expr := range []string{
		"udp.port == 25575",
		"ip.addr == 127.0.0.0/8",
		`query.kv.map == "world"`,
		"frame.number in {1..5, 9}",
	} {
		f, err := Compile(expr)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(expr, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				f.Match(recs[i%len(recs)])
			}
		})
	}
}

func TestNeedsTree(t *testing.T) {
	for expr, want := range map[string]bool{
		"tcp.port == 25565 && ip.addr == 10.0.0.0/8": false,
		`mc.message == "Handshake" || udp`:           false,
		"query":                                      true,
		"udp && query.type == 9":                     true,
		`mc.expert == "mc.gap"`:                      true,
		"count(slp.status.players.sample.name) > 2":  true,
	} {
		f, err := Compile(expr)
		if err != nil {
			t.Fatal(err)
		}
		if f.NeedsTree() != want {
			t.Errorf("%s: NeedsTree %v, want %v", expr, f.NeedsTree(), want)
		}
	}
}

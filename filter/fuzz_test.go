package filter

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/record"
)

// FuzzCompile: Compile never panics; its errors are *Error with the caret
// inside the expression; a filter that compiles evaluates on real records
// (Query, Classic, IPv6) without panicking.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		"tcp.port == 25565 && slp.handshake.next_state in {1, 2}",
		`classic.username[0:2] == "al" || query.magic[0] == fe`,
		`lower(query.motd) contains "x" xor len(query.kv.map) > 3`,
		"ip.addr == 10.0.0.0/8 and not ipv6.addr == ::1/128",
		`string(frame.number) matches "(?-i)[13579]$"`,
		"all udp.port !== 1 && count(query.kv) >= 2",
		"frame.number & 0x0f == 2 || query[-2:] == 00:00",
		`query.type in {Handshake, 0..3} && query.kv.map not in {"x" .. "z"}`,
		`r"\d" == query.motd`, `'\x41'`, "((!(frame)))", "a[1-2]", "x in {", `"\u00e9`,
	} {
		f.Add(s)
	}
	recs := append(append([]*record.Record{}, sample(f, "query-full.pcap")[:6]...), v6records()...)
	cl := sample(f, "classic-session.pcap")
	recs = append(recs, cl[:min(len(cl), 12)]...)
	f.Fuzz(func(t *testing.T, expr string) {
		flt, err := Compile(expr)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%q: error %T %v, not an *Error", expr, err, err)
			}
			if e.Pos < 0 || e.Pos > e.End || e.End > len(expr) || e.Msg == "" {
				t.Fatalf("%q: error at [%d,%d) of %d: %q", expr, e.Pos, e.End, len(expr), e.Msg)
			}
			if !strings.HasPrefix(err.Error(), e.Msg) {
				t.Fatalf("%q: text %q", expr, err.Error())
			}
			return
		}
		for _, r := range recs {
			flt.Match(r)
		}
	})
}

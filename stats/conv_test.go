package stats

import (
	"bytes"
	"net/netip"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// TestConvStatBounded: -z conv,mc keeps a row per client address, not per
// port, and past its cap counts newcomers in one "others" row, so that a
// capture running for days does not grow the table without end.
func TestConvStatBounded(t *testing.T) {
	server := netip.MustParseAddrPort("10.0.0.1:25565")
	rec := func(client string, port uint16, dir dissect.Dir, n int) *record.Record {
		r := &record.Record{Proto: "query"}
		c := netip.AddrPortFrom(netip.MustParseAddr(client), port)
		r.Src, r.Dst = c, server
		if dir == dissect.DirS2C {
			r.Src, r.Dst = server, c
		}
		r.PDU.Dir = dir
		r.PDU.Data = make([]byte, n)
		return r
	}
	for _, c := range []struct {
		name    string
		max     int
		clients []string // one request and one response each, each from a new port
		rows    []string // the clients of the rows, in order
		others  string   // the "others" row's counts, if any
	}{
		{"ports of one client are one row", 10, []string{"10.0.0.2", "10.0.0.2", "10.0.0.2"}, []string{"10.0.0.2"}, ""},
		{"a row per address", 10, []string{"10.0.0.2", "10.0.0.3", "10.0.0.2"}, []string{"10.0.0.2", "10.0.0.3"}, ""},
		{"past the cap, others", 2, []string{"10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.2"}, []string{"10.0.0.2", "10.0.0.3"}, "others"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &convStat{idx: map[convKey]int{}, max: c.max}
			for i, cl := range c.clients {
				s.Record(rec(cl, uint16(40000+i), dissect.DirC2S, 7))
				s.Record(rec(cl, uint16(40000+i), dissect.DirS2C, 13))
			}
			var b bytes.Buffer
			s.Print(&b)
			var got []string
			othersLine := ""
			for _, l := range lines(b.String())[4:] {
				if strings.HasPrefix(l, "=") {
					break
				}
				f := strings.Fields(l)
				if f[0] == "others" {
					othersLine = l
					continue
				}
				got = append(got, f[0])
			}
			if strings.Join(got, " ") != strings.Join(c.rows, " ") {
				t.Errorf("rows %v, want %v:\n%s", got, c.rows, b.String())
			}
			if (othersLine != "") != (c.others != "") {
				t.Errorf("others row %q, want one: %v\n%s", othersLine, c.others != "", b.String())
			}
			total := 0
			for _, r := range s.rows {
				total += r.c2s + r.s2c
			}
			total += s.others.c2s + s.others.s2c
			if total != 2*len(c.clients) {
				t.Errorf("%d PDUs counted, want %d", total, 2*len(c.clients))
			}
		})
	}
}

func lines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

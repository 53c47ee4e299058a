package analyze

import (
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/budget"
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/internal/capgen"
	"github.com/mcdissect/mcdissect/record"
)

// TestReleaseSaysWhy: a request output before its response says why, and
// the reason is the one that happened: held as long as the hold allows
// (the default's, a short one, none), too many records behind it, the
// memory budget spent. Its response, which comes later, links back to
// it all the same. Before, every such note said "too many PDUs held
// back", also of an SLP status request held its 6 s with nothing behind.
func TestReleaseSaysWhy(t *testing.T) {
	qc, qs := netip.MustParseAddrPort("10.0.0.7:50000"), netip.MustParseAddrPort("10.0.0.8:25565")
	other := netip.MustParseAddrPort("10.0.0.9:50001")
	statusResp := append([]byte{0x2a, 0x00, 0x28}, `{"description":"x","players":{"max":1}}`...)
	// An SLP status request and a Query handshake request, others'
	// handshakes behind them 1.5 s later, the Query response, and 7 s
	// later the status response.
	capt := buildCapture(t, func(w *capgen.Writer) {
		c := w.TCP(tcpClient, tcpServer, t0)
		c.Handshake()
		c.Send(true, slpHandshake)
		c.Send(true, []byte{0x01, 0x00})
		c.Advance(time.Millisecond)
		w.UDP(c.Now, qc, qs, []byte{0xfe, 0xfd, 0x09, 0, 0, 0, 1})
		c.Advance(1500 * time.Millisecond)
		for i := range 3 {
			c.Advance(time.Millisecond)
			w.UDP(c.Now, other, qs, []byte{0xfe, 0xfd, 0x09, 0, 0, 0, byte(10 + i)})
		}
		c.Advance(time.Millisecond)
		w.UDP(c.Now, qs, qc, []byte{0x09, 0, 0, 0, 1, '4', '2', 0})
		c.Advance(7 * time.Second)
		w.UDP(c.Now, other, qs, []byte{0xfe, 0xfd, 0x09, 0, 0, 0, 20})
		c.Advance(time.Millisecond)
		c.Send(false, statusResp)
	})
	for _, c := range []struct {
		name       string
		opts       Options
		slp, query string // in the requests' notes ("": none, the link shown)
	}{
		{"the default hold", Options{}, "held 6s, the longest the hold allows", ""},
		{"a live hold", Options{HoldWindow: time.Second}, "held 1s, the longest the hold allows", "held 1s, the longest the hold allows"},
		{"no hold", Options{HoldWindow: -1}, "--hold 0: no record waits", "--hold 0: no record waits"},
		{"too many records", Options{MaxHeld: 2}, "2 records waited behind it", "2 records waited behind it"},
		{"the memory budget", Options{Budget: budget.New(100)}, "memory budget of 100 bytes was spent", "memory budget of 100 bytes was spent"},
	} {
		t.Run(c.name, func(t *testing.T) {
			recs, _, err := analyzeBytes(t, capt, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			find := func(msg string, port uint16) *record.Record {
				for _, r := range recs {
					if r.PDU.Message == msg && (r.Src.Port() == port || r.Dst.Port() == port) {
						return r
					}
				}
				t.Fatalf("no %s of port %d", msg, port)
				return nil
			}
			for _, x := range []struct {
				req, resp, link, want string
				port                  uint16
			}{
				{"Status Request", "Status Response", "slp.request_in", c.slp, tcpClient.Port()},
				{"Handshake Request", "Handshake Response", "query.request_in", c.query, qc.Port()},
			} {
				req, resp := find(x.req, x.port), find(x.resp, x.port)
				note := unlinkedNote(&req.PDU)
				if x.want == "" && note != "" || !strings.Contains(note, x.want) {
					t.Errorf("%s: note %q, want %q in it", x.req, note, x.want)
				}
				if x.want == "" && req.PDU.Find(strings.Split(x.link, ".")[0]+".response_in") < 0 {
					t.Errorf("%s waited and does not show its response", x.req)
				}
				if i := resp.PDU.Find(x.link); i < 0 || string(dissect.AppendValue(nil, &resp.PDU.Nodes[i])) != strconv.FormatUint(req.Frame, 10) {
					t.Errorf("%s does not link back to frame %d: %s node %d", x.resp, req.Frame, x.link, i)
				}
			}
		})
	}
}

// unlinkedNote is the message of p's *.response.unlinked item, "" if none.
func unlinkedNote(p *dissect.PDU) string {
	for _, e := range p.Experts {
		if strings.HasSuffix(e.Info.Name, ".response.unlinked") {
			return e.Msg
		}
	}
	return ""
}

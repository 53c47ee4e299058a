package analyze

import (
	"encoding/binary"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/internal/capgen"
	"github.com/mcdissect/mcdissect/record"
)

// TestUnansweredRequestIsSaidSo: a request that gets no response is output
// once the hold window has passed, with the tracker's "no response" item on
// it, whether the release comes from later traffic or from the end of the
// capture; released early because too many records are held, it says that
// instead (its response may still come: TestGivenUpRequestIsLinkedBack).
func TestUnansweredRequestIsSaidSo(t *testing.T) {
	frame := func(sport, dport uint16, p []byte) []byte {
		return linkFrame(layers.LinkTypeEthernet, false, ipUDP(t, false, sport, dport, p), false)
	}
	req := func(i byte) []byte { return []byte{0xfe, 0xfd, 0x09, 0, 0, 0, i} }
	// pcapFile spaces frames 1 ms apart; a later frame is given its own time.
	capture := func(frames [][]byte, gap time.Duration) []byte {
		b := pcapFile(binary.LittleEndian, false, 1, frames, 0)
		if gap > 0 { // move the last frame's timestamp gap later
			off := 24
			for i := 0; i < len(frames)-1; i++ {
				off += 16 + len(frames[i])
			}
			ts := t0.Add(gap)
			binary.LittleEndian.PutUint32(b[off:], uint32(ts.Unix()))
			binary.LittleEndian.PutUint32(b[off+4:], uint32(ts.Nanosecond()/1000))
		}
		return b
	}
	for _, c := range []struct {
		name   string
		frames [][]byte
		gap    time.Duration
		opts   Options
		want   string // the expert item on every request
	}{
		{"later traffic", [][]byte{frame(40000, 25565, req(1)), frame(40001, 25565, req(2))}, 20 * time.Second, Options{}, "query.response.missing"},
		{"end of capture", [][]byte{frame(40000, 25565, req(1))}, 0, Options{}, "query.response.missing"},
		{"too many held", [][]byte{frame(40000, 25565, req(1)), frame(40001, 25565, req(2)), frame(40002, 25565, req(3))}, 0, Options{MaxHeld: 1}, "query.response.unlinked"},
	} {
		t.Run(c.name, func(t *testing.T) {
			recs, _, err := analyzeBytes(t, capture(c.frames, c.gap), c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != len(c.frames) {
				t.Fatalf("%d records", len(recs))
			}
			for i, r := range recs {
				if r.Frame != uint64(i+1) {
					t.Errorf("record %d is frame %d: order lost", i, r.Frame)
				}
				names := []string{}
				for _, e := range r.PDU.Experts {
					names = append(names, e.Info.Name)
				}
				if i < len(recs)-1 || c.name != "too many held" { // the last is released by the end
					if !strings.Contains(strings.Join(names, ","), c.want) {
						t.Errorf("frame %d: experts %v, want %s", r.Frame, names, c.want)
					}
				}
				if r.PDU.Pending {
					t.Errorf("frame %d output while pending", r.Frame)
				}
			}
		})
	}
}

// TestGivenUpRequestIsLinkedBack: a request output before its response
// because too many records were held still gets its response linked back
// to it, in the response's record, rather than the response being called
// unsolicited.
func TestGivenUpRequestIsLinkedBack(t *testing.T) {
	frame := func(sport, dport uint16, p []byte) []byte {
		return linkFrame(layers.LinkTypeEthernet, false, ipUDP(t, false, sport, dport, p), false)
	}
	req := func(i byte) []byte { return []byte{0xfe, 0xfd, 0x09, 0, 0, 0, i} }
	resp := []byte{0x09, 0, 0, 0, 1, '4', '2', 0}
	// The response comes back from 10.0.0.2: swapping the IPv4 addresses
	// keeps both checksums, which are sums.
	back := ipUDP(t, false, 25565, 40000, resp)
	for i := 12; i < 16; i++ {
		back[i], back[i+4] = back[i+4], back[i]
	}
	frames := [][]byte{frame(40000, 25565, req(1)), frame(40001, 25565, req(2)), frame(40002, 25565, req(3)),
		linkFrame(layers.LinkTypeEthernet, false, back, false)}
	{
		recs, _, err := analyzeBytes(t, pcapFile(binary.LittleEndian, false, 1, frames, 0), Options{MaxHeld: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 4 {
			t.Fatalf("%d records", len(recs))
		}
		first, last := &recs[0].PDU, &recs[3].PDU
		if names := pduExperts(first); len(names) != 1 || names[0] != "query.response.unlinked" {
			t.Errorf("request's experts %v", names)
		}
		if i := last.Find("query.request_in"); i < 0 || string(dissect.AppendValue(nil, &last.Nodes[i])) != "1" {
			t.Errorf("response's request_in node %d; experts %v", i, pduExperts(last))
		}
		if names := pduExperts(last); len(names) != 0 {
			t.Errorf("response's experts %v", names)
		}
	}
}

func pduExperts(p *dissect.PDU) []string {
	var names []string
	for _, e := range p.Experts {
		names = append(names, e.Info.Name)
	}
	return names
}

// TestLateRecordKeepsTheClock: a PDU cut short, decided when its
// connection closes 20 s on, comes out then, after a Query exchange whose
// request and response it was sent between, and does not move the back
// end's clock before the response is seen: the request is not given up
// ("no response seen within 5s") and the response is not called
// unsolicited.
func TestLateRecordKeepsTheClock(t *testing.T) {
	qc, qs := netip.MustParseAddrPort("10.0.0.7:50000"), netip.MustParseAddrPort("10.0.0.8:25565")
	capt := buildCapture(t, func(w *capgen.Writer) {
		c := w.TCP(tcpClient, tcpServer, t0)
		c.Handshake()
		c.Send(true, slpHandshake)
		c.Advance(time.Millisecond)
		w.UDP(c.Now, qc, qs, []byte{0xfe, 0xfd, 0x09, 0, 0, 0, 1})
		c.Advance(time.Millisecond)
		c.Send(true, []byte{0x05, 0x00}) // a Status Request of 5 bytes, 1 of them sent
		c.Advance(time.Millisecond)
		w.UDP(c.Now, qs, qc, []byte{0x09, 0, 0, 0, 1, '4', '2', 0})
		c.Advance(20 * time.Second)
		c.Close()
	})
	{
		recs, _, err := analyzeBytes(t, capt, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var req, resp *record.Record
		cut := false // the Status Request cut short, decoded at the close
		for _, r := range recs {
			switch {
			case r.Proto == "query" && req == nil:
				req = r
			case r.Proto == "query":
				resp = r
			case r.Proto == "slp" && r.PDU.Cut():
				cut = req != nil && resp != nil
			}
		}
		if req == nil || resp == nil || !cut {
			t.Fatalf("request %v, response %v, the cut PDU between them %v", req != nil, resp != nil, cut)
		}
		if names := pduExperts(&req.PDU); len(names) != 0 {
			t.Errorf("request's experts %v", names)
		}
		if names := pduExperts(&resp.PDU); len(names) != 0 {
			t.Errorf("response's experts %v", names)
		}
		if i := resp.PDU.Find("query.request_in"); i < 0 {
			t.Errorf("the response does not link to its request")
		}
	}
}

// TestGivenUpPingIsLinkedBack: an SLP ping the back end must output before
// its pong (too many records held) says so, and its pong still links back
// to it; before, the pong's link went to a record already output, and
// nothing said why the ping had none.
func TestGivenUpPingIsLinkedBack(t *testing.T) {
	ping := []byte{0x09, 0x01, 0, 0, 0, 0, 0, 0, 0x2e, 0x5d}
	other := netip.MustParseAddrPort("10.0.0.7:50000")
	capt := buildCapture(t, func(w *capgen.Writer) {
		c := w.TCP(tcpClient, tcpServer, t0)
		c.Handshake()
		c.Send(true, slpHandshake)
		c.Send(true, ping)
		for i := range 3 { // records behind the ping: past MaxHeld
			c.Advance(time.Millisecond)
			w.UDP(c.Now, other, netip.MustParseAddrPort("10.0.0.8:25565"), []byte{0xfe, 0xfd, 0x09, 0, 0, 0, byte(i)})
		}
		c.Send(false, ping)
	})
	{
		recs, _, err := analyzeBytes(t, capt, Options{MaxHeld: 1})
		if err != nil {
			t.Fatal(err)
		}
		var req, resp *record.Record
		for _, r := range recs {
			switch r.PDU.Message {
			case "Ping Request":
				req = r
			case "Pong Response":
				resp = r
			}
		}
		if req == nil || resp == nil {
			t.Fatalf("ping %v, pong %v", req != nil, resp != nil)
		}
		if names := pduExperts(&req.PDU); len(names) != 1 || names[0] != "slp.response.unlinked" {
			t.Errorf("ping's experts %v", names)
		}
		if i := resp.PDU.Find("slp.ping.request_in"); i < 0 || string(dissect.AppendValue(nil, &resp.PDU.Nodes[i])) != strconv.FormatUint(req.Frame, 10) {
			t.Errorf("pong's link %d, ping in frame %d", i, req.Frame)
		}
	}
}

package analyze

import (
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/dissect"
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
// unsolicited; serial and Parallel alike.
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
	for _, par := range []bool{false, true} {
		recs, _, err := analyzeBytes(t, pcapFile(binary.LittleEndian, false, 1, frames, 0), Options{MaxHeld: 1, Parallel: par})
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 4 {
			t.Fatalf("parallel %v: %d records", par, len(recs))
		}
		first, last := &recs[0].PDU, &recs[3].PDU
		if names := pduExperts(first); len(names) != 1 || names[0] != "query.response.unlinked" {
			t.Errorf("parallel %v: request's experts %v", par, names)
		}
		if i := last.Find("query.request_in"); i < 0 || string(dissect.AppendValue(nil, &last.Nodes[i])) != "1" {
			t.Errorf("parallel %v: response's request_in node %d; experts %v", par, i, pduExperts(last))
		}
		if names := pduExperts(last); len(names) != 0 {
			t.Errorf("parallel %v: response's experts %v", par, names)
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

package analyze

import (
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"
)

// TestUnansweredRequestIsSaidSo: a request that gets no response is output
// once the hold window has passed, with the tracker's "no response" item on
// it, whether the release comes from later traffic, from the end of the
// capture, or from too many records being held.
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
	}{
		{"later traffic", [][]byte{frame(40000, 25565, req(1)), frame(40001, 25565, req(2))}, 20 * time.Second, Options{}},
		{"end of capture", [][]byte{frame(40000, 25565, req(1))}, 0, Options{}},
		{"too many held", [][]byte{frame(40000, 25565, req(1)), frame(40001, 25565, req(2)), frame(40002, 25565, req(3))}, 0, Options{MaxHeld: 1}},
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
				if !strings.Contains(strings.Join(names, ","), "query.response.missing") {
					t.Errorf("frame %d: experts %v, want query.response.missing", r.Frame, names)
				}
				if r.PDU.Pending {
					t.Errorf("frame %d output while pending", r.Frame)
				}
			}
		})
	}
}

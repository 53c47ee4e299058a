package analyze

import (
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/budget"
	"github.com/mcdissect/mcdissect/internal/capgen"
	"github.com/mcdissect/mcdissect/record"
)

// TestFloodYieldsToData: bare SYNs fill the memory budget while a status
// request waits for its response, which then needs more buffer than is
// left. The attempts (entries without a payload byte) are evicted to make
// room, the response is dissected whole, and the attempts evicted are
// counted in the note. The budget is what a first run with room for all
// peaked at, less part of the response's buffer: the flood fits (an
// entry's refused charge would evict the connection with the attempts),
// the response does not.
func TestFloodYieldsToData(t *testing.T) {
	const syns = 300
	capture := floodCapture(t, syns)
	roomy := budget.New(64 << 20)
	if _, _, err := analyzeBytes(t, capture, Options{Budget: roomy}); err != nil {
		t.Fatal(err)
	}
	checkFlood(t, capture, syns, budget.New(roomy.Peak()-50<<10))
}

// TestFloodEvictsItselfFirst: ten times as many bare SYNs as the budget
// holds entries for, while a status request waits: refused entry charges
// evict attempts, not the connection with data, whose response is
// dissected whole.
func TestFloodEvictsItselfFirst(t *testing.T) {
	roomy := budget.New(64 << 20)
	if _, _, err := analyzeBytes(t, floodCapture(t, 300), Options{Budget: roomy}); err != nil {
		t.Fatal(err)
	}
	checkFlood(t, floodCapture(t, 3000), 3000, budget.New(roomy.Peak()))
}

// floodCapture: a status request, syns bare SYNs, then its 100 KiB
// response in 1460-byte segments.
func floodCapture(t *testing.T, syns int) []byte {
	json := `{"description":"` + strings.Repeat("a", 100<<10) + `"}`
	return buildCapture(t, func(w *capgen.Writer) {
		w.Step = time.Microsecond
		c := w.TCP(netip.MustParseAddrPort("10.9.9.9:40000"), capgen.HostileServer, time.Unix(1700000000, 0))
		c.Handshake()
		c.Send(true, append(append([]byte(nil), slpHandshake...), 0x01, 0x00))
		for i := range syns {
			a := netip.AddrFrom4([4]byte{10, 1, byte(i >> 8), byte(i)})
			s := w.TCP(netip.AddrPortFrom(a, uint16(1024+i)), capgen.HostileServer, c.Now)
			s.SYNOnly()
			c.Now = s.Now
		}
		c.MSS = 1460
		c.Send(false, slpStatusResponse(json))
		c.Close()
	})
}

// checkFlood: under b, the response is dissected whole with nothing
// undissected, and the attempts not shown are counted in the note.
func checkFlood(t *testing.T, capture []byte, syns int, b *budget.Budget) {
	t.Helper()
	recs, _, err := analyzeBytes(t, capture, Options{Budget: b})
	if err != nil {
		t.Fatal(err)
	}
	attempts, note, status := 0, "", false
	for _, r := range recs {
		switch {
		case r.Kind == record.KindUndissected || r.Kind == record.KindGap:
			t.Errorf("%v record: %s", r.Kind, r.PDU.Info)
		case r.PDU.Message == "Connection attempt":
			attempts++
		case r.PDU.Message == "Connection attempts not followed":
			note = r.PDU.Info
		case r.PDU.Message == "Status Response":
			status = true
		}
	}
	if !status {
		t.Error("no Status Response")
	}
	lost := syns - attempts
	if lost == 0 || !strings.Contains(note, strconv.Itoa(lost)+" connection attempts") {
		t.Errorf("%d attempts shown of %d, note %q", attempts, syns, note)
	}
}

package analyze

import (
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/record"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

// TestCutAfterResync: once the framer has resynchronised after a gap, a
// PDU cut by a later gap or by the connection's end is decoded as cut, as
// one before the first gap is, not left undissected with the resync's
// reason.
func TestCutAfterResync(t *testing.T) {
	pos := func(x byte) []byte { return []byte{0x08, 0xff, 0x01, x, 0x00, 0xa3, 0x01, 0x00, 0x40, 0x00} }
	id := append(append([]byte{0x00, 0x07}, []byte(strings.Repeat("a", 4)+strings.Repeat(" ", 60))...), make([]byte, 65)...)
	for i := 66; i < 130; i++ {
		id[i] = 'k'
	}
	capt := buildCapture(t, func(w *capgen.Writer) {
		c := w.TCP(tcpClient, tcpServer, t0)
		c.Handshake()
		c.Send(true, id)
		c.Send(true, pos(1)[:4])
		c.Skip(true, 3)
		c.Send(true, append(append(append(pos(1)[7:], pos(2)...), pos(3)...), pos(4)...)) // 3 bytes skipped by the resync
		p := pos(5)
		c.Send(true, p[:3]) // cut by a gap, after the resync
		c.Skip(true, 7)
		c.Send(true, append(append(pos(6), pos(7)...), pos(8)...))
		c.Send(true, pos(9)[:5]) // cut by the end
		c.Close()
	})
	recs, _, err := analyzeBytes(t, capt, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var cut []string
	for _, r := range recs {
		if r.Kind == record.KindUndissected && !strings.Contains(r.PDU.Info, "resynchronised") {
			t.Errorf("undissected: %s", r.PDU.Info)
		}
		if strings.Contains(r.PDU.Info, "[cut: ") {
			cut = append(cut, r.PDU.Info)
		}
	}
	if len(cut) != 3 || !strings.HasSuffix(cut[1], "[cut: 3 of 10 bytes]") || !strings.HasSuffix(cut[2], "[cut: 5 of 10 bytes]") {
		t.Errorf("cut PDUs: %q", cut)
	}
}

package analyze

import (
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/internal/capgen"
	"github.com/mcdissect/mcdissect/record"
)

// TestMidStreamPastTheWait: a Server List Ping picked up inside a status
// response longer than the bytes a direction waits with (maxDetectBytes)
// for its protocol to prove itself. The response's tail is skipped, and
// every pong that echoes a ping seen is dissected: the port's protocol
// resynchronises on what follows instead of giving the direction up.
func TestMidStreamPastTheWait(t *testing.T) {
	const pings = 3
	recs, _, err := analyzeBytes(t, buildCapture(t, func(w *capgen.Writer) { w.SLPMidStatus(pings) }), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var pongs, skipped int
	for _, r := range recs {
		switch {
		case r.Kind == record.KindUndissected:
			skipped += len(r.PDU.Data)
			if r.PDU.Dir != dissect.DirS2C || strings.Contains(r.PDU.Info, "10 undissected") {
				t.Errorf("frame %d: %s", r.Frame, r.PDU.Info)
			}
		case r.PDU.Message == "Pong Response":
			pongs++
		}
	}
	if pongs != pings || skipped < maxDetectBytes {
		t.Errorf("%d pongs of %d dissected, %d bytes skipped", pongs, pings, skipped)
	}
}

// TestHeartbeatWithoutSYN: a heartbeat picked up at its request line,
// without its SYN, is dissected from its first byte and its salt checks
// the player's key.
func TestHeartbeatWithoutSYN(t *testing.T) {
	recs, _, err := analyzeBytes(t, buildCapture(t, func(w *capgen.Writer) { w.HeartbeatWithoutSYN() }), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var info []string
	for _, r := range recs {
		info = append(info, r.PDU.Info)
		if r.Kind != record.KindPDU {
			t.Errorf("frame %d: %s", r.Frame, r.PDU.Info)
		}
	}
	if s := strings.Join(info, "\n"); !strings.Contains(s, "salt exposed") || !strings.Contains(s, "key valid") {
		t.Errorf("records:\n%s", s)
	}
}

// TestMidStreamNoProofInNoise: a long stream of random bytes on 25565
// picked up mid-way (encrypted play traffic looks so) proves no protocol:
// once a side's first bytes proved nothing, the rest of that side is not
// tried, where a weak proof (three plausible Classic packets in a row)
// turns up by chance within some tens of kilobytes.
func TestMidStreamNoProofInNoise(t *testing.T) {
	noise := make([]byte, 1<<20)
	x := uint64(88172645463325252)
	for i := range noise {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		noise[i] = byte(x)
	}
	capt := buildCapture(t, func(w *capgen.Writer) {
		c := w.TCP(tcpClient, tcpServer, t0)
		c.MSS = 1460
		c.Send(false, noise)
		c.Send(true, noise[:64<<10])
		c.Close()
	})
	recs, _, err := analyzeBytes(t, capt, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.Kind == record.KindPDU {
			t.Fatalf("frame %d: noise dissected as %s: %s", r.Frame, r.Proto, r.PDU.Info)
		}
	}
}

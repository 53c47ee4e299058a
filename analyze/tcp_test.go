package analyze

import (
	"bytes"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/internal/capgen"
	"github.com/mcdissect/mcdissect/record"
)

func buildCapture(t *testing.T, build func(w *capgen.Writer)) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := capgen.New(&b)
	if err != nil {
		t.Fatal(err)
	}
	build(w)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var (
	tcpClient = netip.MustParseAddrPort("10.0.0.1:40000")
	tcpServer = netip.MustParseAddrPort("10.0.0.2:25565")
	// A Server List Ping handshake (protocol 766, "localhost", 25565, status).
	slpHandshake = []byte{0x10, 0x00, 0xfe, 0x05, 0x09, 'l', 'o', 'c', 'a', 'l', 'h', 'o', 's', 't', 0x63, 0xdd, 0x01}
)

func experts(r *record.Record) string {
	var names []string
	for _, e := range r.PDU.Experts {
		names = append(names, e.Info.Name)
	}
	return strings.Join(names, ",")
}

// TestDifferingRetransmission: a retransmitted segment whose bytes differ
// from the first copy becomes a record with an expert warning, and the
// PDU is dissected from the first copy.
func TestDifferingRetransmission(t *testing.T) {
	capt := buildCapture(t, func(w *capgen.Writer) {
		c := w.TCP(tcpClient, tcpServer, t0)
		c.Handshake()
		c.Send(true, slpHandshake)
		bad := append([]byte(nil), slpHandshake...)
		bad[6] = 'X' // "lXcalhost"
		c.SegmentAt(true, 0, bad)
		c.Send(true, []byte{0x01, 0x00})
		c.Close()
	})
	recs, _, err := analyzeBytes(t, capt, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, r.PDU.Message+"|"+experts(r))
		if err := dissect.Check(&r.PDU); err != nil {
			t.Error(err)
		}
	}
	want := []string{"Handshake|", "Differing retransmission|mc.retransmission.differing", "TCP Retransmission|tcp.analysis.retransmission", "Status Request|slp.response.missing"} // the client closed without a response
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("records %q, want %q", got, want)
	}
	if addr := recs[0].PDU.Nodes[recs[0].PDU.Find("slp.handshake.server_address")].Value.Text(); addr != "localhost" {
		t.Errorf("address %q: the first copy must win", addr)
	}
}

// TestClassicPickedUpMidStream: a Classic session whose start the capture
// missed (no SYN, no identification) on the default port: the framer finds
// a run of valid packets, the bytes before it are reported undissected,
// and the packets after it are dissected as Classic.
func TestClassicPickedUpMidStream(t *testing.T) {
	pos := func(x int16) []byte { // a client Position and Orientation (0x08)
		return []byte{0x08, 0xff, byte(x >> 8), byte(x), 0x00, 0xd3, 0x01, 0x00, 0x40, 0x00}
	}
	var stream []byte
	stream = append(stream, 0x33, 0x44, 0x55) // the tail of a packet the capture missed
	for i := int16(0); i < 6; i++ {
		stream = append(stream, pos(256+32*i)...)
	}
	capt := buildCapture(t, func(w *capgen.Writer) {
		c := w.TCP(tcpClient, tcpServer, t0.Add(time.Second))
		c.SegmentAt(true, 1000, stream)
		c.Close()
	})
	recs, _, err := analyzeBytes(t, capt, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 {
		t.Fatal("no records: the mid-stream connection was dropped")
	}
	if recs[0].Kind != record.KindUndissected || len(recs[0].PDU.Data) != 3 || recs[0].Proto != "classic" {
		t.Errorf("first record: kind %d, %d bytes, %s; want the 3 bytes before the boundary, undissected, as classic", recs[0].Kind, len(recs[0].PDU.Data), recs[0].Proto)
	}
	n := 0
	for _, r := range recs[1:] {
		if r.PDU.Message == "Position and Orientation" {
			n++
		}
	}
	if n != 6 {
		t.Errorf("%d positions dissected after the resync, want 6", n)
	}
}

// TestDroppedBytesAreCounted: payload after an RST produces no record, but
// the analyzer's statistics count it, so the CLI can say so.
func TestDroppedBytesAreCounted(t *testing.T) {
	capt := buildCapture(t, func(w *capgen.Writer) {
		c := w.TCP(tcpClient, tcpServer, t0)
		c.Handshake()
		c.Send(true, slpHandshake)
		c.Reset(true)
		c.Send(true, []byte{0x01, 0x00, 0x09}) // after the RST
	})
	src, err := OpenFile(bytes.NewReader(capt))
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{}, SinkFunc(func(*record.Record) error { return nil }))
	if _, err := Run(src, a); err != nil {
		t.Fatal(err)
	}
	if got := a.Stats().TCPDropped; got != 3 {
		t.Errorf("TCPDropped = %d, want the 3 bytes sent after the reset", got)
	}
}

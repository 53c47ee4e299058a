package capgen

import (
	"bytes"
	"net/netip"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// TestRoundTrip writes a UDP datagram and a TCP connection with a reordered
// and a missing segment, reads the file back with gopacket, and checks the
// sequence numbers and payloads it says it wrote.
func TestRoundTrip(t *testing.T) {
	var out bytes.Buffer
	w, err := New(&out)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(1700000000, 0)
	cl, sv := netip.MustParseAddrPort("127.0.0.1:40000"), netip.MustParseAddrPort("127.0.0.1:25565")
	w.UDP(t0, cl, sv, []byte{0xfe, 0xfd, 9, 0, 0, 0, 1})
	c := w.TCP(cl, sv, t0)
	c.SetISN(0xfffffffe, 100)
	c.Handshake()
	c.SegmentAt(true, 3, []byte("def")) // before "abc": reordered
	c.SegmentAt(true, 0, []byte("abc"))
	c.Skip(true, 2) // offsets 6-7 never sent
	c.Send(true, []byte("ij"))
	c.Close()
	w.UDPCut(t0, sv, cl, []byte("0123456789"), 20)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	r, err := pcapgo.NewReader(&out)
	if err != nil {
		t.Fatal(err)
	}
	type seg struct {
		seq     uint32
		payload string
		syn     bool
	}
	var got []seg
	var udp []string
	var capLens []int
	for {
		data, ci, err := r.ReadPacketData()
		if err != nil {
			break
		}
		capLens = append(capLens, ci.Length-ci.CaptureLength)
		p := gopacket.NewPacket(data, layers.LinkTypeEthernet, gopacket.Default)
		if tl, ok := p.Layer(layers.LayerTypeTCP).(*layers.TCP); ok && tl.SrcPort == 40000 {
			got = append(got, seg{tl.Seq, string(tl.Payload), tl.SYN})
		}
		if ul, ok := p.Layer(layers.LayerTypeUDP).(*layers.UDP); ok {
			udp = append(udp, string(ul.Payload))
		}
	}
	want := []seg{
		{0xfffffffe, "", true},
		{0xffffffff, "", false}, // handshake ACK
		{2, "def", false},       // ISN+1+3 wraps past zero
		{0xffffffff, "abc", false},
		{7, "ij", false}, // after the two skipped bytes
		{9, "", false},   // FIN
		{10, "", false},  // last ACK
	}
	if len(got) != len(want) {
		t.Fatalf("client segments: got %d %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("segment %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	// The cut datagram has no whole UDP header captured, so only one decodes.
	if len(udp) != 1 || udp[0] != "\xfe\xfd\x09\x00\x00\x00\x01" {
		t.Errorf("udp payloads: %q", udp)
	}
	// The cut datagram: 14+20+8 header bytes + 10 payload bytes, which
	// gopacket pads to Ethernet's 60-byte minimum; 20 captured.
	if last := capLens[len(capLens)-1]; last != 60-20 {
		t.Errorf("cut frame: %d bytes missing, want 40", last)
	}
}

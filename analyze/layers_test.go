package analyze

import (
	"encoding/binary"
	"maps"
	"net/netip"
	"strconv"
	"testing"
	"time"

	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/internal/capgen"
	"github.com/mcdissect/mcdissect/record"
)

func TestExactTimes(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0.000000000"}, {1, "0.000000001"}, {1500 * time.Millisecond, "1.500000000"},
		{642434100 * time.Nanosecond, "0.642434100"}, {-1, "-0.000000001"},
	} {
		if got := string(record.AppendSeconds9(nil, c.d)); got != c.want {
			t.Errorf("record.AppendSeconds9(%d) = %q, want %q", c.d, got, c.want)
		}
	}
	for _, c := range []struct {
		t          time.Time
		epoch, abs string
	}{
		{time.Unix(1795342882, 642434100), "1795342882.642434100", "Nov 22, 2026 10:21:22.642434100 UTC"},
		{time.Unix(1714564800, 0), "1714564800.000000000", "May  1, 2024 12:00:00.000000000 UTC"},
		{time.Unix(-1, 500000000), "-0.500000000", "Dec 31, 1969 23:59:59.500000000 UTC"},
	} {
		if got := string(record.AppendEpoch9(nil, c.t)); got != c.epoch {
			t.Errorf("record.AppendEpoch9(%v) = %q, want %q", c.t, got, c.epoch)
		}
		if got := string(record.AppendFrameTime(nil, c.t)); got != c.abs {
			t.Errorf("record.AppendFrameTime(%v) = %q, want %q", c.t, got, c.abs)
		}
	}
}

func TestWindowSize(t *testing.T) {
	for _, c := range []struct {
		l    record.Layers
		want uint32
	}{
		{record.Layers{Window: 64, WScale: 10, TCPFlags: record.TCPFlagACK}, 65536},
		{record.Layers{Window: 64, WScale: -1, TCPFlags: record.TCPFlagACK}, 64},      // scale unknown: raw, as tshark
		{record.Layers{Window: 65495, WScale: 7, TCPFlags: record.TCPFlagSYN}, 65495}, // a SYN's window is never scaled
		{record.Layers{Window: 512, WScale: 0, TCPFlags: record.TCPFlagACK}, 512},
	} {
		if got := c.l.WindowSize(); got != c.want {
			t.Errorf("%+v: %d, want %d", c.l, got, c.want)
		}
	}
}

// TestLayersOfRecords: a record carries the headers of the frame that
// completed it, sequence numbers relative to the ISN (wrapping past
// 2^32), or to one before the first seen when the capture starts
// mid-stream; IPv6 and UDP fill their own fields.
func TestLayersOfRecords(t *testing.T) {
	slpStatus := []byte{0x01, 0x00}
	for _, c := range []struct {
		name      string
		build     func(w *capgen.Writer)
		seq, ack  uint32
		tcpLen    uint32
		hasFields record.LayerSet
	}{
		{"from the SYN, ISN near 2^32", func(w *capgen.Writer) {
			c := w.TCP(tcpClient, tcpServer, t0)
			c.SetISN(0xfffffff0, 7)
			c.Handshake()
			c.Send(true, slpHandshake)
			c.SendSplit(true, slpStatus, 1)
			c.Close()
		}, 1 + uint32(len(slpHandshake)) + 1, 1, 1, record.HasFrame | record.HasIPv4 | record.HasTCP | record.HasEth},
		{"mid-stream", func(w *capgen.Writer) {
			c := w.TCP(tcpClient, tcpServer, t0)
			c.Skip(true, 1000)
			c.Send(true, slpHandshake)
			c.Send(true, slpStatus)
		}, 1 + uint32(len(slpHandshake)), 1, 2, record.HasFrame | record.HasIPv4 | record.HasTCP | record.HasEth},
	} {
		t.Run(c.name, func(t *testing.T) {
			recs, _, err := analyzeBytes(t, buildCapture(t, c.build), Options{})
			if err != nil {
				t.Fatal(err)
			}
			l := lastStatusRequest(t, recs).Layers
			if l.Has != c.hasFields || l.Seq != c.seq || l.Ack != c.ack || l.TCPLen != c.tcpLen || l.TTL == 0 || l.IPProto != 6 {
				t.Errorf("layers %+v, want has %b seq %d ack %d len %d", l, c.hasFields, c.seq, c.ack, c.tcpLen)
			}
			if l.WireLen != l.CapLen || l.WireLen < 54 {
				t.Errorf("frame lengths %d/%d", l.WireLen, l.CapLen)
			}
		})
	}
	t.Run("IPv6 UDP", func(t *testing.T) {
		frame := linkFrame(layers.LinkTypeEthernet, true, ipUDP(t, true, 50000, 25565, handshakeReq), false)
		recs, _, err := analyzeBytes(t, pcapFile(binary.LittleEndian, false, uint32(layers.LinkTypeEthernet), [][]byte{frame}, 0), Options{})
		if err != nil || len(recs) != 1 {
			t.Fatalf("%d records, %v", len(recs), err)
		}
		r := recs[0]
		l := r.Layers
		if l.Has != record.HasFrame|record.HasIPv6|record.HasUDP|record.HasEth || l.TTL != 64 || l.IPProto != 17 || l.UDPLen != uint16(8+len(handshakeReq)) || l.WireLen != uint32(len(frame)) {
			t.Errorf("layers %+v", l)
		}
		got := map[string]string{}
		for _, name := range []string{"ipv6.hlim", "ipv6.nxt", "udp.length", "ip.ttl", "tcp.seq", "frame.len"} {
			ref, err := record.ResolveField(name)
			if err != nil {
				t.Fatal(err)
			}
			ref.Each(r, func(n *dissect.Node) { got[name] = strconv.FormatUint(n.Value.N, 10) })
		}
		want := map[string]string{"ipv6.hlim": "64", "ipv6.nxt": "17", "udp.length": "15", "frame.len": strconv.Itoa(len(frame))}
		if !maps.Equal(got, want) {
			t.Errorf("fields %v, want %v", got, want)
		}
	})
}

// TestSeqBasesForgetTheIdle: when the table of sequence bases is full, the
// connections least recently seen are forgotten, not every one: a
// connection that keeps talking while many others come and go keeps its
// relative numbers (the table used to start afresh, and its next segment
// then counted from 1).
func TestSeqBasesForgetTheIdle(t *testing.T) {
	defer func(n int) { maxSeqBases = n }(maxSeqBases)
	maxSeqBases = 8
	slpStatus := []byte{0x01, 0x00}
	build := func(w *capgen.Writer) {
		a := w.TCP(tcpClient, tcpServer, t0)
		a.Handshake()
		k := 0
		for i := range slpHandshake {
			a.SegmentAt(true, i, slpHandshake[i:i+1])
			for j := 0; j < 3; j++ { // others come and go
				k++
				o := w.TCP(netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 9, byte(k >> 8), byte(k)}), 40000), tcpServer, t0)
				o.SYNOnly()
			}
		}
		a.Send(true, slpStatus)
	}
	recs, _, err := analyzeBytes(t, buildCapture(t, build), Options{})
	if err != nil {
		t.Fatal(err)
	}
	status := lastStatusRequest(t, recs)
	if want := 1 + uint32(len(slpHandshake)); status.Layers.Seq != want {
		t.Errorf("the talking connection's Status Request at relative seq %d, want %d", status.Layers.Seq, want)
	}
}

// lastStatusRequest is the last SLP Status Request among recs.
func lastStatusRequest(t *testing.T, recs []*record.Record) *record.Record {
	t.Helper()
	var last *record.Record
	for _, r := range recs {
		if r.Kind == record.KindPDU && r.PDU.Message == "Status Request" {
			last = r
		}
	}
	if last == nil {
		t.Fatalf("no Status Request among %d records", len(recs))
	}
	return last
}

package analyze

import (
	"encoding/binary"
	"maps"
	"net/netip"
	"slices"
	"strconv"
	"testing"

	"github.com/gopacket/gopacket/layers"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/internal/capgen"
	"github.com/mcdissect/mcdissect/record"
)

// netField is the value of the first node of field name in r's layers'
// tree, as -T fields prints it, or "" when it has none.
func netField(t *testing.T, r *record.Record, name string) string {
	t.Helper()
	ref, err := record.ResolveField(name)
	if err != nil {
		t.Fatal(err)
	}
	v, found := "", false
	ref.Each(r, func(n *dissect.Node) {
		if !found {
			found = true
			v = string(dissect.AppendValue(nil, n))
		}
	})
	return v
}

// TestLayersOfRecords: a record carries the layers of the frame that
// completed it, sequence numbers relative to the ISN (wrapping past
// 2^32), or to one before the first seen when the capture starts
// mid-stream; IPv6 and UDP fill their own fields.
func TestLayersOfRecords(t *testing.T) {
	slpStatus := []byte{0x01, 0x00}
	for _, c := range []struct {
		name     string
		build    func(w *capgen.Writer)
		seq, ack uint32
		tcpLen   uint32
	}{
		{"from the SYN, ISN near 2^32", func(w *capgen.Writer) {
			c := w.TCP(tcpClient, tcpServer, t0)
			c.SetISN(0xfffffff0, 7)
			c.Handshake()
			c.Send(true, slpHandshake)
			c.SendSplit(true, slpStatus, 1)
			c.Close()
		}, 1 + uint32(len(slpHandshake)) + 1, 1, 1},
		{"mid-stream", func(w *capgen.Writer) {
			c := w.TCP(tcpClient, tcpServer, t0)
			c.Skip(true, 1000)
			c.Send(true, slpHandshake)
			c.Send(true, slpStatus)
		}, 1 + uint32(len(slpHandshake)), 1, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			recs, _, err := analyzeBytes(t, buildCapture(t, c.build), Options{})
			if err != nil {
				t.Fatal(err)
			}
			r := lastStatusRequest(t, recs)
			got := []string{netField(t, r, "tcp.seq"), netField(t, r, "tcp.ack"), netField(t, r, "tcp.len"), netField(t, r, "ip.proto"), netField(t, r, "eth.type")}
			want := []string{strconv.Itoa(int(c.seq)), strconv.Itoa(int(c.ack)), strconv.Itoa(int(c.tcpLen)), "TCP (6)", "IPv4 (0x0800)"}
			if !slices.Equal(got, want) || netField(t, r, "ip.ttl") == "" {
				t.Errorf("layers %q, want %q:\n%s", got, want, dumpNet(r))
			}
			if wl, cl := netField(t, r, "frame.len"), netField(t, r, "frame.cap_len"); wl != cl || wl < "54" {
				t.Errorf("frame lengths %s/%s", wl, cl)
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

// TestSeqBasesKeptWhileTalking: a connection that keeps talking while many
// others come and go keeps its relative numbers: they are its connection
// entry's in the reassembler, which evicts the longest idle first (a table
// of its own used to start afresh, and the next segment then counted
// from 1).
func TestSeqBasesKeptWhileTalking(t *testing.T) {
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
	if got, want := netField(t, status, "tcp.seq"), strconv.Itoa(1+len(slpHandshake)); got != want {
		t.Errorf("the talking connection's Status Request at relative seq %s, want %s", got, want)
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

// dumpNet is r's layers' tree, a node a line.
func dumpNet(r *record.Record) string {
	var b []byte
	net := r.Layers()
	for i := range net.Nodes {
		n := &net.Nodes[i]
		b = append(b, n.Name()...)
		b = append(b, ' ')
		b = dissect.AppendValue(b, n)
		b = append(b, '\n')
	}
	return string(b)
}

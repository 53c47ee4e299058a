package analyze

import (
	"bytes"
	"encoding/binary"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/record"
)

// The handshake request and response of seed 001, session ID 1.
var (
	handshakeReq  = []byte{0xfe, 0xfd, 0x09, 0x00, 0x00, 0x00, 0x01}
	handshakeResp = append([]byte{0x09, 0x00, 0x00, 0x00, 0x01}, "9513307\x00"...)
	t0            = time.Date(2026, 11, 22, 10, 0, 0, 123456789, time.UTC)
)

// ipUDP serialises an IPv4 or IPv6 packet carrying one UDP datagram.
func ipUDP(t testing.TB, v6 bool, sport, dport uint16, payload []byte) []byte {
	t.Helper()
	udp := &layers.UDP{SrcPort: layers.UDPPort(sport), DstPort: layers.UDPPort(dport)}
	var ip gopacket.SerializableLayer
	if v6 {
		l := &layers.IPv6{Version: 6, HopLimit: 64, NextHeader: layers.IPProtocolUDP, SrcIP: net.ParseIP("2001:db8::1"), DstIP: net.ParseIP("2001:db8::2")}
		udp.SetNetworkLayerForChecksum(l)
		ip = l
	} else {
		l := &layers.IPv4{Version: 4, TTL: 64, Protocol: layers.IPProtocolUDP, SrcIP: net.IP{10, 0, 0, 1}, DstIP: net.IP{10, 0, 0, 2}}
		udp.SetNetworkLayerForChecksum(l)
		ip = l
	}
	buf := gopacket.NewSerializeBuffer()
	if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}, ip, udp, gopacket.Payload(payload)); err != nil {
		t.Fatal(err)
	}
	return append([]byte(nil), buf.Bytes()...)
}

// linkFrame puts a link-layer header of the given type in front of an IP packet.
func linkFrame(link layers.LinkType, v6 bool, ip []byte, vlan bool) []byte {
	etype := []byte{0x08, 0x00}
	if v6 {
		etype = []byte{0x86, 0xdd}
	}
	var h []byte
	switch link {
	case layers.LinkTypeEthernet:
		h = append(make([]byte, 12), etype...)
		if vlan {
			h = append(append(make([]byte, 12), 0x81, 0x00, 0x00, 0x05), etype...)
		}
	case layers.LinkTypeLinuxSLL:
		h = append(make([]byte, 14), etype...)
	case LinkTypeLinuxSLL2:
		h = append(append([]byte(nil), etype...), make([]byte, 18)...)
	case layers.LinkTypeNull:
		h = []byte{2, 0, 0, 0}
		if v6 {
			h = []byte{30, 0, 0, 0}
		}
	case layers.LinkTypeLoop:
		h = []byte{0, 0, 0, 2}
		if v6 {
			h = []byte{0, 0, 0, 30}
		}
	}
	return append(h, ip...)
}

// pcapFile writes a classic pcap by hand, so that both byte orders and
// both timestamp resolutions can be made (gopacket writes one kind only).
func pcapFile(order binary.ByteOrder, nano bool, link uint32, frames [][]byte, snap int) []byte {
	var b bytes.Buffer
	magic := uint32(0xa1b2c3d4)
	if nano {
		magic = 0xa1b23c4d
	}
	hdr := make([]byte, 24)
	order.PutUint32(hdr[0:], magic)
	order.PutUint16(hdr[4:], 2)
	order.PutUint16(hdr[6:], 4)
	order.PutUint32(hdr[16:], 65535)
	order.PutUint32(hdr[20:], link)
	b.Write(hdr)
	for i, f := range frames {
		ts := t0.Add(time.Duration(i) * time.Millisecond)
		rec := make([]byte, 16)
		order.PutUint32(rec[0:], uint32(ts.Unix()))
		frac := uint32(ts.Nanosecond() / 1000)
		if nano {
			frac = uint32(ts.Nanosecond())
		}
		order.PutUint32(rec[4:], frac)
		capLen := len(f)
		if snap > 0 && capLen > snap {
			capLen = snap
		}
		order.PutUint32(rec[8:], uint32(capLen))
		order.PutUint32(rec[12:], uint32(len(f)))
		b.Write(rec)
		b.Write(f[:capLen])
	}
	return b.Bytes()
}

// analyzeBytes runs the pipeline over a capture held in memory.
func analyzeBytes(t testing.TB, capture []byte, opts Options) ([]*record.Record, error, error) {
	t.Helper()
	src, err := OpenFile(bytes.NewReader(capture))
	if err != nil {
		return nil, nil, err
	}
	var recs []*record.Record
	a := New(opts, SinkFunc(func(r *record.Record) error {
		recs = append(recs, r.Clone()) // records are reused after emit
		return nil
	}))
	warn, err := Run(src, a)
	return recs, warn, err
}

func TestLinkTypesAndFormats(t *testing.T) {
	type tc struct {
		name  string
		link  layers.LinkType
		v6    bool
		vlan  bool
		order binary.ByteOrder
		nano  bool
	}
	var cases []tc
	for _, link := range []layers.LinkType{layers.LinkTypeEthernet, layers.LinkTypeLinuxSLL, LinkTypeLinuxSLL2, layers.LinkTypeNull, layers.LinkTypeLoop, layers.LinkTypeRaw} {
		for _, v6 := range []bool{false, true} {
			cases = append(cases, tc{name: link.String() + map[bool]string{false: "/v4", true: "/v6"}[v6], link: link, v6: v6, order: binary.LittleEndian})
		}
	}
	cases = append(cases,
		tc{name: "ethernet/vlan", link: layers.LinkTypeEthernet, vlan: true, order: binary.LittleEndian},
		tc{name: "big-endian/nanosecond", link: layers.LinkTypeEthernet, order: binary.BigEndian, nano: true},
		tc{name: "little-endian/nanosecond", link: layers.LinkTypeEthernet, order: binary.LittleEndian, nano: true},
		tc{name: "big-endian/microsecond", link: layers.LinkTypeEthernet, order: binary.BigEndian},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fileLink := uint32(c.link)
			if c.link == LinkTypeLinuxSLL2 {
				fileLink = 276
			}
			frames := [][]byte{
				linkFrame(c.link, c.v6, ipUDP(t, c.v6, 40000, 25565, handshakeReq), c.vlan),
				linkFrame(c.link, c.v6, ipUDP(t, c.v6, 25565, 40000, handshakeResp), c.vlan),
			}
			recs, warn, err := analyzeBytes(t, pcapFile(c.order, c.nano, fileLink, frames, 0), Options{})
			if err != nil || warn != nil {
				t.Fatalf("err %v, warning %v", err, warn)
			}
			if len(recs) != 2 {
				t.Fatalf("got %d records, want 2", len(recs))
			}
			if recs[0].PDU.Message != "Handshake Request" || recs[1].PDU.Message != "Handshake Response" {
				t.Errorf("messages %q, %q", recs[0].PDU.Message, recs[1].PDU.Message)
			}
			if recs[0].PDU.Dir != dissect.DirC2S || recs[1].PDU.Dir != dissect.DirS2C {
				t.Errorf("directions %v, %v", recs[0].PDU.Dir, recs[1].PDU.Dir)
			}
			if !recs[0].Time.Equal(t0.Truncate(map[bool]time.Duration{true: 1, false: time.Microsecond}[c.nano])) {
				t.Errorf("time %v, want %v", recs[0].Time, t0)
			}
			wantSrc := "10.0.0.1:40000"
			if c.v6 {
				wantSrc = "[2001:db8::1]:40000"
			}
			if recs[0].Src.String() != wantSrc {
				t.Errorf("source %v, want %v", recs[0].Src, wantSrc)
			}
			if got := recs[1].Rel; got != time.Millisecond {
				t.Errorf("relative time of the response %v, want 1ms", got)
			}
		})
	}
}

// TestPcapngInterfaces: a pcapng file whose two interfaces have different
// link types; each packet is decoded with its own interface's type.
func TestPcapngInterfaces(t *testing.T) {
	var b bytes.Buffer
	w, err := pcapgo.NewNgWriterInterface(&b, pcapgo.NgInterface{Name: "eth0", LinkType: layers.LinkTypeEthernet}, pcapgo.NgWriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lo, err := w.AddInterface(pcapgo.NgInterface{Name: "lo", LinkType: layers.LinkTypeLinuxSLL})
	if err != nil {
		t.Fatal(err)
	}
	req := linkFrame(layers.LinkTypeEthernet, false, ipUDP(t, false, 40000, 25565, handshakeReq), false)
	resp := linkFrame(layers.LinkTypeLinuxSLL, false, ipUDP(t, false, 25565, 40000, handshakeResp), false)
	w.WritePacket(gopacket.CaptureInfo{Timestamp: t0, CaptureLength: len(req), Length: len(req), InterfaceIndex: 0}, req)
	w.WritePacket(gopacket.CaptureInfo{Timestamp: t0.Add(time.Millisecond), CaptureLength: len(resp), Length: len(resp), InterfaceIndex: lo}, resp)
	w.Flush()
	recs, warn, err := analyzeBytes(t, b.Bytes(), Options{})
	if err != nil || warn != nil {
		t.Fatalf("err %v, warning %v", err, warn)
	}
	if len(recs) != 2 || recs[1].PDU.Message != "Handshake Response" {
		t.Fatalf("got %d records", len(recs))
	}
}

// TestSnaplenCut: a datagram cut by the snap length is dissected as far as
// it goes and marked truncated, not malformed.
func TestSnaplenCut(t *testing.T) {
	f := linkFrame(layers.LinkTypeEthernet, false, ipUDP(t, false, 25565, 40000, handshakeResp), false)
	capture := pcapFile(binary.LittleEndian, false, 1, [][]byte{f}, 14+20+8+7) // 7 of 13 payload bytes
	recs, _, err := analyzeBytes(t, capture, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 {
		t.Fatalf("got %d records", len(recs))
	}
	p := &recs[0].PDU
	if len(p.Data) != 7 || p.WireLen != 13 {
		t.Errorf("data %d bytes, wire %d; want 7 and 13", len(p.Data), p.WireLen)
	}
	n, e := dissect.CountFailures(p)
	if n != 1 || e.Info != dissect.ExpertTruncated {
		t.Fatalf("want one truncated item, got %d (%v)", n, e)
	}
	if err := dissect.Check(p); err != nil {
		t.Error(err)
	}
}

// TestFileCutShort: a file that ends inside a packet record (in its
// header, right after it, or in its data) is dissected up to the cut, with
// a warning naming the last whole frame; a file that ends between records
// is whole.
func TestFileCutShort(t *testing.T) {
	frames := [][]byte{
		linkFrame(layers.LinkTypeEthernet, false, ipUDP(t, false, 40000, 25565, handshakeReq), false),
		linkFrame(layers.LinkTypeEthernet, false, ipUDP(t, false, 25565, 40000, handshakeResp), false),
	}
	last := len(frames[1]) // the second record's data
	for _, tc := range []struct {
		name string
		cut  int // bytes cut off the end
		want int // records
		warn bool
	}{
		{"whole", 0, 2, false},
		{"in the data", 5, 1, true},
		{"after the header", last, 1, true},
		{"in the header", last + 9, 1, true},
		{"between records", last + 16, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			full := pcapFile(binary.LittleEndian, false, 1, frames, 0)
			recs, warn, err := analyzeBytes(t, full[:len(full)-tc.cut], Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != tc.want {
				t.Errorf("got %d records, want %d", len(recs), tc.want)
			}
			if tc.warn != (warn != nil) || warn != nil && !strings.Contains(warn.Error(), "after frame 1") {
				t.Errorf("warning %v, want one naming frame 1: %v", warn, tc.warn)
			}
		})
	}
}

func TestNotACapture(t *testing.T) {
	for name, in := range map[string][]byte{
		"empty":    nil,
		"html":     []byte("<!DOCTYPE html><html>"),
		"short":    {0xd4, 0xc3},
		"bad pcap": {0xd4, 0xc3, 0xb2, 0xa1, 1, 0},
		"bad ng":   {0x0a, 0x0d, 0x0d, 0x0a, 0, 0, 0, 0},
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := analyzeBytes(t, in, Options{})
			if err == nil {
				t.Fatal("no error")
			}
			if name == "html" && !errors.Is(err, ErrNotCapture) {
				t.Errorf("error %v does not say it is not a capture", err)
			}
		})
	}
}

// TestHostileSnaplen: a header claiming a 4 GiB snap length and a record
// claiming a 1 GiB packet must not make the reader allocate either.
func TestHostileSnaplen(t *testing.T) {
	hdr := pcapFile(binary.LittleEndian, false, 1, nil, 0)
	binary.LittleEndian.PutUint32(hdr[16:], 0xffffffff)
	rec := make([]byte, 16)
	binary.LittleEndian.PutUint32(rec[8:], 1<<30)
	binary.LittleEndian.PutUint32(rec[12:], 1<<30)
	recs, warn, err := analyzeBytes(t, append(hdr, rec...), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 0 || warn == nil {
		t.Errorf("records %d, warning %v: want none and a warning", len(recs), warn)
	}
}

// Package capgen writes pcap files of synthetic traffic: hand-made samples
// for the cases real peers never produce (reordered, duplicated or missing
// segments, hostile PDUs, snap-length cuts), the large deterministic
// captures of the benchmarks, and test inputs.
//
// Errors are sticky: every method records the first error and Close returns
// it, so generators read as a straight list of packets.
package capgen

import (
	"io"
	"net"
	"net/netip"
	"os"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// Writer writes Ethernet frames to a pcap file (microsecond timestamps).
type Writer struct {
	f    io.Closer
	pw   *pcapgo.Writer
	buf  gopacket.SerializeBuffer
	err  error
	ipID uint16
	// Step is how far a connection's clock moves per packet.
	Step time.Duration
	// Edit, when set, rewrites every frame the Writer builds (not those
	// given to Raw) into the frames written in its place: VLAN tags, IPv6
	// extension headers, fragments (edit.go).
	Edit func(frame []byte) [][]byte
}

// Create creates the pcap file at path.
func Create(path string) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w, err := New(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	w.f = f
	return w, nil
}

// New writes a pcap file to out; Close does not close out.
func New(out io.Writer) (*Writer, error) {
	pw := pcapgo.NewWriter(out)
	if err := pw.WriteFileHeader(65535, layers.LinkTypeEthernet); err != nil {
		return nil, err
	}
	return &Writer{pw: pw, buf: gopacket.NewSerializeBuffer(), Step: time.Millisecond}, nil
}

// Close returns the first error met, after closing the file Create opened.
func (w *Writer) Close() error {
	if w.f != nil {
		if err := w.f.Close(); err != nil && w.err == nil {
			w.err = err
		}
		w.f = nil
	}
	return w.err
}

// Err is the first error met so far.
func (w *Writer) Err() error { return w.err }

// UDP writes one datagram.
func (w *Writer) UDP(t time.Time, src, dst netip.AddrPort, payload []byte) {
	w.UDPCut(t, src, dst, payload, -1)
}

// UDPCut writes one datagram of which only the first capLen bytes of the
// frame are captured, as a snap length would cut it (capLen < 0: whole).
func (w *Writer) UDPCut(t time.Time, src, dst netip.AddrPort, payload []byte, capLen int) {
	udp := &layers.UDP{SrcPort: layers.UDPPort(src.Port()), DstPort: layers.UDPPort(dst.Port())}
	w.write(t, src.Addr(), dst.Addr(), layers.IPProtocolUDP, udp, payload, capLen)
}

// Raw writes an already built Ethernet frame.
func (w *Writer) Raw(t time.Time, frame []byte) {
	if w.err != nil {
		return
	}
	ci := gopacket.CaptureInfo{Timestamp: t, CaptureLength: len(frame), Length: len(frame)}
	w.err = w.pw.WritePacket(ci, frame)
}

type transport interface {
	gopacket.SerializableLayer
	SetNetworkLayerForChecksum(gopacket.NetworkLayer) error
}

func (w *Writer) write(t time.Time, src, dst netip.Addr, proto layers.IPProtocol, tl transport, payload []byte, capLen int) {
	if w.err != nil {
		return
	}
	eth := &layers.Ethernet{
		SrcMAC: net.HardwareAddr{0x02, 0, 0, 0, 0, 1},
		DstMAC: net.HardwareAddr{0x02, 0, 0, 0, 0, 2},
	}
	var ip gopacket.SerializableLayer
	if src.Is4() {
		eth.EthernetType = layers.EthernetTypeIPv4
		w.ipID++
		ip4 := &layers.IPv4{Version: 4, TTL: 64, Protocol: proto, Id: w.ipID, Flags: layers.IPv4DontFragment,
			SrcIP: src.AsSlice(), DstIP: dst.AsSlice()}
		tl.SetNetworkLayerForChecksum(ip4)
		ip = ip4
	} else {
		eth.EthernetType = layers.EthernetTypeIPv6
		ip6 := &layers.IPv6{Version: 6, HopLimit: 64, NextHeader: proto, SrcIP: src.AsSlice(), DstIP: dst.AsSlice()}
		tl.SetNetworkLayerForChecksum(ip6)
		ip = ip6
	}
	opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
	if err := gopacket.SerializeLayers(w.buf, opts, eth, ip, tl, gopacket.Payload(payload)); err != nil {
		w.err = err
		return
	}
	frame := w.buf.Bytes()
	if w.Edit != nil {
		for _, f := range w.Edit(frame) {
			w.writeCut(t, f, capLen)
		}
		return
	}
	w.writeCut(t, frame, capLen)
}

func (w *Writer) writeCut(t time.Time, frame []byte, capLen int) {
	if w.err != nil {
		return
	}
	ci := gopacket.CaptureInfo{Timestamp: t, CaptureLength: len(frame), Length: len(frame)}
	if capLen >= 0 && capLen < len(frame) {
		ci.CaptureLength = capLen
		frame = frame[:capLen]
	}
	w.err = w.pw.WritePacket(ci, frame)
}

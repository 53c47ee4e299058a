package main

import (
	"bytes"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// TestReaddress checks each rewritten frame of two real captures against
// gopacket's own serialisation with checksums computed: the addresses are
// the copy's, and the IPv4, TCP and UDP checksums are what gopacket
// computes for those bytes.
func TestReaddress(t *testing.T) {
	for _, path := range []string{"../../samples/slp-status-gomc.pcap", "../../samples/query-full.pcap"} {
		c, err := load(path)
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for i, fr := range c.frames {
			k := 0x010203 + i
			got := readdress(fr.data, k)
			pkt := gopacket.NewPacket(got, layers.LayerTypeEthernet, gopacket.Default)
			ip, _ := pkt.Layer(layers.LayerTypeIPv4).(*layers.IPv4)
			if ip == nil {
				continue
			}
			want := []byte{127, byte(k >> 16), byte(k >> 8), byte(k)}
			if !bytes.Equal(ip.SrcIP.To4(), want) || !bytes.Equal(ip.DstIP.To4(), want) {
				t.Fatalf("%s frame %d: addresses %v %v, want %v", path, i, ip.SrcIP, ip.DstIP, want)
			}
			var ls []gopacket.SerializableLayer
			for _, l := range pkt.Layers() {
				switch l := l.(type) {
				case *layers.TCP:
					l.SetNetworkLayerForChecksum(ip)
					ls = append(ls, l, gopacket.Payload(l.Payload))
				case *layers.UDP:
					l.SetNetworkLayerForChecksum(ip)
					ls = append(ls, l, gopacket.Payload(l.Payload))
				case gopacket.SerializableLayer:
					ls = append(ls, l)
				}
				if _, ok := l.(*layers.TCP); ok {
					break
				}
				if _, ok := l.(*layers.UDP); ok {
					break
				}
			}
			buf := gopacket.NewSerializeBuffer()
			if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{ComputeChecksums: true}, ls...); err != nil {
				t.Fatalf("%s frame %d: %v", path, i, err)
			}
			ser := buf.Bytes()
			if len(ser) > len(got) && bytes.Count(ser[len(got):], []byte{0}) == len(ser)-len(got) {
				ser = ser[:len(got)] // gopacket pads Ethernet to its 60-byte minimum
			}
			if !bytes.Equal(ser, got) {
				t.Fatalf("%s frame %d: rewritten\n% x\ngopacket\n% x", path, i, got, ser)
			}
			checked++
		}
		if checked == 0 {
			t.Fatalf("%s: no IPv4 frame checked", path)
		}
	}
}

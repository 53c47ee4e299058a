package output

import (
	"bytes"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/netlayers"
	"github.com/mcdissect/mcdissect/filter"
	"github.com/mcdissect/mcdissect/record"
	"github.com/mcdissect/mcdissect/render"
)

// layerFrames are frames' header bytes, by hand, of the layers a record's
// tree is made of: Ethernet, IPv4 and TCP; a VLAN tag, IPv6 and UDP; Linux
// cooked capture, IPv4 and UDP; an ICMP error quoting an IPv4 header and a
// whole TCP header.
func layerFrames() map[string]struct {
	head []byte
	f    netlayers.Frame
} {
	ip4 := func(proto byte, payload int) []byte {
		return []byte{0x45, 0, 0, byte(20 + payload), 0x12, 0x34, 0x40, 0, 64, proto, 0xab, 0xcd, 10, 0, 0, 1, 10, 0, 0, 2}
	}
	tcp := []byte{0x9c, 0x40, 0x63, 0xdd, 0, 0, 0, 7, 0, 0, 0, 9, 0x60, 0x18, 0x01, 0x00, 0xbe, 0xef, 0, 0, 2, 4, 5, 0xb4}
	udp := []byte{0x9c, 0x40, 0x63, 0xdd, 0, 15, 0x12, 0x34}
	eth := []byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00}
	vlan := []byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x81, 0x00, 0x20, 0x05, 0x86, 0xdd}
	ip6 := make([]byte, 40)
	ip6[0], ip6[1], ip6[5], ip6[6], ip6[7] = 0x60, 0x12, 15, 17, 64
	ip6[8], ip6[23], ip6[24], ip6[39] = 0x20, 1, 0x20, 2
	sll := append(make([]byte, 14), 0x08, 0x00)
	sll[1] = 4
	icmp := append(ip4(1, 8+20+len(tcp)), 3, 3, 0xaa, 0xbb, 0, 0, 0, 0)
	icmp = append(append(icmp, ip4(6, len(tcp))...), tcp...)
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	out := map[string]struct {
		head []byte
		f    netlayers.Frame
	}{}
	add := func(name string, head []byte, link uint32, stream int, proto string) {
		out[name] = struct {
			head []byte
			f    netlayers.Frame
		}{head, netlayers.Frame{Number: 9, Time: time.Date(2026, 11, 28, 4, 0, 0, 123456789, time.UTC), Rel: time.Second, Delta: time.Millisecond,
			WireLen: len(head) + 5, CapLen: len(head) + 5, Link: link, Protocols: proto, Stream: stream, Relative: true, RelSeq: 1, RelAck: 1, WScale: 7}}
	}
	add("eth-ip4-tcp", cat(eth, ip4(6, len(tcp)+5), tcp), netlayers.LinkEthernet, 3, "slp")
	add("vlan-ip6-udp", cat(vlan, ip6, udp), netlayers.LinkEthernet, -1, "query")
	add("sll-ip4-udp", cat(sll, ip4(17, 15), udp), netlayers.LinkSLL, -1, "query")
	add("eth-icmp-quoting-tcp", cat(eth, icmp), netlayers.LinkEthernet, -1, "icmp")
	return out
}

// TestLayerFields: -T fields -e F -Y F, for every field of the layers, of
// records whose layers' tree is made with F only (what the sink's readers
// declare) writes what it writes when the tree is made whole first (as
// -T json's is), byte for byte.
func TestLayerFields(t *testing.T) {
	frames := layerFrames()
	var names []string
	for _, reg := range []*dissect.Registry{netlayers.RegFrame, netlayers.RegEth, netlayers.RegVLAN, netlayers.RegSLL, netlayers.RegNull,
		netlayers.RegIP, netlayers.RegIPv6, netlayers.RegTCP, netlayers.RegUDP, netlayers.RegICMP, netlayers.RegICMP6} {
		for _, f := range reg.Fields() {
			if netlayers.Owns(f) {
				names = append(names, f.Name)
			}
		}
	}
	if len(names) < 90 {
		t.Fatalf("%d fields of the layers", len(names))
	}
	run := func(name string, whole bool) string {
		ref, err := render.ResolveField(name)
		if err != nil {
			t.Fatal(err)
		}
		flt, err := filter.Compile(name)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		o := render.Options{Fields: []record.FieldRef{ref}}
		s := &Sink{W: render.New("fields", &out, o), WNeeds: render.NeedsOf("fields", o), Filter: flt}
		if whole {
			s.Read(reader{func(r *record.Record) error { r.Layers(); return nil }, record.Needs{Layers: netlayers.All}})
		}
		for _, fname := range []string{"eth-ip4-tcp", "vlan-ip6-udp", "sll-ip4-udp", "eth-icmp-quoting-tcp"} {
			c := frames[fname]
			r := &record.Record{Reason: fname}
			r.SetLayers(c.head, &c.f)
			if whole {
				r.Layers() // made whole before the filter reads it
			}
			if err := s.Record(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	seen := 0
	for _, name := range names {
		got, want := run(name, false), run(name, true)
		if got != want {
			t.Errorf("%s: -T fields -Y wrote\n%q\nwith the whole tree\n%q", name, got, want)
		}
		if want != "" {
			seen++
		}
	}
	t.Logf("%d of %d fields found", seen, len(names))
	if seen < 80 {
		t.Errorf("only %d of %d fields found in the frames", seen, len(names))
	}
}

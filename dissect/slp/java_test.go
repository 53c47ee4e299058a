package slp

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/java"
)

// playPacket is one configuration or play packet of a sample: its bytes
// from the packet ID on (inflated when it was compressed), its version,
// state and direction.
type playPacket struct {
	proto int
	state java.State
	dir   dissect.Dir
	data  []byte
	name  string
}

// playPackets collects the packets of the unencrypted play samples.
func playPackets(t *testing.T) []playPacket {
	t.Helper()
	pcaps, _ := filepath.Glob("../../samples/play-*.pcap")
	pcaps = append(pcaps, "../../samples/login-offline.pcap")
	var out []playPacket
	for _, pcap := range pcaps {
		if strings.Contains(pcap, "online") {
			continue
		}
		proto := 0
		for _, c := range readStreams(t, pcap, NewConn) {
			p := c.p
			if i := p.Find("slp.handshake.protocol_version"); i >= 0 {
				proto = int(p.Nodes[i].Value.Int())
			}
			si := p.Find("slp.java.state")
			if si < 0 {
				continue
			}
			st := java.Play
			if p.Nodes[si].Value.Text() == "configuration" {
				st = java.Config
			}
			id := p.Find("slp.packet_id")
			out = append(out, playPacket{proto: proto, state: st, dir: p.Dir, data: p.Data[p.Nodes[id].Offset:], name: p.Message})
		}
	}
	return out
}

// decodeJava dissects a packet (ID and body) of v as slp does after the
// frame header; data is what the capture has of its wire bytes.
func decodeJava(p *dissect.PDU, v *java.Version, st java.State, dir dissect.Dir, data []byte, wire int) {
	cur := dissect.Begin(p, Registry.Root(), data, wire)
	p.Dir = dir
	id, idi, ok := varInt(&cur, FieldPacketID)
	if ok {
		v.Decode(&cur, st, dir, id, idi)
	}
	cur.Finish()
}

// TestPlayTruncation cuts every packet of the play samples at every
// length, as a capture's snap length or end would: the tree keeps its
// invariants, and what fails is truncated, never malformed (the bytes
// there are right, only fewer). MCDISSECT_SEEDS=1 writes them as FuzzJava
// seeds.
func TestPlayTruncation(t *testing.T) {
	pkts := playPackets(t)
	if len(pkts) < 100 {
		t.Fatalf("%d packets", len(pkts))
	}
	seeds := os.Getenv("MCDISSECT_SEEDS") != ""
	seen := map[string]bool{}
	for _, pk := range pkts {
		v, err := java.ForProtocol(pk.proto)
		if err != nil {
			t.Fatal(err)
		}
		if k := fmt.Sprint(pk.proto, pk.dir, pk.name); seeds && !seen[k] && len(pk.data) < 2048 {
			seen[k] = true
			writeSeed(t, "FuzzJava", fuzzJavaInput(pk))
		}
		for cut := 0; cut <= len(pk.data); cut++ {
			if len(pk.data) > 2000 && cut%97 != 0 && cut != len(pk.data) {
				continue // big packets: a sample of the cuts
			}
			p := &dissect.PDU{}
			decodeJava(p, v, pk.state, pk.dir, pk.data[:cut], len(pk.data))
			if err := dissect.Check(p); err != nil {
				t.Fatalf("%s cut at %d of %d: %v", pk.name, cut, len(pk.data), err)
			}
			for _, e := range p.Experts {
				if e.Info.Severity == dissect.SevError || e.Info == java.ExpertLeftOver {
					t.Fatalf("%s (%s) cut at %d of %d: %s %s", pk.name, v.Data, cut, len(pk.data), e.Info.Name, e.Msg)
				}
			}
			if cut == len(pk.data) && len(p.Experts) > 0 {
				t.Fatalf("%s whole: %s %s", pk.name, p.Experts[0].Info.Name, p.Experts[0].Msg)
			}
		}
	}
}

// fuzzJavaInput is a FuzzJava input: protocol (2 bytes), state and
// direction (1 byte), the packet.
func fuzzJavaInput(pk playPacket) []byte {
	b := []byte{byte(pk.proto >> 8), byte(pk.proto), byte(pk.state)}
	if pk.dir == dissect.DirS2C {
		b[2] |= 2
	}
	return append(b, pk.data...)
}

func writeSeed(t *testing.T, target string, b []byte) {
	dir := filepath.Join("testdata", "fuzz", target)
	os.MkdirAll(dir, 0o755)
	name := filepath.Join(dir, fmt.Sprintf("seed-%x", b[:min(len(b), 8)]))
	body := "go test fuzz v1\n[]byte(" + fmt.Sprintf("%q", b) + ")\n"
	if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// FuzzJava dissects arbitrary configuration and play packets of any
// version (the first two bytes pick the protocol number, the third the
// state and direction), whole and in a Lite PDU. Invariants: no panic,
// dissect.Check, the same Message and Info with and without a tree.
func FuzzJava(f *testing.F) {
	f.Add([]byte{0x02, 0xff, 0x03, 0x26, 0, 0, 0, 0, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 3 {
			return
		}
		proto := int(b[0])<<8 | int(b[1])
		v, err := java.ForProtocol(proto)
		if err != nil {
			t.Fatal(err)
		}
		st := java.State(b[2] & 1)
		dir := dissect.DirC2S
		if b[2]&2 != 0 {
			dir = dissect.DirS2C
		}
		data := b[3:]
		p := &dissect.PDU{}
		decodeJava(p, v, st, dir, data, len(data))
		if err := dissect.Check(p); err != nil {
			t.Fatal(err)
		}
		lp := &dissect.PDU{Lite: true}
		decodeJava(lp, v, st, dir, data, len(data))
		if lp.Message != p.Message || lp.Info != p.Info {
			t.Fatalf("lite %q %q, full %q %q", lp.Message, lp.Info, p.Message, p.Info)
		}
	})
}

// TestPlaySetCompression: 1.8 (protocol 47) could turn compression on in
// the play state (packet 0x46, gone in 1.9): frames after it carry a data
// length, both ways.
func TestPlaySetCompression(t *testing.T) {
	uuid := "069a79f4-44e9-4726-a5be-fca90e38aaf5"
	success := append(append(vi(2), mcstr(uuid)...), mcstr("Notch")...)
	out := run(t,
		step{c2s, handshake(47, "localhost", 25565, 2)},
		step{c2s, pkt(0, mcstr("Notch"))},
		step{s2c, append(vi(int32(len(success))), success...)},
		step{s2c, pkt(0x46, vi(64))},         // Set Compression (play, 1.8)
		step{s2c, append(vi(3), 0, 0x00, 7)}, // keep-alive: data length 0, ID 0, VarInt 7
		step{c2s, append(vi(3), 0, 0x00, 7)}, // keep-alive back
	)
	if out[3].Message != "Set compression" {
		t.Errorf("set compression: %s\n%s", out[3].Message, dump(out[3]))
	}
	for _, p := range out[4:] {
		if p.Message != "Keep alive" || p.Find("slp.data_length") < 0 || len(p.Experts) > 0 {
			t.Errorf("%s %s\n%s", p.Message, p.Info, dump(p))
		}
	}
}

// TestCompressedPlayLiteAgrees: a summary (Lite) inflates a compressed
// configuration or play packet only as far as its Info needs, a tree all
// of it; both must name and describe the packet alike, whether the zlib
// stream is whole, cut after the head, or inflates past its declared size.
func TestCompressedPlayLiteAgrees(t *testing.T) {
	uuid := hx("069a79f444e94726a5befca90e38aaf5")
	success := append(append(vi(2), uuid...), mcstr("Notch")...)
	success = append(success, vi(0)...)
	// Registry Data (1.21.1: id 0x07): an ID and 100 entries without data
	reg := append(vi(7), mcstr("minecraft:worldgen/biome")...)
	reg = append(reg, vi(100)...)
	for k := range 100 {
		reg = append(reg, mcstr("minecraft:biome_number_"+strconv.Itoa(k))...)
		reg = append(reg, 0)
	}
	z := zlibBytes(reg)
	// a registry whose name passes the first head (64 bytes): the
	// summary must inflate the second to show it
	long := append(vi(7), mcstr("minecraft:"+strings.Repeat("long_registry_name_", 8))...)
	long = append(long, vi(100)...)
	for k := range 100 {
		long = append(long, mcstr("minecraft:entry_"+strconv.Itoa(k))...)
		long = append(long, 0)
	}
	zl := zlibBytes(long)
	head := []step{
		{c2s, handshake(767, "localhost", 25565, 2)},
		{c2s, pkt(0, mcstr("Notch"), uuid)},
		{s2c, pkt(3, vi(256))},
		{s2c, append(vi(int32(1+len(success))), append([]byte{0}, success...)...)},
		{c2s, append(vi(2), 0, 3)},
	}
	for _, tc := range []struct {
		name string
		last []byte
		msg  string // the tree's Message
	}{
		{"whole", compressedPkt(int32(len(reg)), z), "Registry data"},
		{"zlib cut after the head", compressedPkt(int32(len(reg)), z[:len(z)*2/3]), "Registry data"},
		{"inflates past its size", compressedPkt(int32(len(reg)-100), z), "Registry data"},
		{"Info past the first head", compressedPkt(int32(len(long)), zl), "Registry data"},
		// the first head inflates but lacks the name, the second
		// breaks (185 bytes): the packet is read as far as it inflates,
		// as the tree reads it
		{"zlib cut within the second head", compressedPkt(int32(len(long)), zl[:80]), "Registry data"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got [2]*dissect.PDU
			for k, lite := range []bool{false, true} {
				c := NewConn()
				for j, s := range append(head, step{s2c, tc.last}) {
					if f := c.Frame(s.dir, s.data, false); f.Status != dissect.FrameOK {
						t.Fatalf("step %d: %+v", j, f)
					}
					p := &dissect.PDU{Lite: lite}
					c.Decode(p, s.data, meta(j, s.dir))
					got[k] = p
				}
			}
			full, lite := got[0], got[1]
			if full.Message != tc.msg || lite.Message != full.Message || lite.Info != full.Info {
				t.Errorf("full %q %q, Lite %q %q\n%s", full.Message, full.Info, lite.Message, lite.Info, dump(full))
			}
			if err := dissect.Check(full); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestPlayResync: bytes lost in the play state (a capture drop inside a
// packet) no longer lose the direction: framing skips to the next packet
// the version's data reads whole, and decoding goes on from there.
func TestPlayResync(t *testing.T) {
	uuid := hx("069a79f444e94726a5befca90e38aaf5")
	success := append(append(vi(2), uuid...), mcstr("Notch")...)
	success = append(success, vi(0)...)
	plain := func(body []byte) []byte { return append(vi(int32(1+len(body))), append([]byte{0}, body...)...) }
	chat := func(s string) []byte { // System Chat (1.21.1: 0x6c): NBT {text: s}, not an action bar
		b := []byte{0x6c, 10, 8, 0, 4, 't', 'e', 'x', 't', 0, byte(len(s))}
		return append(append(b, s...), 0, 0)
	}
	keepAlive := func(id byte) []byte { return []byte{0x26, 0, 0, 0, 0, 0, 0, 0, id} }
	c := NewConn()
	steps := []step{
		{c2s, handshake(767, "localhost", 25565, 2)},
		{c2s, pkt(0, mcstr("Notch"), uuid)},
		{s2c, pkt(3, vi(256))},
		{s2c, append(vi(int32(1+len(success))), append([]byte{0}, success...)...)},
		{c2s, plain([]byte{3})}, // Login Acknowledged
		{s2c, plain([]byte{3})}, // Finish Configuration
		{c2s, plain([]byte{3})}, // its acknowledgement
		{s2c, plain(keepAlive(1))},
	}
	for k, s := range steps {
		if f := c.Frame(s.dir, s.data, false); f.Status != dissect.FrameOK || f.Len != len(s.data) {
			t.Fatalf("step %d: %+v", k, f)
		}
		c.Decode(&dissect.PDU{}, s.data, meta(k, s.dir))
	}
	// the server's next bytes: a chat line whose first 9 bytes the
	// capture lost, then two packets
	lostIn := plain(chat("hello, this line is cut by the drop"))
	buf := append(append(append([]byte(nil), lostIn[9:]...), plain(chat("second line"))...), plain(keepAlive(2))...)
	gap, skipped := true, 0
	var msgs []string
	for len(buf) > 0 {
		f := c.Frame(s2c, buf, gap)
		gap = false
		switch f.Status {
		case dissect.FrameSkip:
			skipped += f.Len
		case dissect.FrameOK:
			p := &dissect.PDU{}
			c.Decode(p, buf[:f.Len], meta(20, s2c))
			if err := dissect.Check(p); err != nil {
				t.Fatal(err)
			}
			msgs = append(msgs, p.Info)
		default:
			t.Fatalf("%+v after %q", f, msgs)
		}
		buf = buf[f.Len:]
	}
	want := []string{`System chat: "second line"`, "Keep alive, ID 2"}
	if skipped != len(lostIn)-9 || !slices.Equal(msgs, want) {
		t.Errorf("skipped %d (want %d), then %q (want %q)", skipped, len(lostIn)-9, msgs, want)
	}
}

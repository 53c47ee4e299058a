package raknet

import (
	"encoding/binary"
	"flag"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Ping builds an unconnected ping.
func Ping(id byte, time, guid int64) []byte {
	b := []byte{id}
	b = binary.BigEndian.AppendUint64(b, uint64(time))
	b = append(b, Magic[:]...)
	return binary.BigEndian.AppendUint64(b, uint64(guid))
}

// Pong builds an unconnected pong carrying s.
func Pong(time, guid int64, s string) []byte {
	b := []byte{IDUnconnectedPong}
	b = binary.BigEndian.AppendUint64(b, uint64(time))
	b = binary.BigEndian.AppendUint64(b, uint64(guid))
	b = append(b, Magic[:]...)
	b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
	return append(b, s...)
}

// bedrock is a status string as a Bedrock Dedicated Server sends it.
const bedrock = "MCPE;Dedicated Server;766;1.21.50;3;10;13253860892328930865;Bedrock level;Survival;1;19132;19133;"

var (
	seedPing = Ping(IDUnconnectedPing, 1234567, 0x0102030405060708)
	seedPong = Pong(1234567, -5192883181380620751, bedrock)
)

func TestFields(t *testing.T) {
	dissecttest.Golden(t, "testdata/fields.txt", Registry.Dump(), *update)
}

func decode(t *testing.T, data []byte, wire int) *dissect.PDU {
	t.Helper()
	var p dissect.PDU
	Decode(&p, data, wire, dissect.DirUnknown)
	if err := dissect.Check(&p); err != nil {
		t.Fatal(err)
	}
	return &p
}

func value(p *dissect.PDU, name string) (dissect.Node, bool) {
	if i := p.Find(name); i >= 0 {
		return p.Nodes[i], true
	}
	return dissect.Node{}, false
}

func TestPing(t *testing.T) {
	p := decode(t, seedPing, len(seedPing))
	if p.Message != MsgPing || p.Dir != dissect.DirC2S || p.Info != "Unconnected Ping, time 1234567" {
		t.Errorf("%q %v %q", p.Message, p.Dir, p.Info)
	}
	if n, ok := value(p, "raknet.client_guid"); !ok || n.Value.Int() != 0x0102030405060708 || n.Offset != 25 || n.Length != 8 {
		t.Errorf("client_guid %+v", n)
	}
	if len(p.Experts) != 0 {
		t.Errorf("experts: %+v", p.Experts)
	}
}

func TestPong(t *testing.T) {
	p := decode(t, seedPong, len(seedPong))
	if p.Message != MsgPong || p.Dir != dissect.DirS2C {
		t.Errorf("%q %v", p.Message, p.Dir)
	}
	if want := `Unconnected Pong, time 1234567, MCPE "Dedicated Server", 3/10 players, v1.21.50`; p.Info != want {
		t.Errorf("info %q, want %q", p.Info, want)
	}
	want := map[string]string{"raknet.pong.edition": "MCPE", "raknet.pong.motd": "Dedicated Server", "raknet.pong.protocol": "766",
		"raknet.pong.version": "1.21.50", "raknet.pong.players.online": "3", "raknet.pong.players.max": "10",
		"raknet.pong.server_uid": "13253860892328930865", "raknet.pong.sub_motd": "Bedrock level", "raknet.pong.gamemode": "Survival",
		"raknet.pong.gamemode_id": "1", "raknet.pong.port_v4": "19132", "raknet.pong.port_v6": "19133"}
	for name, v := range want {
		n, ok := value(p, name)
		if !ok || n.Value.Text() != v || string(p.Data[n.Offset:n.Offset+n.Length]) != v+";" {
			t.Errorf("%s: %q", name, n.Value.Text())
		}
	}
	if _, ok := value(p, "raknet.pong.extra"); ok {
		t.Error("extra field in a standard string")
	}
	if len(p.Experts) != 0 {
		t.Errorf("experts: %+v", p.Experts)
	}
}

func TestOdd(t *testing.T) {
	for _, tc := range []struct {
		name, expert string
		data         []byte
	}{
		{"trailing", "raknet.trailing", append(Ping(1, 1, 2), 0, 0)},
		{"few fields", "raknet.pong.fields", Pong(1, 2, "MCPE;motd;1")},
		{"not bedrock", "raknet.pong.edition.unknown", Pong(1, 2, "XXXX;a;1;1;1;1;")},
		{"not a number", "raknet.pong.number.invalid", Pong(1, 2, "MCPE;a;x;1;1;1;")},
		{"bad magic", "raknet.magic.bad", append([]byte{1}, make([]byte, 32)...)},
		{"unknown id", "raknet.id.unknown", []byte{0x05, 1, 2}},
		{"string length past the end", "mc.malformed", Pong(1, 2, "MCPE")[:36]},
		{"extra field", "", Pong(1, 2, bedrock+"extra;")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := decode(t, tc.data, len(tc.data))
			if tc.expert == "" {
				if _, ok := value(p, "raknet.pong.extra"); !ok {
					t.Error("no raknet.pong.extra")
				}
				return
			}
			for _, e := range p.Experts {
				if e.Info.Name == tc.expert {
					return
				}
			}
			t.Errorf("no %s in %+v", tc.expert, p.Experts)
		})
	}
}

// TestTruncated cuts the ping and the pong at every byte: the failure names
// the field being read, and the rest of the tree holds.
func TestTruncated(t *testing.T) {
	for _, full := range [][]byte{seedPing, seedPong} {
		for n := 0; n < len(full); n++ {
			p := decode(t, full[:n], len(full))
			if n < len(full) && n >= 1 && n < lenPongHeader {
				if c, last := dissect.CountFailures(p); c != 1 || !strings.HasPrefix(last.Msg, "raknet.") {
					t.Errorf("%d of % x: %d failures, %v", n, full[:1], c, last)
				}
			}
		}
	}
}

func TestLooks(t *testing.T) {
	yes := map[string]struct {
		d   []byte
		dir dissect.Dir
	}{
		"ping": {seedPing, dissect.DirC2S}, "ping open": {Ping(2, 0, 0), dissect.DirC2S}, "pong": {seedPong, dissect.DirS2C},
		"pong cut after magic": {seedPong[:33], dissect.DirS2C},
	}
	for name, y := range yes {
		if dir, ok := Looks(y.d); !ok || dir != y.dir {
			t.Errorf("%s: %v %v", name, dir, ok)
		}
	}
	no := map[string][]byte{
		"empty": nil, "ping without magic": append([]byte{1}, make([]byte, 32)...), "pong cut in magic": seedPong[:30],
		"query handshake": {0xfe, 0xfd, 9, 0, 0, 0, 1}, "ping id with pong layout": append([]byte{1}, seedPong[1:]...),
	}
	for name, d := range no {
		if _, ok := Looks(d); ok {
			t.Errorf("%s: Looks true", name)
		}
	}
}

func TestLite(t *testing.T) {
	for _, d := range [][]byte{seedPing, seedPong, Pong(1, 2, "MCPE;a")} {
		full := decode(t, d, len(d))
		lite := dissect.PDU{Lite: true}
		Decode(&lite, d, len(d), dissect.DirUnknown)
		if lite.Info != full.Info || lite.Message != full.Message || lite.Dir != full.Dir {
			t.Errorf("lite %q %q, full %q %q", lite.Message, lite.Info, full.Message, full.Info)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range [][]byte{seedPing, seedPong, Ping(2, -1, -1), Pong(0, 0, ""), Pong(0, 0, ";;;;;;;;;;;;;;;;;")} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint8) {
		var p dissect.PDU
		Decode(&p, data, len(data)+int(cut%4), dissect.DirUnknown)
		if err := dissect.Check(&p); err != nil {
			t.Fatal(err)
		}
		if n, _ := dissect.CountFailures(&p); n > 1 {
			t.Fatalf("%d failures", n)
		}
		lp := dissect.PDU{Lite: true}
		Decode(&lp, data, len(data)+int(cut%4), dissect.DirUnknown)
		if lp.Message != p.Message || lp.Info != p.Info || lp.Dir != p.Dir {
			t.Fatalf("Lite %q, full %q", lp.Info, p.Info)
		}
	})
}

package classic

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

func TestExplained(t *testing.T) {
	dissecttest.CheckExplained(t, []*dissect.Registry{Registry}, explanations)
}

// TestWorked runs each worked value on the bytes of real packets: the Spawn
// Player of samples/classic-session.pcap (X 04 00, Y 02 1d) and packets
// laid out as the seed's tables say.
func TestWorked(t *testing.T) {
	spawn := cat(0x07, 0xff, "alice", be16(1024), be16(541), be16(1024), 0, 0)
	extpos := func() *Conn { return cpeConn("ExtEntityPositions", 1) }
	tests := []struct {
		name  string
		conn  func() *Conn
		dir   dissect.Dir
		data  []byte
		field string
		nth   int // which node of the field, from 0
		want  string
	}{
		{"fixed x", plain, dissect.DirS2C, spawn, "classic.x", 0, "04 00 = 0x0400 = 1024; fixed point with 5 fractional bits: 1024 ÷ 32 = 32 blocks (32 whole blocks and 0/32)"},
		{"fixed y", plain, dissect.DirS2C, spawn, "classic.y", 0, "02 1d = 0x021d = 541; fixed point with 5 fractional bits: 541 ÷ 32 = 16.90625 blocks (16 whole blocks and 29/32)"},
		{"feet", plain, dissect.DirS2C, spawn, "classic.feet_y", 0, "eye Y 541 − 51 = 490 (in 1/32 block); 490 ÷ 32 = 15.3125 blocks"},
		{"self", plain, dissect.DirS2C, spawn, "classic.player_id", 0, "ff = 0xff = 255 − 256 (two's complement, top bit set) = -1: the player receiving the packet"},
		{"negative fixed", plain, dissect.DirS2C, cat(0x08, 1, be16(-40), be16(64), be16(0), 64, 192), "classic.x", 0,
			"ff d8 = 0xffd8 = 65496 − 65536 (two's complement, top bit set) = -40; fixed point with 5 fractional bits: -40 ÷ 32 = -1.25 blocks (-2 whole blocks and 24/32)"},
		{"yaw", plain, dissect.DirS2C, cat(0x08, 1, be16(-40), be16(64), be16(0), 64, 192), "classic.yaw", 0, "0x40 = 64; 64 × 360 ÷ 256 = 90°"},
		{"pitch", plain, dissect.DirS2C, cat(0x08, 1, be16(-40), be16(64), be16(0), 64, 192), "classic.pitch", 0, "0xc0 = 192; 192 × 360 ÷ 256 = 270°"},
		{"ext positions", extpos, dissect.DirS2C, cat(0x08, 1, be32(100000), be32(83), be32(-32), 0, 0), "classic.x", 0,
			"00 01 86 a0 = 0x000186a0 = 100000; fixed point with 5 fractional bits: 100000 ÷ 32 = 3125 blocks (3125 whole blocks and 0/32)"},
		{"delta", plain, dissect.DirS2C, cat(0x0a, 1, 0xfc, 0, 4), "classic.dx", 0, "fc = 0xfc = 252 − 256 (two's complement, top bit set) = -4; -4 ÷ 32 = -0.125 blocks"},
		{"block coordinate", plain, dissect.DirC2S, cat(0x05, be16(10), be16(20), be16(30), 1, 1), "classic.y", 0, "00 14 = 0x0014 = 20: a block coordinate, whole blocks, no fraction"},
		{"velocity", cpeAll, dissect.DirS2C, cat(0x2f, be32(12500), be32(-10000), be32(0), 0, 1, 0), "classic.cpe.velocity_y", 0,
			"ff ff d8 f0 = 0xffffd8f0 = 4294957296 − 4294967296 (two's complement, top bit set) = -10000; -10000 ÷ 10000 = -1"},
		{"click distance", cpeAll, dissect.DirS2C, cat(0x12, be16(160)), "classic.cpe.click_distance", 0, "00 a0 = 0x00a0 = 160; 160 ÷ 32 = 5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var p dissect.PDU
			tc.conn().DecodeCut(&p, tc.data, len(tc.data), meta(tc.dir))
			var got []string
			for i := range p.Nodes {
				if n := &p.Nodes[i]; n.Field.Name == tc.field {
					if n.Field.Worked == nil {
						t.Fatalf("%s has no worked value", tc.field)
					}
					got = append(got, string(n.Field.Worked(nil, &p, n)))
				}
			}
			if tc.nth >= len(got) || got[tc.nth] != tc.want {
				t.Errorf("worked %s = %q, want #%d %q", tc.field, got, tc.nth, tc.want)
			}
		})
	}
}

// TestWorkedPercent: the heartbeat of samples/handmade-classic-heartbeat.pcap.
func TestWorkedPercent(t *testing.T) {
	req := "GET /heartbeat.jsp?port=25565&max=32&name=My%20Server&public=True&version=7&salt=wo6kVAHjxoJcInKx&users=0&software=hand%2Dmade+x HTTP/1.1\r\nHost: minecraft.net\r\n\r\n"
	var p dissect.PDU
	NewHeartbeat(NewSession()).Decode(&p, []byte(req), dissect.Meta{Dir: dissect.DirC2S, Client: "10.0.4.1:40000", Server: "203.0.113.80:80"})
	want := map[string]string{
		"classic.heartbeat.name":     `URL encoding, % and two hex digits for a byte, + for a space: %20 = byte 0x20 = " "`,
		"classic.heartbeat.software": `URL encoding, % and two hex digits for a byte, + for a space: %2D = byte 0x2d = "-", + = a space`,
		"classic.heartbeat.port":     "",
	}
	for i := range p.Nodes {
		n := &p.Nodes[i]
		if w, ok := want[n.Field.Name]; ok {
			if got := string(n.Field.Worked(nil, &p, n)); got != w {
				t.Errorf("worked %s = %q, want %q", n.Field.Name, got, w)
			}
			delete(want, n.Field.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("no nodes for %v", want)
	}
}

func TestWorkedJumpAndPlayer(t *testing.T) {
	hack := func(jump int) []byte { return cat(0x20, 1, 0, 1, 1, 0, be16(jump)) }
	for _, c := range []struct {
		data  []byte
		field string
		want  string
	}{
		{hack(-1), "classic.cpe.jump_height", "ff ff = 0xffff = 65535 − 65536 (two's complement, top bit set) = -1: the client's default jump height"},
		{hack(40), "classic.cpe.jump_height", "00 28 = 0x0028 = 40; 40 ÷ 32 = 1.25"},
		{cat(0x0c, 4), "classic.player_id", "04 = 0x04 = 4: another player"},
	} {
		var p dissect.PDU
		cpeAll().DecodeCut(&p, c.data, len(c.data), meta(dissect.DirS2C))
		found := false
		for i := range p.Nodes {
			if n := &p.Nodes[i]; n.Field.Name == c.field {
				found = true
				if got := string(n.Field.Worked(nil, &p, n)); got != c.want {
					t.Errorf("worked %s = %q, want %q", c.field, got, c.want)
				}
			}
		}
		if !found {
			t.Errorf("no %s in % x", c.field, c.data)
		}
	}
}

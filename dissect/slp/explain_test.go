package slp

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

func TestExplained(t *testing.T) {
	dissecttest.CheckExplained(t, []*dissect.Registry{Registry}, explanations)
}

// TestWorked runs each worked value on real bytes: the seed's captured
// handshake (SLP capture write-up), a legacy kick as the bundled
// slp-legacy.pcap carries it, and the login-online.pcap player's UUID.
func TestWorked(t *testing.T) {
	seed := hx("18 00 fe 05 11 6d 63 2e 67 6f 6f 64 62 6f 79 62 6f 79 2e 74 6f 70 63 dd 01")
	kick := append([]byte{0xff, 0x00, 0x2d}, utf16be("§1\x00767\x001.21.1\x00mcdissect §atest§r server\x000\x00100")...)
	login := pkt(0, mcstr("mcdissect"), hx("03a0deb90a8f3d618135adbb712d0dd3"))
	tests := []struct {
		name  string
		steps []step // the last step's PDU is looked at
		field string
		want  string
	}{
		{"one-byte length", []step{{c2s, seed}}, "slp.length", "18: one byte with its top bit clear, so the value is the byte itself: 0x18 = 24"},
		{"protocol ff 05", []step{{c2s, seed}}, "slp.handshake.protocol_version",
			"fe 05: each byte gives 7 bits, low group first, while its top bit says more follow: 0x7e + 0x05×128 = 766"},
		{"protocol -1", []step{{c2s, handshake(-1, "h", 25565, 1)}}, "slp.handshake.protocol_version",
			"ff ff ff ff 0f: each byte gives 7 bits, low group first, while its top bit says more follow: 0x7f + 0x7f×128 + 0x7f×128^2 + 0x7f×128^3 + 0x0f×128^4 = 4294967295, which as a 32-bit two's complement number is -1"},
		{"port", []step{{c2s, seed}}, "slp.handshake.server_port", "63 dd big-endian, high byte first = 0x63×256 + 0xdd = 25565"},
		{"port little-endian", []step{{c2s, handshake(766, "localhost", 0xdd63, 1)}}, "slp.handshake.server_port_le",
			"dd 63 read little-endian, low byte first = 0x63×256 + 0xdd = 25565 (big-endian, as the protocol says, it reads 56675)"},
		{"kick length", []step{{c2s, []byte{0xfe, 0x01}}, {s2c, kick}}, "slp.legacy.string_length",
			"00 2d = 0x00×256 + 0x2d = 45 characters, so 45 × 2 = 90 bytes of UTF-16BE follow"},
		{"kick magic", []step{{c2s, []byte{0xfe, 0x01}}, {s2c, kick}}, "slp.legacy.magic",
			`UTF-16BE, two bytes a character, high byte first: 00 a7 = U+00A7 "§", 00 31 = U+0031 "1", 00 00 = U+0000 "\x00" (6 bytes, 3 characters)`},
		{"kick", []step{{c2s, []byte{0xfe, 0x01}}, {s2c, kick}}, "slp.legacy.kick",
			`UTF-16BE, two bytes a character, high byte first: 00 a7 = U+00A7 "§", 00 31 = U+0031 "1", 00 00 = U+0000 "\x00", 00 37 = U+0037 "7", … (90 bytes, 45 characters)`},
		{"uuid", []step{{c2s, handshake(767, "h", 25565, 2)}, {c2s, login}}, "slp.login.uuid",
			`16 bytes; byte 6 is 3d, whose high four bits give version 3: an MD5 name-based UUID, as offline-mode servers make from "OfflinePlayer:" + name`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps := run(t, tc.steps...)
			p := ps[len(ps)-1]
			n := node(t, p, tc.field)
			if n.Field.Worked == nil {
				t.Fatalf("%s has no worked value", tc.field)
			}
			if got := string(n.Field.Worked(nil, p, n)); got != tc.want {
				t.Errorf("worked %s =\n %q, want\n %q", tc.field, got, tc.want)
			}
		})
	}
}

// TestWorkedMillis: the ping payload of samples/slp-status-craftping.pcap
// is the client's clock in milliseconds; another client's is random.
func TestWorkedMillis(t *testing.T) {
	for _, c := range []struct{ hex, want string }{
		{"000001a203acad8a", "00 00 01 a2 03 ac ad 8a big-endian = 1795357977994 = milliseconds since 1970: 2026-11-22 14:32:57.994 UTC"},
		{"10ad91a0674c9ce6", "10 ad 91 a0 67 4c 9c e6 big-endian = 1201776793691659494: not a time of this century in milliseconds, so an opaque number or a counter"},
	} {
		ps := run(t, step{c2s, handshake(767, "h", 25565, 1)}, step{c2s, pkt(0)}, step{c2s, pkt(1, hx(c.hex))})
		p := ps[2]
		n := node(t, p, "slp.ping.payload")
		if got := string(n.Field.Worked(nil, p, n)); got != c.want {
			t.Errorf("worked %s =\n %q, want\n %q", c.hex, got, c.want)
		}
	}
}

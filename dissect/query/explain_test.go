package query

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

func TestExplained(t *testing.T) {
	dissecttest.CheckExplained(t, []*dissect.Registry{Registry}, explanations)
}

// TestWorked runs each worked value on the bytes of real messages: the
// seed's dumps (Query protocol page, 2012) and the bundled captures.
func TestWorked(t *testing.T) {
	// Basic stat response of the seed, with a session ID whose high bits are set.
	basic := hx(`00 7B 5F 6A 22 41 20 4D 69 6E 65 63 72 61 66 74 20 53 65 72 76 65 72 00 53 4D 50 00 77 6F 72 6C
		64 00 32 00 32 30 00 DD 63 31 32 37 2E 30 2E 30 2E 31 00`)
	full := cat(hx("00 00 00 00 01"), "splitnum\x00", 0x80, 0, "hostname\x00A\x00\x00", "\x01player_\x00\x00", "\x00")
	tests := []struct {
		name  string
		data  []byte
		dir   dissect.Dir
		field *dissect.Field
		want  string
	}{
		{"session", hx("FE FD 09 00 00 03 04"), dissect.DirC2S, fSession, "00 00 03 04 read big-endian = 0x00000304 = 772"},
		{"masked", basic, dissect.DirS2C, fSessionMask, "7b 5f 6a 22 AND 0f 0f 0f 0f = 0b 0f 0a 02 (the high four bits of each byte are dropped)"},
		{"masked clean", hx("FE FD 09 07 0D 04 0F"), dissect.DirC2S, fSessionMask, "07 0d 04 0f AND 0f 0f 0f 0f = 07 0d 04 0f (no high bits set: nothing changes)"},
		{"token in request", hx("FE FD 00 00 00 00 01 00 91 29 5B"), dissect.DirC2S, fToken, "00 91 29 5b = 0x00×2^24 + 0x91×2^16 + 0x29×2^8 + 0x5b = 9513307"},
		{"negative token", hx("FE FD 00 00 00 00 01 FF FF FF FE"), dissect.DirC2S, fToken, "ff ff ff fe = 0xff×2^24 + 0xff×2^16 + 0xff×2^8 + 0xfe = -2 (as a signed int32: 4294967294 − 2^32)"},
		{"token string", hx("09 00 00 00 01 39 35 31 33 33 30 37 00"), dissect.DirS2C, fTokenString, `"9513307" is decimal text: 9513307 = 0x0091295b, sent back big-endian, most significant byte first: 00 91 29 5b`},
		{"token generated", hx("09 00 00 00 01 39 35 31 33 33 30 37 00"), dissect.DirS2C, fToken, ""},
		{"hostport", basic, dissect.DirS2C, fHostPort, "dd 63 read little-endian, low byte first = 0x63×256 + 0xdd = 25565 (read big-endian it would be 56675)"},
		{"split packet", full, dissect.DirS2C, fSplitPacket, "0x80 = 10000000: top bit 0x80 set: the last packet; low seven bits 0x80 & 0x7f = index 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var p dissect.PDU
			Decode(&p, tc.data, len(tc.data), tc.dir)
			var got []string
			for i := range p.Nodes {
				if n := &p.Nodes[i]; n.Field == tc.field {
					got = append(got, string(n.Field.Worked(nil, &p, n)))
				}
			}
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("worked %s = %q, want [%q]", tc.field.Name, got, tc.want)
			}
		})
	}
}

// TestWorkedNothing: a node whose bytes do not fit the arithmetic shows none.
func TestWorkedNothing(t *testing.T) {
	var p dissect.PDU
	p.Reset([]byte{1, 2, 3}, 3)
	n := dissect.Node{Field: fHostPort, Offset: 0, Length: 3, Parent: -1}
	if got := workedHostPort(nil, &p, &n); len(got) != 0 {
		t.Errorf("hostport over 3 bytes: %q", got)
	}
	n = dissect.Node{Field: fSessionMask, Parent: -1, Flags: dissect.FlagGenerated}
	if got := workedMasked(nil, &p, &n); len(got) != 0 {
		t.Errorf("masked without parent: %q", got)
	}
}

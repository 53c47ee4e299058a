package slp

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/java"
)

// tstep is one packet of a session in TestCompressedTransitions: its
// direction, its bytes from the packet ID on, whether it is sent
// compressed (a data length and zlib) or with a data length of 0, and the
// Message its decoding must have, with no warning or error.
type tstep struct {
	dir  dissect.Dir
	data []byte
	how  byte // 'p' plain (no data length), '0' data length 0, 'z' compressed
	msg  string
}

// frameOf builds a step's frame.
func (s tstep) frameOf() []byte {
	switch s.how {
	case 'z':
		return compressedPkt(int32(len(s.data)), zlibBytes(s.data))
	case '0':
		inner := append([]byte{0}, s.data...)
		return append(vi(int32(len(inner))), inner...)
	}
	return append(vi(int32(len(s.data))), s.data...)
}

// jp is the ID and body of the packet name of version proto in state st
// and direction dir, as minecraft-data numbers it.
func jp(t *testing.T, proto int, st java.State, dir dissect.Dir, name string, body ...[]byte) []byte {
	t.Helper()
	v, err := java.ForProtocol(proto)
	if err != nil {
		t.Fatal(err)
	}
	for id := int32(0); id < 256; id++ {
		if v.PacketName(st, dir, id) == name {
			b := vi(id)
			for _, x := range body {
				b = append(b, x...)
			}
			return b
		}
	}
	t.Fatalf("%d: no %s %s packet %s", proto, st, dir, name)
	return nil
}

// loginSuccess is a Login Success (ID and body) as version proto writes it,
// with props, a property count and properties (1.19+).
func loginSuccess(proto int32, props []byte) []byte {
	uuid := hx("069a79f444e94726a5befca90e38aaf5")
	b := vi(2)
	if proto < 735 {
		b = append(b, mcstr("069a79f4-44e9-4726-a5be-fca90e38aaf5")...)
	} else {
		b = append(b, uuid...)
	}
	b = append(b, mcstr("Notch")...)
	if proto >= 759 {
		if props == nil {
			props = vi(0)
		}
		b = append(b, props...)
	}
	if proto == 766 || proto == 767 {
		b = append(b, 1) // strict error handling
	}
	return b
}

// textures is a Login Success's property list as an online-mode server or
// a proxy (BungeeCord, Velocity) sends it: one signed textures property,
// some 1 KB, more than a threshold of 256.
func textures() []byte {
	b := vi(1)
	b = append(b, mcstr("textures")...)
	b = append(b, mcstr(strings.Repeat("eyJ0aW1lc3RhbXAiOjE3MDAwMDAwMDAwMDB9", 10))...)
	b = append(b, 1)
	return append(b, mcstr(strings.Repeat("c2lnbmF0dXJl", 60))...)
}

// cfb8Enc is AES/CFB8 encryption, the sending side of cfb8.
type cfb8Enc struct{ cfb8 }

func (c *cfb8Enc) encrypt(b []byte) []byte {
	out := make([]byte, len(b))
	var ks [16]byte
	for i, x := range b {
		c.b.Encrypt(ks[:], c.sr[:])
		out[i] = x ^ ks[0]
		copy(c.sr[:], c.sr[1:])
		c.sr[15] = out[i]
	}
	return out
}

// TestCompressedTransitions: a packet that changes the connection's state
// changes it when it is sent compressed, for framing and decoding alike —
// Login Success (login → play before 1.20.2, → configuration from 1.20.2),
// the client's first packet after it, Login Acknowledged, Set Compression
// in login and in 1.8's play state, Encryption Response, and the
// configuration ↔ play transitions of 1.20.2+. Framing runs over the whole
// session first and decoding on a second Conn after it, as the pipeline
// may; after every packet both must hold the same state, and every packet
// must be named for the state it is in.
func TestCompressedTransitions(t *testing.T) {
	ka8 := func(d dissect.Dir, proto int, how byte) tstep {
		return tstep{d, jp(t, proto, java.Play, d, "keep_alive", make([]byte, 8)), how, "Keep alive"}
	}
	hs := func(proto int32) tstep {
		return tstep{c2s, handshake(proto, "localhost", 25565, 2)[1:], 'p', "Handshake"}
	}
	setComp := func(th int32, how byte) tstep { return tstep{s2c, append(vi(3), vi(th)...), how, "Set Compression"} }
	success := func(proto int32, props []byte, how byte) tstep {
		return tstep{s2c, loginSuccess(proto, props), how, "Login Success"}
	}
	// from 1.20.2: Login Acknowledged, and configuration's Finish
	// Configuration both ways
	toPlay := func(proto int, how byte) []tstep {
		return []tstep{
			{c2s, vi(3), how, "Login Acknowledged"},
			{s2c, jp(t, proto, java.Config, s2c, "finish_configuration"), how, "Finish configuration"},
			{c2s, jp(t, proto, java.Config, c2s, "finish_configuration"), how, "Finish configuration"},
		}
	}
	// play → configuration → play (1.20.2+)
	reconfigure := func(proto int) []tstep {
		return []tstep{
			{s2c, jp(t, proto, java.Play, s2c, "start_configuration"), 'z', "Start configuration"},
			{c2s, jp(t, proto, java.Play, c2s, "configuration_acknowledged"), 'z', "Configuration acknowledged"},
			{s2c, jp(t, proto, java.Config, s2c, "finish_configuration"), 'z', "Finish configuration"},
			{c2s, jp(t, proto, java.Config, c2s, "finish_configuration"), 'z', "Finish configuration"},
			ka8(s2c, proto, 'z'), ka8(c2s, proto, 'z'),
		}
	}
	seq := func(parts ...[]tstep) []tstep {
		var out []tstep
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	secret := hx("00112233445566778899aabbccddeeff")
	encSecret := hx("5ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7")
	keys, err := ParseKeyLog([]byte("MC_SHARED_SECRET " + hex.EncodeToString(encSecret) + " " + hex.EncodeToString(secret) + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		keys    *KeyLog
		encFrom int // the steps from here on are encrypted (0: none)
		steps   []tstep
	}{
		{"1.8 login to play, threshold 0", nil, 0, []tstep{
			hs(47), setComp(0, 'p'), success(47, nil, 'z'),
			{s2c, jp(t, 47, java.Play, s2c, "keep_alive", vi(7)), 'z', "Keep alive"},
			{c2s, jp(t, 47, java.Play, c2s, "keep_alive", vi(7)), 'z', "Keep alive"},
		}},
		{"1.8 play Set Compression compressed", nil, 0, []tstep{
			hs(47), setComp(0, 'p'), success(47, nil, 'z'),
			{s2c, jp(t, 47, java.Play, s2c, "set_compression", vi(-1)), 'z', "Set compression"},
			{s2c, jp(t, 47, java.Play, s2c, "keep_alive", vi(7)), 'p', "Keep alive"},
			{c2s, jp(t, 47, java.Play, c2s, "keep_alive", vi(7)), 'p', "Keep alive"},
		}},
		// a 1.17 snapshot, 21w07a (0x4000000F, which minecraft-data has):
		// its number is above every release's, but it has no
		// configuration state; its login is 1.16.5's
		{"21w07a snapshot login to play", nil, 0, []tstep{
			hs(0x40000000 + 15), setComp(0, 'p'), success(754, nil, 'z'),
			ka8(s2c, 0x40000000+15, 'z'), ka8(c2s, 0x40000000+15, 'z'),
		}},
		{"1.12.2 login to play", nil, 0, []tstep{
			hs(340), setComp(0, 'p'), success(340, nil, 'z'), ka8(s2c, 340, 'z'), ka8(c2s, 340, 'z'),
		}},
		{"1.16.5 login to play", nil, 0, []tstep{
			hs(754), setComp(0, 'p'), success(754, nil, 'z'), ka8(s2c, 754, 'z'), ka8(c2s, 754, 'z'),
		}},
		{"1.20.1 login to play, properties over threshold 256", nil, 0, []tstep{
			hs(763), setComp(256, 'p'), success(763, textures(), 'z'), ka8(s2c, 763, '0'), ka8(c2s, 763, '0'),
		}},
		{"1.20.2 login to configuration to play and back, threshold 0", nil, 0, seq(
			[]tstep{hs(764), setComp(0, 'p'), success(764, nil, 'z')}, toPlay(764, 'z'),
			[]tstep{ka8(s2c, 764, 'z'), ka8(c2s, 764, 'z')}, reconfigure(764),
		)},
		{"1.21.1 properties over threshold 256", nil, 0, seq(
			[]tstep{hs(767), setComp(256, 'p'), success(767, textures(), 'z')}, toPlay(767, '0'),
			[]tstep{ka8(s2c, 767, '0'), ka8(c2s, 767, '0')},
		)},
		{"1.21.4 threshold 0, reconfigured", nil, 0, seq(
			[]tstep{hs(769), setComp(0, 'p'), success(769, nil, 'z')}, toPlay(769, 'z'),
			[]tstep{ka8(s2c, 769, 'z'), ka8(c2s, 769, 'z')}, reconfigure(769),
		)},
		{"login Set Compression compressed turns it off", nil, 0, seq(
			[]tstep{hs(767), setComp(0, 'p'), setComp(-1, 'z'), success(767, nil, 'p')}, toPlay(767, 'p'),
			[]tstep{ka8(s2c, 767, 'p'), ka8(c2s, 767, 'p')},
		)},
		{"Encryption Response compressed opens the cipher", keys, 4, seq(
			[]tstep{hs(767), setComp(0, 'p'),
				{s2c, cat(vi(1), mcstr(""), vi(4), []byte{1, 2, 3, 4}, vi(4), []byte{5, 6, 7, 8}, []byte{1}), 'z', "Encryption Request"},
				{c2s, cat(vi(1), vi(int32(len(encSecret))), encSecret, vi(4), []byte{5, 6, 7, 8}), 'z', "Encryption Response"},
				success(767, nil, 'z')}, toPlay(767, 'z'),
			[]tstep{ka8(s2c, 767, 'z'), ka8(c2s, 767, 'z')},
		)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := Options{Keys: tc.keys}
			fr, dec := NewConnWith(o), NewConnWith(o)
			var ciph [2]*cfb8Enc
			frames := make([][]byte, len(tc.steps))
			var states [][2]dirState
			for k, s := range tc.steps {
				b := s.frameOf()
				if tc.encFrom > 0 && k >= tc.encFrom {
					i := di(s.dir)
					if ciph[i] == nil {
						c, _ := newCFB8(secret)
						ciph[i] = &cfb8Enc{*c}
					}
					b = ciph[i].encrypt(b)
				}
				frames[k] = b
				if f := fr.Frame(s.dir, b, false); f.Status != dissect.FrameOK || f.Len != len(b) {
					t.Fatalf("step %d (%s): Frame = %+v, want OK %d", k, s.msg, f, len(b))
				}
				states = append(states, fr.fr.d)
			}
			for k, s := range tc.steps {
				p := &dissect.PDU{}
				dec.Decode(p, frames[k], meta(k, s.dir))
				bad := ""
				for _, e := range p.Experts {
					if e.Info.Severity > dissect.SevNote {
						bad = e.Msg
					}
				}
				if p.Message != s.msg || bad != "" {
					t.Errorf("step %d: %q (%s), want %q\n%s", k, p.Message, p.Info, s.msg, dump(p))
				}
				for i := range 2 {
					f, d := states[k][i], dec.dec.d[i]
					if f.phase != d.phase || f.compress != d.compress || f.enc != d.enc {
						t.Errorf("step %d (%s), %s: framing's phase %d compress %v enc %v, decoding's %d %v %v",
							k, s.msg, dirName(i), f.phase, f.compress, f.enc, d.phase, d.compress, d.enc)
					}
				}
			}
			dec.Close(dissect.ConnEnd{})
		})
	}
}

package slp

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

func cat(bs ...[]byte) []byte { return bytes.Join(bs, nil) }

// call is one Frame call and the answer expected: status, length and a
// piece of the reason.
type call struct {
	dir      dissect.Dir
	buf      []byte
	afterGap bool
	st       dissect.FrameStatus
	n        int
	reason   string
}

func TestResync(t *testing.T) {
	resp := statusResp(`{"version":{"name":"1.21.1","protocol":767},"players":{"max":20,"online":0},"description":"x"}`)
	pong := seedPing // a pong has the ping's form and payload
	junk := hx("22 3a 7b 22 74 65 78 74 22 3a")
	ok, need, skip, lost := dissect.FrameOK, dissect.FrameNeedMore, dissect.FrameSkip, dissect.FrameLost
	for _, tc := range []struct {
		name  string
		calls []call
	}{
		{"handshake after a missed SYN", []call{{c2s, seedHandshake, true, ok, len(seedHandshake), ""}}},
		{"client: ping after a gap in the status state", []call{
			{c2s, seedHandshake, false, ok, len(seedHandshake), ""},
			{c2s, seedStatusReq, false, ok, 2, ""},
			{c2s, cat(junk, seedPing), true, skip, len(junk), "resynchronising"},
			{c2s, seedPing, true, ok, 10, ""},
		}},
		{"client mid-stream: a status request confirmed by the ping after it", []call{
			{c2s, cat(junk, seedStatusReq, seedPing), true, skip, len(junk), "handshake, status request or ping"},
			{c2s, cat(seedStatusReq, seedPing), true, ok, 2, ""},
			{c2s, seedPing, false, ok, 10, ""},
		}},
		{"client mid-stream: a status request refuted by what follows", []call{
			{c2s, hx("0a 01 00 00"), true, skip, 4, "resynchronising"},
		}},
		{"client mid-stream: a ping that ends where the bytes do", []call{{c2s, seedPing, true, ok, 10, ""}}},
		{"server mid-stream: the tail of a response, then its pong", []call{
			{s2c, junk, true, skip, len(junk), "status response, ping or pong"},
			{s2c, pong, true, ok, 10, ""},
		}},
		{"server: a status response after junk proves itself", []call{
			{s2c, cat(junk, resp, hx("09")), true, skip, len(junk), "resynchronising"},
			{s2c, cat(resp, hx("09")), true, ok, len(resp), ""},
		}},
		{"server: a response cut by the segment end is waited for", []call{
			{s2c, cat(junk, resp[:20]), true, skip, len(junk), ""},
			{s2c, resp[:20], true, need, len(resp), ""},
			{s2c, resp, true, ok, len(resp), ""},
		}},
		{"server: a pong answering a ping seen needs nothing after it", []call{
			{c2s, seedHandshake, false, ok, len(seedHandshake), ""},
			{c2s, seedStatusReq, false, ok, 2, ""},
			{c2s, seedPing, false, ok, 10, ""},
			{s2c, cat(junk, pong, hx("ff")), true, skip, len(junk), ""},
			{s2c, cat(pong, hx("ff")), true, ok, 10, ""},
		}},
		{"server: an unproved pong followed by a cut byte waits", []call{
			{s2c, cat(pong, hx("ff")), true, need, 0, ""},
		}},
		{"a gap in the login state loses the direction", []call{
			{c2s, hx("10 00 fe 05 09 6c 6f 63 61 6c 68 6f 73 74 63 dd 02"), false, ok, 17, ""},
			{c2s, cat(junk, seedPing), true, lost, 0, "login state"},
		}},
		{"nothing provable: everything skipped", []call{
			{s2c, bytes.Repeat([]byte{0xee}, 40), true, skip, 40, ""},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewConn()
			for k, cl := range tc.calls {
				f := c.Frame(cl.dir, cl.buf, cl.afterGap)
				if f.Status != cl.st || (cl.st != need || cl.n != 0) && f.Len != cl.n || !strings.Contains(f.Reason, cl.reason) {
					t.Fatalf("call %d: got %+v, want status %d len %d reason ~%q", k, f, cl.st, cl.n, cl.reason)
				}
			}
		})
	}
}

// TestResyncDecodeGuessed: a connection picked up after its handshake is
// decoded in the status state, each packet marked slp.state.guessed; one
// whose handshake was seen is not marked.
func TestResyncDecodeGuessed(t *testing.T) {
	resp := statusResp(`{"description":"x","players":{"max":1,"online":0}}`)
	for _, tc := range []struct {
		name    string
		steps   []step
		guessed bool
		msgs    []string
	}{
		{"mid-stream", []step{{c2s, seedStatusReq}, {s2c, resp}, {c2s, seedPing}, {s2c, seedPing}}, true,
			[]string{"Status Request", "Status Response", "Ping Request", "Pong Response"}},
		{"from the start", []step{{c2s, seedHandshake}, {c2s, seedStatusReq}, {s2c, resp}, {c2s, seedPing}, {s2c, seedPing}}, false,
			[]string{"Handshake", "Status Request", "Status Response", "Ping Request", "Pong Response"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := run(t, tc.steps...)
			for k, p := range ps {
				if p.Message != tc.msgs[k] {
					t.Errorf("PDU %d: %q, want %q", k, p.Message, tc.msgs[k])
				}
				got := false
				for _, n := range p.Nodes {
					if n.Field == FieldStateGuessed {
						got = string(n.Value.B) == "Status"
					}
				}
				if got != tc.guessed {
					t.Errorf("PDU %d (%s): slp.state.guessed %v, want %v", k, p.Message, got, tc.guessed)
				}
			}
		})
	}
}

func TestDetectServer(t *testing.T) {
	resp := statusResp(`{"description":"x"}`)
	for _, tc := range []struct {
		name string
		b    []byte
		want Detection
	}{
		{"status response", resp, DetectYes},
		{"cut response", resp[:5], DetectNeedMore},
		{"pong", seedPing, DetectNo},
		{"classic identification", append(hx("00 07"), bytes.Repeat([]byte{'a'}, 129)...), DetectNo},
		{"lengths disagree", cat(hx("10 00 05"), []byte(`{"a":1}`)), DetectNo},
	} {
		if got := DetectServer(tc.b); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestLegacyASCIIPing: minecraft-server-util's 1.6 ping (from
// samples/slp-legacy.pcap, frame 24): FE 01 is the ping, the FA after it
// is decoded with the peer's mistakes named.
func TestLegacyASCIIPing(t *testing.T) {
	b := hx("fe 01 fa 00 0b 4d 43 7c 50 69 6e 67 48 6f 73 74 00 10 4a 00 09 31 32 37 2e 30 2e 30 2e 31 63 e0")
	c := NewConn()
	var ps []*dissect.PDU
	for off := 0; off < len(b); {
		f := c.Frame(c2s, b[off:], false)
		if f.Status != dissect.FrameOK {
			t.Fatalf("at %d: %+v", off, f)
		}
		p := &dissect.PDU{}
		c.Decode(p, b[off:off+f.Len], meta(len(ps), c2s))
		if err := dissect.Check(p); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
		off += f.Len
	}
	if len(ps) != 2 || len(ps[0].Data) != 2 {
		t.Fatalf("%d PDUs, the first of %d bytes; want FE 01 then FA", len(ps), len(ps[0].Data))
	}
	wantExpert(t, ps[1], "slp.legacy.ascii")
	wantExpert(t, ps[1], "slp.legacy.port.short")
	wantExpert(t, ps[1], "slp.legacy.pinghost.invalid") // data length 16, 14 written
	for _, w := range []struct{ field, text string }{
		{"slp.legacy.channel", "MC|PingHost"},
		{"slp.legacy.host", "127.0.0.1"},
	} {
		if got := valueOf(ps[1], w.field); got != w.text {
			t.Errorf("%s = %q, want %q", w.field, got, w.text)
		}
	}
	if !strings.Contains(ps[1].Info, "127.0.0.1:25568") {
		t.Errorf("Info %q", ps[1].Info)
	}
}

func valueOf(p *dissect.PDU, name string) string {
	for _, n := range p.Nodes {
		if n.Field != nil && n.Field.Name == name {
			return string(n.Value.B)
		}
	}
	return ""
}

// TestDetectPingPong: a client's lone ping and the server's pong decide a
// stream picked up mid-way only when the pong echoes the ping's payload.
func TestDetectPingPong(t *testing.T) {
	ping := []byte{0x09, 0x01, 1, 2, 3, 4, 5, 6, 7, 8}
	other := []byte{0x09, 0x01, 1, 2, 3, 4, 5, 6, 7, 9}
	for _, tc := range []struct {
		name           string
		client, server []byte
		want           Detection
	}{
		{"the pong echoes the ping", ping, ping, DetectYes},
		{"the pong echoes it, then more", ping, append(append([]byte{}, ping...), 0x01, 0x00), DetectYes},
		{"another payload", ping, other, DetectNo},
		{"the pong not all there", ping, ping[:9], DetectNo},
		{"the client sent more than a ping", append(append([]byte{}, ping...), 0x00), ping, DetectNo},
		{"not a ping", []byte{0x09, 0x00, 1, 2, 3, 4, 5, 6, 7, 8}, []byte{0x09, 0x00, 1, 2, 3, 4, 5, 6, 7, 8}, DetectNo},
		{"nothing from the client", nil, ping, DetectNo},
	} {
		if got := DetectPingPong(tc.client, tc.server); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

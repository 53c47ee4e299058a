package classic

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// agreedOf is what an ExtEntry's PDU says of classic.cpe.agreed: "True",
// "False", "unknown" (classic.cpe.agreed.unknown) or "" (neither yet).
func agreedOf(t *testing.T, p *dissect.PDU) string {
	t.Helper()
	a, u := p.Find("classic.cpe.agreed"), p.Find("classic.cpe.agreed.unknown")
	switch {
	case a >= 0 && u >= 0:
		t.Fatal("both classic.cpe.agreed and classic.cpe.agreed.unknown")
	case a >= 0 && p.Nodes[a].Value.Bool():
		return "True"
	case a >= 0:
		return "False"
	case u >= 0:
		return "unknown"
	}
	return ""
}

// cpeSession plays a CPE negotiation where the server announces first, as
// ClassiCube's servers do: the client's identification, the server's
// ExtInfo and entries, then the client's. It returns the server's entries'
// PDUs (fresh ones, held or not) and decodes on c; giveUp, when set, is
// called on each server entry's PDU right after it is decoded, as the
// pipeline does when too much waits behind it.
func cpeSession(t *testing.T, c *Conn, server, client []string, giveUp bool) []*dissect.PDU {
	t.Helper()
	dec := func(d dissect.Dir, frame uint64, b []byte) *dissect.PDU {
		p := new(dissect.PDU)
		m := meta(d)
		m.Frame = frame
		c.Decode(p, b, m)
		if err := dissect.Check(p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dec(dissect.DirC2S, 1, cat(0x00, 7, "bob", "key", 0x42))
	dec(dissect.DirS2C, 2, cat(0x10, "server", be16(len(server))))
	var out []*dissect.PDU
	for _, name := range server {
		p := dec(dissect.DirS2C, 3, cat(0x11, name, be32(1)))
		out = append(out, p)
		if giveUp && p.Pending {
			c.GiveUp(p, dissect.Release{Why: dissect.ReleaseCount, Max: 1024})
		}
	}
	dec(dissect.DirC2S, 4, cat(0x10, "ClassiCube", be16(len(client))))
	for _, name := range client {
		if p := dec(dissect.DirC2S, 5, cat(0x11, name, be32(2))); agreedOf(t, p) == "" || p.Pending {
			t.Errorf("the client's %s, after the server's whole list: %q, pending %v", name, agreedOf(t, p), p.Pending)
		}
	}
	return out
}

// TestAgreedUnknownIsNotFalse: a server's ExtEntry, sent before the
// client's list, is held until the list says; it is never False while
// that is not known. Given up on, it says it is not known, unless a first
// pass (-2) noted the answer; a connection ended first says so too.
func TestAgreedUnknownIsNotFalse(t *testing.T) {
	server := []string{"FastMap", "ClickDistance", "EnvColors"}
	client := []string{"EnvColors", "FASTMAP"}
	want := []string{"True", "False", "True"}

	t.Run("held", func(t *testing.T) {
		// Before the client's list: held, with no answer.
		var ps []*dissect.PDU
		c2 := NewConn(nil)
		dec := func(d dissect.Dir, b []byte) *dissect.PDU {
			p := new(dissect.PDU)
			c2.Decode(p, b, meta(d))
			return p
		}
		dec(dissect.DirC2S, cat(0x00, 7, "bob", "key", 0x42))
		dec(dissect.DirS2C, cat(0x10, "server", be16(len(server))))
		for _, name := range server {
			p := dec(dissect.DirS2C, cat(0x11, name, be32(1)))
			if !p.Pending || agreedOf(t, p) != "" {
				t.Fatalf("%s before the client's list: pending %v, agreed %q; want held, no answer", name, p.Pending, agreedOf(t, p))
			}
			ps = append(ps, p)
		}
		dec(dissect.DirC2S, cat(0x10, "ClassiCube", be16(len(client))))
		dec(dissect.DirC2S, cat(0x11, client[0], be32(2)))
		// EnvColors is known now (the client has it); the rest waits.
		if agreedOf(t, ps[2]) != "True" || ps[2].Pending || !ps[0].Pending {
			t.Fatalf("after the client's first entry: EnvColors %q (pending %v), FastMap pending %v", agreedOf(t, ps[2]), ps[2].Pending, ps[0].Pending)
		}
		dec(dissect.DirC2S, cat(0x11, client[1], be32(2)))
		for i, p := range ps {
			if got := agreedOf(t, p); got != want[i] || p.Pending {
				t.Errorf("%s: %q (pending %v), want %s", server[i], got, p.Pending, want[i])
			}
		}
		if len(c2.held) != 0 {
			t.Errorf("%d entries still held", len(c2.held))
		}
	})

	t.Run("given up, one pass", func(t *testing.T) {
		for i, p := range cpeSession(t, NewConn(nil), server, client, true) {
			if got := agreedOf(t, p); got != "unknown" {
				t.Errorf("%s given up on: %q, want unknown", server[i], got)
			}
		}
	})

	t.Run("given up, two passes", func(t *testing.T) {
		later := new(dissect.Later)
		first := NewConn(nil)
		first.Later = later
		cpeSession(t, first, server, client, true)
		later.Seal()
		second := NewConn(nil)
		second.Later = later
		for i, p := range cpeSession(t, second, server, client, true) {
			if got := agreedOf(t, p); got != want[i] {
				t.Errorf("%s given up on in the second pass: %q, want %s", server[i], got, want[i])
			}
		}
		if n := p0text(cpeSession(t, second, server, client, true)[0]); n != "True: the other side announced it too (v2; agreed v1)" {
			t.Errorf("FastMap's text in the second pass: %q", n)
		}
	})

	t.Run("connection ends", func(t *testing.T) {
		c := NewConn(nil)
		var ps []*dissect.PDU
		for i, b := range [][]byte{cat(0x00, 7, "bob", "key", 0x42), cat(0x10, "server", be16(1)), cat(0x11, "FastMap", be32(1))} {
			p := new(dissect.PDU)
			c.Decode(p, b, meta([]dissect.Dir{dissect.DirC2S, dissect.DirS2C, dissect.DirS2C}[i]))
			ps = append(ps, p)
		}
		c.Close(dissect.ConnEnd{})
		if p := ps[2]; p.Pending || agreedOf(t, p) != "unknown" {
			t.Errorf("at the connection's end: pending %v, %q; want unknown", p.Pending, agreedOf(t, p))
		}
	})

	t.Run("lite", func(t *testing.T) {
		c := NewConn(nil)
		for i, b := range [][]byte{cat(0x00, 7, "bob", "key", 0x42), cat(0x10, "server", be16(1)), cat(0x11, "FastMap", be32(1))} {
			p := &dissect.PDU{Lite: true}
			c.Decode(p, b, meta([]dissect.Dir{dissect.DirC2S, dissect.DirS2C, dissect.DirS2C}[i]))
			if p.Pending || p.Message == "" || len(c.held) > 0 {
				t.Fatalf("a Lite %q is held (pending %v, %d held)", p.Message, p.Pending, len(c.held))
			}
		}
	})
}

func p0text(p *dissect.PDU) string {
	if i := p.Find("classic.cpe.agreed"); i >= 0 {
		return p.Nodes[i].Text
	}
	return ""
}

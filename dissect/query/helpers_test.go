package query

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

// hx decodes a hex dump as the seeds print it ("FE FD 09 ..."), spaces and
// newlines ignored.
func hx(s string) []byte {
	b, err := hex.DecodeString(strings.NewReplacer(" ", "", "\n", "", "\t", "").Replace(s))
	if err != nil {
		panic(err)
	}
	return b
}

// cat joins byte slices and strings.
func cat(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			b = append(b, v...)
		case []byte:
			b = append(b, v...)
		case byte:
			b = append(b, v)
		case int:
			b = append(b, byte(v))
		default:
			panic("cat: bad part")
		}
	}
	return b
}

// kvs builds a full stat key/value section: pairs, then the empty key.
func kvs(pairs ...string) []byte {
	var b []byte
	for _, s := range pairs {
		b = append(b, s...)
		b = append(b, 0)
	}
	return append(b, 0)
}

// playerList builds the player section: 01 "player_" 00 00, names, 00.
func playerList(names ...string) []byte {
	b := []byte("\x01player_\x00\x00")
	for _, n := range names {
		b = append(b, n...)
		b = append(b, 0)
	}
	return append(b, 0)
}

// decode decodes data whole and checks the tree's invariants.
func decode(t testing.TB, data []byte, wireLen int, dir dissect.Dir) *dissect.PDU {
	t.Helper()
	if wireLen == 0 {
		wireLen = len(data)
	}
	p := new(dissect.PDU)
	Decode(p, data, wireLen, dir)
	if err := dissect.Check(p); err != nil {
		t.Fatalf("Check: %v\n%s", err, dump(p))
	}
	return p
}

// disp is the display of the first node named name, or "<none>".
func disp(p *dissect.PDU, name string) string {
	i := p.Find(name)
	if i < 0 {
		return "<none>"
	}
	return dissecttest.Display(&p.Nodes[i])
}

// disps is the display of every node named name.
func disps(p *dissect.PDU, name string) []string {
	var out []string
	for i := range p.Nodes {
		if p.Nodes[i].Name() == name {
			out = append(out, dissecttest.Display(&p.Nodes[i]))
		}
	}
	return out
}

// expertNames lists the PDU's expert items by name, in order.
func expertNames(p *dissect.PDU) []string {
	var out []string
	for _, e := range p.Experts {
		out = append(out, e.Info.Name)
	}
	return out
}

func expertMsgs(p *dissect.PDU) string {
	var b strings.Builder
	for _, e := range p.Experts {
		b.WriteString(e.Info.Name + ": " + e.Msg + "\n")
	}
	return b.String()
}

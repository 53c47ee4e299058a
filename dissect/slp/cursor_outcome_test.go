package slp

import (
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// A PDU cut by the capture is truncated where its bytes run out, but bytes
// that are there and wrong are malformed, cut or not: a VarInt longer than
// 5 bytes, a negative string length.
func TestCutPDUMalformedNotTruncated(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		want *dissect.ExpertInfo
	}{
		{"6-byte VarInt", append([]byte{0x20, 0x00}, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x05), dissect.ExpertMalformed},
		{"negative address length", append([]byte{0x20, 0x00, 0xff, 0x05}, 0xff, 0xff, 0xff, 0xff, 0x0f, 'a'), dissect.ExpertMalformed},
		{"short address", append([]byte{0x20, 0x00, 0xff, 0x05}, 0x10, 'a', 'b'), dissect.ExpertTruncated},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &dissect.PDU{}
			NewConn().DecodeCut(p, c.data, len(c.data)+100, meta(0, c2s))
			if err := dissect.Check(p); err != nil {
				t.Fatal(err)
			}
			n, e := dissect.CountFailures(p)
			if n == 0 || e.Info != c.want {
				t.Fatalf("%d failures, last %v, want %s\n%s", n, e, c.want.Name, dump(p))
			}
			for _, x := range p.Experts {
				if c.want == dissect.ExpertMalformed && x.Info == dissect.ExpertTruncated {
					t.Errorf("wrong bytes called truncated: %s", x.Msg)
				}
			}
		})
	}
}

package java

import (
	"encoding/binary"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// TestNodesBounded: a packet whose bytes each make a node (empty arrays,
// empty NBT compounds, metadata entries), as a 2 MiB inflated packet may
// be, adds at most maxNodes nodes; the rest of it is one undissected node
// with mc.java.too_many_fields, so that no byte is lost. 2 million nodes
// from one 671-byte frame took 634 MB in -V.
func TestNodesBounded(t *testing.T) {
	const n = 3 * maxNodes // elements: each of them at least one node
	be32 := func(v int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(v)) }
	uv := func(b []byte, v int) []byte { return binary.AppendUvarint(b, uint64(v)) }
	skyLight := uv([]byte{0x25, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0}, n)
	skyLight = append(skyLight, make([]byte, n+1)...) // n empty arrays, no block light
	nbtList := append([]byte{0x07, 0, 0, 0, 0, 0, 0, 0, 0, 1, 10, 9, 0, 1, 'l', 10}, be32(n)...)
	nbtList = append(nbtList, make([]byte, n+1)...) // n empty compounds, the root's end
	meta := []byte{0x56, 1}
	for k := range n {
		meta = append(meta, byte(k%255), 0, 1) // key, type byte, value
	}
	meta = append(meta, 0xff)
	for _, tc := range []struct {
		name string
		id   int32
		body []byte
	}{
		{"empty arrays", 0x25, skyLight[1:]},
		{"empty NBT compounds", 0x07, nbtList[1:]},
		{"metadata entries", 0x56, meta[1:]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := ForProtocol(765)
			if err != nil {
				t.Fatal(err)
			}
			p := &dissect.PDU{}
			cur := dissect.Begin(p, RegJava.Root(), tc.body, len(tc.body))
			v.Decode(&cur, Play, dissect.DirS2C, tc.id, -1)
			cur.Finish()
			if err := dissect.Check(p); err != nil {
				t.Fatal(err)
			}
			if len(p.Nodes) > maxNodes+64 {
				t.Errorf("%d nodes, want at most about %d", len(p.Nodes), maxNodes)
			}
			capped, covered := false, 0
			for _, e := range p.Experts {
				if e.Info == ExpertTooMany {
					capped = true
					covered = int(p.Nodes[e.Node].Offset + p.Nodes[e.Node].Length)
				}
			}
			if !capped || covered != len(tc.body) {
				t.Errorf("capped %v, the rest node ends at %d of %d bytes", capped, covered, len(tc.body))
			}
		})
	}
}

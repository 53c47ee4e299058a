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

// TestCountPastPacket: a count that says more elements than the packet
// holds keeps its value in its own node, and the bytes that are there are
// one Elements node with the malformed item: the count read "Count: 0"
// where the error took its field.
func TestCountPastPacket(t *testing.T) {
	uv := func(b []byte, v int) []byte { return binary.AppendUvarint(b, uint64(uint32(v))) }
	for _, tc := range []struct {
		name  string
		id    int32
		body  []byte
		count int64
	}{
		// 1.20.4 Set Container Content: window, state ID, count, slots
		{"array", 0x13, uv([]byte{0, 0}, 0x7fffffff), 0x7fffffff},
		{"array of a million", 0x13, append(uv([]byte{0, 0}, 1000000), make([]byte, 100)...), 1000000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := ForProtocol(765)
			if err != nil {
				t.Fatal(err)
			}
			body := append(tc.body, 0, 0, 0)
			p := &dissect.PDU{}
			cur := dissect.Begin(p, RegJava.Root(), body, len(body))
			v.Decode(&cur, Play, dissect.DirS2C, tc.id, -1)
			cur.Finish()
			if err := dissect.Check(p); err != nil {
				t.Fatal(err)
			}
			var counts []int64
			elements := -1
			for i, n := range p.Nodes {
				switch n.Field {
				case FieldCount:
					counts = append(counts, n.Value.Int())
				case FieldElements:
					elements = i
				}
			}
			if len(counts) != 1 || counts[0] != tc.count {
				t.Errorf("counts %v, want [%d]", counts, tc.count)
			}
			if elements < 0 || p.Nodes[elements].Flags&dissect.FlagMalformed == 0 {
				t.Errorf("no malformed Elements node")
			}
		})
	}
}

// TestRealSizedPacket: the packet of most fields a vanilla server sends, a 1.20.4
// Declare Recipes of every recipe (samples/gen/play/recipes.js writes it
// with minecraft-protocol's serializer: 2,409 recipes, 190 KB), is
// dissected whole: its fields are within maxNodes, with room to spare
// for a server with more recipes than vanilla.
func TestRealSizedPacket(t *testing.T) {
	pkt := gunzipFile(t, "testdata/declare-recipes-765.bin.gz")
	id, k := binary.Uvarint(pkt)
	v, err := ForProtocol(765)
	if err != nil {
		t.Fatal(err)
	}
	p := &dissect.PDU{}
	body := pkt[k:]
	cur := dissect.Begin(p, RegJava.Root(), body, len(body))
	v.Decode(&cur, Play, dissect.DirS2C, int32(id), -1)
	cur.Finish()
	if err := dissect.Check(p); err != nil {
		t.Fatal(err)
	}
	if p.Message != "Declare recipes" {
		t.Errorf("message %q", p.Message)
	}
	for _, e := range p.Experts {
		t.Errorf("expert item: %s: %s", e.Info.Name, e.Msg)
	}
	if n := len(p.Nodes); n < 100000 || 2*n > maxNodes {
		t.Errorf("%d nodes: want the packet's 119,561 fields or so, and at most half of maxNodes (%d)", n, maxNodes)
	}
}

package classic

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// TestWalkFast decodes every packet walkFast reads, under each
// negotiation that changes a layout, with random bytes, exact, short and
// long, and compares the PDU with the cursor walk's, node for node, in full
// and in Lite. The PDUs are reused, as the pipeline's are, so that a slot
// left by a longer tree (texts, keys) must be overwritten.
func TestWalkFast(t *testing.T) {
	for _, lite := range []bool{false, true} {
		t.Run(map[bool]string{false: "full", true: "lite"}[lite], func(t *testing.T) { walkFastCase(t, lite) })
	}
}

func walkFastCase(t *testing.T, lite bool) {
	defer func() { noFastWalk = false }()
	r := rand.New(rand.NewPCG(3, 4))
	negs := []neg{{}, {cpe: true}, {cpe: true, extPos: true}, {cpe: true, extBlocks: true}, {cpe: true, heldBlock: true},
		{cpe: true, heldBlock: true, extBlocks: true, extPos: true}}
	fast := 0
	got, want := dissect.PDU{Lite: lite}, dissect.PDU{Lite: lite}
	for i := range packetTable {
		pk := &packetTable[i]
		if !pk.fast {
			continue
		}
		fast++
		for _, n := range negs {
			l := pk.length(&n)
			for _, size := range []int{l, l - 1, l + 1, 1} {
				for range 8 {
					b := make([]byte, max(size, 1))
					for j := range b {
						b[j] = byte(r.IntN(256))
						if r.IntN(4) == 0 {
							b[j] = []byte{0, 1, 2, 64, 65, 191, 192, 0xff}[r.IntN(8)]
						}
					}
					b[0] = pk.id
					for _, v := range []struct {
						off bool
						p   *dissect.PDU
					}{{false, &got}, {true, &want}} {
						noFastWalk = v.off
						c := NewConn(nil)
						c.n = n
						c.Decode(v.p, b, meta(pk.dir))
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s (%#x), %+v, % x:\nfast   %+v\ncursor %+v", pk.name, pk.id, n, b, got, want)
					}
				}
			}
		}
	}
	if fast < 10 {
		t.Fatalf("walkFast reads %d packets", fast)
	}
}

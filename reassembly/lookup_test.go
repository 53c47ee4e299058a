package reassembly

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// TestLookupBothWays: segments of interleaved connections, both ways, find
// their connection and direction whether or not the last connection seen
// is theirs; a host talking to itself on one port is one connection whose
// segments all go the way of the first. So it is when their hashes collide
// in the fast table and they live in the full one.
func TestLookupBothWays(t *testing.T) {
	for _, collide := range []bool{false, true} {
		t.Run(fmt.Sprint("collide=", collide), func(t *testing.T) { lookupBothWays(t, collide) })
	}
}

func lookupBothWays(t *testing.T, collide bool) {
	var got []string
	r := New(func(c *ConnInfo) ConnHandler {
		return &handlerFunc{
			frame: func(_ Dir, b []byte, _ bool) FrameResult { return OK(len(b)) },
			deliver: func(u *Unit) {
				got = append(got, fmt.Sprintf("s%d %v %s", u.Conn.Stream, u.Dir, u.Data))
			},
		}
	}, Limits{})
	a, b := clientIP.As4(), serverIP.As4()
	ab := gopacket.NewFlow(layers.EndpointIPv4, a[:], b[:])
	aa := gopacket.NewFlow(layers.EndpointIPv4, a[:], a[:])
	decoys := 0
	if collide {
		// Another connection already holds each one's hash.
		for _, k := range []connKey{{ab, 50000, 25565}, {ab, 50001, 25565}, {aa, 25565, 25565}} {
			r.fast[k.hash()] = &conn{}
			decoys++
		}
	}
	seq := map[string]uint32{}
	send := func(frame uint64, flow gopacket.Flow, sport, dport layers.TCPPort, data string) {
		k := fmt.Sprint(flow, sport, dport)
		tcp := &layers.TCP{SrcPort: sport, DstPort: dport, Seq: 1000 + seq[k], ACK: true}
		tcp.Payload = []byte(data)
		seq[k] += uint32(len(data))
		r.Feed(frame, gopacket.CaptureInfo{Timestamp: t0}, flow, tcp)
	}
	send(1, ab, 50000, 25565, "a1")           // stream 0, client first
	send(2, ab.Reverse(), 25565, 50000, "b1") // reverse, cached
	send(3, ab, 50001, 25565, "c1")           // stream 1
	send(4, ab.Reverse(), 25565, 50000, "b2") // reverse, from the table
	send(5, ab.Reverse(), 25565, 50001, "d1") // reverse, from the table
	send(6, ab, 50000, 25565, "a2")           // forward, from the table
	send(7, aa, 25565, 25565, "s1")           // stream 2: to itself
	send(8, aa, 25565, 25565, "s2")
	send(9, ab, 50001, 25565, "c2")
	if s := r.Stats(); s.Open != 3 || s.Conns != 3 {
		t.Errorf("open %d conns %d, want 3 3", s.Open, s.Conns)
	}
	// Without collisions each connection is in the fast table once; with
	// them, in the full table under both keys (one for the host talking
	// to itself, whose keys are the same).
	wantFast, wantFull := 3, 0
	if collide {
		wantFast, wantFull = decoys, 5
	}
	if len(r.fast) != wantFast || len(r.conns) != wantFull {
		t.Errorf("tables: fast %d, full %d; want %d, %d", len(r.fast), len(r.conns), wantFast, wantFull)
	}
	r.Close()
	want := []string{
		"s0 client->server a1",
		"s0 server->client b1",
		"s1 client->server c1",
		"s0 server->client b2",
		"s1 server->client d1",
		"s0 client->server a2",
		// Both ends are the same endpoint: newConn's role check reads
		// that as the factory having swapped them.
		"s2 server->client s1",
		"s2 server->client s2",
		"s1 client->server c2",
	}
	if !slices.Equal(got, want) {
		t.Errorf("units %q\nwant %q", got, want)
	}
	if s := r.Stats(); s.Open != 0 || len(r.conns) != 0 || len(r.fast) != decoys || r.last != nil {
		t.Errorf("after Close: open %d, tables %d and %d (%d decoys), last %v", s.Open, len(r.conns), len(r.fast), decoys, r.last)
	}
}

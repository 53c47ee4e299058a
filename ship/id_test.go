package ship

import (
	"strings"
	"testing"
	"time"
)

func TestIDs(t *testing.T) {
	t0 := time.Unix(1795357980, 359425000)
	ping := []byte(`{"layers":{"mc":{"mc_mc_message":"Ping"}}}`)
	gap := []byte(`{"layers":{"mc":{"mc_mc_message":"[missing bytes]"}}}`)
	g := NewIDs("srv1", "eth0")
	seq := []struct {
		frame uint64
		doc   []byte
		want  string
	}{
		{4, ping, "srv1/eth0/4/0/1795357980359425000/"},
		{4, ping, "srv1/eth0/4/1/1795357980359425000/"}, // the same PDU twice in one segment
		{5, ping, "srv1/eth0/5/0/1795357980359425000/"},
		{4, gap, "srv1/eth0/4/0/1795357980359425000/"}, // decided later, at frame 4
	}
	seen := map[string]bool{}
	for i, s := range seq {
		id := g.Next(s.frame, t0, s.doc)
		if !strings.HasPrefix(id, s.want) || len(id) != len(s.want)+8 {
			t.Errorf("record %d: %s, want %s and a checksum", i, id, s.want)
		}
		if seen[id] {
			t.Errorf("record %d: %s again", i, id)
		}
		seen[id] = true
	}
	// The same capture read again: the same IDs.
	g2 := NewIDs("srv1", "eth0")
	for _, s := range seq {
		if id := g2.Next(s.frame, t0, s.doc); !seen[id] {
			t.Errorf("a second reading gave %s", id)
		}
	}
	long := NewIDs("srv1", "/var/captures/"+strings.Repeat("x", 600)+".pcap").Next(1, t0, ping)
	if len(long) > 512 || !strings.Contains(long, "/sha256-") {
		t.Errorf("a long source: %d bytes: %s", len(long), long)
	}
}

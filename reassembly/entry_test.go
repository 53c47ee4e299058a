package reassembly

import (
	"slices"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// TestEntriesCharged: with an Account, every entry is charged its real
// size from its first segment, handler or not; a refused charge evicts
// the longest idle entry (OnEvict tells of it, handler or not) and the
// account gets back what each entry took, whichever way it leaves.
func TestEntriesCharged(t *testing.T) {
	const extra = 100
	per := entrySize + extra
	acct := &ownTotal{limit: 3 * per}
	var evicted []int
	r := New(nil, Limits{Account: acct, EntryCost: extra})
	r.OnEvict = func(c *ConnInfo) { evicted = append(evicted, c.Stream) }
	for i := range 3 {
		feedOne(r, uint64(i+1), pkt{seq: cISN, flags: "S", at: i, conn: i})
	}
	if acct.used != 3*per || len(evicted) != 0 {
		t.Fatalf("3 SYNs: %d bytes charged, want %d; evicted %v", acct.used, 3*per, evicted)
	}
	feedOne(r, 4, pkt{seq: cISN, flags: "S", at: 3, conn: 3})
	if acct.used > 3*per || len(evicted) == 0 || evicted[0] != 0 {
		t.Fatalf("a 4th SYN: %d bytes charged (limit %d), evicted %v, want stream 0 first", acct.used, 3*per, evicted)
	}
	for i := range 4 {
		cip, sip := clientIP.As4(), serverIP.As4()
		flow := gopacket.NewFlow(layers.EndpointIPv4, cip[:], sip[:])
		c := r.Find(flow, uint16(50000+i), serverPort)
		rc := r.Find(flow.Reverse(), serverPort, uint16(50000+i))
		if kept := !slices.Contains(evicted, i); (c != nil) != kept || c != rc || c != nil && c.Stream != i {
			t.Errorf("Find of stream %d: %v (reverse %v), kept %v", i, c, rc, kept)
		}
	}
	// ChargeEntry adds to the entry being fed, and comes back with it.
	r.OnSegment = func(*ConnInfo, *layers.TCP) { r.ChargeEntry(10) }
	before := acct.used
	feedOne(r, 5, pkt{seq: cISN + 1, flags: "A", at: 4, conn: 3})
	if acct.used != before+10 {
		t.Errorf("ChargeEntry(10): %d bytes charged, want %d", acct.used, before+10)
	}
	r.Close()
	if acct.used != 0 {
		t.Errorf("after Close, %d bytes still charged", acct.used)
	}
}

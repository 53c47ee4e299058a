package reassembly

import (
	"fmt"
	"slices"
	"strings"
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

// TestBufferEvictsAttempts: when a buffer's charge is refused, entries
// without a payload byte (attempts) are evicted, the longest idle first,
// before bytes are given up; a connection with data is not, though it
// is idle longer.
func TestBufferEvictsAttempts(t *testing.T) {
	const attempts = 8
	pdu := int(4 * entrySize)
	acct := &ownTotal{limit: 2*2*entrySize + attempts*entrySize + 4096}
	var log []string
	var evicted []int
	r := New(func(*ConnInfo) ConnHandler {
		return &recorder{log: &log, frame: func(_ Dir, b []byte, _ bool) FrameResult { return bigFrame(b) }}
	}, Limits{Account: acct, ConnCost: int(2 * entrySize)})
	r.OnEvict = func(c *ConnInfo) { evicted = append(evicted, c.Stream) }
	frame := uint64(0)
	next := func(p pkt) { frame++; feedOne(r, frame, p) }
	// Stream 0, the longest idle, has delivered a PDU; stream 1 has
	// begun one; streams 2 to 9 are attempts, which fill the account.
	next(pkt{seq: cISN, flags: "S", conn: 0})
	next(c2s(0, 0, 0, 0, 0).onConn(0))
	next(pkt{seq: cISN, flags: "S", at: 1, conn: 1})
	body := make([]byte, pdu)
	body[2], body[3] = byte((pdu-4)>>8), byte(pdu-4)
	next(c2s(0, body[:2]...).atMs(1).onConn(1)) // too short to say its length

	for i := range attempts {
		next(pkt{seq: cISN, flags: "S", at: 2, conn: 2 + i})
	}
	next(c2s(2, body[2:]...).atMs(3).onConn(1))
	if len(evicted) == 0 || slices.Contains(evicted, 0) || slices.Contains(evicted, 1) {
		t.Errorf("evicted %v, want attempts only (streams 2 to %d)", evicted, 1+attempts)
	}
	want := fmt.Sprintf("s1 c2s pdu @0+%d", pdu)
	if !slices.ContainsFunc(log, func(l string) bool { return strings.HasPrefix(l, want) }) {
		t.Errorf("no %q in %q", want, log[:min(len(log), 5)])
	}
	r.Close()
	if acct.used != 0 {
		t.Errorf("after Close, %d bytes still charged", acct.used)
	}
}

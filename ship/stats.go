package ship

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// Stats counts documents (records) by what became of them.
type Stats struct {
	Added    int64 // given to Add
	Shipped  int64 // taken by the engine, Replayed included
	Replayed int64 // of Shipped, from the spool an earlier run left
	// Duplicates the engine already had under the same ID (409 for
	// create): an earlier try got there. Not counted in Shipped.
	Duplicates int64
	Retried    int64 // sent again after a failed try (each resend counts)
	Spooled    int64 // written to the spool
	Pending    int64 // left in the spool at Close, for the next run
	// Refused by the engine for good: a 4xx for the request or for the
	// document. Not retried.
	Refused int64
	// Dropped past the spool's bound (or, without a spool, past the
	// memory budget), oldest first, or unreadable in the spool.
	Dropped int64
	// Unsent when Close gave up on an unreachable engine, without a spool
	// to keep them.
	Unsent int64

	Requests  int64 // bulk requests sent, retries included
	BytesSent int64 // their gzipped bodies

	// What the closing line names.
	URL                     string
	SpoolDir                string
	SpoolBytes, MemoryBytes int64
}

// String is the closing line for stderr, e.g.
//
//	ship: 14403 records shipped to http://vl:9428/insert/elasticsearch/_bulk in 12 requests; 300 retried, 512 spooled (0 left in /var/spool/mcdissect), 0 refused, 0 dropped
func (s Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ship: %d records shipped to %s in %d requests", s.Shipped, s.URL, s.Requests)
	if s.Replayed > 0 {
		fmt.Fprintf(&b, " (%d of them from the spool of an earlier run)", s.Replayed)
	}
	fmt.Fprintf(&b, "; %d retried, %d spooled", s.Retried, s.Spooled)
	if s.SpoolDir != "" {
		fmt.Fprintf(&b, " (%d left in %s for the next run)", s.Pending, s.SpoolDir)
	}
	fmt.Fprintf(&b, ", %d refused, %d dropped", s.Refused, s.Dropped)
	if s.Duplicates > 0 {
		fmt.Fprintf(&b, ", %d already in the engine", s.Duplicates)
	}
	if s.Dropped > 0 {
		if s.SpoolDir != "" {
			fmt.Fprintf(&b, " (past the spool's bound of %d MB, oldest first)", s.SpoolBytes>>20)
		} else {
			fmt.Fprintf(&b, " (past the memory budget of %d MB, oldest first; --ship-spool keeps them on disk)", s.MemoryBytes>>20)
		}
	}
	if s.Unsent > 0 {
		fmt.Fprintf(&b, "; %d NOT sent: the engine was unreachable at exit and there is no spool (--ship-spool)", s.Unsent)
	}
	return b.String()
}

// counters are the live Stats.
type counters struct {
	added, shipped, replayed, duplicates, retried, spooled,
	refused, dropped, unsent, requests, bytesSent atomic.Int64
}

func (c *counters) stats() Stats {
	return Stats{
		Added:      c.added.Load(),
		Shipped:    c.shipped.Load(),
		Replayed:   c.replayed.Load(),
		Duplicates: c.duplicates.Load(),
		Retried:    c.retried.Load(),
		Spooled:    c.spooled.Load(),
		Refused:    c.refused.Load(),
		Dropped:    c.dropped.Load(),
		Unsent:     c.unsent.Load(),
		Requests:   c.requests.Load(),
		BytesSent:  c.bytesSent.Load(),
	}
}

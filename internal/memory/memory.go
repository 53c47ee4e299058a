// Package memory is mcdissect's memory policy: a soft limit near what the
// pipeline really holds, raised with what a run's budget holds (NewBudget),
// a collector target suited to how fast it allocates (another when PDUs
// are decoded Lite), no heap profile sampling unless a profile is asked
// for, and huge pages for the heap of a run over a big capture file. What
// the user sets (GOMEMLIMIT, GOGC, GODEBUG) wins.
package memory

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/mcdissect/mcdissect/budget"
)

// softLimit keeps the heap near what the pipeline really holds (a few
// tens of MB whatever the capture's size): without it the collector lets
// the heap grow to twice the live size before it runs.
const softLimit = 80 << 20

// NewBudget is a run's memory budget (package budget). Unless the user set
// GOMEMLIMIT, the runtime's soft limit follows what it holds, budgetRoom
// above it and never below softLimit: a budget full of held bytes (a
// hostile capture's connections and levels) leaves the collector room
// instead of making it run without end, while an empty one keeps the heap
// as small as before.
func NewBudget() *budget.Budget {
	b := budget.New(0)
	if os.Getenv("GOMEMLIMIT") == "" {
		b.Watch(4<<20, func(used int64) {
			limits.mu.Lock()
			limits.budget = used
			limits.set()
			limits.mu.Unlock()
		})
	}
	return b
}

// budgetRoom is the heap the soft limit leaves above a full budget: the
// records and trees in flight.
const budgetRoom = 64 << 20

// liveRoom is the heap the soft limit leaves above the live heap, whatever
// holds it: memory the budget is not charged (the protocol data compiled
// for the versions a capture speaks, pools, batches in flight) must not
// leave the collector a few MB to work in. A real capture with play
// sessions of six versions holds some 60 MB live; under a limit of 80 MB
// its -V spent 42 % of its CPU collecting. The live heap alone never asks
// for more than a full budget does (liveMax): where the budget's holdings
// are what is live (a hostile capture), the budget's rule decides.
const (
	liveRoom = 48 << 20
	liveMax  = budget.DefaultLimit + budgetRoom
)

// limiter is the soft limit's inputs: the limit is the largest of
// softLimit, the budget's bytes plus budgetRoom and the live heap plus
// liveRoom.
type limiter struct {
	mu     sync.Mutex
	budget int64 // what the budget held when it last moved (NewBudget)
	live   int64 // the live heap after the last collection (watchLive)
}

var limits limiter

// set applies the limit; l.mu is held.
func (l *limiter) set() {
	debug.SetMemoryLimit(max(softLimit, l.budget+budgetRoom, min(l.live+liveRoom, liveMax)))
}

// watchLive has the limit follow the live heap: after every collection,
// the live heap it found raises the limit, or lowers it back.
func watchLive() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		// A sentinel with a pointer is never tiny-allocated: its cleanup
		// runs after the first collection that finds it unreachable.
		s := &struct{ p *int }{}
		runtime.AddCleanup(s, func(struct{}) {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				limits.mu.Lock()
				limits.live = int64(sample[0].Value.Uint64())
				limits.set()
				limits.mu.Unlock()
			}
			arm()
		}, struct{}{})
	}
	arm()
}

// gcPercent: the live heap is small (pooled records, a few connections'
// state) while PDUs and trees are allocated fast, so the default GOGC=100
// collects every few MB. A higher target, capped by the soft limit above,
// collects a few times less often for the same peak.
const gcPercent = 400

// liteGCPercent is the target when PDUs are decoded Lite (no trees): little
// is allocated, and a heap let grow to five times its live size only costs
// page faults (a summary of 100 MB: 85 MB resident and 20,000 faults at
// 400, 50 MB and 11,000 at 100, for the same user time).
const liteGCPercent = 100

// Init sets the policy; profile says whether a heap profile will be
// written. Call it first: the sampling rate must be set before the program
// allocates.
func Init(profile bool) {
	if !profile {
		// Go samples allocations for a heap profile by default; its
		// buckets were 1.6 MB of the 1 GB real capture's JSON run, held
		// for nothing unless a profile is asked for.
		runtime.MemProfileRate = 0
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softLimit)
		watchLive()
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}

// Lite sets the collector's target for a run that decodes PDUs Lite, and
// returns what puts the previous one back.
func Lite() (undo func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(liteGCPercent)
	return func() { debug.SetGCPercent(old) }
}

// HugePagesFrom: capture files this large have the heap asked for huge
// pages (ForFile).
const HugePagesFrom = 4 << 20

// ForFile prepares the heap for a run over a capture file of size bytes
// (-1: not a regular file): a big one has as much of the heap as it may
// hold (the soft limit, or a lower GOMEMLIMIT) asked for huge pages.
func ForFile(size int64) {
	if size >= HugePagesFrom {
		preferHugePages(int(min(softLimit, debug.SetMemoryLimit(-1)))) // hugepages_linux.go
	}
}

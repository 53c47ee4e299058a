package dissect

import (
	"strconv"
	"sync"
	"time"
)

// A Release says why the pipeline outputs a PDU it holds (PDU.Pending)
// before what completes it came: a request before its response, a Classic
// ExtEntry before the other side's list. The protocols' GiveUp takes it,
// so that the note on the record gives the reason that is true: a request
// held for a live capture's short hold was not given up because too much
// waited behind it.
type Release struct {
	Why ReleaseWhy
	// Max is the bound that was passed: records (ReleaseCount) or the
	// memory budget's bytes (ReleaseMemory).
	Max int
	// Hold is how long a PDU may be held (ReleaseHold), in packet time;
	// 0: not at all (--hold 0).
	Hold time.Duration
}

// ReleaseWhy is the reason of a Release.
type ReleaseWhy uint8

const (
	ReleaseCount  ReleaseWhy = iota // too many records waited behind it
	ReleaseMemory                   // the run's memory budget was spent (records behind it, and what else it holds)
	ReleaseHold                     // it was held as long as the hold allows
	ReleaseEnd                      // the input ended
)

// Reason says why, as the note gives it in parentheses.
func (r Release) Reason() string {
	switch r.Why {
	case ReleaseCount:
		return strconv.Itoa(r.Max) + " records waited behind it, the most the pipeline holds"
	case ReleaseMemory:
		size := strconv.Itoa(r.Max) + " bytes"
		if r.Max >= 1<<20 && r.Max%(1<<20) == 0 {
			size = strconv.Itoa(r.Max>>20) + " MiB"
		}
		return "the run's memory budget of " + size + " was spent, by the records waiting behind it and what else the run holds"
	case ReleaseHold:
		if r.Hold <= 0 {
			return "--hold 0: no record waits"
		}
		return "held " + r.Hold.String() + ", the longest the hold allows"
	}
	return "the input ended"
}

// Remedy names what shows the link all the same: "Remedy can".
func (r Release) Remedy() string {
	if r.Why == ReleaseHold {
		return "a longer --hold, or -2 on a saved capture,"
	}
	return "-2, reading a file twice,"
}

// ReleaseTexts keeps the note a protocol makes for each Release: a busy
// capture gives up on many requests, for a few reasons, and the note is
// the same each time.
type ReleaseTexts struct {
	mu   sync.Mutex
	m    map[Release]string
	make func(Release) string
}

// NewReleaseTexts makes the notes with f.
func NewReleaseTexts(f func(Release) string) *ReleaseTexts {
	return &ReleaseTexts{m: map[Release]string{}, make: f}
}

// Of is the note for r.
func (t *ReleaseTexts) Of(r Release) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s, ok := t.m[r]
	if !ok {
		s = t.make(r)
		if len(t.m) < 64 { // a few reasons a run; tests make more
			t.m[r] = s
		}
	}
	return s
}

package dissect

import (
	"cmp"
	"slices"
	"sync"
	"time"
)

// Later is what a first pass over a capture learned about the requests it
// had to output before their responses came (tshark's -2). On a busy
// capture the pipeline holds a request back only so long (a thousand
// records): past that the request goes out with a note that it cannot
// show its link. A second pass over the same file, given the first pass's
// Later, writes its outcome (Response in frame N, mc.outcome and what
// decided it) into such a request when it gives up on it, as if it had
// waited.
//
// A Wait calls RecordEnd in the first pass, when the fate of a request
// given up on is known, and LookupEnd in the second, when it gives up on
// one. A request is named by the frame that carried it and a kind, a
// number of its protocol's choosing that tells apart requests one frame
// may carry (an SLP Status Request and a Ping). RecordEnd does nothing
// once the pass is over (Seal); LookupEnd finds nothing before it. The methods are safe for
// concurrent use, and do nothing on a nil Later.
type Later struct {
	mu     sync.Mutex
	recs   []laterRec
	strs   []string // the texts of the ends recorded (End.Via, End.Why), strs[0] ""
	notes  map[laterTag]uint64
	sealed bool
}

// laterTag names a fact about a PDU that is no request: the frame that
// carried it and a tag of its protocol's choosing (Note).
type laterTag struct {
	frame uint64
	tag   string
}

// laterRec is one request's end: end packs the outcome, who ended it, its
// texts (indexes into strs) and its frame; dt is the time from the request
// to that frame.
type laterRec struct {
	key, end uint64
	dt       int64
}

const (
	laterFrameBits = 40
	laterMaxStrs   = 255
)

// MaxLater bounds the requests a Later remembers (24 bytes each): past it
// a request given up on keeps its note, which stays true.
const MaxLater = 1 << 22

func laterKey(frame uint64, kind uint8) uint64 { return frame<<4 | uint64(kind&15) }

// str is the index of s in the texts, added if there is room (0, no text,
// when there is not).
func (l *Later) str(s string) uint64 {
	if s == "" {
		return 0
	}
	for i, t := range l.strs {
		if t == s {
			return uint64(i)
		}
	}
	if len(l.strs) == 0 {
		l.strs = append(l.strs, "")
	}
	if len(l.strs) > laterMaxStrs {
		return 0
	}
	l.strs = append(l.strs, s)
	return uint64(len(l.strs) - 1)
}

// RecordEnd notes how the request of frame and kind, sent at t, that was
// given up on ended.
func (l *Later) RecordEnd(frame uint64, kind uint8, e End, t time.Time) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sealed || len(l.recs) >= MaxLater {
		return
	}
	end := e.Frame&(1<<laterFrameBits-1) | uint64(e.Outcome&15)<<40 | uint64(e.By&3)<<44 | l.str(e.Via)<<46 | l.str(e.Why)<<54
	var dt int64
	if !e.Time.IsZero() && !t.IsZero() {
		dt = int64(e.Time.Sub(t))
	}
	l.recs = append(l.recs, laterRec{laterKey(frame, kind), end, dt})
}

// Seal ends the first pass: Lookup answers from now on.
func (l *Later) Seal() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sealed = true
	slices.SortStableFunc(l.recs, func(a, b laterRec) int { return cmp.Compare(a.key, b.key) })
}

// LookupEnd returns what the first pass recorded for the request of frame
// and kind, sent at t. A request recorded twice (two of one kind in one
// frame) is not told apart: ok is false, as for one never recorded.
func (l *Later) LookupEnd(frame uint64, kind uint8, t time.Time) (e End, ok bool) {
	if l == nil {
		return End{}, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.sealed {
		return End{}, false
	}
	k := laterKey(frame, kind)
	i, found := slices.BinarySearchFunc(l.recs, k, func(r laterRec, k uint64) int { return cmp.Compare(r.key, k) })
	if !found || (i+1 < len(l.recs) && l.recs[i+1].key == k) {
		return End{}, false
	}
	r := l.recs[i]
	e = End{Outcome: Outcome(r.end >> 40 & 15), Frame: r.end & (1<<laterFrameBits - 1), By: Dir(r.end >> 44 & 3)}
	e.Via, e.Why = l.text(r.end>>46&255), l.text(r.end>>54&255)
	if e.Frame != 0 && !t.IsZero() {
		e.Time = t.Add(time.Duration(r.dt))
	}
	return e, true
}

func (l *Later) text(i uint64) string {
	if int(i) < len(l.strs) {
		return l.strs[i]
	}
	return ""
}

// Note records v, a fact the first pass learned after it had to output
// the PDU of frame that tag names (a Classic ExtEntry's name: whether the
// other side announced it too, known once the other side's list came).
// Unlike Record's kinds, a tag tells apart any number of PDUs of one
// frame. A fact noted twice for one tag keeps the first. Note does
// nothing once the pass is over, or past MaxLater facts.
func (l *Later) Note(frame uint64, tag string, v uint64) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sealed || len(l.notes) >= MaxLater {
		return
	}
	if l.notes == nil {
		l.notes = map[laterTag]uint64{}
	}
	k := laterTag{frame, tag}
	if _, dup := l.notes[k]; !dup {
		l.notes[k] = v
	}
}

// Noted returns what the first pass noted for frame and tag.
func (l *Later) Noted(frame uint64, tag string) (v uint64, ok bool) {
	if l == nil {
		return 0, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.sealed {
		return 0, false
	}
	v, ok = l.notes[laterTag{frame, tag}]
	return v, ok
}

// Len is how many requests were recorded.
func (l *Later) Len() int {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.recs)
}

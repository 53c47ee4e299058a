package dissect

import (
	"cmp"
	"slices"
	"sync"
)

// Later is what a first pass over a capture learned about the requests it
// had to output before their responses came (tshark's -2). On a busy
// capture the pipeline holds a request back only so long (a thousand
// records): past that the request goes out with a note that it cannot
// show its link. A second pass over the same file, given the first pass's
// Later, writes the link (Response in frame N) or the "no response" item
// into such a request when it gives up on it, as if it had waited.
//
// A tracker calls Record in the first pass, when the fate of a request
// given up on is known, and Lookup in the second, when it gives up on one.
// A request is named by the frame that carried it and a kind, a number of
// its protocol's choosing that tells apart requests one frame may carry
// (an SLP Status Request and a Ping). Record does nothing once the pass is
// over (Seal); Lookup finds nothing before it. The methods are safe for
// concurrent use, and do nothing on a nil Later.
type Later struct {
	mu     sync.Mutex
	recs   []laterRec
	notes  map[laterTag]uint64
	sealed bool
}

// laterTag names a fact about a PDU that is no request: the frame that
// carried it and a tag of its protocol's choosing (Note).
type laterTag struct {
	frame uint64
	tag   string
}

type laterRec struct{ key, resp uint64 }

// What became of a request given up on, besides its response's frame.
const (
	NoResponse   uint64 = 0              // none came within its window
	CaptureEnded uint64 = ^uint64(0) - 1 // none came before the capture ended
)

// MaxLater bounds the requests a Later remembers (16 bytes each): past it
// a request given up on keeps its note, which stays true.
const MaxLater = 1 << 22

func laterKey(frame uint64, kind uint8) uint64 { return frame<<4 | uint64(kind&15) }

// Record notes how the request of frame and kind that was given up on
// ended: resp is its response's frame, NoResponse or CaptureEnded.
func (l *Later) Record(frame uint64, kind uint8, resp uint64) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sealed {
		return
	}
	if len(l.recs) >= MaxLater {
		return
	}
	l.recs = append(l.recs, laterRec{laterKey(frame, kind), resp})
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

// Lookup returns what the first pass recorded for the request of frame
// and kind. A request recorded twice (two of one kind in one frame) is
// not told apart: ok is false, as for one never recorded.
func (l *Later) Lookup(frame uint64, kind uint8) (resp uint64, ok bool) {
	if l == nil {
		return 0, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.sealed {
		return 0, false
	}
	k := laterKey(frame, kind)
	i, found := slices.BinarySearchFunc(l.recs, k, func(r laterRec, k uint64) int { return cmp.Compare(r.key, k) })
	if !found || (i+1 < len(l.recs) && l.recs[i+1].key == k) {
		return 0, false
	}
	return l.recs[i].resp, true
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

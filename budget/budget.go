// Package budget is the process's one memory budget for what the
// pipeline holds across packets: bytes waiting for reassembly, IP
// fragments, per-connection state, Classic levels being joined, records
// held while a request waits for its response, the page's data. Every
// holder charges an Account before it holds and credits it when it lets
// go; the accounts share one limit.
//
// When a charge would pass the limit, the account that asks first gives
// up its own oldest holdings (its Shed function: the holder reports what
// it dropped and why, as an expert item), then, if that is not enough,
// the charge is refused and the holder gives up what it was about to
// hold, and says so. An account that holds more than its share while
// another is refused is asked to shed too: at its next charge or Relieve,
// on its own goroutine, so that no holder's state is touched from
// another goroutine.
//
// A pipeline whose stages run on goroutines of their own opens a Stage
// for each and its accounts in it. A stage's charges are weighed against
// its own holdings and a cap, its part of the limit, which the pipeline
// sets at points of the stage's own work (Cap) and chooses so that the
// caps of the stages at work never add up past the limit: never against
// how far another goroutine has got. A refusal presses the accounts of
// the same stage, and the other stages when the pipeline passes it on
// (Refused, Press). What a stage decides then depends on the input
// alone, and the total stays within the limit.
//
// Accounting is by the bytes a holder keeps (a buffer's capacity, a
// connection's fixed cost), never by a size the wire declares.
package budget

import (
	"strconv"
	"sync"
	"sync/atomic"
)

// DefaultLimit is the budget of a run: with the runtime, the binary and
// the records in flight, a peak RSS within 150 MB.
const DefaultLimit = 48 << 20

// Budget is one limit shared by accounts. It is safe for concurrent use.
type Budget struct {
	limit int64
	used  atomic.Int64
	peak  atomic.Int64

	mu       sync.Mutex
	accounts []*Account

	watchStep int64
	watch     func(used int64)
	watched   atomic.Int64 // the multiple of watchStep last reported

	loose  atomic.Int64 // bytes of the accounts opened on the budget itself, not in a stage
	stages int64        // stages opened

	// A stage: the budget it is part of, its accounts' bytes, its cap,
	// whether a charge was refused since Refused was asked, and how many
	// of its accounts ever held anything.
	root    *Budget
	own     atomic.Int64
	cap     atomic.Int64
	refused atomic.Bool
	active  atomic.Int64
}

// Stage opens a part of the budget for the accounts of one goroutine of
// a pipeline (the package comment says why), capped at the whole limit
// until Cap says otherwise. Open stages before any charge.
func (b *Budget) Stage() *Budget {
	b.mu.Lock()
	b.stages++
	b.mu.Unlock()
	s := &Budget{limit: b.limit, root: b}
	s.cap.Store(b.limit)
	return s
}

// Cap sets what a stage's accounts may hold, at a point of its own work
// that the pipeline makes the same on every run, on the stage's
// goroutine. Holding more than a new cap, the stage gives up its
// accounts' oldest holdings at once (those whose holders give up later,
// such as held records, at their next release).
func (b *Budget) Cap(n int64) {
	b.cap.Store(n)
	if over := b.own.Load() - n; over > 0 {
		r := b.top()
		r.mu.Lock()
		var mine []*Account
		for _, a := range r.accounts {
			if a.b == b && a.shed != nil {
				mine = append(mine, a)
			}
		}
		r.mu.Unlock()
		for _, a := range mine {
			if over = b.own.Load() - n; over <= 0 {
				break
			}
			a.shedOnce(over)
		}
	}
}

// Held is what a stage's accounts hold; Over whether it is more than
// the stage's cap (a holder that gives up later must still do so).
func (b *Budget) Held() int64 { return b.own.Load() }
func (b *Budget) Over() bool  { return b.own.Load() > b.cap.Load() }

// Refused reports whether a charge of the stage was refused since the
// last call: the pipeline passes it on to the other stages (Press).
func (b *Budget) Refused() bool { return b.refused.Swap(false) }

// Press asks the stage's accounts that hold more than their share to
// shed, at their next charge or Relieve: another stage was refused.
func (b *Budget) Press() { b.top().press(nil, b) }

func (b *Budget) top() *Budget {
	if b.root != nil {
		return b.root
	}
	return b
}

// New returns a budget of limit bytes (DefaultLimit if limit <= 0).
func New(limit int64) *Budget {
	if limit <= 0 {
		limit = DefaultLimit
	}
	return &Budget{limit: limit}
}

// Watch calls fn with the bytes charged whenever they cross a multiple of
// step, up or down, on the goroutine that charged or credited: a process
// lets the runtime's soft memory limit follow what the pipeline holds, so
// that a full budget does not make the collector thrash and an empty one
// keeps the heap small. Call it before any charge.
func (b *Budget) Watch(step int64, fn func(used int64)) {
	b.watchStep, b.watch = step, fn
}

func (b *Budget) changed(used int64) {
	if b.watch == nil {
		return
	}
	m := used / b.watchStep
	if old := b.watched.Load(); m != old && b.watched.CompareAndSwap(old, m) {
		b.watch(used)
	}
}

// Limit is the budget's limit in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// Used is the bytes charged now; Peak the most charged at once.
func (b *Budget) Used() int64 { return b.used.Load() }
func (b *Budget) Peak() int64 { return b.peak.Load() }

// Account opens an account named for what it holds ("reassembly",
// "fragments", "levels"). shed, called on the goroutine that charges the
// account, gives up the account's oldest holdings until at least need
// bytes are credited back or nothing is left, and returns how many it
// credited; nil sheds nothing.
func (b *Budget) Account(name string, shed func(need int64) int64) *Account {
	a := &Account{b: b, name: name, shed: shed}
	r := b.top()
	r.mu.Lock()
	r.accounts = append(r.accounts, a)
	r.mu.Unlock()
	return a
}

// Accounts reports each account's name and the bytes it holds, in the
// order they were opened.
func (b *Budget) Accounts() []Usage {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Usage, len(b.accounts))
	for i, a := range b.accounts {
		out[i] = Usage{Name: a.name, Used: a.used.Load(), Peak: a.peak.Load(), Refused: a.refused.Load(), Shed: a.shedCount.Load()}
	}
	return out
}

// Usage is an account's state.
type Usage struct {
	Name       string
	Used, Peak int64
	// Refused counts charges refused; Shed the times the account gave
	// up holdings to make room.
	Refused, Shed int64
}

func (u Usage) String() string {
	return u.Name + " " + strconv.FormatInt(u.Used, 10) + " bytes (peak " + strconv.FormatInt(u.Peak, 10) + ")"
}

// Account is one kind of holder's share of the budget. Charge and Credit
// may be called from one goroutine at a time (the holder's); the
// budget's totals are shared.
type Account struct {
	b         *Budget // the budget or the stage it was opened in
	name      string
	active    bool // it has held something (a stage's account: on the stage's goroutine)
	shed      func(need int64) int64
	used      atomic.Int64
	peak      atomic.Int64
	pressed   atomic.Bool // another account was refused while this one held more than its share
	refused   atomic.Int64
	shedCount atomic.Int64
}

// Name is what the account holds.
func (a *Account) Name() string { return a.name }

// Used is the bytes the account holds.
func (a *Account) Used() int64 { return a.used.Load() }

// Charge charges n bytes, giving up the account's oldest holdings first
// if the budget would pass its limit. It reports false, charging nothing,
// when that is not enough: the caller must not hold the bytes.
func (a *Account) Charge(n int64) bool {
	if n <= 0 {
		return true
	}
	s, b := a.b, a.b.top()
	if a.pressed.Load() {
		a.relieve()
	}
	for {
		if over := s.weigh(n); over > 0 {
			if a.shed == nil || a.used.Load() == 0 || a.shedOnce(over) == 0 {
				a.refused.Add(1)
				if s.root != nil {
					s.refused.Store(true)
				}
				b.press(a, s)
				return false
			}
			continue
		}
		u := b.used.Add(n)
		if s.root == nil {
			if u > b.limit {
				b.used.Add(-n) // another account charged meanwhile: try again
				continue
			}
			b.loose.Add(n)
		} else {
			s.own.Add(n)
			if !a.active {
				a.active = true
				s.active.Add(1)
			}
		}
		raise(&b.peak, u)
		raise(&a.peak, a.used.Add(n))
		b.changed(u)
		return true
	}
}

// weigh is by how much a charge of n would pass the limit: for a stage,
// by its own holdings against its cap (less what accounts outside any
// stage hold: the live page's); for the budget itself, by everything
// held now.
func (s *Budget) weigh(n int64) int64 {
	if r := s.root; r != nil {
		return s.own.Load() + r.loose.Load() + n - s.cap.Load()
	}
	return s.used.Load() + n - s.limit
}

// Credit gives n bytes back.
func (a *Account) Credit(n int64) {
	if n <= 0 {
		return
	}
	a.used.Add(-n)
	s, b := a.b, a.b.top()
	if s.root != nil {
		s.own.Add(-n)
	} else {
		b.loose.Add(-n)
	}
	b.changed(b.used.Add(-n))
}

// Relieve sheds what the account was asked to (another account was
// refused while this one held more than its share): holders call it from
// their housekeeping, on their own goroutine.
func (a *Account) Relieve() {
	if a.pressed.Load() {
		a.relieve()
	}
}

func (a *Account) relieve() {
	a.pressed.Store(false)
	if share := a.b.top().share(a.b); a.shed != nil && a.used.Load() > share {
		a.shedOnce(a.used.Load() - share)
	}
}

func (a *Account) shedOnce(need int64) int64 {
	got := a.shed(need)
	if got > 0 {
		a.shedCount.Add(1)
	}
	return got
}

// share is the fair share of the limit of an account opened in s (the
// budget or one of its stages). The budget's own accounts share it
// evenly. A stage's accounts share the stage's even part of it, counting
// only those that ever held something: they charge on the stage's
// goroutine, so the count is the same on every run, where an account
// opened lazily may be opened by another goroutine.
func (b *Budget) share(s *Budget) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s.root == nil {
		return b.limit / max(int64(len(b.accounts)), 1)
	}
	return b.limit / max(b.stages, 1) / max(s.active.Load(), 1)
}

// press asks the accounts of stage s (or of the budget itself) that hold
// more than their share, other than from, to shed at their next charge
// or Relieve. A stage's refusal presses its own accounts only: the
// pipeline passes it on to the others (Refused, Press). A refusal of an
// account outside any stage (the live page's) presses every account:
// live output depends on timing anyway.
func (b *Budget) press(from *Account, s *Budget) {
	share := b.share(s)
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, a := range b.accounts {
		if a != from && (a.b == s || s.root == nil) && a.used.Load() > share {
			a.pressed.Store(true)
		}
	}
}

func raise(p *atomic.Int64, v int64) {
	for {
		old := p.Load()
		if v <= old || p.CompareAndSwap(old, v) {
			return
		}
	}
}

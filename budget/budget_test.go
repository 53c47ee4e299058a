package budget

import (
	"sync"
	"testing"
)

// holder is a test holder: items in the order they were charged, the
// oldest shed first.
type holder struct {
	a     *Account
	items []int64
	shed  int
}

func newHolder(b *Budget, name string) *holder {
	h := &holder{}
	h.a = b.Account(name, func(need int64) int64 {
		var got int64
		for got < need && len(h.items) > 0 {
			got += h.items[0]
			h.a.Credit(h.items[0])
			h.items = h.items[1:]
			h.shed++
		}
		return got
	})
	return h
}

func (h *holder) hold(n int64) bool {
	if !h.a.Charge(n) {
		return false
	}
	h.items = append(h.items, n)
	return true
}

// TestOldestGoesFirst: past the limit, the account that charges gives up
// its oldest holdings, and the total never passes the limit.
func TestOldestGoesFirst(t *testing.T) {
	b := New(1000)
	h := newHolder(b, "levels")
	for i := range 25 {
		if !h.hold(100) {
			t.Fatalf("charge %d refused", i)
		}
		if b.Used() > b.Limit() {
			t.Fatalf("used %d past the limit", b.Used())
		}
	}
	if h.shed != 15 || len(h.items) != 10 || b.Peak() != 1000 {
		t.Errorf("shed %d, holding %d, peak %d", h.shed, len(h.items), b.Peak())
	}
}

// TestRefusedThenPressed: an account with nothing to shed is refused; the
// account that holds more than its share sheds at its next charge, and
// the refused one then gets its room.
func TestRefusedThenPressed(t *testing.T) {
	b := New(1000)
	big := newHolder(b, "reassembly")
	small := newHolder(b, "fragments")
	for range 10 {
		big.hold(100)
	}
	if small.hold(100) {
		t.Fatal("a charge past the limit was accepted")
	}
	if u := b.Accounts()[1]; u.Refused != 1 {
		t.Fatalf("%+v", u)
	}
	big.a.Relieve() // its housekeeping
	if big.a.Used() > b.Limit()/2 {
		t.Fatalf("the pressed account holds %d, past its share", big.a.Used())
	}
	if !small.hold(100) {
		t.Fatal("refused after the other account shed")
	}
}

// TestNeverPastTheLimit: accounts charging and crediting at once on
// several goroutines never take the total past the limit.
func TestNeverPastTheLimit(t *testing.T) {
	b := New(10000)
	var wg sync.WaitGroup
	for g := range 4 {
		h := newHolder(b, string(rune('a'+g)))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20000 {
				h.hold(int64(1 + i%300))
				if i%7 == 0 {
					h.a.Relieve()
				}
			}
		}()
	}
	wg.Wait()
	if b.Peak() > b.Limit() {
		t.Fatalf("peak %d past the limit %d", b.Peak(), b.Limit())
	}
	var sum int64
	for _, u := range b.Accounts() {
		sum += u.Used
	}
	if sum != b.Used() {
		t.Fatalf("accounts hold %d, the budget says %d", sum, b.Used())
	}
}

// TestWatch: the watcher hears of every crossing of a step, up and down.
func TestWatch(t *testing.T) {
	b := New(1000)
	var heard []int64
	b.Watch(100, func(used int64) { heard = append(heard, used) })
	h := newHolder(b, "x")
	h.hold(50)
	h.hold(60)      // 110: past 100
	h.hold(200)     // 310: past 300
	h.a.Credit(260) // 50: below 100
	if len(heard) != 3 || heard[0] != 110 || heard[1] != 310 || heard[2] != 50 {
		t.Errorf("heard %v", heard)
	}
}

// TestStagesWithinTheirCaps: a stage's charge is weighed against its own
// holdings and its cap, never against what another stage holds now; a
// lower cap makes it give up its oldest holdings at once; a refusal is
// told once and presses only when passed on.
func TestStagesWithinTheirCaps(t *testing.T) {
	b := New(1000)
	front, back := b.Stage(), b.Stage()
	front.Cap(400)
	back.Cap(600)
	f, k := newHolder(front, "reassembly"), newHolder(back, "held records")
	for i := range 6 {
		if !k.hold(100) {
			t.Fatalf("back charge %d refused within its cap", i)
		}
	}
	f.a.shed = nil // nothing to shed: refused at its cap
	for i := range 4 {
		if !f.hold(100) {
			t.Fatalf("front charge %d refused within its cap", i)
		}
	}
	if f.hold(100) {
		t.Fatal("a charge past the front's cap was accepted")
	}
	if b.Used() != 1000 || b.Peak() != 1000 {
		t.Fatalf("used %d, peak %d", b.Used(), b.Peak())
	}
	if !front.Refused() || front.Refused() {
		t.Fatal("Refused is not told exactly once")
	}
	if k.a.pressed.Load() {
		t.Fatal("a refusal of the front pressed the back's account by itself")
	}
	back.Press()
	if !k.a.pressed.Load() {
		t.Fatal("Press did not press the back's account past its share")
	}
	back.Cap(250)
	if k.a.Used() > 250 || k.shed != 4 {
		t.Fatalf("under a cap of 250 the back holds %d (shed %d)", k.a.Used(), k.shed)
	}
	var sum int64
	for _, u := range b.Accounts() {
		sum += u.Used
	}
	if sum != b.Used() || front.Held()+back.Held() != b.Used() {
		t.Fatalf("accounts hold %d, stages %d+%d, the budget says %d", sum, front.Held(), back.Held(), b.Used())
	}
}

package analyze

import (
	"runtime"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/budget"
	"github.com/mcdissect/mcdissect/record"
)

// TestFullBudgetSameEveryRun: when the budget runs out, what each end
// gives up (held requests output unlinked, reassembly's buffer limits)
// depends on the input alone: the same records on one core and two, and
// with the back end slowed so that the front end runs far ahead of it;
// and the two ends together never hold more than the limit.
func TestFullBudgetSameEveryRun(t *testing.T) {
	path := mixedCapture(t, 5)
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	const limit = 96 << 10
	run := func(procs int, slow bool) ([]string, []budget.Usage) {
		runtime.GOMAXPROCS(procs)
		if slow {
			n := 0
			testPanic = func(*record.Record) {
				if n++; n%64 == 0 {
					time.Sleep(time.Millisecond)
				}
			}
			defer func() { testPanic = nil }()
		}
		b := budget.New(limit)
		lines := runLines(t, path, Options{Budget: b}, true)
		if b.Peak() > limit {
			t.Errorf("%d cores, slowed %v: the budget's peak %d passes its limit %d", procs, slow, b.Peak(), limit)
		}
		return lines, b.Accounts()
	}
	want, acct := run(2, false)
	refused := int64(0)
	for _, u := range acct {
		refused += u.Refused
	}
	if refused == 0 {
		t.Fatalf("the budget of %d bytes refused nothing: the test tests nothing (%v)", limit, acct)
	}
	got, _ := run(2, true)
	diffLines(t, "the back end slowed", got, want)
	got, _ = run(1, false)
	diffLines(t, "one core", got, want)
}

package analyze

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/budget"
	"github.com/mcdissect/mcdissect/internal/capgen"
	"github.com/mcdissect/mcdissect/reassembly"
	"github.com/mcdissect/mcdissect/record"
)

// playRun runs the pipeline over a hostile play capture with a budget of
// limit bytes, and returns the records' undissected bytes by reason and
// the streams that gave any up for memory.
func playRun(t *testing.T, write func(*capgen.Writer), limit int64) (b *budget.Budget, undissected map[string]int, gaveUp map[int]bool) {
	t.Helper()
	capture := buildCapture(t, write)
	b = budget.New(limit)
	src, err := OpenFile(bytes.NewReader(capture))
	if err != nil {
		t.Fatal(err)
	}
	undissected, gaveUp = map[string]int{}, map[int]bool{}
	a := New(Options{Budget: b}, SinkFunc(func(r *record.Record) error {
		if r.Kind == record.KindUndissected {
			undissected[r.Reason] += len(r.Data())
			if strings.Contains(r.Reason, "buffer limit") {
				gaveUp[r.Stream] = true
			}
		}
		return nil
	}))
	if _, err := Run(src, a); err != nil {
		t.Fatal(err)
	}
	return b, undissected, gaveUp
}

// TestPlayPartialWithinBudget: connections in play each leaving a
// compressed packet of 1.5 MB unfinished (a slow-loris of chunk data and
// of zlib bombs mid-inflate) hold their bytes within the one budget: past
// it they give them up, and each says so with the bytes it gave up.
func TestPlayPartialWithinBudget(t *testing.T) {
	const n = 12
	b, undissected, gaveUp := playRun(t, func(w *capgen.Writer) { w.PlayPartialPackets(n) }, 4<<20)
	if b.Peak() > b.Limit() {
		t.Errorf("budget peak %d of %d", b.Peak(), b.Limit())
	}
	// 18 MB of partial packets in 4 MiB: most connections give theirs up.
	if len(gaveUp) < n/2 || undissected["buffer limit"] < 8<<20 {
		t.Errorf("%d of %d connections said they gave up bytes for memory; undissected by reason %v", len(gaveUp), n, undissected)
	}
}

// TestPlayEncryptedNotHeld: encrypted sessions no key opens are counted
// and reported as they come, never held for a decoder: a connection holds
// its entry and the last bytes of each direction kept for retransmission
// checks (reassembly's history), whatever its sessions carry, and every
// byte after Encryption Response is an undissected range saying which key
// would open it.
func TestPlayEncryptedNotHeld(t *testing.T) {
	const n = 40
	b, undissected, _ := playRun(t, func(w *capgen.Writer) { w.PlayEncrypted(n) }, 4<<20)
	encrypted := 0
	for reason, k := range undissected {
		if strings.Contains(reason, "MC_SHARED_SECRET") {
			encrypted += k
		}
	}
	// 32 KB each way a connection
	if want := n * 2 * 32 << 10; encrypted < want {
		t.Errorf("%d encrypted bytes reported, want at least %d; by reason %v", encrypted, want, undissected)
	}
	if most := int64(n * (connCost + 2*reassembly.DefaultHistoryBytes + 4<<10)); b.Peak() > most {
		t.Errorf("budget peak %d for bytes nothing can frame, want at most %d (a connection's entry and histories)", b.Peak(), most)
	}
}

package dissect

import "testing"

// TestSetInfo: Info is b's text in either mode and does not change when b
// does; a Lite PDU reuses its buffer from one SetInfo to the next.
func TestSetInfo(t *testing.T) {
	for _, lite := range []bool{false, true} {
		p := &PDU{Lite: lite}
		b := []byte("Handshake Request, session 0x01020304")
		p.SetInfo(b)
		b[0] = 'X'
		if p.Info != "Handshake Request, session 0x01020304" {
			t.Fatalf("lite %v: Info %q after its source changed", lite, p.Info)
		}
		p.Reset(nil, 0)
		p.SetInfo([]byte("Stat Request"))
		if p.Info != "Stat Request" {
			t.Fatalf("lite %v: Info %q", lite, p.Info)
		}
		allocs := testing.AllocsPerRun(100, func() { p.SetInfo([]byte("Basic Stat Response, session 0x01020304")) })
		if lite && allocs != 0 {
			t.Errorf("Lite SetInfo allocates %v times", allocs)
		}
		if !lite && allocs != 1 {
			t.Errorf("SetInfo allocates %v times, want 1 (its own string)", allocs)
		}
	}
}

//go:build unix

package serve

import (
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuf is a strings.Builder safe for a writer and a reader.
type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRunFinish: after a file, the page stays until a signal; after a
// live capture a signal stopped, it stops at once. Either way the server
// is closed when Finish returns.
func TestRunFinish(t *testing.T) {
	for _, tc := range []struct {
		name      string
		live      bool
		signalled bool // the signal comes before Finish
		stays     bool
	}{
		{"file", false, false, true},
		{"live stopped by a signal", true, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out syncBuf
			r, err := Start("127.0.0.1:0", Config{}, tc.live, &out)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(out.String(), "Serving the live page at "+r.URL()) {
				t.Errorf("Start said %q", out.String())
			}
			if tc.signalled {
				syscall.Kill(syscall.Getpid(), syscall.SIGHUP)
				for i := 0; len(r.sig) == 0; i++ {
					if i == 500 {
						t.Fatal("the signal did not come")
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
			done := make(chan struct{})
			go func() { r.Finish(&out); close(done) }()
			if tc.stays {
				for i := 0; !strings.Contains(out.String(), "the page stays at "+r.URL()); i++ {
					if i == 500 {
						t.Fatalf("Finish said %q", out.String())
					}
					time.Sleep(10 * time.Millisecond)
				}
				if resp, err := http.Get(r.URL()); err != nil {
					t.Errorf("the page does not stay: %v", err)
				} else {
					resp.Body.Close()
				}
				syscall.Kill(syscall.Getpid(), syscall.SIGHUP)
			}
			<-done
			if strings.Contains(out.String(), "stays") != tc.stays {
				t.Errorf("Finish said %q", out.String())
			}
			if resp, err := http.Get(r.URL()); err == nil {
				resp.Body.Close()
				t.Error("the page is still served after Finish")
			}
		})
	}
}

package serve

import "testing"

// TestListenAddr: a bare port and a missing host are loopback; a host
// given is kept, every interface included; anything else is refused.
func TestListenAddr(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{"8080", "127.0.0.1:8080", ""},
		{":8080", "127.0.0.1:8080", ""},
		{"0.0.0.0:8080", "0.0.0.0:8080", ""},
		{"[::]:8080", "[::]:8080", ""},
		{"localhost:0", "localhost:0", ""},
		{"nope", "", `"nope": give HOST:PORT or PORT, e.g. 127.0.0.1:8080`},
		{"70000", "", `"70000": give HOST:PORT or PORT, e.g. 127.0.0.1:8080`},
	} {
		got, err := ListenAddr(tc.in)
		if got != tc.want || tc.err == "" && err != nil || tc.err != "" && (err == nil || err.Error() != tc.err) {
			t.Errorf("%s: %q, %v", tc.in, got, err)
		}
	}
}

package render

import (
	"io"
	"slices"
	"testing"

	"github.com/mcdissect/mcdissect/protocols"
)

// TestFormats: New knows every format of Formats (only text is the text
// renderer).
func TestFormats(t *testing.T) {
	for _, f := range Formats {
		_, text := New(f, io.Discard, Options{}).(*textRenderer)
		if text != (f == "text") {
			t.Errorf("-T %s: the text renderer is %v", f, text)
		}
	}
}

// TestOnlyProtocols: -O takes the layers, every registered protocol's
// registry and mc, once each.
func TestOnlyProtocols(t *testing.T) {
	names := OnlyProtocols()
	want := []string{"frame", "ip", "ipv6", "tcp", "udp", "mc"}
	for _, p := range protocols.All() {
		want = append(want, p.Registry.Proto)
	}
	for _, w := range want {
		if !slices.Contains(names, w) {
			t.Errorf("%s is not among %v", w, names)
		}
	}
	if len(slices.Compact(slices.Sorted(slices.Values(names)))) != len(names) {
		t.Errorf("a name twice: %v", names)
	}
}

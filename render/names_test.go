package render

import (
	"io"
	"slices"
	"strings"
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

// TestParseOnly: -O's names in order; one it does not take is refused
// with the list.
func TestParseOnly(t *testing.T) {
	if got, err := ParseOnly("tcp,query"); err != nil || !slices.Equal(got, []string{"tcp", "query"}) {
		t.Errorf("tcp,query: %v, %v", got, err)
	}
	if _, err := ParseOnly("tcp,raknett"); err == nil || !strings.HasPrefix(err.Error(), `-O "tcp,raknett": "raknett" is not a protocol; choose among frame, eth, ip`) {
		t.Errorf("raknett: %v", err)
	}
}

// TestResolveFields: fields and columns in order; a name that is neither
// is refused.
func TestResolveFields(t *testing.T) {
	refs, err := ResolveFields([]string{"frame.number", "_ws.col.Info", "query.motd"})
	if err != nil || len(refs) != 3 || refs[0].Name != "frame.number" || refs[2].Name != "query.motd" {
		t.Errorf("%v, %v", refs, err)
	}
	if _, err := ResolveFields([]string{"frame.number", "query.nope"}); err == nil || !strings.Contains(err.Error(), `"query.nope" is not a field name`) {
		t.Errorf("query.nope: %v", err)
	}
}

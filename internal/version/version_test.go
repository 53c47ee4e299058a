package version

import (
	"runtime"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/protocols"
	_ "github.com/mcdissect/mcdissect/protocols/all"
)

// TestWrite: the version line, Go's and the tags, and a line per
// registered protocol.
func TestWrite(t *testing.T) {
	var b strings.Builder
	Write(&b)
	out := b.String()
	for _, want := range []string{"mcdissect ", "\n\nBuilt with " + runtime.Version() + " ", ", gopacket ", "\nBuild tags: ", "\nDissects, as tshark dissects what it knows:\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if len(protocols.All()) < 4 {
		t.Fatal("too few protocols registered")
	}
	for _, p := range protocols.All() {
		if !strings.Contains(out, "  "+p.Name+" ") || !strings.Contains(out, p.Summary) {
			t.Errorf("%s is not listed:\n%s", p.Name, out)
		}
	}
}

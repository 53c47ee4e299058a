package query

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestFields compares the registry with testdata/fields.txt, the documented
// list of filter names and expert items (go test ./... -update rewrites it).
func TestFields(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Minecraft Query: filter names (name, type, label), then expert items (name, severity, summary).\n")
	for _, f := range Registry.Fields() {
		name := f.Name
		if f.Keyed {
			name += ".<key>"
		}
		b.WriteString(name + "\t" + f.Type.String() + "\t" + f.Label + "\n")
	}
	b.WriteString("\n")
	for _, e := range Registry.Experts() {
		b.WriteString(e.Name + "\t" + e.Severity.String() + "\t" + e.Summary + "\n")
	}
	const golden = "testdata/fields.txt"
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("registry differs from %s (run go test -update):\n%s", golden, got)
	}
	// The names the issue and the project's tests rely on.
	for _, name := range []string{"query.magic", "query.type", "query.session_id", "query.session_id_masked",
		"query.challenge_token", "query.motd", "query.gametype", "query.map", "query.numplayers",
		"query.maxplayers", "query.hostport", "query.hostip", "query.kv.hostname", "query.player",
		"query.padding", "query.token_string", "query.request_in", "query.response_in", "query.time"} {
		if _, _, ok := dissect.LookupField(name); !ok {
			t.Errorf("field %s is not registered", name)
		}
	}
	if f, key, _ := dissect.LookupField("query.kv.hostname"); f != fKV || key != "hostname" {
		t.Errorf("query.kv.hostname resolves to %v %q", f, key)
	}
}

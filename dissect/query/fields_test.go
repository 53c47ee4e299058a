package query

import (
	"flag"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestFields compares the registry with testdata/fields.txt, the documented
// list of filter names and expert items (MCDISSECT_UPDATE=1 go test ./... rewrites it).
func TestFields(t *testing.T) {
	dissecttest.Golden(t, "testdata/fields.txt", Registry.Dump(), *update)
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

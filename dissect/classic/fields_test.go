package classic

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

var update = flag.Bool("update", false, "rewrite testdata goldens")

// TestFieldsGolden dumps the registry: the documented list of filter names.
func TestFieldsGolden(t *testing.T) {
	var b strings.Builder
	for _, f := range Registry.Fields() {
		b.WriteString(f.Name + "\t" + f.Type.String() + "\t" + f.Label)
		if f.Unit != "" {
			b.WriteString(" [" + f.Unit + "]")
		}
		b.WriteByte('\n')
	}
	for _, e := range Registry.Experts() {
		b.WriteString(e.Name + "\texpert " + e.Severity.String() + "\t" + e.Summary + "\n")
	}
	const path = "testdata/fields.txt"
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != b.String() {
		t.Errorf("registry differs from %s (run go test -update)", path)
	}
	// The names the issue requires.
	for _, name := range []string{"classic.packet_id", "classic.protocol_version", "classic.username", "classic.verification_key",
		"classic.key_valid", "classic.server_name", "classic.motd", "classic.user_type", "classic.player_id", "classic.x", "classic.y",
		"classic.z", "classic.yaw", "classic.pitch", "classic.block_type", "classic.mode", "classic.message", "classic.level.size_x",
		"classic.level.size_y", "classic.level.size_z", "classic.level.block_count", "classic.cpe.ext_name", "classic.cpe.ext_version",
		"classic.heartbeat.salt", "classic.heartbeat.name"} {
		if f, key, ok := dissect.LookupField(name); !ok || key != "" || f.Name != name {
			t.Errorf("field %s not registered", name)
		}
	}
}

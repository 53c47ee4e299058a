package classic

import (
	"flag"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

var update = flag.Bool("update", false, "rewrite testdata goldens")

// TestFieldsGolden dumps the registry: the documented list of filter names.
func TestFieldsGolden(t *testing.T) {
	dissecttest.Golden(t, "testdata/fields.txt", Registry.Dump(), *update)
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

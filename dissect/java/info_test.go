package java

import (
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
)

// nbtCompound is an anonymous NBT compound (1.20.2+) of the given keys,
// each an empty compound.
func nbtCompound(keys ...string) []byte {
	b := []byte{tagCompound}
	for _, k := range keys {
		b = append(b, tagCompound, byte(len(k)>>8), byte(len(k)))
		b = append(b, k...)
		b = append(b, tagEnd)
	}
	return append(b, tagEnd)
}

// TestRegistryDataInfo: 1.20.2-1.20.4's Registry Data carries the whole
// codec, and its Info names the registries it holds (the root compound's
// keys, bounded); 1.20.5+'s names its one registry. It showed
// `Registry data ""`: the root compound's empty name.
func TestRegistryDataInfo(t *testing.T) {
	many := []string{"minecraft:trim_pattern", "minecraft:trim_material", "minecraft:chat_type", "minecraft:dimension_type", "minecraft:damage_type", "minecraft:worldgen/biome"}
	for _, c := range []struct {
		name, version string
		body          []byte
		want          string
	}{
		{"two", "1.20.4", nbtCompound("minecraft:chat_type", "minecraft:worldgen/biome"), "Registry data: minecraft:chat_type, minecraft:worldgen/biome (2 registries)"},
		{"one", "1.20.2", nbtCompound("minecraft:chat_type"), "Registry data: minecraft:chat_type (1 registry)"},
		{"bounded", "1.20.4", nbtCompound(many...), "Registry data: minecraft:trim_pattern, minecraft:trim_material, minecraft:chat_type, minecraft:dimension_type, … (6 registries)"},
		{"empty", "1.20.4", nbtCompound(), "Registry data"},
		{"1.21.4", "1.21.4", append([]byte{19}, append([]byte("minecraft:chat_type"), 0)...), `Registry data "minecraft:chat_type"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := ForName(c.version)
			if err != nil {
				t.Fatal(err)
			}
			id := int32(-1)
			for i := int32(0); i < 64; i++ {
				if v.PacketName(Config, dissect.DirS2C, i) == "registry_data" {
					id = i
				}
			}
			if id < 0 {
				t.Fatal("no registry_data")
			}
			for _, lite := range []bool{false, true} {
				p := &dissect.PDU{Lite: lite}
				data := append([]byte{byte(id)}, c.body...)
				cur := dissect.Begin(p, RegConfig.Root(), data, len(data))
				idv, idi := varInt(&cur, anonField(dissect.FTInt))
				v.Decode(&cur, Config, dissect.DirS2C, idv, idi)
				cur.Finish()
				if got := string(p.Info); got != c.want {
					t.Errorf("lite %v: Info %q, want %q", lite, got, c.want)
				}
			}
		})
	}
	// a cut codec names nothing rather than a part
	if got := string(appendRootKeys(nil, nbtCompound("a", "b")[:8], false)); got != "" {
		t.Errorf("cut: %q", got)
	}
	if s := string(appendRootKeys(nil, nbtCompound(strings.Repeat("k", 200)), false)); s != ": … (1 registry)" {
		t.Errorf("a long key: %q", s)
	}
}

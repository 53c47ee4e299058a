package classic

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"image/png"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

// Builders for packets, from the seed's tables.

func s64(s string) []byte {
	b := bytes.Repeat([]byte{' '}, 64)
	copy(b, s)
	return b
}

func be16(v int) []byte { return []byte{byte(v >> 8), byte(v)} }
func be32(v int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(v)) }

func cat(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch v := p.(type) {
		case byte:
			b = append(b, v)
		case int:
			b = append(b, byte(v))
		case []byte:
			b = append(b, v...)
		case string:
			b = append(b, s64(v)...)
		}
	}
	return b
}

var (
	c2sMeta = dissect.Meta{Frame: 7, Dir: dissect.DirC2S, Client: "10.0.0.2:50000", Server: "10.0.0.1:25565"}
	s2cMeta = dissect.Meta{Frame: 8, Dir: dissect.DirS2C, Client: "10.0.0.2:50000", Server: "10.0.0.1:25565"}
)

func meta(d dissect.Dir) dissect.Meta {
	if d == dissect.DirC2S {
		return c2sMeta
	}
	return s2cMeta
}

// cpeConn returns a connection where the client identified as CPE and both
// sides announced exts (name, version pairs).
func cpeConn(exts ...any) *Conn {
	c := NewConn(nil)
	c.observe(dissect.DirC2S, cat(0x00, 7, "bob", "key", 0x42))
	for _, d := range []dissect.Dir{dissect.DirS2C, dissect.DirC2S} {
		c.observe(d, cat(0x10, "software", be16(len(exts)/2)))
		for i := 0; i < len(exts); i += 2 {
			c.observe(d, cat(0x11, exts[i].(string), be32(exts[i+1].(int))))
		}
	}
	return c
}

var allExts = []any{"ClickDistance", 1, "CustomBlocks", 1, "HeldBlock", 1, "TextHotKey", 1, "ExtPlayerList", 2, "EnvColors", 1,
	"SelectionCuboid", 1, "BlockPermissions", 1, "ChangeModel", 1, "EnvMapAppearance", 1, "EnvWeatherType", 1, "HackControl", 1,
	"MessageTypes", 1, "PlayerClick", 1, "LongerMessages", 1, "BlockDefinitions", 1, "BlockDefinitionsExt", 1, "BulkBlockUpdate", 1,
	"TextColors", 1, "EnvMapAspect", 1, "EntityProperty", 1, "TwoWayPing", 1, "InventoryOrder", 1, "SetHotbar", 1,
	"SetSpawnpoint", 1, "VelocityControl", 1, "CustomParticles", 1, "CustomModels", 1, "PluginMessages", 1, "ExtEntityTeleport", 1,
	"LightingMode", 1, "CinematicGui", 1, "NotifyAction", 1, "ToggleBlockList", 1}

type pktCase struct {
	name string
	conn func() *Conn
	dir  dissect.Dir
	data []byte
	msg  string
	want map[string]string // filter name → display of its first node
}

func plain() *Conn  { return NewConn(nil) }
func cpeAll() *Conn { return cpeConn(allExts...) }

var packetCases = []pktCase{
	// Client to server (seed table "客户端→服务端").
	{"identification", plain, dissect.DirC2S, cat(0x00, 7, "Notch", "ce5aa197dd3740e196763b3ce9d97cf1", 0x00), "Player Identification", map[string]string{
		"classic.packet_id": "Player Identification (0x00)", "classic.protocol_version": "0.28–0.30 (current) (7)",
		"classic.username": `"Notch"`, "classic.verification_key": `"ce5aa197dd3740e196763b3ce9d97cf1"`,
		"classic.padding": "59 bytes of space (0x20) padding", "classic.unused": "0x00: vanilla client (0x42 would mark CPE)"}},
	{"identification cpe", plain, dissect.DirC2S, cat(0x00, 7, "Notch", "-", 0x42), "Player Identification", map[string]string{
		"classic.unused": "0x42: CPE client (Classic Protocol Extension)"}},
	{"set block create", plain, dissect.DirC2S, cat(0x05, be16(10), be16(20), be16(30), 1, 45), "Set Block", map[string]string{
		"classic.x": "10 (block coordinate, not fixed point)", "classic.y": "20 (block coordinate, not fixed point)", "classic.z": "30 (block coordinate, not fixed point)",
		"classic.mode": "Create (1)", "classic.block_type": "Brick (45)"}},
	{"set block destroy", plain, dissect.DirC2S, cat(0x05, be16(0), be16(1), be16(2), 0, 1), "Set Block", map[string]string{
		"classic.mode": "Destroy (0)", "classic.block_type": "Stone (1)"}},
	// Position: 1040 = 32.5 blocks; 627 = 19.59375 (eye) → feet 1040−… ; yaw 64 = east; pitch 32 = 45° down.
	{"position", plain, dissect.DirC2S, cat(0x08, 0xff, be16(1040), be16(627), be16(-16), 64, 32), "Position and Orientation", map[string]string{
		"classic.player_id": "-1 (255): self, the receiving player", "classic.x": "32.5 blocks (fixed point 1040 ÷ 32)",
		"classic.y": "19.59375 blocks (fixed point 627 ÷ 32)", "classic.feet_y": "18 blocks: Y is eye level, the feet are 51/32 = 1.59375 blocks lower",
		"classic.z": "-0.5 blocks (fixed point -16 ÷ 32)", "classic.yaw": "90° facing east (+X) (raw 64)", "classic.pitch": "45° looking down 45° (raw 32)"}},
	{"message c2s", plain, dissect.DirC2S, cat(0x0d, 0xff, "hello world"), "Message", map[string]string{
		"classic.message_flag": "0xff: unused (player ID 255, self)", "classic.message": `"hello world"`}},
	{"ping v5 padding", plain, dissect.DirC2S, []byte{0x01}, "Ping (after a protocol ≤ 5 identification)", nil},

	// Server to client (seed table "服务端→客户端").
	{"server identification op", plain, dissect.DirS2C, cat(0x00, 7, "&aMy Server", "Welcome", 0x64), "Server Identification", map[string]string{
		"classic.server_name": `"&aMy Server"`, "classic.motd": `"Welcome"`, "classic.user_type": "Op (0x64)",
		"classic.color_run": `&a green #5F5: "My Server"`}},
	{"ping", plain, dissect.DirS2C, []byte{0x01}, "Ping", nil},
	{"level init", plain, dissect.DirS2C, []byte{0x02}, "Level Initialize", nil},
	{"level chunk", plain, dissect.DirS2C, cat(0x03, be16(3), []byte{1, 2, 3}, make([]byte, 1021), 50), "Level Data Chunk", map[string]string{
		"classic.level.chunk_length": "3", "classic.level.chunk_data": "010203", "classic.level.chunk_padding": "1021 bytes of 0x00 padding", "classic.level.percent": "50"}},
	{"level finalize", plain, dissect.DirS2C, cat(0x04, be16(256), be16(64), be16(128)), "Level Finalize", map[string]string{
		"classic.level.size_x": "256", "classic.level.size_y": "64", "classic.level.size_z": "128", "classic.level.volume": "2097152"}},
	{"set block s2c", plain, dissect.DirS2C, cat(0x06, be16(5), be16(6), be16(7), 49), "Set Block", map[string]string{
		"classic.block_type": "Obsidian (49)", "classic.x": "5 (block coordinate, not fixed point)"}},
	// Spawn: stand on block row 10: Y = 10×32+51 = 371.
	{"spawn player", plain, dissect.DirS2C, cat(0x07, 3, "&cbob", be16(64), be16(371), be16(64), 128, 192), "Spawn Player", map[string]string{
		"classic.player_id": "3", "classic.player_name": `"&cbob"`, "classic.x": "2 blocks (fixed point 64 ÷ 32)",
		"classic.y": "11.59375 blocks (fixed point 371 ÷ 32)", "classic.feet_y": "10 blocks: Y is eye level, the feet are 51/32 = 1.59375 blocks lower",
		"classic.yaw": "180° facing south (+Z) (raw 128)", "classic.pitch": "270° looking up 90° (raw 192)"}},
	{"teleport self", plain, dissect.DirS2C, cat(0x08, 0xff, be16(0), be16(51), be16(0), 192, 0), "Teleport", map[string]string{
		"classic.player_id": "-1 (255): self, the receiving player", "classic.feet_y": "0 blocks: Y is eye level, the feet are 51/32 = 1.59375 blocks lower",
		"classic.yaw": "270° facing west (−X) (raw 192)", "classic.pitch": "0° level (raw 0)"}},
	{"pos+ori update", plain, dissect.DirS2C, cat(0x09, 2, 0xf0, 16, 1, 32, 0), "Position and Orientation Update", map[string]string{
		"classic.dx": "-0.5 blocks (signed delta -16 ÷ 32)", "classic.dy": "0.5 blocks (signed delta 16 ÷ 32)", "classic.dz": "0.03125 blocks (signed delta 1 ÷ 32)",
		"classic.yaw": "45° facing north-east (raw 32)"}},
	{"pos update", plain, dissect.DirS2C, cat(0x0a, 2, 0x80, 0x7f, 0), "Position Update", map[string]string{
		"classic.dx": "-4 blocks (signed delta -128 ÷ 32)", "classic.dy": "3.96875 blocks (signed delta 127 ÷ 32)"}},
	{"ori update", plain, dissect.DirS2C, cat(0x0b, 2, 0, 64), "Orientation Update", map[string]string{
		"classic.pitch": "90° looking down 90° (raw 64)"}},
	{"despawn", plain, dissect.DirS2C, cat(0x0c, 2), "Despawn Player", map[string]string{"classic.player_id": "2"}},
	{"message s2c", plain, dissect.DirS2C, cat(0x0d, 0xff, "&eServer &cwarning"), "Message", map[string]string{
		"classic.player_id": "-1 (255): self / the server", "classic.message": `"&eServer &cwarning"`, "classic.message.plain": `"Server warning"`,
		"classic.color_run": `&e yellow #FF5: "Server "`}},
	{"disconnect", plain, dissect.DirS2C, cat(0x0e, "Kicked: bye"), "Disconnect Player", map[string]string{"classic.disconnect_reason": `"Kicked: bye"`}},
	{"user type", plain, dissect.DirS2C, cat(0x0f, 0x64), "Update User Type", map[string]string{"classic.user_type": "Op (0x64)"}},

	// CPE, both ways.
	{"extinfo c2s", cpeAll, dissect.DirC2S, cat(0x10, "ClassiCube 1.3.8", be16(36)), "ExtInfo", map[string]string{"classic.cpe.app_name": `"ClassiCube 1.3.8"`, "classic.cpe.ext_count": "36"}},
	{"extentry c2s", cpeAll, dissect.DirC2S, cat(0x11, "EnvColors", be32(1)), "ExtEntry", map[string]string{"classic.cpe.ext_name": `"EnvColors"`, "classic.cpe.ext_version": "1",
		"classic.cpe.agreed": "True: the other side announced it too (v1; agreed v1)"}},
	{"extinfo s2c", cpeAll, dissect.DirS2C, cat(0x10, "MCGalaxy", be16(2)), "ExtInfo", map[string]string{"classic.cpe.ext_count": "2"}},
	{"extentry s2c", cpeAll, dissect.DirS2C, cat(0x11, "ExtPlayerList", be32(2)), "ExtEntry", map[string]string{"classic.cpe.ext_version": "2"}},
	{"custom block level c2s", cpeAll, dissect.DirC2S, cat(0x13, 1), "CustomBlockSupportLevel", map[string]string{"classic.cpe.support_level": "Level 1 (blocks 50–65) (1)"}},
	{"player click", cpeAll, dissect.DirC2S, cat(0x22, 1, 0, be16(16384), be16(0), 255, be16(1), be16(2), be16(3), 2), "PlayerClick", map[string]string{
		"classic.cpe.button": "Right (1)", "classic.cpe.target_face": "Away from Y (2)"}},
	{"two way ping c2s", cpeAll, dissect.DirC2S, cat(0x2b, 0, be16(513)), "TwoWayPing", map[string]string{"classic.cpe.ping_id": "513"}},
	{"plugin message c2s", cpeAll, dissect.DirC2S, cat(0x35, 7, make([]byte, 64)), "PluginMessage", map[string]string{"classic.cpe.channel": "7"}},
	{"notify action", cpeAll, dissect.DirC2S, cat(0x39, be16(3), be16(0)), "NotifyAction", map[string]string{"classic.cpe.notify_action": "Respawned (3)"}},
	{"notify position", cpeAll, dissect.DirC2S, cat(0x3a, be16(4), be16(1), be16(2), be16(3)), "NotifyPositionAction", map[string]string{"classic.cpe.notify_action": "Spawn updated (4)"}},
	{"position heldblock", cpeAll, dissect.DirC2S, cat(0x08, 20, be16(32), be16(83), be16(32), 0, 0), "Position and Orientation", map[string]string{"classic.block_type": "Glass (20)"}},
	{"click distance", cpeAll, dissect.DirS2C, cat(0x12, be16(160)), "SetClickDistance", map[string]string{"classic.cpe.click_distance": "5 blocks (fixed point 160 ÷ 32)"}},
	{"custom block level s2c", cpeAll, dissect.DirS2C, cat(0x13, 1), "CustomBlockSupportLevel", nil},
	{"hold this", cpeAll, dissect.DirS2C, cat(0x14, 60, 1), "HoldThis", map[string]string{"classic.block_type": "Ice (CPE) (60)", "classic.cpe.prevent_change": "True"}},
	{"text hotkey", cpeAll, dissect.DirS2C, cat(0x15, "Fly", "/fly\n", be32(33), 1), "SetTextHotKey", map[string]string{"classic.cpe.key_code": "33"}},
	{"ext add player name", cpeAll, dissect.DirS2C, cat(0x16, be16(5), "bob", "&cbob", "Admins", 3), "ExtAddPlayerName", map[string]string{"classic.cpe.name_id": "5", "classic.cpe.group_rank": "3"}},
	{"ext add entity v1", cpeAll, dissect.DirS2C, cat(0x17, 5, "bob", "bob"), "ExtAddEntity (ExtPlayerList v1)", nil},
	{"ext remove player name", cpeAll, dissect.DirS2C, cat(0x18, be16(5)), "ExtRemovePlayerName", nil},
	{"env color", cpeAll, dissect.DirS2C, cat(0x19, 2, be16(255), be16(128), be16(0)), "EnvSetColor", map[string]string{"classic.cpe.env_variable": "Fog (2)", "classic.cpe.green": "128"}},
	{"make selection", cpeAll, dissect.DirS2C, cat(0x1a, 1, "zone", be16(0), be16(0), be16(0), be16(10), be16(10), be16(10), be16(255), be16(0), be16(0), be16(128)), "MakeSelection", map[string]string{"classic.cpe.opacity": "128"}},
	{"remove selection", cpeAll, dissect.DirS2C, cat(0x1b, 1), "RemoveSelection", nil},
	{"block permission", cpeAll, dissect.DirS2C, cat(0x1c, 7, 0, 0), "SetBlockPermission", map[string]string{"classic.block_type": "Bedrock (7)", "classic.cpe.can_place": "False"}},
	{"change model", cpeAll, dissect.DirS2C, cat(0x1d, 3, "chicken"), "ChangeModel", map[string]string{"classic.cpe.model": `"chicken"`}},
	{"map appearance v1", cpeAll, dissect.DirS2C, cat(0x1e, "", 7, 8, be16(32)), "EnvSetMapAppearance", map[string]string{"classic.cpe.side_block": "Bedrock (7)", "classic.cpe.edge_block": "Flowing Water (8)"}},
	{"weather", cpeAll, dissect.DirS2C, cat(0x1f, 2), "EnvSetWeatherType", map[string]string{"classic.cpe.weather": "Snowing (2)"}},
	{"hack control", cpeAll, dissect.DirS2C, cat(0x20, 1, 0, 1, 0, 1, be16(-1)), "HackControl", map[string]string{"classic.cpe.jump_height": "-1"}},
	{"ext add entity2", cpeAll, dissect.DirS2C, cat(0x21, 4, "alice", "alice", be16(32), be16(83), be16(32), 0, 0), "ExtAddEntity2", map[string]string{"classic.cpe.skin_name": `"alice"`}},
	{"define block", cpeAll, dissect.DirS2C, cat(0x23, 70, "Custom", 2, 128, 1, 2, 3, 0, 4, 0, 16, 0, 0, 0, 0, 0), "DefineBlock", map[string]string{"classic.cpe.block_name": `"Custom"`, "classic.cpe.walk_sound": "Stone (4)"}},
	{"remove block def", cpeAll, dissect.DirS2C, cat(0x24, 70), "RemoveBlockDefinition", nil},
	{"define block ext", cpeAll, dissect.DirS2C, cat(0x25, 71, "Slab", 2, 128, 1, 2, 3, 0, 4, 0, 0, 0, 0, 16, 8, 16, 0, 0, 0, 0, 0), "DefineBlockExt", map[string]string{"classic.cpe.max_y": "0.5 blocks (raw 8 ÷ 16)"}},
	{"bulk block update", cpeAll, dissect.DirS2C, cat(0x26, 1, be32(0), be32(65), make([]byte, 254*4), 1, 2, make([]byte, 254)), "BulkBlockUpdate", map[string]string{"classic.cpe.bulk_count": "2 (raw 1 + 1)"}},
	{"text color", cpeAll, dissect.DirS2C, cat(0x27, 255, 0, 0, 255, int('h')), "SetTextColor", map[string]string{"classic.cpe.text_code": "104"}},
	{"map env url", cpeAll, dissect.DirS2C, cat(0x28, "http://x/t.zip"), "SetMapEnvUrl", nil},
	{"map env property", cpeAll, dissect.DirS2C, cat(0x29, 4, be32(128)), "SetMapEnvProperty", map[string]string{"classic.cpe.env_property": "Max fog distance (4)", "classic.cpe.env_value": "128"}},
	{"entity property", cpeAll, dissect.DirS2C, cat(0x2a, 1, 3, be32(2000)), "SetEntityProperty", map[string]string{"classic.cpe.entity_property": "Model scale X ×1000 (3)"}},
	{"two way ping s2c", cpeAll, dissect.DirS2C, cat(0x2b, 1, be16(7)), "TwoWayPing", map[string]string{"classic.cpe.ping_direction": "Server to client ping (client echoes) (1)"}},
	{"inventory order", cpeAll, dissect.DirS2C, cat(0x2c, 1, 0), "SetInventoryOrder", nil},
	{"set hotbar", cpeAll, dissect.DirS2C, cat(0x2d, 1, 8), "SetHotbar", map[string]string{"classic.cpe.hotbar_index": "8"}},
	{"set spawnpoint", cpeAll, dissect.DirS2C, cat(0x2e, be16(32), be16(83), be16(32), 0, 0), "SetSpawnpoint", map[string]string{"classic.feet_y": "1 blocks: Y is eye level, the feet are 51/32 = 1.59375 blocks lower"}},
	{"velocity", cpeAll, dissect.DirS2C, cat(0x2f, be32(0), be32(12500), be32(0), 0, 1, 0), "VelocityControl", map[string]string{"classic.cpe.velocity_y": "1.25 (raw 12500 ÷ 10000)", "classic.cpe.velocity_mode_y": "Set (1)"}},
	{"define effect", cpeAll, dissect.DirS2C, cat(0x30, 1, 0, 0, 15, 15, 255, 255, 255, 1, 10, 8, be32(0), be16(32), be32(10000), be32(0), be32(10000), be32(0), 0, 1), "DefineEffect", map[string]string{"classic.cpe.particle_count": "10"}},
	{"spawn effect", cpeAll, dissect.DirS2C, cat(0x31, 1, be32(64), be32(64), be32(64), be32(0), be32(0), be32(0)), "SpawnEffect", map[string]string{"classic.cpe.effect_x": "2 blocks (fixed point 64 ÷ 32)"}},
	{"define model", cpeAll, dissect.DirS2C, cat(0x32, 1, "box", 0, make([]byte, 44), be16(64), be16(64), 1), "DefineModel", map[string]string{"classic.cpe.part_count": "1"}},
	{"define model part v1", cpeAll, dissect.DirS2C, cat(0x33, 1, make([]byte, 24+48+24), 0, be32(0), 0), "DefineModelPart", nil},
	{"undefine model", cpeAll, dissect.DirS2C, cat(0x34, 1), "UndefineModel", nil},
	{"plugin message s2c", cpeAll, dissect.DirS2C, cat(0x35, 1, make([]byte, 64)), "PluginMessage", nil},
	{"ext entity teleport", cpeAll, dissect.DirS2C, cat(0x36, 2, 0x11, be16(32), be16(83), be16(32), 0, 0), "ExtEntityTeleport", nil},
	{"lighting mode", cpeAll, dissect.DirS2C, cat(0x37, 2, 1), "LightingMode", map[string]string{"classic.cpe.lighting_mode": "Fancy (2)"}},
	{"cinematic gui", cpeAll, dissect.DirS2C, cat(0x38, 1, 0, 0, 0, 0, 0, 255, be16(65535)), "CinematicGui", map[string]string{"classic.cpe.bar_size": "65535"}},
	{"toggle block list", cpeAll, dissect.DirS2C, cat(0x3b, 1), "ToggleBlockList", nil},
	{"message types", cpeAll, dissect.DirS2C, cat(0x0d, 100, "Big news"), "Message", map[string]string{"classic.message_flag": "Announcement (100, MessageTypes)"}},
	{"longer messages", cpeAll, dissect.DirC2S, cat(0x0d, 1, "part one"), "Message", map[string]string{"classic.message_flag": "0x01: partial, more of this message follows (LongerMessages)"}},

	// Widened by negotiation.
	{"teleport extpos", func() *Conn { return cpeConn("ExtEntityPositions", 1) }, dissect.DirS2C, cat(0x08, 1, be32(100000), be32(83), be32(-32), 0, 0), "Teleport", map[string]string{
		"classic.x": "3125 blocks (fixed point 100000 ÷ 32)", "classic.z": "-1 blocks (fixed point -32 ÷ 32)"}},
	{"spawn extpos", func() *Conn { return cpeConn("ExtEntityPositions", 1) }, dissect.DirS2C, cat(0x07, 1, "x", be32(32), be32(83), be32(32), 0, 0), "Spawn Player", nil},
	{"position extpos extblocks", func() *Conn { return cpeConn("ExtEntityPositions", 1, "ExtendedBlocks", 1) }, dissect.DirC2S, cat(0x08, be16(0xff), be32(32), be32(83), be32(32), 0, 0), "Position and Orientation", nil},
	{"set block extblocks", func() *Conn { return cpeConn("ExtendedBlocks", 1) }, dissect.DirC2S, cat(0x05, be16(1), be16(2), be16(3), 1, be16(300)), "Set Block", map[string]string{"classic.block_type": "Unknown (300)"}},
	{"level init fastmap", func() *Conn { return cpeConn("FastMap", 1) }, dissect.DirS2C, cat(0x02, be32(4096)), "Level Initialize", map[string]string{"classic.level.fastmap_volume": "4096 blocks (FastMap: the level follows as raw deflate, no gzip header, no count prefix)"}},
	{"map appearance v2", func() *Conn { return cpeConn("EnvMapAppearance", 2) }, dissect.DirS2C, cat(0x1e, "", 7, 8, be16(32), be16(64), be16(0)), "EnvSetMapAppearance", map[string]string{"classic.cpe.clouds_height": "64"}},
	{"define block ext v2 exttex", func() *Conn { return cpeConn("BlockDefinitionsExt", 2, "ExtendedTextures", 1) }, dissect.DirS2C,
		cat(0x25, 71, "Log", 2, 128, be16(1), be16(2), be16(3), be16(4), be16(5), be16(6), 0, 4, 0, 0, 0, 0, 16, 16, 16, 0, 0, 0, 0, 0), "DefineBlockExt", map[string]string{"classic.cpe.tex_back": "5"}},
}

func decodeCase(t testing.TB, tc *pktCase, data []byte, wireLen int) *dissect.PDU {
	t.Helper()
	var p dissect.PDU
	c := tc.conn()
	c.DecodeCut(&p, data, wireLen, meta(tc.dir))
	if err := dissect.Check(&p); err != nil {
		t.Fatalf("%s: Check: %v\n%s", tc.name, err, dumpTree(&p))
	}
	return &p
}

func TestPackets(t *testing.T) {
	for i := range packetCases {
		tc := &packetCases[i]
		t.Run(tc.name, func(t *testing.T) {
			c := tc.conn()
			f := c.Frame(tc.dir, append(append([]byte(nil), tc.data...), 0xAA), false)
			if f.Status != dissect.FrameOK || f.Len != len(tc.data) {
				t.Fatalf("Frame: %v len %d (%q), want OK %d", f.Status, f.Len, f.Reason, len(tc.data))
			}
			if f := c.Frame(tc.dir, tc.data[:len(tc.data)-1], false); f.Status != dissect.FrameNeedMore {
				t.Errorf("Frame of a prefix: %v", f.Status)
			}
			p := decodeCase(t, tc, tc.data, len(tc.data))
			if p.Message != tc.msg {
				t.Errorf("message %q, want %q", p.Message, tc.msg)
			}
			if n, _ := dissect.CountFailures(p); n != 0 {
				t.Errorf("%d failures\n%s", n, dumpTree(p))
			}
			for _, e := range p.Experts {
				if e.Info == dissect.ExpertUndissected || e.Info.Severity == dissect.SevError {
					t.Errorf("expert %s: %s", e.Info.Name, e.Msg)
				}
			}
			for name, want := range tc.want {
				i := p.Find(name)
				if i < 0 {
					t.Errorf("no %s\n%s", name, dumpTree(p))
					continue
				}
				if got := dissecttest.Display(&p.Nodes[i]); got != want {
					t.Errorf("%s = %s, want %s", name, got, want)
				}
			}
		})
	}
}

// TestTruncation decodes every prefix of every packet with the full wire
// length: one truncated item, naming the field at the cut.
func TestTruncation(t *testing.T) {
	for i := range packetCases {
		tc := &packetCases[i]
		t.Run(tc.name, func(t *testing.T) {
			for k := 0; k < len(tc.data); k++ {
				p := decodeCase(t, tc, tc.data[:k], len(tc.data))
				n, last := dissect.CountFailures(p)
				if n != 1 || last.Info != dissect.ExpertTruncated {
					t.Fatalf("prefix %d: %d failures\n%s", k, n, dumpTree(p))
				}
				node := &p.Nodes[last.Node]
				if int(node.Offset) > k || !strings.HasPrefix(last.Msg, node.Field.Name+" at offset ") {
					t.Fatalf("prefix %d: failure on %s at %d: %s", k, node.Name(), node.Offset, last.Msg)
				}
			}
		})
	}
}

func TestUnknownPacketID(t *testing.T) {
	c := NewConn(nil)
	stream := cat(0x08, 0xff, be16(1), be16(2), be16(3), 0, 0, 0x42, 1, 2, 3)
	f := c.Frame(dissect.DirC2S, stream, false)
	if f.Status != dissect.FrameOK || f.Len != 10 {
		t.Fatalf("first: %+v", f)
	}
	f = c.Frame(dissect.DirC2S, stream[10:], false)
	if f.Status != dissect.FrameLost || !strings.Contains(f.Reason, "0x42") || !strings.Contains(f.Reason, "offset 10") {
		t.Fatalf("unknown: %+v", f)
	}
	// A CPE packet ID on a vanilla connection is unknown too.
	if f := c.Frame(dissect.DirS2C, []byte{0x10}, false); f.Status != dissect.FrameLost || !strings.Contains(f.Reason, "CPE") {
		t.Errorf("CPE ID on vanilla: %+v", f)
	}
	var p dissect.PDU
	c.Decode(&p, stream[10:], c2sMeta)
	if err := dissect.Check(&p); err != nil {
		t.Fatal(err)
	}
	if p.Nodes[p.Find("classic.packet_id")].Flags&dissect.FlagMalformed == 0 || p.Find("mc.undissected") < 0 {
		t.Errorf("unknown ID not flagged\n%s", dumpTree(&p))
	}
}

func TestNegotiationChangesFraming(t *testing.T) {
	type lens struct {
		dir  dissect.Dir
		id   byte
		want int
	}
	for _, tc := range []struct {
		name string
		c    *Conn
		want []lens
	}{
		{"vanilla", NewConn(nil), []lens{{dissect.DirS2C, 0x08, 10}, {dissect.DirS2C, 0x07, 74}, {dissect.DirS2C, 0x02, 1}, {dissect.DirS2C, 0x06, 8}, {dissect.DirC2S, 0x05, 9}, {dissect.DirC2S, 0x08, 10}}},
		{"cpe, nothing agreed", cpeConn(), []lens{{dissect.DirS2C, 0x08, 10}, {dissect.DirS2C, 0x14, 3}, {dissect.DirS2C, 0x26, 1282}}},
		{"extpos", cpeConn("ExtEntityPositions", 1), []lens{{dissect.DirS2C, 0x08, 16}, {dissect.DirS2C, 0x07, 80}, {dissect.DirS2C, 0x21, 144}, {dissect.DirS2C, 0x2e, 15}, {dissect.DirS2C, 0x36, 17}, {dissect.DirC2S, 0x08, 16}}},
		{"fastmap", cpeConn("fastmap", 1), []lens{{dissect.DirS2C, 0x02, 5}}},
		{"extblocks", cpeConn("ExtendedBlocks", 1), []lens{{dissect.DirS2C, 0x06, 9}, {dissect.DirC2S, 0x05, 10}, {dissect.DirC2S, 0x08, 11}, {dissect.DirS2C, 0x14, 4}, {dissect.DirS2C, 0x1c, 5}, {dissect.DirS2C, 0x23, 81}, {dissect.DirS2C, 0x24, 3}, {dissect.DirS2C, 0x25, 86}, {dissect.DirS2C, 0x2c, 5}, {dissect.DirS2C, 0x26, 1346}, {dissect.DirS2C, 0x2d, 4}}},
		{"v2s", cpeConn("EnvMapAppearance", 2, "BlockDefinitionsExt", 2, "EnvMapAspect", 2, "CustomModels", 2), []lens{{dissect.DirS2C, 0x1e, 73}, {dissect.DirS2C, 0x25, 88}, {dissect.DirS2C, 0x28, 129}, {dissect.DirS2C, 0x33, 167}}},
		// ExtendedTextures widens each texture ID: 3 in DefineBlock and in
		// DefineBlockExt v1, 6 in DefineBlockExt v2.
		{"exttex", cpeConn("ExtendedTextures", 1), []lens{{dissect.DirS2C, 0x23, 83}, {dissect.DirS2C, 0x25, 88}}},
		{"exttex v2", cpeConn("ExtendedTextures", 1, "BlockDefinitionsExt", 2), []lens{{dissect.DirS2C, 0x25, 94}}},
		{"cpe lengths", cpeConn(), []lens{{dissect.DirS2C, 0x10, 67}, {dissect.DirS2C, 0x11, 69}, {dissect.DirS2C, 0x15, 134}, {dissect.DirS2C, 0x16, 196}, {dissect.DirS2C, 0x1a, 86}, {dissect.DirS2C, 0x1e, 69}, {dissect.DirS2C, 0x23, 80}, {dissect.DirS2C, 0x25, 85}, {dissect.DirS2C, 0x30, 36}, {dissect.DirS2C, 0x31, 26}, {dissect.DirS2C, 0x32, 116}, {dissect.DirS2C, 0x33, 104}, {dissect.DirS2C, 0x38, 10}, {dissect.DirC2S, 0x22, 15}, {dissect.DirC2S, 0x3a, 9}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, l := range tc.want {
				b := make([]byte, 2000)
				b[0] = l.id
				f := tc.c.Frame(l.dir, b, false)
				if f.Status != dissect.FrameOK || f.Len != l.want {
					t.Errorf("%s %s: %v %d %q, want %d", l.dir, hex2(l.id), f.Status, f.Len, f.Reason, l.want)
				}
			}
		})
	}
	// Only one side announcing does not widen.
	c := NewConn(nil)
	c.observe(dissect.DirC2S, cat(0x00, 7, "bob", "key", 0x42))
	c.observe(dissect.DirS2C, cat(0x11, "ExtEntityPositions", be32(1)))
	if f := c.Frame(dissect.DirS2C, make([]byte, 100)[:0:0], false); f.Status != dissect.FrameNeedMore {
		t.Error(f)
	}
	b := append([]byte{0x08}, make([]byte, 30)...)
	if f := c.Frame(dissect.DirS2C, b, false); f.Len != 10 {
		t.Errorf("one-sided ExtEntityPositions widened the teleport to %d", f.Len)
	}
}

// TestNegotiationStream frames a whole CPE session as bytes: the framer learns
// the extensions from the ExtEntry packets it frames.
func TestNegotiationStream(t *testing.T) {
	c := NewConn(nil)
	c2s := cat(0x00, 7, "bob", "key", 0x42)
	s2c := cat(0x10, "MCGalaxy", be16(2), 0x11, "ExtEntityPositions", be32(1), 0x11, "FastMap", be32(1))
	c2s = append(c2s, cat(0x10, "ClassiCube", be16(2), 0x11, "FastMap", be32(1), 0x11, "ExtEntityPositions", be32(1))...)
	s2c = append(s2c, cat(0x00, 7, "srv", "motd", 0, 0x02, be32(8), 0x08, 0xff, be32(1), be32(2), be32(3), 0, 0)...)
	c2s = append(c2s, cat(0x08, 0xff, be32(1), be32(2), be32(3), 0, 0)...)
	var got []int
	for _, d := range []struct {
		dir dissect.Dir
		b   []byte
	}{{dissect.DirC2S, c2s[:131]}, {dissect.DirS2C, s2c[:67+69*2]}, {dissect.DirC2S, c2s[131:]}, {dissect.DirS2C, s2c[67+69*2:]}} {
		b := d.b
		for len(b) > 0 {
			f := c.Frame(d.dir, b, false)
			if f.Status != dissect.FrameOK {
				t.Fatalf("%s: %+v", d.dir, f)
			}
			got = append(got, f.Len)
			b = b[f.Len:]
		}
	}
	want := []int{131, 67, 69, 69, 67, 69, 69, 16, 131, 5, 16}
	if len(got) != len(want) {
		t.Fatalf("lengths %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("lengths %v, want %v", got, want)
		}
	}
}

func TestColours(t *testing.T) {
	var p dissect.PDU
	c := NewConn(nil)
	c.Decode(&p, cat(0x0d, 0x7f, "&cRed &aGreen&zX&"), s2cMeta)
	if err := dissect.Check(&p); err != nil {
		t.Fatal(err)
	}
	if got := p.Nodes[p.Find("classic.message")].Value.Text(); got != "&cRed &aGreen&zX&" {
		t.Errorf("message %q, want it as sent", got)
	}
	if got := p.Nodes[p.Find("classic.message.plain")].Value.Text(); got != "Red Green&zX&" {
		t.Errorf("message.plain %q", got)
	}
	var runs []string
	for i := range p.Nodes {
		if p.Nodes[i].Field == FieldColorRun {
			runs = append(runs, dissecttest.Display(&p.Nodes[i]))
		}
	}
	want := []string{`&c red #F55: "Red "`, `&a green #5F5: "Green&zX&"`}
	if strings.Join(runs, "|") != strings.Join(want, "|") {
		t.Errorf("runs %q, want %q", runs, want)
	}
	if !hasExpert(&p, ExpertColorCode) {
		t.Error("no note for &z")
	}
	// Player ID 127 ≥ 127: the client adds &e.
	found := false
	for _, e := range p.Experts {
		found = found || e.Info == ExpertYellowPrefix
	}
	if !found {
		t.Error("no &e note for player ID 127")
	}
	if string(stripColors(nil, []byte("&0a&1b&fc"))) != "abc" {
		t.Error("StripColors")
	}
}

// gzipLevel is a level as the server sends it: gzip of the 4-byte count
// and the blocks.
func gzipLevel(blocks []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(be32(len(blocks)))
	w.Write(blocks)
	w.Close()
	return b.Bytes()
}

// chunks splits compressed level data into Level Data Chunk packets.
func chunks(z []byte) [][]byte {
	var out [][]byte
	for i := 0; i < len(z); i += 1024 {
		part := z[i:min(i+1024, len(z))]
		pkt := cat(0x03, be16(len(part)), part, make([]byte, 1024-len(part)), (i+len(part))*100/len(z))
		out = append(out, pkt)
	}
	return out
}

func decodeLevel(t *testing.T, c *Conn, z []byte, x, y, zz int) *dissect.PDU {
	t.Helper()
	return decodeLevelExport(t, c, z, x, y, zz, true)
}

// decodeLevelExport sends a level and returns its finalize PDU, decoded
// with PDU.Export as given.
func decodeLevelExport(t *testing.T, c *Conn, z []byte, x, y, zz int, export bool) *dissect.PDU {
	t.Helper()
	p := dissect.PDU{Export: export}
	m := s2cMeta
	c.Decode(&p, []byte{0x02}, m)
	for i, ch := range chunks(z) {
		m.Frame = uint64(100 + i)
		c.Decode(&p, ch, m)
		if err := dissect.Check(&p); err != nil {
			t.Fatal(err)
		}
	}
	m.Frame = 999
	c.Decode(&p, cat(0x04, be16(x), be16(y), be16(zz)), m)
	if err := dissect.Check(&p); err != nil {
		t.Fatal(err)
	}
	return &p
}

func TestLevel(t *testing.T) {
	blocks := make([]byte, 16*8*16)
	for i := range blocks {
		blocks[i] = byte(i % 3) // Air, Stone, Grass
	}
	p := decodeLevel(t, NewConn(nil), gzipLevel(blocks), 16, 8, 16)
	want := map[string]string{"classic.level.block_count": "2048", "classic.level.volume": "2048", "classic.level.type_count": "Air (0): 683 blocks", "classic.level.chunk_frame": "100"}
	for k, v := range want {
		if i := p.Find(k); i < 0 || dissecttest.Display(&p.Nodes[i]) != v {
			t.Errorf("%s: want %s\n%s", k, v, dumpTree(p))
		}
	}
	// The blocks and their map.
	if len(p.Objects) != 2 || p.Objects[0].Name != "level-999.bin" || !bytes.Equal(p.Objects[0].Data, blocks) || p.Objects[1].Name != "level-999.png" {
		t.Errorf("objects %v", len(p.Objects))
	} else if img, err := png.Decode(bytes.NewReader(p.Objects[1].Data)); err != nil || img.Bounds().Dx() != 16 || img.Bounds().Dy() != 16 {
		t.Errorf("the map: %v", err)
	}
	// Nobody exporting: the same tree, no object, and twice so that the
	// second inflates into the first's buffer.
	for range 2 {
		q := decodeLevelExport(t, NewConn(nil), gzipLevel(blocks), 16, 8, 16, false)
		if len(q.Objects) != 0 || dumpTree(q) != dumpTree(p) {
			t.Errorf("without Export: %d objects, tree\n%s\nwith Export:\n%s", len(q.Objects), dumpTree(q), dumpTree(p))
		}
	}
	if p.MaxSeverity() >= dissect.SevWarn {
		t.Errorf("experts\n%s", dumpTree(p))
	}
	// Count mismatch: finalize says 16×8×8.
	p = decodeLevel(t, NewConn(nil), gzipLevel(blocks), 16, 8, 8)
	if !hasExpert(p, ExpertLevelCount) {
		t.Errorf("no count mismatch\n%s", dumpTree(p))
	}
	// FastMap: raw deflate, volume in Level Initialize, no count prefix.
	c := cpeConn("FastMap", 1)
	var zb bytes.Buffer
	fw, _ := flateWriter(&zb)
	fw.Write(blocks)
	fw.Close()
	q := dissect.PDU{Export: true}
	c.Decode(&q, cat(0x02, be32(len(blocks))), s2cMeta)
	for _, ch := range chunks(zb.Bytes()) {
		c.Decode(&q, ch, s2cMeta)
	}
	c.Decode(&q, cat(0x04, be16(16), be16(8), be16(16)), s2cMeta)
	if err := dissect.Check(&q); err != nil {
		t.Fatal(err)
	}
	if len(q.Objects) != 2 || !bytes.Equal(q.Objects[0].Data, blocks) || q.MaxSeverity() >= dissect.SevWarn {
		t.Errorf("fastmap level\n%s", dumpTree(&q))
	}
}

func hasExpert(p *dissect.PDU, e *dissect.ExpertInfo) bool {
	for _, x := range p.Experts {
		if x.Info == e {
			return true
		}
	}
	return false
}

func TestGzipBomb(t *testing.T) {
	// 32 MiB of zeros compress to ~32 KiB; the finalize says 64×64×64.
	z := gzipLevel(make([]byte, 32<<20))
	p := decodeLevel(t, NewConn(nil), z, 64, 64, 64)
	if !hasExpert(p, ExpertLevelBomb) || len(p.Objects) != 0 {
		t.Fatalf("bomb not reported\n%s", dumpTree(p))
	}
	// A finalize claiming a huge level still stops at MaxInflated.
	if testing.Short() {
		return
	}
	z = gzipLevel(make([]byte, MaxInflated+1024))
	p = decodeLevel(t, NewConn(nil), z, 1024, 1024, 1024)
	if !hasExpert(p, ExpertLevelBomb) {
		t.Fatalf("bomb past MaxInflated not reported\n%s", dumpTree(p))
	}
}

// TestLargestLevel: a 1024×64×1024 level (MaxBlocks and its 4-byte count)
// is a level, counted and exported, not a bomb; one block more is a bomb.
func TestLargestLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("inflates 64 MiB levels")
	}
	blocks := make([]byte, MaxBlocks)
	for i := range blocks[:MaxBlocks/2] {
		blocks[i] = 1 // stone below, air above
	}
	z := gzipLevel(blocks)
	for _, export := range []bool{false, true} {
		p := decodeLevelExport(t, NewConn(nil), z, 1024, 64, 1024, export)
		if hasExpert(p, ExpertLevelBomb) || p.MaxSeverity() >= dissect.SevWarn {
			t.Fatalf("export %v: the largest level is not accepted\n%s", export, dumpTree(p))
		}
		if i := p.Find("classic.level.block_count"); i < 0 || p.Nodes[i].Value.N != MaxBlocks {
			t.Errorf("export %v: block count\n%s", export, dumpTree(p))
		}
		if export && (len(p.Objects) == 0 || p.Objects[0].Name != "level-999.bin" || len(p.Objects[0].Data) != MaxBlocks) {
			t.Errorf("export: %d objects", len(p.Objects))
		}
	}
	// A block more than the largest level, announced as such: a bomb.
	z = gzipLevel(append(blocks, 0))
	if p := decodeLevelExport(t, NewConn(nil), z, 1024, 64, 1024, false); !hasExpert(p, ExpertLevelBomb) {
		t.Errorf("a block past MaxInflated is not a bomb\n%s", dumpTree(p))
	}
}

func TestLevelBroken(t *testing.T) {
	z := gzipLevel(make([]byte, 4096))
	p := decodeLevel(t, NewConn(nil), z[:len(z)-9], 16, 16, 16)
	if !hasExpert(p, ExpertLevelInflate) {
		t.Errorf("truncated gzip not reported\n%s", dumpTree(p))
	}
	p = decodeLevel(t, NewConn(nil), []byte("not gzip at all"), 16, 16, 16)
	if !hasExpert(p, ExpertLevelInflate) {
		t.Errorf("bad gzip not reported\n%s", dumpTree(p))
	}
	// A gap in the server's stream.
	c := NewConn(nil)
	c.Frame(dissect.DirS2C, []byte{0x04}, true)
	p = decodeLevel(t, c, z, 16, 16, 16)
	_ = p
	var q dissect.PDU
	c.Decode(&q, []byte{0x02}, s2cMeta)
	c.level.gap = true
	for _, ch := range chunks(z) {
		c.Decode(&q, ch, s2cMeta)
	}
	c.Decode(&q, cat(0x04, be16(16), be16(16), be16(16)), s2cMeta)
	if !hasExpert(&q, ExpertLevelGap) {
		t.Errorf("gap not reported\n%s", dumpTree(&q))
	}
}

func TestResync(t *testing.T) {
	pos := cat(0x08, 0xff, be16(1), be16(2), be16(3), 0, 0)
	msg := cat(0x0d, 0xff, "hi")
	stream := append(append(append([]byte{0x33, 0x44, 0x08, 0x00}, pos...), msg...), pos...)
	c := NewConn(nil)
	f := c.Frame(dissect.DirC2S, stream, true)
	if f.Status != dissect.FrameSkip || f.Len != 4 {
		t.Fatalf("resync: %+v", f)
	}
	if f := c.Frame(dissect.DirC2S, stream[4:], false); f.Status != dissect.FrameOK || f.Len != 10 {
		t.Fatalf("after resync: %+v", f)
	}
	// Garbage only: need more, then lost past the window.
	c = NewConn(nil)
	junk := bytes.Repeat([]byte{0x99}, 100)
	if f := c.Frame(dissect.DirC2S, junk, true); f.Status != dissect.FrameNeedMore {
		t.Fatalf("junk: %+v", f)
	}
	if f := c.Frame(dissect.DirC2S, bytes.Repeat([]byte{0x99}, resyncWindow), false); f.Status != dissect.FrameLost {
		t.Fatalf("junk window: %+v", f)
	}
}

func TestKeyVerification(t *testing.T) {
	sess := NewSession()
	h := NewHeartbeat(sess)
	req := []byte("GET /heartbeat.jsp?port=25565&max=32&name=My%20Server&public=True&version=7&salt=wo6kVAHjxoJcInKx&users=0 HTTP/1.0\r\nHost: minecraft.net\r\n\r\n")
	if f := h.Frame(dissect.DirC2S, req, false); f.Status != dissect.FrameOK || f.Len != len(req) {
		t.Fatalf("heartbeat frame %+v", f)
	}
	var p dissect.PDU
	h.Decode(&p, req, dissect.Meta{Frame: 3, Dir: dissect.DirC2S, Client: "10.0.0.1:40000", Server: "203.0.113.5:80"})
	if err := dissect.Check(&p); err != nil {
		t.Fatalf("%v\n%s", err, dumpTree(&p))
	}
	for name, want := range map[string]string{"classic.heartbeat.name": `"My Server": the server's name in the list`, "classic.heartbeat.port": `"25565": the port players connect to`} {
		if i := p.Find(name); i < 0 || dissecttest.Display(&p.Nodes[i]) != want {
			t.Errorf("%s want %s\n%s", name, want, dumpTree(&p))
		}
	}
	si := p.Find("classic.heartbeat.salt")
	if si < 0 || p.Nodes[si].Flags&dissect.FlagSensitive == 0 || !hasExpert(&p, ExpertSaltExposed) {
		t.Fatalf("salt not sensitive or not reported\n%s", dumpTree(&p))
	}
	for _, tc := range []struct {
		name, key string
		valid     bool
	}{
		{"Notch", "ce5aa197dd3740e196763b3ce9d97cf1", true},  // md5("wo6kVAHjxoJcInKx" + "Notch")
		{"Notch", "49b3062307e4b4ef8889426a2849d26d", false}, // alice's key under Notch's name
	} {
		var q dissect.PDU
		NewConn(sess).Decode(&q, cat(0x00, 7, tc.name, tc.key, 0), c2sMeta)
		if err := dissect.Check(&q); err != nil {
			t.Fatal(err)
		}
		i := q.Find("classic.key_valid")
		if i < 0 || q.Nodes[i].Value.Bool() != tc.valid {
			t.Errorf("%s %s: key_valid wrong\n%s", tc.name, tc.key, dumpTree(&q))
		}
		if hasExpert(&q, ExpertKeyForged) == tc.valid {
			t.Errorf("forged expert wrong")
		}
		if e := q.Find("classic.key_expected"); e < 0 || q.Nodes[e].Flags&dissect.FlagSensitive == 0 {
			t.Error("expected key not sensitive")
		}
	}
	// --classic-salt when no heartbeat was seen.
	s2 := NewSession()
	s2.SetSalt("wo6kVAHjxoJcInKx")
	var q dissect.PDU
	NewConn(s2).Decode(&q, cat(0x00, 7, "alice", "49b3062307e4b4ef8889426a2849d26d", 0), c2sMeta)
	if i := q.Find("classic.key_valid"); i < 0 || !q.Nodes[i].Value.Bool() {
		t.Errorf("manual salt\n%s", dumpTree(&q))
	}
	// Salt matching rules.
	s3 := NewSession()
	s3.AddSalt("10.0.0.9", "25565", "a", 1)
	s3.AddSalt("10.0.0.1", "25566", "b", 2)
	if s, _, _ := s3.SaltFor("10.0.0.1:25565"); s != "a" {
		t.Errorf("port match: %q", s)
	}
	s3.AddSalt("10.0.0.1", "25565", "c", 3)
	if s, _, _ := s3.SaltFor("10.0.0.1:25565"); s != "c" {
		t.Errorf("ip+port match: %q", s)
	}
	if _, _, ok := s3.SaltFor("10.0.0.1:1"); ok {
		t.Error("no match expected with several salts")
	}
}

func TestDetect(t *testing.T) {
	id := cat(0x00, 7, "alice", "key", 0)
	for _, tc := range []struct {
		b    []byte
		want Detection
	}{
		{id, DetectYes}, {id[:1], DetectNeedMore}, {id[:50], DetectNeedMore}, {id[:65], DetectNeedMore}, {id[:66], DetectYes}, {cat(0x00, 7, "alice", "k\x01"), DetectNo}, {cat(0x00, 6, "x", "y", 0), DetectYes},
		{[]byte{0x10, 0x00}, DetectNo}, {[]byte{0x00, 0x08}, DetectNo}, {cat(0x00, 7, "", "k", 0), DetectNo},
		{[]byte("GET / HTTP/1.1\r\n"), DetectNo},
	} {
		if got := Detect(tc.b); got != tc.want {
			t.Errorf("Detect(%x…) = %v, want %v", tc.b[:min(8, len(tc.b))], got, tc.want)
		}
	}
	for _, tc := range []struct {
		s    string
		want Detection
	}{
		{"GET /heartbeat.jsp?port=1", DetectYes}, {"POST /heartbeat.jsp HTTP/1.1\r\n", DetectYes}, {"GET /heart", DetectNeedMore},
		{"GET /index.html", DetectNo}, {"GET /heartbeat.jspx", DetectNo}, {"GET /server/heartbeat?x", DetectYes}, {"\x00\x07", DetectNo},
	} {
		if got := DetectHeartbeat([]byte(tc.s)); got != tc.want {
			t.Errorf("DetectHeartbeat(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

func flateWriter(w *bytes.Buffer) (*flate.Writer, error) {
	return flate.NewWriter(w, flate.BestCompression)
}

package classic

import (
	"strings"

	"github.com/mcdissect/mcdissect/dissect"
)

// kind says how a layout item is read and shown, and how long it is under
// the extensions a connection negotiated.
type kind uint8

const (
	kU8           kind = iota // byte
	kI8                       // signed byte
	kBool                     // byte, 0 = false
	kU16                      // big-endian short, unsigned
	kI16                      // big-endian short, signed
	kU32                      // big-endian int, unsigned
	kI32                      // big-endian int, signed
	kF32                      // IEEE float
	kStr                      // 64-byte space-padded string, colour codes decoded
	kBytes64                  // 64 raw bytes
	kPID                      // player ID (signed byte, -1 = self)
	kBlock                    // block ID: 1 byte, 2 under ExtendedBlocks
	kHeld                     // c2s 0x08's first byte: player ID 255, or the held block under HeldBlock
	kPos                      // fixed-point coordinate: short, int under ExtEntityPositions; ÷32
	kBlockPos                 // block coordinate: short, in blocks
	kDelta                    // relative move: signed byte ÷32
	kYaw                      // 256 units per turn, 0 = north (−Z)
	kPitch                    // 256 units per turn, 0 = level, 64 = down
	kTex                      // texture ID: 1 byte, 2 under ExtendedTextures
	kFixed32                  // int ÷ 32 (blocks)
	kFixed10k                 // int ÷ 10000
	kBB16                     // signed byte ÷ 16 (block bounds)
	kFixed32short             // unsigned short ÷ 32 (blocks)
)

// item is one field of a fixed layout.
type item struct {
	name  string // filter name; the field is registered from it at init
	label string
	k     kind
	names dissect.Names
	cond  func(n *neg) bool // present only when cond holds (nil: always)
	f     *dissect.Field
}

// neg is what a connection's two sides agreed, as the framer needs it.
type neg struct {
	cpe                                           bool // the client identified with 0x42
	extPos, extBlocks, fastMap, heldBlock, extTex bool
	mapApp2, blockDefsExt2, mapAspect2, models2   bool
	longerMessages, messageTypes, extPlayerList2  bool
}

// pkt is one packet of one direction.
type pkt struct {
	id    byte
	dir   dissect.Dir
	name  string
	ext   string // the CPE extension it belongs to, "" for the core protocol
	items []item
	// special decoders; nil means the items are walked generically.
	dec func(d *dec)
	// fixed total size override (bulk block update).
	size func(n *neg) int
	// idText is how the packet ID node shows: "Teleport (0x08)", made once.
	idText string
	// extBit is ext's bit in Conn.agreed, -1 for the core protocol and "*".
	extBit int
}

func (k kind) size(n *neg) int {
	switch k {
	case kU8, kI8, kBool, kPID, kDelta, kYaw, kPitch, kBB16:
		return 1
	case kU16, kI16, kBlockPos, kFixed32short:
		return 2
	case kU32, kI32, kF32, kFixed32, kFixed10k:
		return 4
	case kStr, kBytes64:
		return 64
	case kBlock, kHeld:
		if n.extBlocks {
			return 2
		}
		return 1
	case kTex:
		if n.extTex {
			return 2
		}
		return 1
	case kPos:
		if n.extPos {
			return 4
		}
		return 2
	}
	return 0
}

// length is the packet's total length (ID byte included) under n.
func (p *pkt) length(n *neg) int {
	if p.size != nil {
		return p.size(n)
	}
	l := 1
	for i := range p.items {
		it := &p.items[i]
		if it.cond == nil || it.cond(n) {
			l += it.k.size(n)
		}
	}
	return l
}

func fixedSize(n int) func(*neg) int { return func(*neg) int { return n } }

func isMapApp2(n *neg) bool       { return n.mapApp2 }
func isBlockDefsExt2(n *neg) bool { return n.blockDefsExt2 }
func notBlockDefsExt2(n *neg) bool {
	return !n.blockDefsExt2
}
func isMapAspect2(n *neg) bool { return n.mapAspect2 }
func isModels2(n *neg) bool    { return n.models2 }
func notModels2(n *neg) bool   { return !n.models2 }

func it(name, label string, k kind) item { return item{name: name, label: label, k: k} }
func itN(name, label string, k kind, names dissect.Names) item {
	return item{name: name, label: label, k: k, names: names}
}
func itC(name, label string, k kind, cond func(*neg) bool) item {
	return item{name: name, label: label, k: k, cond: cond}
}

var (
	pid   = it("classic.player_id", "", kPID)
	pname = it("classic.player_name", "", kStr)
	posX  = it("classic.x", "", kPos)
	posY  = it("classic.y", "", kPos)
	posZ  = it("classic.z", "", kPos)
	yaw   = it("classic.yaw", "", kYaw)
	pitch = it("classic.pitch", "", kPitch)
	blkX  = it("classic.x", "", kBlockPos)
	blkY  = it("classic.y", "", kBlockPos)
	blkZ  = it("classic.z", "", kBlockPos)
	block = it("classic.block_type", "", kBlock)
)

var envColorNames = dissect.Names{0: "Sky", 1: "Clouds", 2: "Fog", 3: "Ambient light (shadow)", 4: "Diffuse light (sun)", 5: "Skybox", 6: "Lava light", 7: "Lamp light"}
var weatherNames = dissect.Names{0: "Sunny", 1: "Raining", 2: "Snowing"}
var envPropNames = dissect.Names{0: "Side block", 1: "Edge block", 2: "Edge height", 3: "Clouds height", 4: "Max fog distance", 5: "Clouds speed ×256", 6: "Weather speed ×256", 7: "Weather fade ×128", 8: "Exponential fog", 9: "Sides offset", 10: "Skybox horizontal speed ×1024", 11: "Skybox vertical speed ×1024"}
var entityPropNames = dissect.Names{0: "Rotation X", 1: "Rotation Y", 2: "Rotation Z", 3: "Model scale X ×1000", 4: "Model scale Y ×1000", 5: "Model scale Z ×1000", 6: "Push strength ×1000"}
var buttonNames = dissect.Names{0: "Left", 1: "Right", 2: "Middle"}
var clickActionNames = dissect.Names{0: "Pressed", 1: "Released"}
var faceNames = dissect.Names{0: "Away from X", 1: "Towards X", 2: "Away from Y", 3: "Towards Y", 4: "Away from Z", 5: "Towards Z", 255: "None"}
var solidityNames = dissect.Names{0: "Walk-through", 1: "Swim-through", 2: "Solid", 3: "Partially slippery", 4: "Fully slippery", 5: "Water", 6: "Lava", 7: "Rope"}
var soundNames = dissect.Names{0: "None", 1: "Wood", 2: "Gravel", 3: "Grass", 4: "Stone", 5: "Metal", 6: "Glass", 7: "Cloth", 8: "Sand", 9: "Snow"}
var drawNames = dissect.Names{0: "Opaque", 1: "Transparent", 2: "Transparent (no culling)", 3: "Translucent", 4: "Gas"}
var velModeNames = dissect.Names{0: "Add", 1: "Set"}
var lightingNames = dissect.Names{0: "No change (server default)", 1: "Classic", 2: "Fancy"}
var notifyNames = dissect.Names{0: "Block list selected", 1: "Block list toggled", 2: "Level saved", 3: "Respawned", 4: "Spawn updated", 5: "Texture pack changed", 6: "Texture prompt responded", 7: "Third person changed"}
var pingDirNames = dissect.Names{0: "Client to server ping (server echoes)", 1: "Server to client ping (client echoes)"}
var supportNames = dissect.Names{1: "Level 1 (blocks 50–65)"}

var c2s, s2c = dissect.DirC2S, dissect.DirS2C

// packetTable: every packet of both directions. The core protocol follows the
// seed's tables; the CPE packets follow the modern client's protocol table
// (lengths, field order, and the widenings negotiation applies).
var packetTable = []pkt{
	// Client to server.
	{id: 0x00, dir: c2s, name: "Player Identification", dec: decIdentification},
	{id: 0x01, dir: c2s, name: "Ping (after a protocol ≤ 5 identification)"},
	{id: 0x05, dir: c2s, name: "Set Block", items: []item{blkX, blkY, blkZ, itN("classic.mode", "", kU8, modeNames), block}},
	{id: 0x08, dir: c2s, name: "Position and Orientation", items: []item{it("classic.player_id", "", kHeld), posX, posY, posZ, yaw, pitch}},
	{id: 0x0d, dir: c2s, name: "Message", dec: decMessage, size: fixedSize(66)},
	{id: 0x10, dir: c2s, name: "ExtInfo", ext: "*", dec: decExtInfo, size: fixedSize(67)},
	{id: 0x11, dir: c2s, name: "ExtEntry", ext: "*", dec: decExtEntry, size: fixedSize(69)},
	{id: 0x13, dir: c2s, name: "CustomBlockSupportLevel", ext: "CustomBlocks", items: []item{itN("classic.cpe.support_level", "Support level", kU8, supportNames)}},
	{id: 0x22, dir: c2s, name: "PlayerClick", ext: "PlayerClick", items: []item{
		itN("classic.cpe.button", "Button", kU8, buttonNames), itN("classic.cpe.click_action", "Action", kU8, clickActionNames),
		it("classic.cpe.click_yaw", "Yaw (65536 per turn)", kU16), it("classic.cpe.click_pitch", "Pitch (65536 per turn)", kU16),
		it("classic.cpe.target_entity", "Target entity", kU8),
		it("classic.cpe.target_x", "Target block X", kBlockPos), it("classic.cpe.target_y", "Target block Y", kBlockPos), it("classic.cpe.target_z", "Target block Z", kBlockPos),
		itN("classic.cpe.target_face", "Target block face", kU8, faceNames)}},
	{id: 0x2b, dir: c2s, name: "TwoWayPing", ext: "TwoWayPing", items: []item{itN("classic.cpe.ping_direction", "Direction", kU8, pingDirNames), it("classic.cpe.ping_id", "Ping ID", kU16)}},
	{id: 0x35, dir: c2s, name: "PluginMessage", ext: "PluginMessages", items: []item{it("classic.cpe.channel", "Channel", kU8), it("classic.cpe.plugin_data", "Data", kBytes64)}},
	{id: 0x39, dir: c2s, name: "NotifyAction", ext: "NotifyAction", items: []item{itN("classic.cpe.notify_action", "Action", kU16, notifyNames), it("classic.cpe.notify_value", "Value", kU16)}},
	{id: 0x3a, dir: c2s, name: "NotifyPositionAction", ext: "NotifyAction", items: []item{itN("classic.cpe.notify_action", "", kU16, notifyNames), blkX, blkY, blkZ}},

	// Server to client.
	{id: 0x00, dir: s2c, name: "Server Identification", dec: decServerIdentification},
	{id: 0x01, dir: s2c, name: "Ping"},
	{id: 0x02, dir: s2c, name: "Level Initialize", dec: decLevelInit, size: func(n *neg) int {
		if n.fastMap {
			return 5
		}
		return 1
	}},
	{id: 0x03, dir: s2c, name: "Level Data Chunk", dec: decLevelChunk, size: fixedSize(1028)},
	{id: 0x04, dir: s2c, name: "Level Finalize", dec: decLevelFinalize, size: fixedSize(7)},
	{id: 0x06, dir: s2c, name: "Set Block", items: []item{blkX, blkY, blkZ, block}},
	{id: 0x07, dir: s2c, name: "Spawn Player", items: []item{pid, pname, posX, posY, posZ, yaw, pitch}},
	{id: 0x08, dir: s2c, name: "Teleport", items: []item{pid, posX, posY, posZ, yaw, pitch}},
	{id: 0x09, dir: s2c, name: "Position and Orientation Update", items: []item{pid, it("classic.dx", "", kDelta), it("classic.dy", "", kDelta), it("classic.dz", "", kDelta), yaw, pitch}},
	{id: 0x0a, dir: s2c, name: "Position Update", items: []item{pid, it("classic.dx", "", kDelta), it("classic.dy", "", kDelta), it("classic.dz", "", kDelta)}},
	{id: 0x0b, dir: s2c, name: "Orientation Update", items: []item{pid, yaw, pitch}},
	{id: 0x0c, dir: s2c, name: "Despawn Player", items: []item{pid}},
	{id: 0x0d, dir: s2c, name: "Message", dec: decMessage, size: fixedSize(66)},
	{id: 0x0e, dir: s2c, name: "Disconnect Player", items: []item{it("classic.disconnect_reason", "", kStr)}},
	{id: 0x0f, dir: s2c, name: "Update User Type", items: []item{itN("classic.user_type", "", kU8, userTypeNames)}},

	{id: 0x10, dir: s2c, name: "ExtInfo", ext: "*", dec: decExtInfo, size: fixedSize(67)},
	{id: 0x11, dir: s2c, name: "ExtEntry", ext: "*", dec: decExtEntry, size: fixedSize(69)},
	{id: 0x12, dir: s2c, name: "SetClickDistance", ext: "ClickDistance", items: []item{it("classic.cpe.click_distance", "Click distance", kFixed32short)}},
	{id: 0x13, dir: s2c, name: "CustomBlockSupportLevel", ext: "CustomBlocks", items: []item{itN("classic.cpe.support_level", "", kU8, supportNames)}},
	{id: 0x14, dir: s2c, name: "HoldThis", ext: "HeldBlock", items: []item{block, it("classic.cpe.prevent_change", "Prevent change", kBool)}},
	{id: 0x15, dir: s2c, name: "SetTextHotKey", ext: "TextHotKey", items: []item{it("classic.cpe.label", "Label", kStr), it("classic.cpe.action", "Action", kStr), it("classic.cpe.key_code", "LWJGL key code", kU32), it("classic.cpe.key_mods", "Key modifiers (1 Ctrl, 2 Shift, 4 Alt)", kU8)}},
	{id: 0x16, dir: s2c, name: "ExtAddPlayerName", ext: "ExtPlayerList", items: []item{it("classic.cpe.name_id", "Name ID", kI16), it("classic.cpe.player_name", "Player name", kStr), it("classic.cpe.list_name", "List name", kStr), it("classic.cpe.group_name", "Group name", kStr), it("classic.cpe.group_rank", "Group rank", kU8)}},
	{id: 0x17, dir: s2c, name: "ExtAddEntity (ExtPlayerList v1)", ext: "ExtPlayerList", items: []item{pid, it("classic.cpe.in_game_name", "In-game name", kStr), it("classic.cpe.skin_name", "Skin name", kStr)}},
	{id: 0x18, dir: s2c, name: "ExtRemovePlayerName", ext: "ExtPlayerList", items: []item{it("classic.cpe.name_id", "", kI16)}},
	{id: 0x19, dir: s2c, name: "EnvSetColor", ext: "EnvColors", items: []item{itN("classic.cpe.env_variable", "Variable", kU8, envColorNames), it("classic.cpe.red", "Red (>255: reset)", kI16), it("classic.cpe.green", "Green", kI16), it("classic.cpe.blue", "Blue", kI16)}},
	{id: 0x1a, dir: s2c, name: "MakeSelection", ext: "SelectionCuboid", items: []item{it("classic.cpe.selection_id", "Selection ID", kU8), it("classic.cpe.label", "", kStr),
		it("classic.cpe.start_x", "Start X", kBlockPos), it("classic.cpe.start_y", "Start Y", kBlockPos), it("classic.cpe.start_z", "Start Z", kBlockPos),
		it("classic.cpe.end_x", "End X", kBlockPos), it("classic.cpe.end_y", "End Y", kBlockPos), it("classic.cpe.end_z", "End Z", kBlockPos),
		it("classic.cpe.red", "", kI16), it("classic.cpe.green", "", kI16), it("classic.cpe.blue", "", kI16), it("classic.cpe.opacity", "Opacity", kI16)}},
	{id: 0x1b, dir: s2c, name: "RemoveSelection", ext: "SelectionCuboid", items: []item{it("classic.cpe.selection_id", "", kU8)}},
	{id: 0x1c, dir: s2c, name: "SetBlockPermission", ext: "BlockPermissions", items: []item{block, it("classic.cpe.can_place", "Can place", kBool), it("classic.cpe.can_delete", "Can delete", kBool)}},
	{id: 0x1d, dir: s2c, name: "ChangeModel", ext: "ChangeModel", items: []item{pid, it("classic.cpe.model", "Model", kStr)}},
	{id: 0x1e, dir: s2c, name: "EnvSetMapAppearance", ext: "EnvMapAppearance", items: []item{it("classic.cpe.texture_url", "Texture URL", kStr),
		itN("classic.cpe.side_block", "Side block", kU8, blockNames), itN("classic.cpe.edge_block", "Edge block", kU8, blockNames), it("classic.cpe.side_level", "Side level", kI16),
		itC("classic.cpe.clouds_height", "Clouds height (v2)", kI16, isMapApp2), itC("classic.cpe.max_view_distance", "Max view distance (v2)", kI16, isMapApp2)}},
	{id: 0x1f, dir: s2c, name: "EnvSetWeatherType", ext: "EnvWeatherType", items: []item{itN("classic.cpe.weather", "Weather", kU8, weatherNames)}},
	{id: 0x20, dir: s2c, name: "HackControl", ext: "HackControl", items: []item{it("classic.cpe.flying", "Flying", kBool), it("classic.cpe.noclip", "No clip", kBool), it("classic.cpe.speeding", "Speeding", kBool), it("classic.cpe.spawn_control", "Spawn control", kBool), it("classic.cpe.third_person", "Third person view", kBool), it("classic.cpe.jump_height", "Jump height (units of 1/32 block, -1 = default)", kI16)}},
	{id: 0x21, dir: s2c, name: "ExtAddEntity2", ext: "ExtPlayerList", items: []item{pid, it("classic.cpe.in_game_name", "", kStr), it("classic.cpe.skin_name", "", kStr), posX, posY, posZ, yaw, pitch}},
	{id: 0x23, dir: s2c, name: "DefineBlock", ext: "BlockDefinitions", items: defineBlockItems(false)},
	{id: 0x24, dir: s2c, name: "RemoveBlockDefinition", ext: "BlockDefinitions", items: []item{block}},
	{id: 0x25, dir: s2c, name: "DefineBlockExt", ext: "BlockDefinitionsExt", items: defineBlockItems(true)},
	{id: 0x26, dir: s2c, name: "BulkBlockUpdate", ext: "BulkBlockUpdate", dec: decBulk, size: func(n *neg) int {
		if n.extBlocks {
			return 1282 + 64
		}
		return 1282
	}},
	{id: 0x27, dir: s2c, name: "SetTextColor", ext: "TextColors", items: []item{it("classic.cpe.red", "", kU8), it("classic.cpe.green", "", kU8), it("classic.cpe.blue", "", kU8), it("classic.cpe.alpha", "Alpha", kU8), it("classic.cpe.text_code", "Code", kU8)}},
	{id: 0x28, dir: s2c, name: "SetMapEnvUrl", ext: "EnvMapAspect", items: []item{it("classic.cpe.texture_url", "", kStr), itC("classic.cpe.texture_url2", "Texture URL, second half (v2)", kStr, isMapAspect2)}},
	{id: 0x29, dir: s2c, name: "SetMapEnvProperty", ext: "EnvMapAspect", items: []item{itN("classic.cpe.env_property", "Property", kU8, envPropNames), it("classic.cpe.env_value", "Value", kI32)}},
	{id: 0x2a, dir: s2c, name: "SetEntityProperty", ext: "EntityProperty", items: []item{pid, itN("classic.cpe.entity_property", "Property", kU8, entityPropNames), it("classic.cpe.property_value", "Value", kI32)}},
	{id: 0x2b, dir: s2c, name: "TwoWayPing", ext: "TwoWayPing", items: []item{itN("classic.cpe.ping_direction", "", kU8, pingDirNames), it("classic.cpe.ping_id", "", kU16)}},
	{id: 0x2c, dir: s2c, name: "SetInventoryOrder", ext: "InventoryOrder", items: []item{block, it("classic.cpe.order", "Position (0 = hidden)", kBlock)}},
	{id: 0x2d, dir: s2c, name: "SetHotbar", ext: "SetHotbar", items: []item{block, it("classic.cpe.hotbar_index", "Hotbar slot", kU8)}},
	{id: 0x2e, dir: s2c, name: "SetSpawnpoint", ext: "SetSpawnpoint", items: []item{posX, posY, posZ, yaw, pitch}},
	{id: 0x2f, dir: s2c, name: "VelocityControl", ext: "VelocityControl", items: []item{it("classic.cpe.velocity_x", "Velocity X (jump height ×10000)", kFixed10k), it("classic.cpe.velocity_y", "Velocity Y", kFixed10k), it("classic.cpe.velocity_z", "Velocity Z", kFixed10k),
		itN("classic.cpe.velocity_mode_x", "Mode X", kU8, velModeNames), itN("classic.cpe.velocity_mode_y", "Mode Y", kU8, velModeNames), itN("classic.cpe.velocity_mode_z", "Mode Z", kU8, velModeNames)}},
	{id: 0x30, dir: s2c, name: "DefineEffect", ext: "CustomParticles", items: []item{it("classic.cpe.effect_id", "Effect ID", kU8),
		it("classic.cpe.u1", "U1", kU8), it("classic.cpe.v1", "V1", kU8), it("classic.cpe.u2", "U2", kU8), it("classic.cpe.v2", "V2", kU8),
		it("classic.cpe.red", "", kU8), it("classic.cpe.green", "", kU8), it("classic.cpe.blue", "", kU8),
		it("classic.cpe.frame_count", "Frame count", kU8), it("classic.cpe.particle_count", "Particle count", kU8), it("classic.cpe.particle_size", "Size (1/32 block)", kU8),
		it("classic.cpe.size_variation", "Size variation", kFixed10k), it("classic.cpe.spread", "Spread (1/32 block)", kU16), it("classic.cpe.speed", "Speed", kFixed10k),
		it("classic.cpe.gravity", "Gravity", kFixed10k), it("classic.cpe.lifetime", "Base lifetime (s)", kFixed10k), it("classic.cpe.lifetime_variation", "Lifetime variation", kFixed10k),
		it("classic.cpe.collide_flags", "Collide flags", kU8), it("classic.cpe.full_bright", "Full bright", kBool)}},
	{id: 0x31, dir: s2c, name: "SpawnEffect", ext: "CustomParticles", items: []item{it("classic.cpe.effect_id", "", kU8),
		it("classic.cpe.effect_x", "X", kFixed32), it("classic.cpe.effect_y", "Y", kFixed32), it("classic.cpe.effect_z", "Z", kFixed32),
		it("classic.cpe.origin_x", "Origin X", kFixed32), it("classic.cpe.origin_y", "Origin Y", kFixed32), it("classic.cpe.origin_z", "Origin Z", kFixed32)}},
	{id: 0x32, dir: s2c, name: "DefineModel", ext: "CustomModels", items: []item{it("classic.cpe.model_id", "Model ID", kU8), it("classic.cpe.model", "", kStr), it("classic.cpe.model_flags", "Flags (1 bobbing, 2 pushes, 4 human skin, 8 human anims)", kU8),
		it("classic.cpe.name_y", "Name Y", kF32), it("classic.cpe.eye_y", "Eye Y", kF32),
		it("classic.cpe.collision_x", "Collision X", kF32), it("classic.cpe.collision_y", "Collision Y", kF32), it("classic.cpe.collision_z", "Collision Z", kF32),
		it("classic.cpe.pick_min_x", "Picking min X", kF32), it("classic.cpe.pick_min_y", "Picking min Y", kF32), it("classic.cpe.pick_min_z", "Picking min Z", kF32),
		it("classic.cpe.pick_max_x", "Picking max X", kF32), it("classic.cpe.pick_max_y", "Picking max Y", kF32), it("classic.cpe.pick_max_z", "Picking max Z", kF32),
		it("classic.cpe.u_scale", "U scale", kU16), it("classic.cpe.v_scale", "V scale", kU16), it("classic.cpe.part_count", "Parts", kU8)}},
	{id: 0x33, dir: s2c, name: "DefineModelPart", ext: "CustomModels", items: modelPartItems()},
	{id: 0x34, dir: s2c, name: "UndefineModel", ext: "CustomModels", items: []item{it("classic.cpe.model_id", "", kU8)}},
	{id: 0x35, dir: s2c, name: "PluginMessage", ext: "PluginMessages", items: []item{it("classic.cpe.channel", "", kU8), it("classic.cpe.plugin_data", "", kBytes64)}},
	{id: 0x36, dir: s2c, name: "ExtEntityTeleport", ext: "ExtEntityTeleport", items: []item{pid, it("classic.cpe.teleport_flags", "Flags (1 position, 2-4 mode, 16 orientation, 32 interpolate)", kU8), posX, posY, posZ, yaw, pitch}},
	{id: 0x37, dir: s2c, name: "LightingMode", ext: "LightingMode", items: []item{itN("classic.cpe.lighting_mode", "Lighting mode", kU8, lightingNames), it("classic.cpe.locked", "Locked", kBool)}},
	{id: 0x38, dir: s2c, name: "CinematicGui", ext: "CinematicGui", items: []item{it("classic.cpe.hide_crosshair", "Hide crosshair", kBool), it("classic.cpe.hide_hand", "Hide hand", kBool), it("classic.cpe.hide_hotbar", "Hide hotbar", kBool),
		it("classic.cpe.red", "", kU8), it("classic.cpe.green", "", kU8), it("classic.cpe.blue", "", kU8), it("classic.cpe.alpha", "", kU8), it("classic.cpe.bar_size", "Bar size (65535 = full)", kU16)}},
	{id: 0x3b, dir: s2c, name: "ToggleBlockList", ext: "ToggleBlockList", items: []item{it("classic.cpe.close_block_list", "Close the block list", kBool)}},
}

func defineBlockItems(ext bool) []item {
	out := []item{block, it("classic.cpe.block_name", "Block name", kStr), itN("classic.cpe.solidity", "Collision", kU8, solidityNames), it("classic.cpe.speed_log2", "Movement speed (128 = ×1)", kU8),
		it("classic.cpe.tex_top", "Top texture", kTex)}
	if !ext {
		out = append(out, it("classic.cpe.tex_side", "Side texture", kTex))
	} else {
		out = append(out, itC("classic.cpe.tex_side", "Side texture", kTex, notBlockDefsExt2),
			itC("classic.cpe.tex_left", "Left texture (v2)", kTex, isBlockDefsExt2), itC("classic.cpe.tex_right", "Right texture (v2)", kTex, isBlockDefsExt2),
			itC("classic.cpe.tex_front", "Front texture (v2)", kTex, isBlockDefsExt2), itC("classic.cpe.tex_back", "Back texture (v2)", kTex, isBlockDefsExt2))
	}
	out = append(out, it("classic.cpe.tex_bottom", "Bottom texture", kTex), it("classic.cpe.transmit_light", "Transmits light", kBool),
		itN("classic.cpe.walk_sound", "Walk sound", kU8, soundNames), it("classic.cpe.full_bright", "", kBool))
	if !ext {
		out = append(out, it("classic.cpe.shape", "Shape (0 sprite, else height in 1/16)", kU8))
	} else {
		out = append(out, it("classic.cpe.min_x", "Min X (1/16)", kBB16), it("classic.cpe.min_y", "Min Y (1/16)", kBB16), it("classic.cpe.min_z", "Min Z (1/16)", kBB16),
			it("classic.cpe.max_x", "Max X (1/16)", kBB16), it("classic.cpe.max_y", "Max Y (1/16)", kBB16), it("classic.cpe.max_z", "Max Z (1/16)", kBB16))
	}
	return append(out, itN("classic.cpe.block_draw", "Draw", kU8, drawNames), it("classic.cpe.fog_density", "Fog density", kU8),
		it("classic.cpe.fog_red", "Fog red", kU8), it("classic.cpe.fog_green", "Fog green", kU8), it("classic.cpe.fog_blue", "Fog blue", kU8))
}

func modelPartItems() []item {
	out := []item{it("classic.cpe.model_id", "", kU8)}
	for _, n := range []string{"min_x", "min_y", "min_z", "max_x", "max_y", "max_z"} {
		out = append(out, it("classic.cpe.part_"+n, "Part "+strings.ReplaceAll(n, "_", " "), kF32))
	}
	for _, face := range []string{"top", "bottom", "front", "back", "left", "right"} {
		for _, c := range []string{"u1", "v1", "u2", "v2"} {
			out = append(out, it("classic.cpe.uv_"+face+"_"+c, face+" "+c, kU16))
		}
	}
	for _, n := range []string{"origin_x", "origin_y", "origin_z", "rot_x", "rot_y", "rot_z"} {
		out = append(out, it("classic.cpe.part_"+n, "Part "+strings.ReplaceAll(n, "_", " "), kF32))
	}
	// Version 1: one animation (type byte, speed float); version 2: four
	// animations (type/axis byte and four floats each).
	out = append(out, itC("classic.cpe.anim_type", "Animation type", kU8, notModels2), itC("classic.cpe.anim_a", "Animation a", kF32, notModels2))
	for i := 1; i <= 4; i++ {
		s := string(rune('0' + i))
		out = append(out, itC("classic.cpe.anim"+s+"_type", "Animation "+s+" type/axis (v2)", kU8, isModels2))
		for _, c := range []string{"a", "b", "c", "d"} {
			out = append(out, itC("classic.cpe.anim"+s+"_"+c, "Animation "+s+" "+c+" (v2)", kF32, isModels2))
		}
	}
	return append(out, it("classic.cpe.part_flags", "Flags (1 full bright, 2 first person arm)", kU8))
}

// Packet lookup tables, by direction and ID.
var tables [3][256]*pkt

// extBits numbers the extensions packets belong to (by lower-case name),
// so that a Conn can keep which both sides agreed in one word. It is a
// variable's initializer, not init, because Conns made by other package
// variables (tests' templates) observe with it.
var extBits = func() map[string]int {
	m := map[string]int{}
	for i := range packetTable {
		p := &packetTable[i]
		if p.ext == "" || p.ext == "*" {
			continue
		}
		name := strings.ToLower(p.ext)
		if _, ok := m[name]; !ok {
			if len(m) == 64 {
				panic("classic: more than 64 extensions have packets; Conn.agreed needs more bits")
			}
			m[name] = len(m)
		}
	}
	return m
}()

func init() {
	for i := range packetTable {
		p := &packetTable[i]
		tables[p.dir][p.id] = p
		p.idText = p.name + " (" + hex2(p.id) + ")"
		for j := range p.items {
			registerItem(&p.items[j])
		}
		p.extBit = -1
		if p.ext != "" && p.ext != "*" {
			p.extBit = extBits[strings.ToLower(p.ext)]
		}
	}
}

var itemFields = map[string]*dissect.Field{}

func registerItem(it *item) {
	if f, key, ok := dissect.LookupField(it.name); ok && key == "" {
		it.f = f
		return
	}
	if f, ok := itemFields[it.name]; ok {
		it.f = f
		return
	}
	label := it.label
	if label == "" {
		label = it.name
	}
	f := dissect.Field{Name: it.name, Label: label, Names: it.names}
	switch it.k {
	case kU8, kU16, kU32, kBlock, kTex:
		f.Type = dissect.FTUint
	case kBool:
		f.Type = dissect.FTBool
	case kI8, kI16, kI32, kPID, kHeld:
		f.Type = dissect.FTInt
	case kStr:
		f.Type = dissect.FTString
	case kBytes64:
		f.Type = dissect.FTBytes
	case kPos, kBlockPos, kFixed32, kFixed32short:
		f.Type, f.Unit = dissect.FTFloat, "blocks"
	case kYaw, kPitch:
		f.Type, f.Unit = dissect.FTFloat, "°"
	default:
		f.Type = dissect.FTFloat
	}
	it.f = Registry.Add(f)
	itemFields[it.name] = it.f
}

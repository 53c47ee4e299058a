package classic

import "github.com/mcdissect/mcdissect/dissect"

// Registry is the Classic protocol's field and expert registry. The fields of
// the fixed packet layouts (packets.go) are registered from the layout table
// at package initialisation, in table order, so the registry dump is
// deterministic.
var Registry = dissect.NewRegistry("classic", "Minecraft Classic Protocol")

// Fields the decoders add by hand; the layout table adds the rest.
var (
	FieldPacketID        = Registry.Uint("classic.packet_id", "Packet ID", dissect.BaseHex, nil)
	FieldProtocolVersion = Registry.Uint("classic.protocol_version", "Protocol version", dissect.BaseDec, protocolNames)
	FieldUsername        = Registry.Str("classic.username", "Username")
	FieldKey             = Registry.Str("classic.verification_key", "Verification key")
	FieldKeyValid        = Registry.Bool("classic.key_valid", "Verification key valid")
	FieldKeyExpected     = Registry.Str("classic.key_expected", "Expected key md5(salt + username)")
	FieldKeySalt         = Registry.Str("classic.key_salt", "Salt used for the check")
	FieldUnused          = Registry.Uint("classic.unused", "Unused byte", dissect.BaseHex, nil)
	FieldServerName      = Registry.Str("classic.server_name", "Server name")
	FieldServerNamePlain = Registry.Str("classic.server_name.plain", "Server name without colour codes")
	FieldMOTD            = Registry.Str("classic.motd", "MOTD")
	FieldMOTDPlain       = Registry.Str("classic.motd.plain", "MOTD without colour codes")
	FieldUserType        = Registry.Uint("classic.user_type", "User type", dissect.BaseHex, userTypeNames)
	FieldPlayerID        = Registry.Int("classic.player_id", "Player ID")
	FieldPlayerName      = Registry.Str("classic.player_name", "Player name")
	FieldX               = Registry.Float("classic.x", "X", "blocks")
	FieldY               = Registry.Float("classic.y", "Y", "blocks")
	FieldZ               = Registry.Float("classic.z", "Z", "blocks")
	FieldFeetY           = Registry.Float("classic.feet_y", "Feet Y (eye level − 51/32)", "blocks")
	FieldDX              = Registry.Float("classic.dx", "ΔX", "blocks")
	FieldDY              = Registry.Float("classic.dy", "ΔY", "blocks")
	FieldDZ              = Registry.Float("classic.dz", "ΔZ", "blocks")
	FieldYaw             = Registry.Float("classic.yaw", "Yaw", "°")
	FieldPitch           = Registry.Float("classic.pitch", "Pitch", "°")
	FieldBlockType       = Registry.Uint("classic.block_type", "Block type", dissect.BaseDec, blockNames)
	FieldMode            = Registry.Uint("classic.mode", "Mode", dissect.BaseDec, modeNames)
	FieldMessageByte     = Registry.Uint("classic.message_flag", "Unused (message colour?) / partial flag", dissect.BaseHex, nil)
	FieldMessage         = Registry.Str("classic.message", "Message")
	FieldMessagePlain    = Registry.Str("classic.message.plain", "Message without colour codes")
	FieldReason          = Registry.Str("classic.disconnect_reason", "Disconnect reason")
	FieldReasonPlain     = Registry.Str("classic.disconnect_reason.plain", "Disconnect reason without colour codes")
	FieldText            = Registry.Str("classic.text", "Text")
	FieldColorRun        = Registry.Str("classic.color_run", "Colour run")
	FieldPadding         = Registry.Bytes("classic.padding", "Padding")

	FieldLevelVolumeFast = Registry.Uint("classic.level.fastmap_volume", "Level volume (FastMap)", dissect.BaseDec, nil)
	FieldChunkLength     = Registry.Uint("classic.level.chunk_length", "Chunk length", dissect.BaseDec, nil)
	FieldChunkData       = Registry.Bytes("classic.level.chunk_data", "Chunk data")
	FieldChunkPadding    = Registry.Bytes("classic.level.chunk_padding", "Chunk padding")
	FieldPercent         = Registry.Uint("classic.level.percent", "Percent complete", dissect.BaseDec, nil)
	FieldArraySel        = Registry.Uint("classic.level.array", "Block array (ExtendedBlocks)", dissect.BaseDec, arrayNames)
	FieldSizeX           = Registry.Uint("classic.level.size_x", "Size X", dissect.BaseDec, nil)
	FieldSizeY           = Registry.Uint("classic.level.size_y", "Size Y (height)", dissect.BaseDec, nil)
	FieldSizeZ           = Registry.Uint("classic.level.size_z", "Size Z", dissect.BaseDec, nil)
	FieldLevel           = Registry.Label("classic.level", "Level")
	FieldVolume          = Registry.Uint("classic.level.volume", "Volume X×Y×Z", dissect.BaseDec, nil)
	FieldBlockCount      = Registry.Uint("classic.level.block_count", "Block count (inflated prefix)", dissect.BaseDec, nil)
	FieldCompressed      = Registry.Uint("classic.level.compressed_size", "Compressed size", dissect.BaseDec, nil)
	FieldInflated        = Registry.Uint("classic.level.inflated_size", "Inflated size", dissect.BaseDec, nil)
	FieldChunkCount      = Registry.Uint("classic.level.chunks", "Chunks", dissect.BaseDec, nil)
	FieldChunkFrame      = Registry.FrameNum("classic.level.chunk_frame", "Chunk in frame")
	FieldTypeCount       = Registry.Uint("classic.level.type_count", "Blocks of a type", dissect.BaseDec, nil)

	FieldAppName    = Registry.Str("classic.cpe.app_name", "Software")
	FieldExtCount   = Registry.Uint("classic.cpe.ext_count", "Extension count", dissect.BaseDec, nil)
	FieldExtName    = Registry.Str("classic.cpe.ext_name", "Extension name")
	FieldExtVersion = Registry.Uint("classic.cpe.ext_version", "Extension version", dissect.BaseDec, nil)
	FieldExtAgreed  = Registry.Bool("classic.cpe.agreed", "Announced by both sides")
	// FieldExtAgreedUnknown stands where classic.cpe.agreed is not known:
	// its text says why (agreed.go).
	FieldExtAgreedUnknown = Registry.Label("classic.cpe.agreed.unknown", "Announced by both sides")
	FieldBulkCount        = Registry.Uint("classic.cpe.bulk_count", "Blocks in update", dissect.BaseDec, nil)
	FieldBulkIndex        = Registry.Uint("classic.cpe.bulk_index", "Block index", dissect.BaseDec, nil)
	FieldBulkUnused       = Registry.Bytes("classic.cpe.bulk_unused", "Unused slots")
	FieldBulkHigh         = Registry.Bytes("classic.cpe.bulk_high_bits", "High bits of block IDs (ExtendedBlocks)")

	FieldHeartbeat   = Registry.Label("classic.heartbeat", "Heartbeat")
	FieldHBLine      = Registry.Str("classic.heartbeat.request_line", "Request line")
	FieldHBMethod    = Registry.Str("classic.heartbeat.method", "Method")
	FieldHBPath      = Registry.Str("classic.heartbeat.path", "Path")
	FieldHBParam     = Registry.Add(dissect.Field{Name: "classic.heartbeat.param", Label: "Parameter", Type: dissect.FTString, Keyed: true})
	FieldHBPort      = Registry.Str("classic.heartbeat.port", "port: the server's port")
	FieldHBMax       = Registry.Str("classic.heartbeat.max", "max: maximum number of players")
	FieldHBName      = Registry.Str("classic.heartbeat.name", "name: the server's name")
	FieldHBPublic    = Registry.Str("classic.heartbeat.public", "public: listed in the server list (True/False, case-sensitive)")
	FieldHBVersion   = Registry.Str("classic.heartbeat.version", "version: protocol version (7)")
	FieldHBSalt      = Registry.Str("classic.heartbeat.salt", "salt: 16 base-62 characters, secret")
	FieldHBUsers     = Registry.Str("classic.heartbeat.users", "users: players online")
	FieldHBSoftware  = Registry.Str("classic.heartbeat.software", "software: server software name")
	FieldHBWeb       = Registry.Str("classic.heartbeat.web", "web: accepts web clients")
	FieldHBHeader    = Registry.Str("classic.heartbeat.header", "Header")
	FieldHBBody      = Registry.Str("classic.heartbeat.body", "Body")
	FieldHBStatus    = Registry.Str("classic.heartbeat.status_line", "Status line")
	FieldHBCode      = Registry.Uint("classic.heartbeat.status", "Status code", dissect.BaseDec, nil)
	FieldHBPlayURL   = Registry.Str("classic.heartbeat.play_url", "Play URL")
	FieldHBTransfer  = Registry.Bytes("classic.heartbeat.chunk_framing", "Chunked transfer framing")
	FieldHBChunk     = Registry.Bytes("classic.heartbeat.chunk_data", "Chunk data")
	FieldHBDechunked = Registry.Str("classic.heartbeat.dechunked", "De-chunked body")
	FieldHBEOL       = Registry.Bytes("classic.heartbeat.eol", "Line end")
	FieldHBSeparator = Registry.Str("classic.heartbeat.separator", "Separator")
	FieldHTTPVersion = Registry.Str("classic.heartbeat.http_version", "HTTP version")
)

var (
	ExpertUnknownPacket = Registry.Expert("classic.unknown_packet", dissect.SevError, "a packet ID this direction does not have: framing is lost")
	ExpertNotAgreed     = Registry.Expert("classic.cpe.not_agreed", dissect.SevWarn, "an extension packet whose extension both sides did not announce")
	ExpertCPEClient     = Registry.Expert("classic.cpe.client", dissect.SevNote, "the identification's unused byte 0x42 marks a CPE client")
	ExpertProtocol      = Registry.Expert("classic.protocol_version.unexpected", dissect.SevWarn, "protocol version other than 7")
	ExpertBadString     = Registry.Expert("classic.string.nonascii", dissect.SevNote, "a 64-byte string holds bytes outside printable US-ASCII")
	ExpertEyeHeight     = Registry.Expert("classic.eye_height", dissect.SevNote, "absolute player Y is the eye, 51/32 = 1.59375 blocks above the feet")
	ExpertYellowPrefix  = Registry.Expert("classic.message.yellow_prefix", dissect.SevNote, "the client prepends &e to messages from player IDs >= 127")
	ExpertColorCode     = Registry.Expert("classic.message.bad_color", dissect.SevNote, "& not followed by a colour digit")
	ExpertPitch         = Registry.Expert("classic.pitch.invalid", dissect.SevWarn, "pitch between 65 and 191 turns the head upside down")
	ExpertMode          = Registry.Expert("classic.mode.invalid", dissect.SevWarn, "set block mode other than 0 (destroy) and 1 (create)")
	ExpertKeyForged     = Registry.Expert("classic.key_forged", dissect.SevWarn, "the verification key is not md5(salt + username): forged name or wrong salt")
	ExpertKeyNoSalt     = Registry.Expert("classic.key_unchecked", dissect.SevNote, "no salt known for this server: key not checked")
	ExpertChunkLength   = Registry.Expert("classic.level.chunk_length.invalid", dissect.SevError, "chunk length above 1024")
	ExpertChunkPadding  = Registry.Expert("classic.level.chunk_padding.nonzero", dissect.SevNote, "chunk padding is not all zero")
	ExpertLevelInflate  = Registry.Expert("classic.level.inflate_error", dissect.SevError, "the joined level data does not inflate")
	ExpertLevelBomb     = Registry.Expert("classic.level.bomb", dissect.SevError, "level data inflates beyond the cap: reported, not obeyed")
	ExpertLevelCapped   = Registry.Expert("classic.level.compressed_cap", dissect.SevError, "joined compressed level data beyond the cap: the rest is not joined")
	ExpertLevelDropped  = Registry.Expert("classic.level.dropped", dissect.SevWarn, "the level's data was given up to stay within the memory budget: it is not inflated")
	ExpertLevelCount    = Registry.Expert("classic.level.count_mismatch", dissect.SevWarn, "the block count prefix, the inflated size and X×Y×Z disagree")
	ExpertLevelNoData   = Registry.Expert("classic.level.no_data", dissect.SevWarn, "level finalize without level data")
	ExpertLevelGap      = Registry.Expert("classic.level.gap", dissect.SevWarn, "bytes of the level were lost in the capture: it cannot be inflated")
	ExpertLevelOrder    = Registry.Expert("classic.level.no_init", dissect.SevNote, "level data chunk before level initialize")
	ExpertLevelTrailing = Registry.Expert("classic.level.trailing", dissect.SevWarn, "bytes after the end of the compressed stream")
	ExpertFrameCap      = Registry.Expert("classic.level.frames_capped", dissect.SevNote, "more chunk frames than listed")

	ExpertSaltExposed = Registry.Expert("classic.heartbeat.salt_exposed", dissect.SevWarn, "the salt crossed the network in clear text: anyone holding it can forge logins")
	ExpertHBMissing   = Registry.Expert("classic.heartbeat.param_missing", dissect.SevNote, "a heartbeat parameter the protocol requires is absent")
	ExpertHBEncoding  = Registry.Expert("classic.heartbeat.bad_escape", dissect.SevWarn, "a %-escape in the query is not two hex digits")
	ExpertHBSalt      = Registry.Expert("classic.heartbeat.salt_form", dissect.SevNote, "the salt is not 16 base-62 characters")
	ExpertHBStatus    = Registry.Expert("classic.heartbeat.error_status", dissect.SevWarn, "the heartbeat was refused")
)

var protocolNames = dissect.Names{3: "0.0.15a", 4: "0.0.16a–0.0.17a", 5: "0.0.18a–0.0.19a", 6: "0.0.20a–0.0.23a", 7: "0.28–0.30 (current)"}

var userTypeNames = dissect.Names{0x00: "Normal", 0x64: "Op"}

var modeNames = dissect.Names{0: "Destroy", 1: "Create"}

var arrayNames = dissect.Names{0: "Lower 8 bits", 1: "Upper bits"}

// blockNames: the Classic block table (0–49) and the CPE CustomBlocks
// level 1 blocks (50–65).
var blockNames = dissect.Names{
	0: "Air", 1: "Stone", 2: "Grass", 3: "Dirt", 4: "Cobblestone", 5: "Wood Planks", 6: "Sapling",
	7: "Bedrock", 8: "Flowing Water", 9: "Stationary Water", 10: "Flowing Lava", 11: "Stationary Lava",
	12: "Sand", 13: "Gravel", 14: "Gold Ore", 15: "Iron Ore", 16: "Coal Ore", 17: "Wood", 18: "Leaves",
	19: "Sponge", 20: "Glass", 21: "Red Cloth", 22: "Orange Cloth", 23: "Yellow Cloth", 24: "Lime Cloth",
	25: "Green Cloth", 26: "Aqua Green Cloth", 27: "Cyan Cloth", 28: "Blue Cloth", 29: "Purple Cloth",
	30: "Indigo Cloth", 31: "Violet Cloth", 32: "Magenta Cloth", 33: "Pink Cloth", 34: "Black Cloth",
	35: "Gray Cloth", 36: "White Cloth", 37: "Dandelion", 38: "Rose", 39: "Brown Mushroom",
	40: "Red Mushroom", 41: "Gold Block", 42: "Iron Block", 43: "Double Slab", 44: "Slab", 45: "Brick",
	46: "TNT", 47: "Bookshelf", 48: "Mossy Cobblestone", 49: "Obsidian",
	50: "Cobblestone Slab (CPE)", 51: "Rope (CPE)", 52: "Sandstone (CPE)", 53: "Snow (CPE)", 54: "Fire (CPE)",
	55: "Light Pink Wool (CPE)", 56: "Forest Green Wool (CPE)", 57: "Brown Wool (CPE)", 58: "Deep Blue Wool (CPE)",
	59: "Turquoise Wool (CPE)", 60: "Ice (CPE)", 61: "Ceramic Tile (CPE)", 62: "Magma (CPE)", 63: "Pillar (CPE)",
	64: "Crate (CPE)", 65: "Stone Brick (CPE)",
}

// colorNames: the 16 colour codes, with the seed's foreground colour.
var colorNames = [16]string{
	"black #000", "dark blue #00A", "dark green #0A0", "dark aqua #0AA", "dark red #A00", "purple #A0A",
	"gold #AA0", "gray #AAA", "dark gray #555", "blue #55F", "green #5F5", "aqua #5FF", "red #F55",
	"pink #F5F", "yellow #FF5", "white #FFF",
}

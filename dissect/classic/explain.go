package classic

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/mcdissect/mcdissect/dissect"
)

// The field reference for learners: what each field is, why it looks the
// way it does, and where it surprises. Sources: the Minecraft Classic
// protocol page (shared/seeds, "Classic protocol page") for the core
// protocol and the heartbeat, the Classic Protocol Extension page ("CPE
// page") for the extensions. Applied at registration
// (dissect.Registry.Explain); a test fails on a field without an entry.
var explanations = map[string]string{
	"classic": "The protocol of Minecraft Classic (0.28 to 0.30) and of its successors such as ClassiCube, on TCP: a packet ID byte, then fields of fixed sizes, with no length prefix anywhere (Classic protocol page). A server announces itself to a server list with an HTTP heartbeat, which this protocol's dissector reads too.",

	// Core packets.
	"classic.packet_id":               "The first byte of every packet, which alone tells its length: each ID has a fixed layout per direction (Player Identification is always 131 bytes). That is also the protocol's weakness: an unknown ID leaves no way to find where the next packet starts.",
	"classic.protocol_version":        "The protocol version of Player and Server Identification, 7 for Classic 0.28 to 0.30, which every later Classic server and client speaks (Classic protocol page).",
	"classic.username":                "The player's name, in a Classic string: always 64 bytes of US-ASCII, padded with spaces (0x20) at the end, since the protocol has no lengths. The server checks it against the verification key.",
	"classic.verification_key":        "The player's proof that the server list logged them in (the mppass): md5(salt + username) as 32 hex digits, computed by the list with the server's secret salt. The server recomputes it; anyone who knows the salt can make a valid key for any name (Classic protocol page).",
	"classic.key_valid":               "Whether the verification key equals md5(salt + username) for the server's salt, checked by the dissector. False means a forged name or a salt other than the one the capture showed.",
	"classic.key_expected":            "The key the dissector computed as md5(salt + username), from the salt seen in the server's heartbeat or given with --classic-salt. The player's key should equal it.",
	"classic.key_salt":                "The salt the dissector used to check the key, taken from the server's heartbeat in this capture or from --classic-salt. It is a secret: --redact masks it.",
	"classic.unused":                  "The last byte of Player Identification, unused in vanilla Classic (0x00). A client that supports the Classic Protocol Extension sends the magic value 0x42 here, and a CPE server then answers with its extension list (CPE page).",
	"classic.server_name":             "The server's name shown while the level loads, a 64-byte space-padded string, as sent: & colour codes included (classic.server_name.plain is the text without them).",
	"classic.server_name.plain":       "The server's name without its & colour codes (& and the hex digit after it), worked out by the dissector: what a player reads.",
	"classic.motd":                    "The server's message of the day, shown under the name while the level loads, a 64-byte space-padded string, as sent: & colour codes included (classic.motd.plain is the text without them). Servers also hide client settings in it, such as -hax to forbid flying.",
	"classic.motd.plain":              "The MOTD without its & colour codes, worked out by the dissector: what a player reads. Every protocol's MOTD has such a .plain field beside the value as sent.",
	"classic.user_type":               "The player's rank: 0x64 (100) makes the player an operator, who may break bedrock, and 0x00 is a normal player. Update User Type changes it during the game (Classic protocol page).",
	"classic.player_id":               "Which player a packet is about, a signed byte: -1 (0xFF, 255 unsigned) means the player receiving the packet, anything else another player. That is why a client's own Position and Orientation always carries 255 (Classic protocol page).",
	"classic.player_name":             "The name of the player being spawned, a 64-byte space-padded string. It may carry & colour codes, which the client shows over the player's head.",
	"classic.x":                       "The X coordinate, east-west. In positions it is fixed point with 5 fractional bits: the short on the wire divided by 32 gives blocks, so 1 unit is 1/32 block; in Set Block it is a whole block coordinate (Classic protocol page).",
	"classic.y":                       "The Y coordinate, the height. In positions it is fixed point (the short divided by 32) and marks the player's eyes, 51/32 = 1.59375 blocks above the feet; in Set Block it is a whole block coordinate (Classic protocol page).",
	"classic.z":                       "The Z coordinate, north-south, where north is -Z. In positions it is fixed point with 5 fractional bits (the short divided by 32); in Set Block it is a whole block coordinate (Classic protocol page).",
	"classic.feet_y":                  "Where the player's feet are, worked out by the dissector: the eye-level Y minus 51/32 blocks. To stand a player on a block at height Y, a server sends Y×32 + 51 (Classic protocol page).",
	"classic.dx":                      "A relative move along X in 1/32 block units, a signed byte: at most 127/32, just under 4 blocks, per packet. Small moves are sent this way to save bytes; larger ones need a Teleport.",
	"classic.dy":                      "A relative move along Y (up or down) in 1/32 block units, a signed byte: at most 127/32, just under 4 blocks, per packet.",
	"classic.dz":                      "A relative move along Z in 1/32 block units, a signed byte: at most 127/32, just under 4 blocks, per packet.",
	"classic.yaw":                     "Which way the player faces, one byte with 256 units to a full turn (each unit 1.40625°): 0 faces north (-Z), 64 east, 128 south and 192 west, growing clockwise seen from above (Classic protocol page).",
	"classic.pitch":                   "How far the player looks up or down, one byte with 256 units to a turn: 0 is level, 64 straight down and 192 (that is -64) straight up. Values between 64 and 192 turn the head upside down (Classic protocol page).",
	"classic.block_type":              "A block ID: 0 air, 1 stone, up to 49 obsidian in Classic; the CustomBlocks extension adds 50 to 65, and ExtendedBlocks makes the ID two bytes so up to 767 are possible.",
	"classic.mode":                    "What the player did in Set Block: 1 placed a block, 0 destroyed one. The client sends the block it holds even when destroying.",
	"classic.message_flag":            "The byte before a chat message. From the client it is 0xFF (player ID 255, self) in vanilla, and with LongerMessages 1 means more of the message follows; from a server that agreed MessageTypes it says where the message shows (chat, status lines, announcement), where otherwise the sender's player ID stands.",
	"classic.message":                 "A chat message, a 64-byte space-padded string, as sent: & colour codes included (classic.message.plain is the text without them). Longer messages are split over several packets.",
	"classic.message.plain":           "The chat message without its & colour codes, worked out by the dissector: what a player reads.",
	"classic.disconnect_reason":       "Why the server closed the connection, shown on the client's disconnect screen; a 64-byte space-padded string, as sent: & colour codes included (classic.disconnect_reason.plain is the text without them).",
	"classic.disconnect_reason.plain": "The disconnect reason without its & colour codes, worked out by the dissector: what a player reads.",
	"classic.text":                    "The text of a 64-byte Classic string without its padding spaces. Bytes outside printable ASCII are shown escaped; ClassiCube maps them to code page 437 characters.",
	"classic.color_run":               "A run of text in one colour: & followed by a hex digit (0 to f) switches colour, as in &cRed. Code &e is yellow; the client adds it in front of messages from player IDs of 127 and above.",
	"classic.padding":                 "The spaces (0x20) that fill a Classic string to its fixed 64 bytes. A string cannot end in a space because of this: trailing spaces are taken as padding.",

	// Level transfer.
	"classic.level.fastmap_volume":  "With the FastMap extension, Level Initialize carries the level's volume (X×Y×Z blocks) as a 32-bit number, and the level data is a raw DEFLATE stream without the gzip header and the 4-byte count.",
	"classic.level.chunk_length":    "How many bytes of the 1024-byte chunk field are level data, as a big-endian short; the rest is zero padding. The level is gzip data cut into such chunks (Classic protocol page).",
	"classic.level.chunk_data":      "A piece of the gzip-compressed level. Joined in order, the chunks inflate to a 4-byte big-endian block count followed by one byte per block.",
	"classic.level.chunk_padding":   "The zero bytes (0x00) after the chunk's data that fill the field to 1024 bytes. Every Level Data Chunk packet is 1028 bytes, whatever it carries.",
	"classic.level.percent":         "How much of the level has been sent, in percent, for the client's loading bar. Servers compute it differently; it is not checked against anything.",
	"classic.level.size_x":          "The level's width along X in blocks, from Level Finalize, a big-endian short. The blocks are stored with X varying fastest.",
	"classic.level.size_y":          "The level's height in blocks, from Level Finalize. In Classic Y is up, and the level is stored layer by layer from the bottom.",
	"classic.level.size_z":          "The level's depth along Z in blocks, from Level Finalize. A block's index in the level data is (Y × Z size + Z) × X size + X.",
	"classic.level":                 "The level the server sent in chunks, put back together and inflated by the dissector: its size, where its chunks were, and which blocks it holds.",
	"classic.level.volume":          "The number of blocks in the level, X×Y×Z from Level Finalize. The inflated data should hold exactly this many block bytes after its count.",
	"classic.level.block_count":     "The 4-byte big-endian number at the front of the inflated level data, the number of blocks that follow. It should equal X×Y×Z.",
	"classic.level.compressed_size": "The number of gzip bytes the chunks carried together. Levels compress very well, because most of a level is air or stone.",
	"classic.level.inflated_size":   "The number of bytes the level data inflated to: 4 for the block count plus one per block. The dissector stops at a cap, so a small hostile stream cannot make it allocate gigabytes.",
	"classic.level.chunks":          "How many Level Data Chunk packets carried the level.",
	"classic.level.chunk_frame":     "A frame holding one of the level's chunks, in order. Select it to see the chunk.",
	"classic.level.type_count":      "How many blocks of one type the level holds, counted by the dissector after inflating. Air and stone usually dominate.",
	"classic.level.array":           "With ExtendedBlocks, which half of the block IDs the following level data holds: 0 the lower 8 bits of every block, 1 the upper bits, sent as a second level array (CPE page).",

	// CPE negotiation and bulk updates.
	"classic.cpe.app_name":       "The software that sends ExtInfo, such as ClassiCube 1.3.6 or MCGalaxy 1.9.4.9, a 64-byte string. It opens the Classic Protocol Extension handshake (CPE page).",
	"classic.cpe.ext_count":      "How many ExtEntry packets follow ExtInfo, one per extension the sender supports. Each side announces its own list; only extensions on both lists are used.",
	"classic.cpe.ext_name":       "The name of one extension the sender supports, such as CustomBlocks or ExtPlayerList. Names are matched exactly; the extension's packets may only be sent when both sides announced it.",
	"classic.cpe.ext_version":    "The version of the extension the sender supports, a big-endian 32-bit number. Some extensions change their packets' layout in version 2 (CPE page).",
	"classic.cpe.agreed":         "Whether the other side announced the same extension, worked out by the dissector from both lists. Only agreed extensions change how later packets are read. A server's entries come before the client's list: the dissector holds them until it comes, and the field is absent (never False) while it is not known.",
	"classic.cpe.agreed.unknown": "Stands where classic.cpe.agreed is not known, and says why: the record went out before the other side finished its list (a busy capture; -2, reading the file twice, fills the field in), or the connection ended first.",
	"classic.cpe.bulk_count":     "How many of BulkBlockUpdate's 256 slots are used, stored as the count minus 1 (CPE page). One packet can so change up to 256 blocks.",
	"classic.cpe.bulk_index":     "The position of a changed block as an index into the level's block array, (Y × Z size + Z) × X size + X, a big-endian 32-bit number. It saves sending three coordinates per block.",
	"classic.cpe.bulk_unused":    "The slots of BulkBlockUpdate after the count, which the packet carries anyway because its size is fixed.",
	"classic.cpe.bulk_high_bits": "With ExtendedBlocks, two high bits of each block ID in the update, four blocks packed into a byte, so that IDs above 255 fit.",

	// Heartbeat.
	"classic.heartbeat":               "The HTTP request a Classic server sends every 45 seconds or so to its server list (minecraft.net at first, ClassiCube's today) to be listed and to share its salt; the list answers with the server's play URL (Classic protocol page).",
	"classic.heartbeat.request_line":  "The heartbeat's HTTP request line: GET or POST, /heartbeat.jsp and the parameters, then the HTTP version. With GET the parameters, the salt included, sit in the URL.",
	"classic.heartbeat.method":        "The HTTP method of the heartbeat, GET with the parameters in the URL or POST with them in the body. Both carry the same parameters.",
	"classic.heartbeat.path":          "The path of the heartbeat request, /heartbeat.jsp in the original protocol; other server lists use paths of their own.",
	"classic.heartbeat.param":         "A heartbeat parameter that the protocol page does not list, added by newer server software; filter on it with its name appended.",
	"classic.heartbeat.port":          "The port players should connect to, as decimal text. The list combines it with the address the heartbeat came from.",
	"classic.heartbeat.max":           "The server's player limit, as decimal text, shown in the server list.",
	"classic.heartbeat.name":          "The server's name as the list should show it, URL-encoded (a space is %20).",
	"classic.heartbeat.public":        "Whether the server wants to appear in the public list: True or False, case-sensitive. A private server still sends heartbeats, so that its players can be verified.",
	"classic.heartbeat.version":       "The protocol version the server speaks, 7 for every current Classic server.",
	"classic.heartbeat.salt":          "The server's secret: 16 random base-62 characters shared only with the server list, which gives each player the key md5(salt + name). Whoever learns the salt can compute a valid key for any name and join as anyone, an operator included; the original heartbeat was plain HTTP, so a capture can leak it (Classic protocol page).",
	"classic.heartbeat.users":         "How many players are online, as decimal text, shown in the server list.",
	"classic.heartbeat.software":      "The server software's name, a parameter added by newer server lists to show it.",
	"classic.heartbeat.web":           "Whether the server accepts players of the browser (web) client, a parameter added by ClassiCube's server list.",
	"classic.heartbeat.header":        "One HTTP header of the heartbeat request or response, such as Host or Content-Type.",
	"classic.heartbeat.body":          "The body of the heartbeat message: the parameters of a POST, or the list's answer, which is the server's play URL or an error text.",
	"classic.heartbeat.status_line":   "The first line of the list's HTTP response, such as HTTP/1.1 200 OK.",
	"classic.heartbeat.status":        "The HTTP status code of the list's answer: 200 when the heartbeat was accepted, an error code when refused.",
	"classic.heartbeat.play_url":      "The URL the list gave the server, the address players used to join it through the list's website.",
	"classic.heartbeat.chunk_framing": "The size lines of HTTP chunked transfer encoding, which split the body into pieces each preceded by its length in hex. They are framing, not part of the answer.",
	"classic.heartbeat.chunk_data":    "One piece of a chunked body, as many bytes as its size line said. The pieces joined are the body; a parameter (the salt too) may be split between two of them.",
	"classic.heartbeat.dechunked":     "The chunked body's pieces joined, without their size lines: the form parameters are read from it, and are shown under it as generated items, since their bytes may lie in several pieces.",
	"classic.heartbeat.eol":           "The CR LF (0D 0A) that ends an HTTP line. An empty line, CR LF alone, ends the headers.",
	"classic.heartbeat.separator":     "A character that separates the parts of the request line: a space, ? before the parameters, & between them.",
	"classic.heartbeat.http_version":  "The HTTP version of the heartbeat request, such as HTTP/1.1; very old servers send no version at all (HTTP/0.9 style).",

	// CPE packets.
	"classic.cpe.support_level":      "The CustomBlocks level a side supports, 1 for blocks 50 to 65. The server may only send those blocks after the client answered with its level (CPE page).",
	"classic.cpe.button":             "Which mouse button PlayerClick reports: 0 left, 1 right, 2 middle.",
	"classic.cpe.click_action":       "Whether the button was pressed (0) or released (1).",
	"classic.cpe.click_yaw":          "Where the player looked when clicking, as yaw with 65536 units to a turn, finer than the one-byte yaw of positions.",
	"classic.cpe.click_pitch":        "The pitch at the click, with 65536 units to a turn.",
	"classic.cpe.target_entity":      "The player ID of the entity under the crosshair when clicking, 255 when none.",
	"classic.cpe.target_x":           "The X block coordinate of the block under the crosshair when clicking; -1 in all three when none.",
	"classic.cpe.target_y":           "The Y block coordinate of the block under the crosshair when clicking.",
	"classic.cpe.target_z":           "The Z block coordinate of the block under the crosshair when clicking.",
	"classic.cpe.target_face":        "Which face of the target block was clicked, named by the axis it faces; 255 when no block was targeted.",
	"classic.cpe.ping_direction":     "Who started the TwoWayPing: 0 the client, and the server echoes it; 1 the server, and the client echoes it. Both sides can so measure latency.",
	"classic.cpe.ping_id":            "A number that pairs a TwoWayPing with its echo, chosen by the side that started it.",
	"classic.cpe.channel":            "The plugin channel of a PluginMessage, one byte that client and server plugins agree on.",
	"classic.cpe.plugin_data":        "The 64 bytes of a PluginMessage, whose meaning belongs to the channel.",
	"classic.cpe.notify_action":      "What the client tells the server it did (NotifyAction): selected a block, saved the level, respawned and so on.",
	"classic.cpe.notify_value":       "A value that goes with the notified action, such as the block selected.",
	"classic.cpe.click_distance":     "How far the player can reach to place or break blocks, set by SetClickDistance in 1/32 block units; the default is 160 (5 blocks).",
	"classic.cpe.prevent_change":     "Whether the player may switch away from the block HoldThis put in their hand.",
	"classic.cpe.label":              "A text label: the name of a hotkey (SetTextHotKey) or of a selection box (MakeSelection).",
	"classic.cpe.action":             "The text a hotkey types for the player, such as a command; a trailing newline sends it at once.",
	"classic.cpe.key_code":           "The key bound by SetTextHotKey, as an LWJGL key code (the key numbering of the Java game library Classic used).",
	"classic.cpe.key_mods":           "Which modifier keys the hotkey needs, as bits: 1 Ctrl, 2 Shift, 4 Alt.",
	"classic.cpe.name_id":            "The ID of an entry in the tab list (ExtPlayerList), independent of entity IDs so that players in other worlds can be listed.",
	"classic.cpe.player_name":        "The player's real name in the tab list, used for tab completion.",
	"classic.cpe.list_name":          "The name as the tab list shows it, which may carry colour codes and prefixes.",
	"classic.cpe.group_name":         "The group the tab list shows the player under, such as a world's name.",
	"classic.cpe.group_rank":         "The player's order inside its tab list group: lower ranks are listed first.",
	"classic.cpe.in_game_name":       "The name shown over the entity's head, which may differ from the player's real name.",
	"classic.cpe.skin_name":          "The name or URL of the skin the client should draw the entity with.",
	"classic.cpe.env_variable":       "Which colour of the environment EnvSetColor sets: sky, clouds, fog, ambient or sun light, and so on.",
	"classic.cpe.red":                "The red part of a colour, 0 to 255. In EnvSetColor a value outside 0 to 255 resets the colour to the default.",
	"classic.cpe.green":              "The green part of a colour, 0 to 255.",
	"classic.cpe.blue":               "The blue part of a colour, 0 to 255.",
	"classic.cpe.selection_id":       "The ID of a selection box, so that RemoveSelection can take it away later.",
	"classic.cpe.start_x":            "The X block coordinate of a selection box's first corner.",
	"classic.cpe.start_y":            "The Y block coordinate of a selection box's first corner.",
	"classic.cpe.start_z":            "The Z block coordinate of a selection box's first corner.",
	"classic.cpe.end_x":              "The X block coordinate of a selection box's opposite corner.",
	"classic.cpe.end_y":              "The Y block coordinate of a selection box's opposite corner.",
	"classic.cpe.end_z":              "The Z block coordinate of a selection box's opposite corner.",
	"classic.cpe.opacity":            "How opaque the selection box is drawn, 0 invisible to 255 solid.",
	"classic.cpe.can_place":          "Whether the player may place this block type (SetBlockPermission).",
	"classic.cpe.can_delete":         "Whether the player may break this block type (SetBlockPermission).",
	"classic.cpe.model":              "The name of a model to draw an entity with, such as chicken, or a block ID to draw it as a block.",
	"classic.cpe.texture_url":        "The URL of a texture pack (a zip or a terrain.png) the client should download and use; empty for the default.",
	"classic.cpe.side_block":         "The block drawn along the sides of the level, below the edge (bedrock by default).",
	"classic.cpe.edge_block":         "The block drawn around the level at the edge height (water by default).",
	"classic.cpe.side_level":         "The height of the edge block around the level, in blocks.",
	"classic.cpe.clouds_height":      "The height of the clouds in blocks (EnvMapAppearance version 2).",
	"classic.cpe.max_view_distance":  "The furthest the client may draw, in blocks, 0 for no limit (EnvMapAppearance version 2).",
	"classic.cpe.weather":            "The weather: 0 sunny, 1 raining, 2 snowing.",
	"classic.cpe.flying":             "Whether the player may fly (HackControl); servers use it to stop cheating.",
	"classic.cpe.noclip":             "Whether the player may pass through blocks (HackControl).",
	"classic.cpe.speeding":           "Whether the player may move faster than normal (HackControl).",
	"classic.cpe.spawn_control":      "Whether the player may set and return to their own spawn point with keys (HackControl).",
	"classic.cpe.third_person":       "Whether the player may switch to a third-person camera (HackControl).",
	"classic.cpe.jump_height":        "How high the player jumps, in 1/32 block units; -1 leaves the client's default.",
	"classic.cpe.block_name":         "The name of a block that DefineBlock creates or replaces, shown in the inventory.",
	"classic.cpe.solidity":           "How the defined block collides: walked through, swum through, solid, slippery, or behaving like water, lava or rope.",
	"classic.cpe.speed_log2":         "How fast players move on or in the block, on a log scale: speed = 2^((value − 128) ÷ 64), so 128 is normal speed, 192 double and 64 half.",
	"classic.cpe.tex_top":            "The texture of the block's top face, as an index into the terrain texture atlas.",
	"classic.cpe.tex_side":           "The texture of the block's four sides, as an index into the terrain texture atlas.",
	"classic.cpe.tex_bottom":         "The texture of the block's bottom face, as an index into the terrain texture atlas.",
	"classic.cpe.transmit_light":     "Whether light passes through the block, so that it casts no shadow.",
	"classic.cpe.walk_sound":         "The sound the block makes when walked on: wood, gravel, grass, stone and so on.",
	"classic.cpe.full_bright":        "Whether the block, or particle, is drawn fully lit, glowing even in shadow.",
	"classic.cpe.shape":              "The block's shape: 0 for a sprite (two crossed planes, like a flower), otherwise its height in 1/16 block, 16 for a full cube.",
	"classic.cpe.block_draw":         "How the block is drawn: opaque, transparent like glass or leaves, translucent like water, or gas (not drawn).",
	"classic.cpe.fog_density":        "How dense the fog is inside the block, 0 for none (as inside water).",
	"classic.cpe.fog_red":            "The red part of the fog colour inside the block, 0 to 255.",
	"classic.cpe.fog_green":          "The green part of the fog colour inside the block, 0 to 255.",
	"classic.cpe.fog_blue":           "The blue part of the fog colour inside the block, 0 to 255.",
	"classic.cpe.tex_left":           "The texture of the block's left face, as an index into the texture atlas (BlockDefinitionsExt version 2).",
	"classic.cpe.tex_right":          "The texture of the block's right face, as an index into the texture atlas (BlockDefinitionsExt version 2).",
	"classic.cpe.tex_front":          "The texture of the block's front face, as an index into the texture atlas (BlockDefinitionsExt version 2).",
	"classic.cpe.tex_back":           "The texture of the block's back face, as an index into the texture atlas (BlockDefinitionsExt version 2).",
	"classic.cpe.alpha":              "The opacity of a colour, 0 transparent to 255 opaque.",
	"classic.cpe.text_code":          "The character that SetTextColor defines as a colour code, so that &g, say, can mean a new colour.",
	"classic.cpe.texture_url2":       "The second half of a texture pack URL, so that URLs up to 128 characters fit (EnvMapAspect version 2).",
	"classic.cpe.env_property":       "Which setting of the environment SetMapEnvProperty changes: side or edge block, edge height, clouds, fog distance, speeds and so on.",
	"classic.cpe.env_value":          "The new value of the environment setting, a big-endian 32-bit number; some settings are scaled (a speed of 256 means ×1).",
	"classic.cpe.entity_property":    "Which property of an entity SetEntityProperty changes: a rotation, a model scale or a push strength.",
	"classic.cpe.property_value":     "The entity property's new value, a big-endian 32-bit number, scaled ×1000 for the model scales and push strength.",
	"classic.cpe.order":              "Where a block appears in the inventory, 0 to hide it.",
	"classic.cpe.hotbar_index":       "Which hotbar slot (0 to 8) SetHotbar puts the block in.",
	"classic.cpe.velocity_x":         "A push along X given to the player, a 32-bit number divided by 10000.",
	"classic.cpe.velocity_y":         "A push along Y (up) given to the player, a 32-bit number divided by 10000.",
	"classic.cpe.velocity_z":         "A push along Z given to the player, a 32-bit number divided by 10000.",
	"classic.cpe.velocity_mode_x":    "Whether the X velocity is added to the player's own (0) or replaces it (1).",
	"classic.cpe.velocity_mode_y":    "Whether the Y velocity is added to the player's own (0) or replaces it (1).",
	"classic.cpe.velocity_mode_z":    "Whether the Z velocity is added to the player's own (0) or replaces it (1).",
	"classic.cpe.effect_id":          "The ID of a particle effect, defined by DefineEffect and used by SpawnEffect.",
	"classic.cpe.u1":                 "The left edge of the particle's picture in the particles texture, in pixels.",
	"classic.cpe.v1":                 "The top edge of the particle's picture in the particles texture, in pixels.",
	"classic.cpe.u2":                 "The right edge of the particle's picture in the particles texture, in pixels.",
	"classic.cpe.v2":                 "The bottom edge of the particle's picture in the particles texture, in pixels.",
	"classic.cpe.frame_count":        "How many animation frames the particle has, laid side by side in the texture.",
	"classic.cpe.particle_count":     "How many particles one SpawnEffect of this effect creates.",
	"classic.cpe.particle_size":      "The particle's size in 1/32 block units.",
	"classic.cpe.size_variation":     "How much particle sizes vary at random, a 32-bit number divided by 10000.",
	"classic.cpe.spread":             "How far from the spawn point particles appear, in 1/32 block units.",
	"classic.cpe.speed":              "How fast particles fly away from the origin, a 32-bit number divided by 10000.",
	"classic.cpe.gravity":            "How strongly particles fall, a 32-bit number divided by 10000; negative values make them rise.",
	"classic.cpe.lifetime":           "How long a particle lives, in seconds, a 32-bit number divided by 10000.",
	"classic.cpe.lifetime_variation": "How much particle lifetimes vary at random, a 32-bit number divided by 10000.",
	"classic.cpe.collide_flags":      "Bits telling which blocks particles collide with and whether they expire on touching them.",
	"classic.cpe.effect_x":           "Where the effect spawns along X, fixed point: a 32-bit number divided by 32.",
	"classic.cpe.effect_y":           "Where the effect spawns along Y, fixed point: a 32-bit number divided by 32.",
	"classic.cpe.effect_z":           "Where the effect spawns along Z, fixed point: a 32-bit number divided by 32.",
	"classic.cpe.origin_x":           "The X of the point particles fly away from, fixed point: a 32-bit number divided by 32.",
	"classic.cpe.origin_y":           "The Y of the point particles fly away from, fixed point: a 32-bit number divided by 32.",
	"classic.cpe.origin_z":           "The Z of the point particles fly away from, fixed point: a 32-bit number divided by 32.",
	"classic.cpe.model_id":           "The ID of a custom model, defined by DefineModel, given parts by DefineModelPart and removed by UndefineModel.",
	"classic.cpe.model_flags":        "Bits of a custom model: 1 bobbing when walking, 2 pushes other entities, 4 uses a human skin, 8 uses the human animations.",
	"classic.cpe.name_y":             "How high above the model's feet its name tag is drawn, an IEEE 754 float in blocks.",
	"classic.cpe.eye_y":              "How high above the model's feet its eyes are, an IEEE 754 float in blocks.",
	"classic.cpe.collision_x":        "The width of the model's collision box along X, an IEEE 754 float in blocks.",
	"classic.cpe.collision_y":        "The height of the model's collision box, an IEEE 754 float in blocks.",
	"classic.cpe.collision_z":        "The depth of the model's collision box along Z, an IEEE 754 float in blocks.",
	"classic.cpe.u_scale":            "The width of the model's texture in pixels, which texture coordinates are measured against.",
	"classic.cpe.v_scale":            "The height of the model's texture in pixels, which texture coordinates are measured against.",
	"classic.cpe.part_count":         "How many parts (boxes) the custom model is made of, each sent in a DefineModelPart.",
	"classic.cpe.anim_type":          "The kind of animation of a model part (version 1 of CustomModels): none, or a swing like a head, arm or leg.",
	"classic.cpe.anim_a":             "The speed of the model part's animation (version 1 of CustomModels), an IEEE 754 float.",
	"classic.cpe.part_flags":         "Bits of a model part: 1 drawn fully lit, 2 shown as the first-person arm.",
	"classic.cpe.teleport_flags":     "Bits of ExtEntityTeleport: 1 the position changes, bits 2 to 4 how it is applied, 16 the orientation changes, 32 the move is smoothed (interpolated).",
	"classic.cpe.lighting_mode":      "Which lighting the client should use: 1 the flat Classic lighting, 2 the fancy one, 0 no change.",
	"classic.cpe.locked":             "Whether the player may change the lighting mode the server chose.",
	"classic.cpe.hide_crosshair":     "Whether the crosshair is hidden, for cut scenes (CinematicGui).",
	"classic.cpe.hide_hand":          "Whether the held block is hidden, for cut scenes (CinematicGui).",
	"classic.cpe.hide_hotbar":        "Whether the hotbar is hidden, for cut scenes (CinematicGui).",
	"classic.cpe.bar_size":           "How much of the screen the black cinematic bars cover, 65535 for all of it.",
	"classic.cpe.close_block_list":   "Whether ToggleBlockList closes the inventory instead of opening it.",
}

func init() {
	// Families of fields that differ only in an axis, a face or a number.
	for _, a := range []string{"x", "y", "z"} {
		A := map[string]string{"x": "X", "y": "Y", "z": "Z"}[a]
		explanations["classic.cpe.min_"+a] = "The " + A + " where the block's box starts inside its cell, in 1/16 block: 0 is the cell's edge and 16 the far side (BlockDefinitionsExt)."
		explanations["classic.cpe.max_"+a] = "The " + A + " where the block's box ends inside its cell, in 1/16 block: 16 fills the cell (BlockDefinitionsExt)."
		explanations["classic.cpe.pick_min_"+a] = "The " + A + " where the box used to pick the entity with the crosshair starts, an IEEE 754 float in blocks."
		explanations["classic.cpe.pick_max_"+a] = "The " + A + " where the box used to pick the entity with the crosshair ends, an IEEE 754 float in blocks."
		explanations["classic.cpe.part_min_"+a] = "The " + A + " where the model part's box starts, an IEEE 754 float in blocks from the model's feet."
		explanations["classic.cpe.part_max_"+a] = "The " + A + " where the model part's box ends, an IEEE 754 float in blocks from the model's feet."
		explanations["classic.cpe.part_origin_"+a] = "The " + A + " of the point the model part turns around, an IEEE 754 float in blocks."
		explanations["classic.cpe.part_rot_"+a] = "The model part's rotation around the " + A + " axis, an IEEE 754 float in degrees."
	}
	for _, face := range []string{"top", "bottom", "front", "back", "left", "right"} {
		for _, c := range []string{"u1", "v1", "u2", "v2"} {
			corner, axis := "first", "across (u)"
			if c[1] == '2' {
				corner = "opposite"
			}
			if c[0] == 'v' {
				axis = "down (v)"
			}
			explanations["classic.cpe.uv_"+face+"_"+c] = "Where the model part's " + face + " face takes its picture from: the " + corner + " corner's position " + axis + " in the model's texture, in pixels out of the U or V scale."
		}
	}
	for i := 1; i <= 4; i++ {
		s := string(rune('0' + i))
		explanations["classic.cpe.anim"+s+"_type"] = "Animation " + s + " of the model part (CustomModels version 2): the low bits name the kind of motion (swing, spin, flap and so on), the high bits the axis it moves around."
		for _, c := range []string{"a", "b", "c", "d"} {
			explanations["classic.cpe.anim"+s+"_"+c] = "Parameter " + c + " of animation " + s + " of the model part (CustomModels version 2), an IEEE 754 float whose meaning depends on the animation type, such as its speed or amplitude."
		}
	}

	w := map[string]func(dst []byte, p *dissect.PDU, n *dissect.Node) []byte{
		"classic.x": workedCoord, "classic.y": workedCoord, "classic.z": workedCoord,
		"classic.dx": workedDelta, "classic.dy": workedDelta, "classic.dz": workedDelta,
		"classic.yaw": workedAngle, "classic.pitch": workedAngle,
		"classic.feet_y":             workedFeet,
		"classic.player_id":          workedPlayerID,
		"classic.cpe.click_distance": workedScaled(32, false),
		"classic.cpe.jump_height":    workedJump,
		"classic.cpe.click_yaw":      workedTurn,
		"classic.cpe.click_pitch":    workedTurn,
	}
	for _, a := range []string{"x", "y", "z"} {
		w["classic.cpe.effect_"+a] = workedScaled(32, true)
		w["classic.cpe.origin_"+a] = workedScaled(32, true)
		w["classic.cpe.velocity_"+a] = workedScaled(10000, true)
		w["classic.cpe.min_"+a] = workedScaled(16, true)
		w["classic.cpe.max_"+a] = workedScaled(16, true)
	}
	for _, name := range []string{"size_variation", "speed", "gravity", "lifetime", "lifetime_variation"} {
		w["classic.cpe."+name] = workedScaled(10000, true)
	}
	for _, name := range []string{"port", "max", "name", "public", "version", "users", "software", "web", "param"} {
		w["classic.heartbeat."+name] = workedPercent // not the salt: a secret
	}
	Registry.Explain(explanations, w)
}

func hexBytes(dst, b []byte) []byte {
	for i, c := range b {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = fmt.Appendf(dst, "%02x", c)
	}
	return dst
}

// signed reads b as a big-endian two's complement number of 1, 2 or 4 bytes.
func signed(b []byte) (int64, bool) {
	switch len(b) {
	case 1:
		return int64(int8(b[0])), true
	case 2:
		return int64(int16(binary.BigEndian.Uint16(b))), true
	case 4:
		return int64(int32(binary.BigEndian.Uint32(b))), true
	}
	return 0, false
}

func unsigned(b []byte) (int64, bool) {
	switch len(b) {
	case 1:
		return int64(b[0]), true
	case 2:
		return int64(binary.BigEndian.Uint16(b)), true
	case 4:
		return int64(binary.BigEndian.Uint32(b)), true
	}
	return 0, false
}

// appendRaw appends "ff fc = 0xfffc = -4", with the two's complement step
// when the number is negative.
func appendRaw(dst, b []byte, v int64) []byte {
	dst = hexBytes(dst, b)
	dst = append(dst, " = 0x"...)
	for _, c := range b {
		dst = fmt.Appendf(dst, "%02x", c)
	}
	if v < 0 {
		u, _ := unsigned(b)
		return fmt.Appendf(dst, " = %d − %d (two's complement, top bit set) = %d", u, int64(1)<<(8*len(b)), v)
	}
	return fmt.Appendf(dst, " = %d", v)
}

// workedCoord: a fixed-point position (÷ 32) or a whole block coordinate,
// told apart by the value the decoder stored.
func workedCoord(dst []byte, p *dissect.PDU, n *dissect.Node) []byte {
	b := dissect.NodeBytes(p, n)
	raw, ok := signed(b)
	if !ok || len(b) == 1 {
		return dst
	}
	v := n.Value.Float()
	switch {
	case v == float64(raw)/32:
		dst = appendRaw(dst, b, raw)
		return fmt.Appendf(dst, "; fixed point with 5 fractional bits: %d ÷ 32 = %s blocks (%d whole blocks and %d/32)",
			raw, fmtFloat(v), floorDiv(raw, 32), raw-32*floorDiv(raw, 32))
	case v == float64(raw):
		dst = appendRaw(dst, b, raw)
		return append(dst, ": a block coordinate, whole blocks, no fraction"...)
	}
	return dst
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

func fmtFloat(v float64) string { return fmt.Sprint(v) }

func workedDelta(dst []byte, p *dissect.PDU, n *dissect.Node) []byte {
	b := dissect.NodeBytes(p, n)
	if len(b) != 1 {
		return dst
	}
	raw := int64(int8(b[0]))
	dst = appendRaw(dst, b, raw)
	return fmt.Appendf(dst, "; %d ÷ 32 = %s blocks", raw, fmtFloat(float64(raw)/32))
}

// workedAngle: 256 units a turn.
func workedAngle(dst []byte, p *dissect.PDU, n *dissect.Node) []byte {
	b := dissect.NodeBytes(p, n)
	if len(b) != 1 {
		return dst
	}
	return fmt.Appendf(dst, "0x%02x = %d; %d × 360 ÷ 256 = %s°", b[0], b[0], b[0], fmtFloat(float64(b[0])*360/256))
}

// workedFeet works on the eye-level Y it hangs under.
func workedFeet(dst []byte, p *dissect.PDU, n *dissect.Node) []byte {
	if n.Parent < 0 || int(n.Parent) >= len(p.Nodes) {
		return dst
	}
	raw, ok := signed(dissect.NodeBytes(p, &p.Nodes[n.Parent]))
	if !ok {
		return dst
	}
	return fmt.Appendf(dst, "eye Y %d − 51 = %d (in 1/32 block); %d ÷ 32 = %s blocks", raw, raw-51, raw-51, fmtFloat(float64(raw-51)/32))
}

func workedPlayerID(dst []byte, p *dissect.PDU, n *dissect.Node) []byte {
	b := dissect.NodeBytes(p, n)
	if len(b) != 1 {
		return dst
	}
	dst = appendRaw(dst, b, int64(int8(b[0])))
	if b[0] == 0xff {
		return append(dst, ": the player receiving the packet"...)
	}
	if p.Dir != dissect.DirS2C {
		return dst // from the client, under HeldBlock, the held block instead
	}
	return append(dst, ": another player"...)
}

// workedScaled: a fixed-point number, the integer on the wire ÷ div.
func workedScaled(div int64, isSigned bool) func(dst []byte, p *dissect.PDU, n *dissect.Node) []byte {
	return func(dst []byte, p *dissect.PDU, n *dissect.Node) []byte {
		b := dissect.NodeBytes(p, n)
		raw, ok := unsigned(b)
		if isSigned {
			raw, ok = signed(b)
		}
		if !ok {
			return dst
		}
		dst = appendRaw(dst, b, raw)
		return fmt.Appendf(dst, "; %d ÷ %d = %s", raw, div, fmtFloat(float64(raw)/float64(div)))
	}
}

// workedTurn: 65536 units a turn.
func workedTurn(dst []byte, p *dissect.PDU, n *dissect.Node) []byte {
	b := dissect.NodeBytes(p, n)
	raw, ok := unsigned(b)
	if !ok || len(b) != 2 {
		return dst
	}
	dst = appendRaw(dst, b, raw)
	deg := float64(raw) * 360 / 65536
	return fmt.Appendf(dst, "; %d × 360 ÷ 65536 = %s°", raw, fmtFloat(math.Round(deg*1e4)/1e4))
}

// workedPercent decodes the URL escapes of a heartbeat parameter, as the
// decoder does (heartbeat.go): "%20 = byte 0x20 = \" \"", "+ = a space".
func workedPercent(dst []byte, p *dissect.PDU, n *dissect.Node) []byte {
	b := dissect.NodeBytes(p, n)
	shown := 0
	for i := 0; i < len(b); i++ {
		esc := b[i] == '%' && i+2 < len(b) && isHex(b[i+1]) && isHex(b[i+2])
		if !esc && b[i] != '+' {
			continue
		}
		if shown == 4 {
			return append(dst, ", …"...)
		}
		if shown == 0 {
			dst = append(dst, "URL encoding, % and two hex digits for a byte, + for a space: "...)
		} else {
			dst = append(dst, ", "...)
		}
		shown++
		if !esc {
			dst = append(dst, "+ = a space"...)
			continue
		}
		c := unhex(b[i+1])<<4 | unhex(b[i+2])
		dst = fmt.Appendf(dst, "%%%c%c = byte 0x%02x = ", b[i+1], b[i+2], c)
		dst = dissect.AppendQuoted(dst, string([]byte{c}))
		i += 2
	}
	return dst
}

// workedJump: 1/32 block units, -1 for the client's default.
func workedJump(dst []byte, p *dissect.PDU, n *dissect.Node) []byte {
	b := dissect.NodeBytes(p, n)
	if raw, ok := signed(b); ok && raw == -1 {
		dst = appendRaw(dst, b, raw)
		return append(dst, ": the client's default jump height"...)
	}
	return workedScaled(32, true)(dst, p, n)
}

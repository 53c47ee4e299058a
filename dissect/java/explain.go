package java

// handDesc are hand-written explanations of the fields of the packets
// people look at most; every other field gets one generated from its name
// and type (describe). Sources: minecraft-data's definitions, and the
// wiki.vg "Protocol" page's descriptions of these packets.
var handDesc = map[string]string{
	"mc.play.keep_alive":                 "Keep-alive: the server sends one every few seconds (15 s in vanilla) with an ID; the client must answer with the same ID or be disconnected (30 s). The round trip is the latency the tab list shows.",
	"mc.play.keep_alive.keep_alive_id":   "The keep-alive's ID (a timestamp in vanilla), echoed back by the client. Compare the two directions' IDs to pair a request with its answer.",
	"mc.config.keep_alive":               "Keep-alive in the configuration state (1.20.2+): the same exchange as in play.",
	"mc.config.keep_alive.keep_alive_id": "The keep-alive's ID, echoed back by the client.",
	"mc.play.chat":                       "Chat: before 1.19 a chat message, clientbound as a JSON chat component with where to show it, serverbound as the text the player typed.",
	"mc.play.chat.message":               "The chat text: clientbound, a JSON chat component (its plain text is shown under it); serverbound, what the player typed (at most 256 characters; a leading / is a command).",
	"mc.play.system_chat":                "System chat (1.19+): a message from the server itself, not signed by a player: joins, command output, plugin messages.",
	"mc.play.system_chat.content":        "The message as a chat component: JSON text until 1.20.2, NBT from 1.20.3. Its plain text is shown under it.",
	"mc.play.player_chat":                "Player chat (1.19+): a message a player sent, signed by the player's key when the server enforces secure chat.",
	"mc.play.chat_message":               "Chat message (1.19+): what the player typed, with the timestamp, salt and signature of secure chat.",
	"mc.play.chat_message.message":       "The text the player typed (at most 256 characters).",
	"mc.play.position":                   "Position: serverbound, the player's feet position as the client moves; clientbound (Synchronize Player Position), the server teleports the player, and the client must confirm the teleport ID.",
	"mc.play.position.x":                 "X coordinate in blocks (a double): east is positive.",
	"mc.play.position.y":                 "Y coordinate in blocks (a double): the feet, up is positive.",
	"mc.play.position.z":                 "Z coordinate in blocks (a double): south is positive.",
	"mc.play.position.on_ground":         "Whether the client thinks the player stands on the ground (fall damage is computed from it).",
	"mc.play.position_look":              "Position and rotation together, serverbound: the client sends it when it moves and turns in the same tick.",
	"mc.play.map_chunk":                  "Chunk data: a 16×16 column of blocks (and, since 1.14, its light in a packet of its own or, since 1.18, with it), sent as the player moves; most of a session's bytes are these.",
	"mc.play.map_chunk.x":                "Chunk X coordinate: block X divided by 16.",
	"mc.play.map_chunk.z":                "Chunk Z coordinate: block Z divided by 16.",
	"mc.play.map_chunk.chunk_data":       "The chunk's sections (block states and biomes in paletted containers) as one byte array; its layout depends on the version and is not dissected further.",
	"mc.play.kick_disconnect":            "Disconnect (play): the server closes the connection and tells the player why.",
	"mc.play.kick_disconnect.reason":     "Why the player was disconnected, as a chat component (JSON until 1.20.2, NBT from 1.20.3); its plain text is shown under it.",
	"mc.config.disconnect":               "Disconnect (configuration state): the server closes the connection and tells why.",
	"mc.config.disconnect.reason":        "Why the connection was closed, as a chat component.",
	"mc.play.custom_payload":             "Plugin message: data on a named channel, for mods, proxies and the server's brand (minecraft:brand, MC|Brand before 1.13; BungeeCord and Velocity use bungeecord:main and velocity:player_info).",
	"mc.play.custom_payload.channel":     "The channel's name: namespaced (minecraft:brand) from 1.13, MC|Brand style before.",
	"mc.play.custom_payload.data":        "The channel's data, as the plugin wrote it: the brand is a string (VarInt length and text).",
	"mc.config.custom_payload":           "Plugin message in the configuration state: the server's brand is usually sent here since 1.20.2.",
}

// ownDesc explains the fields of the dissector's own (not from the data).
var ownDesc = map[string]string{
	"mc.java":              "Minecraft Java Edition's configuration and play packets, read with minecraft-data's definition of the connection's version.",
	"mc.java.chat_text":    "The plain text of a chat component: text, translate keys with their arguments, and extra parts in order, without styles. Made by the dissector.",
	"mc.java.count":        "The number of elements that follow, as the wire says (checked against the bytes left before any is read).",
	"mc.java.elements":     "The bytes left for the elements of a count that says more than the packet holds: none of them is read, as a real client would give up on the packet.",
	"mc.java.present":      "Whether the optional value that follows is there: a boolean byte, then the value when it is true.",
	"mc.java.array":        "A list of values whose field the data does not name, with its count and its elements.",
	"mc.java.inline":       "A registry entry holder's 0: the value follows inline instead of being a registry ID (which is sent plus one).",
	"mc.java.metadata_end": "The byte that ends an entity's metadata list (0xff from 1.9, 0x7f before).",
	"mc.java.too_deep":     "Types nested deeper than the dissector's limit (64): the rest of the packet, not read, so that hostile nesting cannot exhaust the stack.",
	"mc.java.version":      "The minecraft-data protocol file the packet was read with, shown when the handshake's protocol number has none of its own and the closest version stands in.",
	"mc.java.anon.int":     "A signed integer the data gives no field name for (an anonymous field of a container or switch).",
	"mc.java.anon.uint":    "An unsigned integer the data gives no field name for (an anonymous field of a container or switch).",
	"mc.java.anon.bool":    "A boolean the data gives no field name for (an anonymous field of a container or switch).",
	"mc.java.anon.float":   "A floating-point number the data gives no field name for (an anonymous field of a container or switch).",
	"mc.java.anon.string":  "Text the data gives no field name for (an anonymous field of a container or switch).",
	"mc.java.anon.bytes":   "Bytes the data gives no field name for: an anonymous buffer, or the body of a packet ID the version does not have.",
	"mc.java.anon.tree":    "A group of values the data gives no field name for (an anonymous container of a switch).",
	"mc.nbt":               "Named Binary Tag, Minecraft's tree of typed values, in its network forms: named root before 1.20.2, anonymous from 1.20.2.",
	"mc.nbt.header":        "A tag's type byte and, for a named tag, its name (a 2-byte length and modified UTF-8): the tag's name is the node's key.",
	"mc.nbt.end":           "TAG_End, one zero byte: the end of a compound, or an absent optional NBT.",
	"mc.nbt.list_header":   "A list's element type byte and its 4-byte element count.",
	"mc.nbt.gzip":          "Minecraft 1.7's compressed NBT: a 2-byte length and that many bytes of gzip'd named NBT (-1: none).",
	"mc.nbt.inflated_size": "The number of bytes 1.7's gzip'd NBT inflates to (capped at 2 MiB).",
	"mc.nbt.compound":      "A compound tag: named tags of any type until TAG_End. Its name is the node's key, so mc.nbt.compound.display filters on it.",
	"mc.nbt.byte":          "A byte tag (signed, 1 byte): its name is the node's key (mc.nbt.byte.has_precipitation).",
	"mc.nbt.short":         "A short tag (signed, 2 bytes big-endian): its name is the node's key.",
	"mc.nbt.int":           "An int tag (signed, 4 bytes big-endian): its name is the node's key (mc.nbt.int.sky_color).",
	"mc.nbt.long":          "A long tag (signed, 8 bytes big-endian): its name is the node's key.",
	"mc.nbt.float":         "A float tag (4-byte IEEE 754): its name is the node's key.",
	"mc.nbt.double":        "A double tag (8-byte IEEE 754): its name is the node's key.",
	"mc.nbt.byte_array":    "A byte array tag: a 4-byte count, then the bytes; its name is the node's key.",
	"mc.nbt.string":        "A string tag: a 2-byte length, then modified UTF-8; its name is the node's key (mc.nbt.string.text holds a chat component's text).",
	"mc.nbt.list":          "A list tag: elements of one type without names; its name is the node's key.",
	"mc.nbt.int_array":     "An int array tag: a 4-byte count, then 4-byte ints; its name is the node's key.",
	"mc.nbt.long_array":    "A long array tag: a 4-byte count, then 8-byte longs (heightmaps, block states); its name is the node's key.",
	"mc.play":              "Minecraft Java Edition's play state, field by field: every packet of every version, from minecraft-data.",
	"mc.config":            "Minecraft Java Edition's configuration state (1.20.2 on, between login and play): registries, resource packs, feature flags, field by field.",
}

func init() {
	RegJava.Explain(ownDesc, nil)
	RegNBT.Explain(ownDesc, nil)
	RegPlay.Explain(ownDesc, nil)
	RegConfig.Explain(ownDesc, nil)
}

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
	"mc.java.chat_text":                  "The plain text of a chat component: text, translate keys with their arguments, and extra parts in order, without styles. Made by the dissector.",
	"mc.java.count":                      "The number of elements that follow, as the wire says (checked against the bytes left before any is read).",
	"mc.java.present":                    "Whether the optional value that follows is there (a boolean byte).",
}

package raknet

// explanations: the field reference for learners, from RakNet's offline
// messages as Bedrock servers and clients (and gamedig) send them.
var explanations = map[string]string{
	"raknet":                     "RakNet, the UDP transport of Minecraft Bedrock Edition. Before any connection, a client asks a server for its status with an unconnected ping, and the server answers with an unconnected pong that carries its MOTD and player counts, Bedrock's counterpart of the Java Edition server list ping.",
	"raknet.id":                  "The offline message's ID, its first byte: 0x01 is an unconnected ping, 0x02 a ping that asks only servers with open slots to answer, 0x1c the unconnected pong.",
	"raknet.time":                "The client's clock in milliseconds, as a big-endian signed 64-bit number. The server copies it into its pong, so the client can measure the round trip without keeping any state.",
	"raknet.magic":               "RakNet's offline-message magic, the 16 bytes 00 ff ff 00 fe fe fe fe fd fd fd fd 12 34 56 78. It marks a datagram as RakNet on any port, which is how mcdissect recognises it without being told.",
	"raknet.client_guid":         "A random 64-bit number the client picks for itself, big-endian. It identifies the client across messages, as UDP has no connection to do that.",
	"raknet.server_guid":         "The server's random 64-bit identifier, big-endian. It appears again as the server unique ID inside the status string.",
	"raknet.server_id.length":    "The length in bytes of the status string that follows, as a big-endian unsigned 16-bit number, RakNet's usual string prefix.",
	"raknet.server_id":           "The pong's status string: fields separated by semicolons, MCPE;motd;protocol;version;online;max;server id;sub-MOTD;game mode;game mode number;IPv4 port;IPv6 port. It is plain text, unlike Java Edition's JSON status.",
	"raknet.pong.edition":        "The first field of the status string: MCPE for Bedrock Edition, MCEE for Education Edition.",
	"raknet.pong.motd":           "The server's message of the day, the first line shown in the client's server list, as sent: § formatting codes included (raknet.pong.motd.plain is the text without them).",
	"raknet.pong.motd.plain":     "The MOTD without its § formatting codes, worked out by the dissector: what a player reads.",
	"raknet.pong.protocol":       "The network protocol number of the server's Bedrock version, as decimal text; a client with another number cannot join.",
	"raknet.pong.version":        "The game version the server runs, as text such as 1.21.50, shown in the server list.",
	"raknet.pong.players.online": "How many players are online, as decimal text.",
	"raknet.pong.players.max":    "The most players the server admits, as decimal text.",
	"raknet.pong.server_uid":     "The server's unique ID as decimal text, the same number as the pong's server GUID.",
	"raknet.pong.sub_motd":       "The second line of the server list entry, usually the level's name.",
	"raknet.pong.gamemode":       "The default game mode by name, such as Survival or Creative.",
	"raknet.pong.gamemode_id":    "The default game mode as a number: 0 survival, 1 creative, 2 adventure.",
	"raknet.pong.port_v4":        "The server's IPv4 port as decimal text, 19132 by default, so that a client that found it by broadcast knows where to connect.",
	"raknet.pong.port_v6":        "The server's IPv6 port as decimal text, 19133 by default.",
	"raknet.pong.extra":          "A status string field past the twelve servers usually send; newer or modded servers add some, and mcdissect shows them in order.",
	"raknet.pong.number":         "A numeric field of the status string read as a decimal number, so that filters can compare it, e.g. raknet.pong.number > 10.",
	"raknet.trailing":            "Bytes after the end of the message. Some clients pad their pings; a strict server ignores what follows the client GUID.",
	"raknet.payload":             "The bytes of an offline message this dissector does not decode, shown raw so that nothing is hidden.",
}

func init() { Registry.Explain(explanations, nil) }

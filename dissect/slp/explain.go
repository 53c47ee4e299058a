package slp

import (
	"encoding/binary"
	"fmt"
	"time"
	"unicode/utf16"

	"github.com/mcdissect/mcdissect/dissect"
)

// The field reference for learners: what each field is, why it looks the
// way it does, and where it surprises. Sources: a write-up of Server List
// Ping from packet captures (shared/seeds, "SLP capture write-up") and the
// protocol pages of the Minecraft wiki (wiki.vg, "protocol wiki"). Applied
// at registration (dissect.Registry.Explain); a test fails on a field
// without an entry.
var explanations = map[string]string{
	"slp": "Server List Ping, the TCP exchange the game's multiplayer screen uses to show a server's MOTD, player count and icon, on the game port (25565 by default). Since 1.7 every packet is a VarInt length, a VarInt packet ID and data; older clients use the legacy FE ping instead (SLP capture write-up).",

	// Frame header.
	"slp.length":                "The length of the packet ID and data that follow, as a VarInt: seven bits a byte, least significant group first, the top bit of a byte saying that another byte follows. Small packets need one byte, and the protocol caps a packet at 2^21 − 1 bytes, three VarInt bytes (protocol wiki).",
	"slp.packet_id":             "Which packet this is, as a VarInt. The same number means different packets in different states and directions: 0x00 is the Handshake, the Status Request, the Status Response or Login Start depending on where the connection stands.",
	"slp.data_length":           "Once Set Compression has been sent, every packet carries this VarInt after its length: the size of the packet ID and data once inflated, or 0 when the packet was small enough to be sent uncompressed (protocol wiki).",
	"slp.compressed":            "The packet ID and data compressed with zlib, sent because the packet reached the compression threshold. The dissector inflates it with a cap, so that a small packet cannot make it allocate gigabytes.",
	"slp.inflated_size":         "How many bytes the zlib data inflated to. It must equal the declared data length; a mismatch means a broken or hostile sender.",
	"slp.inner_packet_id":       "The packet ID read from the inflated data of a compressed packet. Compression hides the packet ID, so it is only known after inflating.",
	"slp.inflated":              "The compressed packet inflated by the dissector and laid after the frame's own bytes (offsets past the frame's length are in it): its packet ID and fields follow, read as an uncompressed packet's.",
	"slp.encrypted":             "The frame as it crossed the wire, AES/CFB8 ciphertext: from the client's Encryption Response on, both directions are encrypted with the shared secret (key and IV).",
	"slp.decrypted":             "The frame decrypted with the shared secret the key log gave (--keylog), laid after the ciphertext: length, packet ID and fields follow as in an unencrypted session.",
	"slp.decrypted.secret":      "The 16-byte shared secret that opened this session, in hex, from the key log: --redact masks it.",
	"slp.decrypted.secret_from": "Where the secret came from: a MC_SHARED_SECRET line of the key log matching the encrypted secret of Encryption Response, or the server's RSA private key, which decrypts it.",
	"slp.player_joined":         "On Join Game: the player whose login the server accepted (Login Success's name) is now in the game. A census of players who actually joined counts these, not Login Starts.",
	"slp.player_joined.uuid":    "On Join Game: the UUID Login Success gave the player who joined. An online-mode server gives the Mojang account's UUID; an offline-mode one (and a server behind a proxy without forwarding) one made from the name, the same on every server.",
	"slp.server_brand":          "The server's brand, from its plugin message on the brand channel (minecraft:brand, MC|Brand before 1.13): \"vanilla\", or the software (Paper, Spigot); a proxy adds its own name before the back-end's (\"Velocity … -> Paper\").",
	"slp.client_brand":          "The client's brand, from its plugin message on the brand channel: \"vanilla\", or the mod loader (fabric, forge) or bot library that says so.",
	"slp.java.state":            "The state the direction is in as the dissector followed it: configuration (1.20.2+, after Login Acknowledged, until Finish Configuration) or play.",
	"slp.data":                  "The data of a packet this dissector frames but does not read field by field, such as the packets of the play state. It is shown raw, so that no byte goes unaccounted for.",

	// Handshake.
	"slp.handshake.protocol_version":     "The protocol number of the client's game version, as a VarInt: 767 is 1.21 and 1.21.1, sent as ff 05. A client that only wants the status may send -1 (five bytes, ff ff ff ff 0f), meaning it does not care about versions.",
	"slp.handshake.address_length":       "The length in bytes of the server address that follows, as a VarInt: Minecraft strings are a VarInt byte count then UTF-8 text. The protocol allows at most 255 characters here.",
	"slp.handshake.server_address":       "The host name or IP address the player typed to reach the server, as the client resolved it (without the port). Servers behind one IP use it for virtual hosting, the way HTTP uses the Host header.",
	"slp.handshake.forge_marker":         "Text that Forge mod loader clients append to the server address after a NUL byte (\\0FML\\0, \\0FML2\\0, \\0FML3\\0 or \\0FORGE), so that a Forge server knows a modded client is connecting. Vanilla servers ignore it.",
	"slp.handshake.forwarded.client_ip":  "The player's real IP address, which a BungeeCord-style proxy writes into the address field after a NUL byte when forwarding is on. The back-end server trusts it, which is why such servers must not be reachable without the proxy.",
	"slp.handshake.forwarded.uuid":       "The player's UUID (32 hex digits), forwarded by a BungeeCord-style proxy in the address field. With it an offline-mode back-end server learns the identity the proxy checked.",
	"slp.handshake.forwarded.properties": "The player's profile properties (the signed skin textures) as JSON, forwarded by a BungeeCord-style proxy in the address field.",
	"slp.handshake.address_extra":        "Text after a NUL byte in the server address that is neither a Forge marker nor proxy forwarding data. Some mods and proxies put their own data there.",
	"slp.handshake.server_port":          "The port the player connected to, as an unsigned big-endian short: 25565 is 63 DD. Like the address it tells a server behind a proxy which name was used (SLP capture write-up).",
	"slp.state.guessed":                  "The state (status, login) this packet was read in when the connection's handshake was not captured: guessed from the packet's own form, such as a status response's length agreeing with its JSON, and confirmed by the next packet. Without the handshake the state is never certain, so the guess is shown.",
	"slp.handshake.next_state":           "What the client wants next: 1 for the status (a server list ping), 2 to log in and play, 3 for a transfer from another server (1.20.5 and later). It switches the meaning of every later packet ID.",
	"slp.handshake.server_port_le":       "The port read the other way round, low byte first. Some clients send the port little-endian by mistake and servers still answer, since they hardly use it; the dissector shows this reading when only it makes sense (SLP capture write-up).",

	// Status.
	"slp.status.json_length":          "The length in bytes of the status JSON, as a VarInt. The JSON is a Minecraft string, limited to 32767 characters.",
	"slp.status.json":                 "The status response's JSON text: version, players, description (the MOTD) and favicon, plus whatever mods add. This is everything the multiplayer screen shows about a server.",
	"slp.status":                      "The status JSON parsed into a tree; each node points at its value's bytes inside the JSON text. Servers add keys of their own, which appear as other keys.",
	"slp.status.version":              "The version object of the status: the server's version name and protocol number. The client compares the protocol number with its own and shows the name in red when they differ.",
	"slp.status.version.name":         "The version name the server wants shown, such as 1.21.1. Proxies and plugins often put free text here (\"Velocity 3.x\", \"Maintenance\"), because the client shows it when the protocols differ.",
	"slp.status.version.protocol":     "The server's protocol number, the same numbering as the handshake's protocol version. A value no client has (such as -1) makes every client show the version name as incompatible.",
	"slp.status.players":              "The players object of the status: online and maximum counts, and an optional sample of names. Some proxies and plugins leave it out to hide the counts.",
	"slp.status.players.max":          "The player limit the server reports. Nothing checks it: many servers report a round number unrelated to their real limit.",
	"slp.status.players.online":       "How many players the server says are online. It is the server's own claim, and some servers inflate it.",
	"slp.status.players.sample":       "One entry of the player sample, a short list of online players shown when the mouse hovers over the count. Servers often put text lines here instead of players, with a zero UUID.",
	"slp.status.players.sample.name":  "The name of a player in the sample list. It may hold § formatting codes when the server uses the sample as free text.",
	"slp.status.players.sample.id":    "The UUID of a player in the sample list, in its dashed text form. Entries used as text lines usually have 00000000-0000-0000-0000-000000000000.",
	"slp.status.description":          "The MOTD's text as sent: a chat component's texts in order, § formatting codes included (slp.status.description.plain is the text without them, .styled its colours and styles written out). The server sends either a plain string or a chat component (JSON text with colours and styles).",
	"slp.status.description.plain":    "The MOTD as a player reads it: chat components flattened and § formatting codes removed. Every protocol's MOTD has such a .plain field beside the value as sent.",
	"slp.status.description.styled":   "The MOTD with its colours and styles written out in brackets, such as [green]. Minecraft formats text with § followed by a code (0–9 and a–f for colours, k–o for styles, r to reset) or with chat component fields.",
	"slp.status.favicon":              "The server icon as a data URI: data:image/png;base64, then a PNG encoded in base64. The client shows it next to the server; it should be a 64×64 PNG.",
	"slp.status.favicon.mime":         "The media type in the favicon's data URI, image/png for a valid icon. The client only accepts PNG.",
	"slp.status.favicon.size":         "The size in bytes of the favicon after base64 decoding. Base64 turns every 3 bytes into 4 characters, so the text is a third longer.",
	"slp.status.favicon.width":        "The icon's width in pixels, read from the PNG header. The vanilla client expects 64.",
	"slp.status.favicon.height":       "The icon's height in pixels, read from the PNG header. The vanilla client expects 64.",
	"slp.status.enforces_secure_chat": "Whether the server requires signed chat messages (1.19.1 and later). The client warns before joining a server that does not.",
	"slp.status.previews_chat":        "Whether the server uses chat previews, a feature of 1.19 to 1.19.2 that was removed afterwards. Only servers of those versions send it.",
	"slp.status.other":                "A key of the status JSON that this dissector does not know, with its raw JSON value; filter on it with its key appended, such as slp.status.other.modpackData. Mods, proxies and server software add such keys.",

	"slp.status.forge":                     "The forgeData object that Forge servers (1.13 and later) add to the status, so that Forge clients can tell before joining whether their mods match.",
	"slp.status.forge.fml_network_version": "The version of Forge's network protocol (FML), such as 2 or 3. Clients use it to tell which handshake the server will speak.",
	"slp.status.forge.truncated":           "Whether Forge cut the mod list short because the status would have grown too large. A truncated list cannot tell a client that its mods match.",
	"slp.status.forge.d":                   "Forge's packed mod data (1.18.1 and later): the mod and channel lists as binary, squeezed 15 bits into each UTF-16 character of a JSON string to keep the status small. The dissector unpacks it into mods and channels.",
	"slp.status.forge.d.size":              "The size in bytes of Forge's packed mod data once unpacked from its 15-bits-a-character string.",
	"slp.status.forge.mod":                 "One mod the Forge server runs, with its ID and version. A client needs the same mods to join.",
	"slp.status.forge.mod.id":              "The mod's identifier, such as forge or jei. It is the name mods are matched by.",
	"slp.status.forge.mod.version":         "The mod's version as the server reports it. Forge servers may send a placeholder such as ANY or server-only markers.",
	"slp.status.forge.channel":             "One network channel a Forge mod uses, with its version and whether the client must have it.",
	"slp.status.forge.channel.name":        "The channel's resource name, such as forge:handshake. Mods talk over named channels inside plugin messages.",
	"slp.status.forge.channel.version":     "The version of the channel's protocol; client and server must agree on it for a required channel.",
	"slp.status.forge.channel.required":    "Whether a client must have this channel to join. Optional channels let vanilla or partly modded clients in.",
	"slp.status.modinfo":                   "The modinfo object that Forge servers of 1.7 to 1.12 (FML 1) put in the status, with a type and a mod list. Newer Forge replaced it with forgeData.",
	"slp.status.modinfo.type":              "The modinfo type, FML for Forge Mod Loader. Other values come from other mod loaders that copied the format.",

	// Ping, pong and conversation links.
	"slp.ping.payload":    "Eight bytes the client sends in the ping request and the server copies into the pong. Clients usually put the current time in milliseconds there, so that the echo measures the round trip (SLP capture write-up).",
	"slp.response_in":     "The frame holding the response to this request on the same connection. Generated by the dissector, not sent.",
	"slp.request_in":      "The frame holding the request this response answers on the same connection. Generated by the dissector, not sent.",
	"slp.ping.request_in": "The frame holding the ping whose payload this pong echoes. The payloads are matched byte for byte.",
	"slp.time":            "The time between the request and this response, from the capture's timestamps. For a status response it includes the server building the JSON.",
	"slp.rtt":             "The round-trip time from the ping to its pong, from the capture's timestamps. It is what the game shows as the server's ping, measured here on the wire.",
	"slp.login.time":      "The time from the client's Login Start to the server's first answer (Encryption Request, Set Compression, Login Success or a Disconnect), from the capture's timestamps.",

	// Legacy pings and kicks.
	"slp.legacy.packet_id":        "The first byte of a pre-1.7 packet: FE is the server list ping, FA a plugin message (1.6's MC|PingHost) and FF the server's kick, which carries the answer. Such clients sent no length prefix at all, which is how a server tells them from modern ones.",
	"slp.legacy.payload":          "The byte after FE, 01 from 1.4 on: it asks for the newer kick format with the protocol and version. Beta 1.8 to 1.3 clients send FE alone.",
	"slp.legacy.channel_length":   "The length of the plugin channel's name in characters, as a big-endian short. Pre-1.7 strings count UTF-16 characters, each taking two bytes.",
	"slp.legacy.channel":          "The plugin channel's name in UTF-16BE, MC|PingHost in 1.6's ping. That message tells the server which host and port the player typed.",
	"slp.legacy.data_length":      "The length in bytes of the rest of the plugin message, as a big-endian short. It lets a server skip a message it does not understand.",
	"slp.legacy.protocol_version": "The pre-1.7 protocol number of the client or server, such as 78 for 1.6.4. In the kick it is sent as decimal text, in MC|PingHost as a byte.",
	"slp.legacy.host_length":      "The length of the host name in characters, as a big-endian short: two bytes of UTF-16BE follow per character.",
	"slp.legacy.host":             "The host name the player typed, in UTF-16BE, as 1.6 clients send it in MC|PingHost.",
	"slp.legacy.port":             "The port the player typed, as a big-endian 32-bit integer in MC|PingHost.",
	"slp.legacy.string_length":    "The length of the kick message in characters, not bytes, as a big-endian short: Java's old DataOutputStream strings, two bytes a character.",
	"slp.legacy.kick":             "The server's answer to a legacy ping, sent as a kick (disconnect) packet because pre-1.7 clients had no status packet: a UTF-16BE string, the encoding of every string of the old protocol. From 1.4 it starts with §1 and holds protocol, version, MOTD and counts separated by NUL characters; before, MOTD, online and max are separated by §.",
	"slp.legacy.magic":            "The §1 that starts a 1.4-and-later kick answer, in UTF-16BE (00 A7 00 31). It tells the client that the fields after it are separated by NUL characters.",
	"slp.legacy.server_version":   "The server's version name inside the kick answer, such as 1.6.4, in UTF-16BE.",
	"slp.legacy.motd":             "The MOTD inside the kick answer, in UTF-16BE, as sent: § formatting codes included in the 1.4+ format (slp.legacy.motd.plain is the text without them). In the beta § format it cannot contain §, which separates the fields.",
	"slp.legacy.motd.plain":       "The legacy MOTD without its § formatting codes, worked out by the dissector: what a player reads.",
	"slp.legacy.online":           "The number of players online inside the kick answer, as decimal text in UTF-16BE.",
	"slp.legacy.max":              "The player limit inside the kick answer, as decimal text in UTF-16BE.",
	"slp.legacy.trailing":         "Bytes after a complete legacy ping that the server would not read. They may come from a client that sends more than one probe at once, or from a scanner.",

	// Login.
	"slp.login.name":                  "The player's name in Login Start, at most 16 characters. An offline-mode server accepts any name; an online-mode server checks it with Mojang's session servers.",
	"slp.login.has_uuid":              "Whether Login Start carries the player's UUID, which was optional from 1.19.1 to 1.20.1. From 1.20.2 it is always sent, without this flag.",
	"slp.login.uuid":                  "The player's UUID, 16 bytes on the wire (two big-endian 64-bit halves), shown in its dashed text form. The version digit tells its kind: 4 for a random Mojang account ID, 3 for an offline-mode ID made from the name.",
	"slp.login.has_sig_data":          "Whether Login Start carries the player's chat-signing public key, which 1.19 to 1.19.2 sent at login. Later versions send it during play instead.",
	"slp.login.timestamp":             "When the player's chat-signing key expires, in milliseconds since 1970 (1.19 to 1.19.2).",
	"slp.login.public_key_length":     "The length in bytes of the public key that follows, as a VarInt.",
	"slp.login.public_key":            "An RSA public key in DER form: in Encryption Request the server's 1024-bit key, which the client uses to encrypt the shared secret; in 1.19 Login Start the player's chat-signing key.",
	"slp.login.signature_length":      "The length in bytes of the signature that follows, as a VarInt.",
	"slp.login.signature":             "A signature: Mojang's over the player's chat key (1.19 Login Start), or the player's over the verify token (1.19 Encryption Response).",
	"slp.login.reason":                "The reason a server refused the login, as a JSON chat component. The client shows it on the disconnect screen.",
	"slp.login.reason.text":           "The disconnect reason as plain text, the chat component flattened.",
	"slp.login.server_id":             "The server ID of Encryption Request: empty from vanilla servers since 1.7, a short string from older or other server software. Both sides hash it with the shared secret and the public key for Mojang's session check.",
	"slp.login.verify_token_length":   "The length in bytes of the verify token that follows, as a VarInt.",
	"slp.login.verify_token":          "Random bytes the server sends in Encryption Request (4 bytes in vanilla); the client returns them encrypted with the server's public key, proving it holds the key it will use.",
	"slp.login.has_verify_token":      "In 1.19 to 1.19.2 Encryption Response: true when the client sends the encrypted verify token, false when it sends a salt and a signature made with its chat key instead.",
	"slp.login.salt":                  "A random 64-bit salt for the signature that replaces the verify token in some 1.19 Encryption Responses.",
	"slp.login.shared_secret_length":  "The length in bytes of the encrypted shared secret, as a VarInt: 128 for a 1024-bit RSA key.",
	"slp.login.shared_secret":         "The 16-byte AES key the client chose, encrypted with the server's RSA public key. From the next packet on, both directions are encrypted with AES/CFB8 under it, so nothing later can be read from a capture.",
	"slp.login.should_authenticate":   "Whether the client must check the login with Mojang's session server (1.20.5 and later). False means offline-mode encryption without authentication.",
	"slp.login.threshold":             "The compression threshold of Set Compression: packets of at least this many bytes are zlib-compressed from now on, smaller ones only get a data length of 0. A negative value turns compression off.",
	"slp.login.properties_count":      "How many profile properties Login Success carries, as a VarInt. Usually one: the signed skin textures.",
	"slp.login.property":              "One property of the player's profile in Login Success, such as textures.",
	"slp.login.property.name":         "The property's name, textures for the skin and cape.",
	"slp.login.property.value":        "The property's value, for textures a base64-encoded JSON naming the skin and cape URLs.",
	"slp.login.property.is_signed":    "Whether a Mojang signature follows the property, proving that the server did not invent it.",
	"slp.login.property.signature":    "Mojang's signature over the property's value, in base64.",
	"slp.login.strict_error_handling": "A flag of Login Success in 1.20.5 to 1.21.1: when set, the client disconnects on a malformed packet instead of ignoring it.",
	"slp.login.message_id":            "The VarInt ID linking a Login Plugin Request to its response, as the server chose it.",
	"slp.login.channel":               "The plugin channel of a Login Plugin Request, such as velocity:player_info for a proxy's forwarding.",
	"slp.login.successful":            "Whether the client understood the Login Plugin Request. A vanilla client answers false to every channel.",
	"slp.login.data":                  "The payload of a login plugin message; its format belongs to the channel. Proxies send their signed forwarding data here.",
	"slp.login.cookie.key":            "The identifier of a cookie the server asks for (1.20.5 and later), such as example:session. Cookies survive transfers between servers.",
	"slp.login.cookie.has_payload":    "Whether the client has the requested cookie and sends it.",
	"slp.login.cookie.payload_length": "The length in bytes of the cookie's payload, as a VarInt; the protocol allows at most 5 KiB.",
	"slp.login.cookie.payload":        "The cookie's bytes as the client stored them. A server that uses cookies across transfers should sign them, since the client can change them.",
	"slp.string_length":               "The length in bytes of the UTF-8 string that follows, as a VarInt. Every Minecraft string is sent this way, a length then the text.",
}

// varIntFields show the VarInt's 7-bit groups.
var varIntFields = []string{
	"slp.length", "slp.packet_id", "slp.data_length", "slp.handshake.protocol_version",
	"slp.handshake.address_length", "slp.handshake.next_state", "slp.status.json_length",
	"slp.string_length", "slp.login.public_key_length", "slp.login.signature_length",
	"slp.login.verify_token_length", "slp.login.shared_secret_length", "slp.login.threshold",
	"slp.login.properties_count", "slp.login.message_id", "slp.login.cookie.payload_length",
}

// utf16Fields are pre-1.7 strings, two bytes a character, high byte first.
var utf16Fields = []string{
	"slp.legacy.channel", "slp.legacy.host", "slp.legacy.kick", "slp.legacy.magic",
	"slp.legacy.server_version", "slp.legacy.motd", "slp.legacy.online", "slp.legacy.max",
	"slp.legacy.protocol_version",
}

func init() {
	w := map[string]func(dst []byte, p *dissect.PDU, n *dissect.Node) []byte{
		"slp.handshake.server_port":    workedBigEndian,
		"slp.handshake.server_port_le": workedPortLE,
		"slp.legacy.channel_length":    workedCharCount,
		"slp.legacy.host_length":       workedCharCount,
		"slp.legacy.string_length":     workedCharCount,
		"slp.legacy.data_length":       workedBigEndian,
		"slp.legacy.port":              workedBigEndian,
		"slp.login.uuid":               workedUUID,
		"slp.ping.payload":             workedMillis,
		"slp.login.timestamp":          workedMillis,
	}
	for _, name := range varIntFields {
		w[name] = workedVarInt
	}
	for _, name := range utf16Fields {
		w[name] = workedUTF16
	}
	Registry.Explain(explanations, w)
}

func spacedHex(dst, b []byte) []byte {
	for i, c := range b {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = fmt.Appendf(dst, "%02x", c)
	}
	return dst
}

// workedVarInt: "ff 05: 0x7f + 0x05×128 = 127 + 640 = 767".
func workedVarInt(dst []byte, p *dissect.PDU, n *dissect.Node) []byte {
	b := dissect.NodeBytes(p, n)
	v, k, st := readVarInt(b)
	if st != viOK || k != len(b) {
		return dst
	}
	dst = spacedHex(dst, b)
	if k == 1 {
		return fmt.Appendf(dst, ": one byte with its top bit clear, so the value is the byte itself: 0x%02x = %d", b[0], v)
	}
	dst = append(dst, ": each byte gives 7 bits, low group first, while its top bit says more follow: "...)
	var u uint64
	mul := uint64(1)
	for i, c := range b {
		if i > 0 {
			dst = append(dst, " + "...)
		}
		dst = fmt.Appendf(dst, "0x%02x", c&0x7f)
		if i > 0 {
			dst = fmt.Appendf(dst, "×128")
			if i > 1 {
				dst = fmt.Appendf(dst, "^%d", i)
			}
		}
		u += uint64(c&0x7f) * mul
		mul *= 128
	}
	dst = fmt.Appendf(dst, " = %d", u)
	if int64(v) != int64(u) {
		dst = fmt.Appendf(dst, ", which as a 32-bit two's complement number is %d", v)
	}
	return dst
}

// workedBigEndian: an unsigned big-endian number of 2 or 4 bytes.
func workedBigEndian(dst []byte, p *dissect.PDU, n *dissect.Node) []byte {
	b := dissect.NodeBytes(p, n)
	switch len(b) {
	case 2:
		dst = spacedHex(dst, b)
		return fmt.Appendf(dst, " big-endian, high byte first = 0x%02x×256 + 0x%02x = %d", b[0], b[1], binary.BigEndian.Uint16(b))
	case 4:
		dst = spacedHex(dst, b)
		return fmt.Appendf(dst, " big-endian = 0x%08x = %d", binary.BigEndian.Uint32(b), int32(binary.BigEndian.Uint32(b)))
	}
	return dst
}

// workedPortLE works on the port's bytes: the little-endian reading is
// generated under the port as sent.
func workedPortLE(dst []byte, p *dissect.PDU, n *dissect.Node) []byte {
	b := dissect.NodeBytes(p, n)
	if b == nil && n.Parent >= 0 && int(n.Parent) < len(p.Nodes) {
		b = dissect.NodeBytes(p, &p.Nodes[n.Parent])
	}
	if len(b) != 2 {
		return dst
	}
	dst = spacedHex(dst, b)
	return fmt.Appendf(dst, " read little-endian, low byte first = 0x%02x×256 + 0x%02x = %d (big-endian, as the protocol says, it reads %d)",
		b[1], b[0], binary.LittleEndian.Uint16(b), binary.BigEndian.Uint16(b))
}

// workedCharCount: a legacy length counts UTF-16 characters.
func workedCharCount(dst []byte, p *dissect.PDU, n *dissect.Node) []byte {
	b := dissect.NodeBytes(p, n)
	if len(b) != 2 {
		return dst
	}
	c := binary.BigEndian.Uint16(b)
	dst = spacedHex(dst, b)
	return fmt.Appendf(dst, " = 0x%02x×256 + 0x%02x = %d characters, so %d × 2 = %d bytes of UTF-16BE follow", b[0], b[1], c, c, 2*int(c))
}

// workedUTF16: the first characters of a UTF-16BE string, pair by pair.
func workedUTF16(dst []byte, p *dissect.PDU, n *dissect.Node) []byte {
	b := dissect.NodeBytes(p, n)
	if len(b) < 2 || len(b)%2 != 0 {
		return dst
	}
	const shown = 4
	dst = append(dst, "UTF-16BE, two bytes a character, high byte first: "...)
	units := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		units = append(units, binary.BigEndian.Uint16(b[i:]))
	}
	for i, u := range units[:min(len(units), shown)] {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = fmt.Appendf(dst, "%02x %02x = U+%04X ", b[2*i], b[2*i+1], u)
		dst = dissect.AppendQuoted(dst, string(utf16.Decode([]uint16{u})))
	}
	if len(units) > shown {
		dst = append(dst, ", …"...)
	}
	return fmt.Appendf(dst, " (%d bytes, %d characters)", len(b), len(units))
}

// workedUUID: the version digit of a binary UUID.
func workedUUID(dst []byte, p *dissect.PDU, n *dissect.Node) []byte {
	b := dissect.NodeBytes(p, n)
	if len(b) != 16 {
		return dst
	}
	v := b[6] >> 4
	dst = fmt.Appendf(dst, "16 bytes; byte 6 is %02x, whose high four bits give version %d", b[6], v)
	switch v {
	case 3:
		dst = append(dst, ": an MD5 name-based UUID, as offline-mode servers make from \"OfflinePlayer:\" + name"...)
	case 4:
		dst = append(dst, ": a random UUID, as Mojang gives accounts"...)
	}
	return dst
}

// workedMillis reads 8 big-endian bytes as milliseconds since 1970 when
// they fall in this century's first decades, as clients' ping payloads
// and key expiry times do.
func workedMillis(dst []byte, p *dissect.PDU, n *dissect.Node) []byte {
	b := dissect.NodeBytes(p, n)
	if len(b) != 8 {
		return dst
	}
	v := int64(binary.BigEndian.Uint64(b))
	dst = spacedHex(dst, b)
	dst = fmt.Appendf(dst, " big-endian = %d", v)
	const from, to = 1230768000000, 4102444800000 // 2009 to 2100, in ms
	if v >= from && v < to {
		dst = append(dst, " = milliseconds since 1970: "...)
		dst = time.UnixMilli(v).UTC().AppendFormat(dst, "2006-01-02 15:04:05.000 UTC")
	} else {
		dst = append(dst, ": not a time of this century in milliseconds, so an opaque number or a counter"...)
	}
	return dst
}

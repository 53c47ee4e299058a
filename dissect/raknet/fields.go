package raknet

import "github.com/mcdissect/mcdissect/dissect"

// Message IDs of the offline messages this package dissects.
const (
	IDUnconnectedPing     = 0x01
	IDUnconnectedPingOpen = 0x02
	IDUnconnectedPong     = 0x1c
)

// Magic is RakNet's offline-message magic: it marks a datagram as RakNet
// wherever it is seen.
var Magic = [16]byte{0x00, 0xff, 0xff, 0x00, 0xfe, 0xfe, 0xfe, 0xfe, 0xfd, 0xfd, 0xfd, 0xfd, 0x12, 0x34, 0x56, 0x78}

// Message names, as p.Message.
const (
	MsgPing    = "Unconnected Ping"
	MsgPingOpn = "Unconnected Ping (open connections)"
	MsgPong    = "Unconnected Pong"
	MsgUnknown = "Unknown Offline Message"
)

var idNames = dissect.Names{IDUnconnectedPing: "Unconnected Ping", IDUnconnectedPingOpen: "Unconnected Ping (open connections)", IDUnconnectedPong: "Unconnected Pong"}

var (
	Registry = dissect.NewRegistry("raknet", "RakNet (Bedrock status ping)")

	fID         = Registry.Add(dissect.Field{Name: "raknet.id", Label: "Message ID", Type: dissect.FTUint, Base: dissect.BaseHex, Names: idNames})
	fTime       = Registry.Add(dissect.Field{Name: "raknet.time", Label: "Time", Type: dissect.FTInt, Unit: "ms"})
	fMagic      = Registry.Add(dissect.Field{Name: "raknet.magic", Label: "Offline message magic", Type: dissect.FTBytes})
	fClientGUID = Registry.Add(dissect.Field{Name: "raknet.client_guid", Label: "Client GUID", Type: dissect.FTInt})
	fServerGUID = Registry.Add(dissect.Field{Name: "raknet.server_guid", Label: "Server GUID", Type: dissect.FTInt})
	fStrLen     = Registry.Add(dissect.Field{Name: "raknet.server_id.length", Label: "Server ID string length", Type: dissect.FTUint, Unit: "bytes"})
	fServerID   = Registry.Add(dissect.Field{Name: "raknet.server_id", Label: "Server ID string", Type: dissect.FTString})

	// The status string's fields, in order.
	fEdition    = Registry.Str("raknet.pong.edition", "Edition")
	fMOTD       = Registry.Str("raknet.pong.motd", "MOTD")
	fMOTDPlain  = Registry.Str("raknet.pong.motd.plain", "MOTD without formatting codes")
	fProtocol   = Registry.Str("raknet.pong.protocol", "Protocol version")
	fVersion    = Registry.Str("raknet.pong.version", "Version")
	fOnline     = Registry.Str("raknet.pong.players.online", "Players online")
	fMax        = Registry.Str("raknet.pong.players.max", "Maximum players")
	fServerUID  = Registry.Str("raknet.pong.server_uid", "Server unique ID")
	fSubMOTD    = Registry.Str("raknet.pong.sub_motd", "Sub-MOTD (level name)")
	fGamemode   = Registry.Str("raknet.pong.gamemode", "Game mode")
	fGamemodeID = Registry.Str("raknet.pong.gamemode_id", "Game mode (numeric)")
	fPortV4     = Registry.Str("raknet.pong.port_v4", "IPv4 port")
	fPortV6     = Registry.Str("raknet.pong.port_v6", "IPv6 port")
	fExtra      = Registry.Str("raknet.pong.extra", "Extra field")

	fNumber   = Registry.Uint("raknet.pong.number", "Parsed", dissect.BaseDec, nil)
	fTrailing = Registry.Bytes("raknet.trailing", "Trailing bytes")
	fPayload  = Registry.Bytes("raknet.payload", "Payload")

	// Ping and pong linked (tracker.go).
	fResponseIn = Registry.FrameNum("raknet.response_in", "Pong in frame")
	fRequestIn  = Registry.FrameNum("raknet.request_in", "Ping in frame")
	fRTT        = Registry.Float("raknet.rtt", "Round-trip time", "s")
)

// pongFields are the status string's fields in the order servers send them.
var pongFields = [...]*dissect.Field{fEdition, fMOTD, fProtocol, fVersion, fOnline, fMax, fServerUID, fSubMOTD, fGamemode, fGamemodeID, fPortV4, fPortV6}

var (
	eMagic    = Registry.Expert("raknet.magic.bad", dissect.SevError, "the offline-message magic is not 00 ff ff 00 fe fe fe fe fd fd fd fd 12 34 56 78")
	eTrailing = Registry.Expert("raknet.trailing", dissect.SevWarn, "bytes after the end of the message")
	eEdition  = Registry.Expert("raknet.pong.edition.unknown", dissect.SevNote, "the status string does not start with MCPE or MCEE (not a Bedrock server?)")
	eFields   = Registry.Expert("raknet.pong.fields", dissect.SevNote, "the status string has fewer fields than a Bedrock server sends (6 at least)")
	eNumber   = Registry.Expert("raknet.pong.number.invalid", dissect.SevWarn, "a number in the status string is not a decimal number")
	eUnknown  = Registry.Expert("raknet.id.unknown", dissect.SevNote, "an offline message other than the unconnected ping and pong")

	eNoResponse  = Registry.Expert("raknet.response.missing", dissect.SevWarn, "no pong seen for this ping")
	eRefused     = Registry.Expert("raknet.response.refused", dissect.SevWarn, "an ICMP destination unreachable answered this ping: nothing listens there")
	eUnlinked    = Registry.Expert("raknet.response.unlinked", dissect.SevNote, "output before its outcome was known (too many PDUs held back): a pong still links back to it")
	eUnsolicited = Registry.Expert("raknet.response.unsolicited", dissect.SevNote, "no ping seen for this pong")
)

package query

import "github.com/mcdissect/mcdissect/dissect"

// Type values: the byte after the magic in a request, the first byte of a
// response.
const (
	TypeStat      = 0
	TypeHandshake = 9
)

// Message names, as p.Message (mc.message). The tracker keys on them.
const (
	MsgHandshakeRequest  = "Handshake Request"
	MsgHandshakeResponse = "Handshake Response"
	MsgBasicStatRequest  = "Basic Stat Request"
	MsgFullStatRequest   = "Full Stat Request"
	MsgStatRequest       = "Stat Request" // a type 0 request of neither 11 nor 15 bytes
	MsgBasicStatResponse = "Basic Stat Response"
	MsgFullStatResponse  = "Full Stat Response"
	MsgStatResponse      = "Stat Response" // a type 0 response too short to tell which
	MsgUnknownRequest    = "Unknown Request"
	MsgUnknownResponse   = "Unknown Response"
)

var typeNames = dissect.Names{TypeStat: "Stat", TypeHandshake: "Handshake"}

var (
	Registry = dissect.NewRegistry("query", "Minecraft Query")

	// Header.
	fMagic       = Registry.Add(dissect.Field{Name: "query.magic", Label: "Magic", Type: dissect.FTUint, Base: dissect.BaseHex})
	fType        = Registry.Add(dissect.Field{Name: "query.type", Label: "Type", Type: dissect.FTUint, Names: typeNames})
	fSession     = Registry.Add(dissect.Field{Name: "query.session_id", Label: "Session ID", Type: dissect.FTUint, Base: dissect.BaseHex})
	fSessionMask = Registry.Add(dissect.Field{Name: "query.session_id_masked", Label: "Session ID as the server uses it (& 0x0F0F0F0F)", Type: dissect.FTUint, Base: dissect.BaseHex, Width: 4})

	// Challenge token.
	fToken       = Registry.Add(dissect.Field{Name: "query.challenge_token", Label: "Challenge token", Type: dissect.FTInt})
	fTokenString = Registry.Add(dissect.Field{Name: "query.token_string", Label: "Challenge token (decimal string)", Type: dissect.FTString})
	fPadding     = Registry.Add(dissect.Field{Name: "query.padding", Label: "Padding", Type: dissect.FTBytes})

	// Basic stat response, and the plain fields of the well-known full-stat keys.
	fMOTD          = Registry.Add(dissect.Field{Name: "query.motd", Label: "MOTD", Type: dissect.FTString})
	fMOTDPlain     = Registry.Str("query.motd.plain", "MOTD without formatting codes")
	fGametype      = Registry.Str("query.gametype", "Game type")
	fMap           = Registry.Str("query.map", "Map")
	fNumPlayers    = Registry.Str("query.numplayers", "Number of players")
	fNumPlayersVal = Registry.Add(dissect.Field{Name: "query.numplayers.value", Label: "Number of players (parsed)", Type: dissect.FTUint})
	fMaxPlayers    = Registry.Str("query.maxplayers", "Maximum players")
	fMaxPlayersVal = Registry.Add(dissect.Field{Name: "query.maxplayers.value", Label: "Maximum players (parsed)", Type: dissect.FTUint})
	fHostPort      = Registry.Add(dissect.Field{Name: "query.hostport", Label: "Host port", Type: dissect.FTUint})
	fHostPortText  = Registry.Add(dissect.Field{Name: "query.hostport.text", Label: "Host port (text)", Type: dissect.FTString})
	fHostIP        = Registry.Str("query.hostip", "Host IP")
	fGameID        = Registry.Str("query.game_id", "Game ID")
	fVersion       = Registry.Str("query.version", "Version")
	fPlugins       = Registry.Str("query.plugins", "Plugins")

	// Full stat: GameSpy3 split header.
	fSplit       = Registry.Add(dissect.Field{Name: "query.split", Label: "GameSpy3 split header", Type: dissect.FTNone})
	fSplitKey    = Registry.Add(dissect.Field{Name: "query.split.key", Label: "Field name", Type: dissect.FTString})
	fSplitPacket = Registry.Add(dissect.Field{Name: "query.split.packet", Label: "Packet number", Type: dissect.FTUint, Base: dissect.BaseHex})
	fSplitLast   = Registry.Bool("query.split.last", "Last packet")
	fSplitIndex  = Registry.Uint("query.split.index", "Packet index", dissect.BaseDec, nil)
	fSplitExtra  = Registry.Add(dissect.Field{Name: "query.split.extra", Label: "Extra byte", Type: dissect.FTUint, Base: dissect.BaseHex})

	// Full stat: key/value section.
	fKVs   = Registry.Label("query.kvs", "Key/value section")
	fKV    = Registry.Add(dissect.Field{Name: "query.kv", Label: "Key/value pair", Type: dissect.FTString, Keyed: true})
	fKey   = Registry.Str("query.key", "Key")
	fValue = Registry.Str("query.value", "Value")
	fKVEnd = Registry.Add(dissect.Field{Name: "query.kv_end", Label: "End of key/value section (empty key)", Type: dissect.FTBytes})

	// Full stat: player section.
	fPlayers        = Registry.Label("query.players", "Player section")
	fPlayersSection = Registry.Add(dissect.Field{Name: "query.players.section", Label: "Section number", Type: dissect.FTUint, Base: dissect.BaseHex})
	fPlayersField   = Registry.Add(dissect.Field{Name: "query.players.field", Label: "Field name", Type: dissect.FTString})
	fPlayersStart   = Registry.Add(dissect.Field{Name: "query.players.start", Label: "Start byte (index of the first item)", Type: dissect.FTUint, Base: dissect.BaseHex})
	fPlayer         = Registry.Str("query.player", "Player")
	fPlayersEnd     = Registry.Add(dissect.Field{Name: "query.players_end", Label: "End of player list (empty name)", Type: dissect.FTBytes})
	fPlayersCount   = Registry.Uint("query.players.count", "Players listed", dissect.BaseDec, nil)

	// Anything else.
	fPayload  = Registry.Bytes("query.payload", "Payload")
	fTrailing = Registry.Bytes("query.trailing", "Trailing bytes")

	// Conversation analysis (tracker.go).
	fRequestIn   = Registry.FrameNum("query.request_in", "Request in frame")
	fResponseIn  = Registry.FrameNum("query.response_in", "Response in frame")
	fTime        = Registry.Float("query.time", "Response time", "s")
	fTokenIssued = Registry.FrameNum("query.token_issued_in", "Token issued in frame")
	fTokenAge    = Registry.Float("query.token_age", "Token age", "s")
)

// Expert items.
var (
	eMagic        = Registry.Expert("query.magic.bad", dissect.SevError, "a request does not start with FE FD")
	eTypeUnknown  = Registry.Expert("query.type.unknown", dissect.SevWarn, "a type other than 9 (handshake) and 0 (stat)")
	eSessionBits  = Registry.Expert("query.session_id.unmasked_bits", dissect.SevWarn, "session ID bits outside 0x0F0F0F0F are set; the server ignores them")
	eTokenInvalid = Registry.Expert("query.token_string.invalid", dissect.SevError, "the handshake token is not a decimal number")
	eTokenRange   = Registry.Expert("query.token_string.range", dissect.SevWarn, "the handshake token does not fit a signed 32-bit integer")
	eReqLength    = Registry.Expert("query.request.length", dissect.SevWarn, "a request whose length fits no message (handshake 7, basic stat 11, full stat 15)")
	ePadding      = Registry.Expert("query.padding.nonzero", dissect.SevNote, "the full stat request's padding is not 00 00 00 00 (the server does not look at it)")
	eSplit        = Registry.Expert("query.split.unexpected", dissect.SevWarn, "the full stat's split header is not splitnum\\0 80 00")
	eSplitMore    = Registry.Expert("query.split.more", dissect.SevNote, "the packet number says more packets follow")
	ePlayersHdr   = Registry.Expert("query.players.unexpected", dissect.SevWarn, "the player section header is not 01 player_\\0 00")
	eKVDup        = Registry.Expert("query.kv.duplicate", dissect.SevWarn, "a key seen twice in one full stat")
	eKVUnknown    = Registry.Expert("query.kv.unknown_key", dissect.SevNote, "a key that Minecraft servers do not send")
	eKVOdd        = Registry.Expert("query.kv.odd", dissect.SevWarn, "a key without a value: the strings do not pair up")
	eKVEmptyKey   = Registry.Expert("query.kv.empty_key", dissect.SevWarn, "an empty key before the player section: naive parsers stop here")
	eKVNoEnd      = Registry.Expert("query.kv.no_end", dissect.SevWarn, "no empty key ends the key/value section")
	eMOTDNul      = Registry.Expert("query.motd.nul", dissect.SevWarn, "the MOTD contains NUL bytes (MC-221987, MC-231035): naive parsers see fake keys")
	eControl      = Registry.Expert("query.text.control", dissect.SevNote, "a string contains control characters (terminal escape codes); they are shown escaped")
	eNumber       = Registry.Expert("query.number.invalid", dissect.SevWarn, "a number sent as text is not a decimal number in range")
	eNumMismatch  = Registry.Expert("query.numplayers.mismatch", dissect.SevWarn, "numplayers differs from the number of names in the player list")
	eTrailing     = Registry.Expert("query.trailing", dissect.SevWarn, "bytes after the end of the message")

	// Conversation analysis (tracker.go).
	eTokenUnknown   = Registry.Expert("query.token.unknown", dissect.SevNote, "the stat request's token was not issued to this client in the capture")
	eTokenUnchecked = Registry.Expert("query.token.unchecked", dissect.SevNote, "the stat request's token could not be checked: the tracker forgot this client's tokens past its cap")
	eTokenStale     = Registry.Expert("query.token.stale", dissect.SevWarn, "the stat request's token is older than 30 s: the server will not answer")
	eNoResponse     = Registry.Expert("query.response.missing", dissect.SevWarn, "no response seen for this request")
	eUnsolicited    = Registry.Expert("query.response.unsolicited", dissect.SevNote, "no request seen for this response")
	eUnlinked       = Registry.Expert("query.response.unlinked", dissect.SevNote, "output before its response came (the note says why): a response links back to it")
	eRefused        = Registry.Expert("query.response.refused", dissect.SevWarn, "an ICMP destination unreachable answered this request: nothing listens there, or the host is unreachable")
	eUntracked      = Registry.Expert("query.response.untracked", dissect.SevNote, "past the tracker's cap of waiting requests: a request no longer waited for, or a response whose request may be one of those")
)

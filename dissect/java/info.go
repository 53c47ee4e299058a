package java

import (
	"strconv"
	"unicode/utf8"

	"github.com/mcdissect/mcdissect/dissect"
)

// maxInfoText bounds text quoted in an Info line.
const maxInfoText = 96

// info builds a packet's Info line in w's buffer: its name, and for the
// packets people look for, what they carry (chat text, a disconnect
// reason, a position, a keep-alive ID, a player's name, a plugin channel
// and the brand).
func info(pk *packet, w *walker, st State, dir dissect.Dir) []byte {
	b := append(w.info[:0], pk.msg...)
	get := func(name string) (val, *typ, bool) {
		s, t := -1, (*typ)(nil)
		for _, f := range pk.infos {
			if f.name == name {
				s, t = f.slot, f.t
				break
			}
		}
		if s < 0 || s >= len(w.top) {
			return val{}, nil, false
		}
		if s >= w.topDone && w.c.Failed() {
			w.short = true // the walk stopped before it
			return val{}, nil, false
		}
		return w.top[s], t, true
	}
	num := func(label, name string) {
		if v, _, ok := get(name); ok {
			b = append(b, label...)
			b = strconv.AppendInt(b, v.i, 10)
		}
	}
	text := func(label string, names ...string) bool {
		for _, n := range names {
			v, t, ok := get(n)
			if !ok {
				continue
			}
			s := textOf(v, t)
			if s == "" && len(v.s) == 0 {
				continue
			}
			b = append(b, label...)
			b = appendQuoted(b, s)
			return true
		}
		return false
	}
	switch pk.name {
	case "keep_alive":
		num(", ID ", "keepAliveId")
	case "ping", "pong", "ping_request", "ping_response":
		num(", ID ", "id")
		num(", ID ", "time")
	case "chat", "chat_message", "system_chat", "profileless_chat", "action_bar":
		text(": ", "message", "content", "text")
	case "player_chat":
		if !text(": ", "plainMessage", "signedChatContent", "unsignedChatContent", "message") {
			text(": ", "formattedMessage")
		}
	case "chat_command", "chat_command_signed":
		text(": /", "command")
	case "kick_disconnect", "disconnect":
		text(": ", "reason")
	case "position", "position_look", "vehicle_move", "flying", "look":
		pos := false
		for _, n := range []string{"x", "y", "z"} {
			if v, t, ok := get(n); ok && t != nil && (t.k == kF64 || t.k == kF32) {
				if !pos {
					b = append(b, ", "...)
					pos = true
				} else {
					b = append(b, ' ')
				}
				b = append(b, n...)
				b = append(b, '=')
				b = strconv.AppendFloat(b, v.f, 'g', 8, 64)
			}
		}
	case "login":
		num(", entity ID ", "entityId")
	case "registry_data":
		// 1.20.5+: one registry, named by its id; 1.20.2-1.20.4: the
		// whole codec, one compound whose keys are the registries
		if !text(" ", "id") {
			if v, t, ok := get("codec"); ok && t != nil {
				b = appendRootKeys(b, v.s, t.k == kNBT || t.k == kOptNBT)
			}
		}
	case "update_time":
		num(", world age ", "age")
	case "game_state_change":
		num(", reason ", "reason")
	case "entity_destroy":
		if v, _, ok := get("entityIds"); ok {
			b = append(b, ", "...)
			b = strconv.AppendInt(b, v.i, 10)
			b = append(b, " entities"...)
		}
	case "custom_payload":
		if v, _, ok := get("channel"); ok {
			b = append(b, ", "...)
			b = appendQuoted(b, string(v.s))
			if d, _, ok := get("data"); ok && isBrandChannel(v.s) {
				w.brand = brandText(d.s)
				b = append(b, ": "...)
				b = appendQuoted(b, string(w.brand))
			}
		}
	case "named_entity_spawn", "spawn_entity":
		num(", entity ID ", "entityId")
	case "map_chunk":
		num(", chunk x ", "x")
		num(" z ", "z")
	case "rel_entity_move", "entity_move_look", "entity_teleport", "entity_velocity":
		num(", entity ID ", "entityId")
	case "teleport_confirm", "accept_teleportation":
		num(", teleport ID ", "teleportId")
	case "block_change", "block_dig", "block_place":
		if len(w.pos) == 3 {
			b = append(b, " at "...)
			for i, p := range w.pos {
				if i > 0 {
					b = append(b, ' ')
				}
				b = append(b, p.s...)
				b = append(b, '=')
				b = strconv.AppendInt(b, p.i, 10)
			}
		}
	}
	w.info = b[:0]
	return b
}

// infoNames are the packets whose Info line shows fields (the cases of
// info's switch; TestInfoNames keeps the two together): a summary reads
// no other packet's fields.
var infoNames = map[string]bool{
	"keep_alive":           true,
	"ping":                 true,
	"pong":                 true,
	"ping_request":         true,
	"ping_response":        true,
	"chat":                 true,
	"chat_message":         true,
	"system_chat":          true,
	"profileless_chat":     true,
	"action_bar":           true,
	"player_chat":          true,
	"chat_command":         true,
	"chat_command_signed":  true,
	"kick_disconnect":      true,
	"disconnect":           true,
	"position":             true,
	"position_look":        true,
	"vehicle_move":         true,
	"flying":               true,
	"look":                 true,
	"login":                true,
	"registry_data":        true,
	"update_time":          true,
	"game_state_change":    true,
	"entity_destroy":       true,
	"custom_payload":       true,
	"named_entity_spawn":   true,
	"spawn_entity":         true,
	"map_chunk":            true,
	"rel_entity_move":      true,
	"entity_move_look":     true,
	"entity_teleport":      true,
	"entity_velocity":      true,
	"teleport_confirm":     true,
	"accept_teleportation": true,
	"block_change":         true,
	"block_dig":            true,
	"block_place":          true,
}

// infoFields are every top-level field name info may read, of any
// packet (and the threshold Decode reads): a summary's walk of a packet
// stops once it has read the last of them the packet has (packet.need).
// A name missing here would make a summary's Info differ from a tree's;
// TestSerializerVectors and the peer test compare the two.
var infoFields = []string{"keepAliveId", "id", "time", "message", "content", "text", "plainMessage",
	"signedChatContent", "unsignedChatContent", "formattedMessage", "command", "reason", "x", "y", "z",
	"entityId", "codec", "age", "entityIds", "channel", "data", "teleportId", "location", "threshold"}

// textOf is a value's text: chat as plain text, strings as they are.
func textOf(v val, t *typ) string {
	if t == nil {
		return string(v.s)
	}
	k := t.k
	if k == kOption && t.elem != nil {
		k = t.elem.k
	}
	switch k {
	case kString:
		if t.chat || (t.k == kOption && t.elem.chat) {
			return chatJSON(v.s)
		}
		return string(v.s)
	case kNBT, kOptNBT:
		return chatNBT(v.s, true)
	case kAnonNBT, kAnonOptNBT:
		return chatNBT(v.s, false)
	}
	return string(v.s)
}

// appendQuoted appends s in quotes, cut to maxInfoText bytes.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	if len(s) > maxInfoText {
		n := maxInfoText
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		b = append(b, s[:n]...)
		b = append(b, "…"...)
	} else {
		b = append(b, s...)
	}
	return append(b, '"')
}

// isBrandChannel reports whether a plugin message's channel is the one
// that carries a brand (the server's, or the client's), as named from
// 1.13 and before.
func isBrandChannel(ch []byte) bool {
	return string(ch) == "minecraft:brand" || string(ch) == "MC|Brand"
}

// brandText is the brand a brand channel's data carries: a string (VarInt
// length and text), or the data whole when it is not one.
func brandText(d []byte) []byte {
	if s, n, st := readVarInt(d); st == viOK && int(s) >= 0 && n+int(s) <= len(d) {
		return d[n : n+int(s)]
	}
	return d
}

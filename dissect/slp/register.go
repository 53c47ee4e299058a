package slp

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/java"
	"github.com/mcdissect/mcdissect/protocols"
)

func init() {
	Registry.Roles(map[string]dissect.Role{
		"slp.time":                       dissect.RoleResponseTime,
		"slp.rtt":                        dissect.RoleRoundTrip,
		"slp.status.description":         dissect.RoleMOTD,
		"slp.legacy.motd":                dissect.RoleMOTD,
		"slp.status.version.name":        dissect.RoleVersion,
		"slp.legacy.server_version":      dissect.RoleVersion,
		"slp.status.version.protocol":    dissect.RoleProtocolVersion,
		"slp.legacy.protocol_version":    dissect.RoleProtocolVersion,
		"slp.status.players.online":      dissect.RolePlayersOnline,
		"slp.legacy.online":              dissect.RolePlayersOnline,
		"slp.status.players.max":         dissect.RolePlayersMax,
		"slp.legacy.max":                 dissect.RolePlayersMax,
		"slp.status.favicon":             dissect.RoleFavicon,
		"slp.status.forge.mod.id":        dissect.RoleMod,
		"slp.login.name":                 dissect.RolePlayerName,
		"slp.player_joined":              dissect.RolePlayerJoined,
		"slp.player_joined.uuid":         dissect.RolePlayerID,
		"slp.server_brand":               dissect.RoleBrand,
		"slp.client_brand":               dissect.RoleBrand,
		"slp.handshake.protocol_version": dissect.RoleProtocolVersion,
		"slp.request_in":                 dissect.RoleRequestIn,
		"slp.ping.request_in":            dissect.RoleRequestIn,
		"slp.status.json":                dissect.RoleText,
		"slp.login.reason.text":          dissect.RoleReason,
		"slp.legacy.packet_id":           dissect.RoleLegacy,
	})
	protocols.Register(&protocols.Protocol{
		Name:         "slp",
		Registry:     Registry,
		Column:       "SLP",
		Colour:       "\x1b[32m",
		Summary:      "Minecraft Java's Server List Ping (TCP, VarInt-framed): handshake, status with its JSON as a tree, ping, the legacy 0xFE pings, and the login",
		Example:      []byte{0x10, 0x00, 0xff, 0x05, 0x09, 'l', 'o', 'c', 'a', 'l', 'h', 'o', 's', 't', 0x63, 0xdd, 0x01, 0x01, 0x00}, // a handshake for 1.21 and a status request
		Transport:    protocols.TCP,
		Ports:        []uint16{25565},
		Detect:       Detect,
		DetectServer: DetectServer,
		DetectPair:   DetectPingPong,
		NewConn: func(r *protocols.Run) protocols.Conn {
			var o Options
			o.Keys, _ = r.Prefs[PrefKeyLog].(*KeyLog)
			if v, ok := r.Prefs[PrefVersion].(Options); ok {
				o.Version, o.State = v.Version, v.State
			}
			c := NewConnWith(o)
			c.Later = r.Later
			return c
		},
		Prefs: []protocols.Pref{
			{Name: PrefKeyLog, File: true, Desc: "a key log that opens encrypted Java sessions: MC_SHARED_SECRET <encrypted hex> <secret hex> lines and/or the server's RSA private key in PEM (--keylog)",
				Parse: func(b []byte) (any, error) { return ParseKeyLog(b) }},
			{Name: PrefVersion, Desc: "VERSION[,STATE]: read Java sessions whose handshake was not captured as this release or protocol number, in state play (default) or configuration (--java-version)",
				Parse: parseVersionPref},
		},
		DecodesCut: true,
		MidwayHint: func(r *protocols.Run) string {
			if _, ok := r.Prefs[PrefVersion]; ok {
				return ""
			}
			return "--java-version VERSION reads a Java session picked up in its play state"
		},
		Pictures: pictures,
		Objects:  []protocols.ObjectKind{{Kind: "favicon", Desc: "each distinct server favicon, as the PNG it is"}},
	})
}

// The preferences of Java sessions (-o NAME:VALUE, --keylog,
// --java-version).
const (
	PrefKeyLog  = "slp.keylog_file"
	PrefVersion = "slp.version"
)

// parseVersionPref reads VERSION[,STATE] into the Options it sets, and
// checks that the data has the version.
func parseVersionPref(b []byte) (any, error) {
	v, st, _ := strings.Cut(string(b), ",")
	switch st {
	case "":
		st = "play"
	case "play", "configuration":
	default:
		return nil, errors.New("the state after the comma is play or configuration")
	}
	var err error
	if n, e := strconv.Atoi(v); e == nil {
		_, err = java.ForProtocol(n)
	} else {
		_, err = java.ForName(v)
	}
	if err != nil {
		return nil, fmt.Errorf("%v (the releases: %s)", err, strings.Join(java.Releases(), ", "))
	}
	return Options{Version: v, State: st}, nil
}

// maxFavicon bounds the favicon URIs shown (the vanilla client's own limit
// is far below: a 64×64 PNG).
const maxFavicon = 256 << 10

// pictures shows the status's favicon, its data URI as the tree holds it.
func pictures(p *dissect.PDU, add func(node int32, uri, caption string)) {
	for i := range p.Nodes {
		n := &p.Nodes[i]
		if n.Field == FieldFavicon {
			if uri := n.Value.View(); faviconURI(uri) {
				add(int32(i), uri, "the favicon, as the client shows it")
			}
		}
	}
}

// faviconURI reports whether s is a PNG data URI of base64 text only.
func faviconURI(s string) bool {
	const prefix = "data:image/png;base64,"
	if len(s) <= len(prefix) || len(s) > maxFavicon || s[:len(prefix)] != prefix {
		return false
	}
	for _, c := range []byte(s[len(prefix):]) {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return true
}

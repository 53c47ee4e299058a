package query

import (
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
)

func init() {
	Registry.Roles(map[string]dissect.Role{
		"query.time":             dissect.RoleResponseTime,
		"query.motd":             dissect.RoleMOTD,
		"query.version":          dissect.RoleVersion,
		"query.numplayers.value": dissect.RolePlayersOnline,
		"query.maxplayers.value": dissect.RolePlayersMax,
		"query.plugins":          dissect.RoleModList,
		"query.player":           dissect.RolePlayerName,
		"query.request_in":       dissect.RoleRequestIn,
	})
	protocols.Register(&protocols.Protocol{
		Name:      "query",
		Registry:  Registry,
		Column:    "Query",
		Colour:    "\x1b[36m",
		Summary:   "Minecraft Query (GameSpy4 over UDP): handshake, basic and full stat, challenge tokens tracked per client",
		Example:   []byte{0xfe, 0xfd, 0x09, 0, 0, 0, 1}, // a handshake
		Transport: protocols.UDP,
		Ports:     []uint16{25565},
		Looks:     Looks,
		Learn:     true,
		Decode:    Decode,
		NewTracker: func(r *protocols.Run) protocols.Tracker {
			t := NewTracker()
			t.Later = r.Later
			return t
		},
		Window:      ResponseWindow,
		BigResponse: 256,
	})
}

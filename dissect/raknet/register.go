package raknet

import (
	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
)

func init() {
	Registry.Roles(map[string]dissect.Role{
		"raknet.pong.motd":           dissect.RoleMOTD,
		"raknet.pong.version":        dissect.RoleVersion,
		"raknet.pong.protocol":       dissect.RoleProtocolVersion,
		"raknet.pong.players.online": dissect.RolePlayersOnline,
		"raknet.pong.players.max":    dissect.RolePlayersMax,
		"raknet.rtt":                 dissect.RoleRoundTrip,
	})
	protocols.Register(&protocols.Protocol{
		Name:      "raknet",
		Registry:  Registry,
		Column:    "RakNet",
		Colour:    "\x1b[94m",
		Summary:   "RakNet's unconnected ping and pong: Bedrock's (and Geyser's) server list status",
		Example:   examplePing(),
		Transport: protocols.UDP,
		Ports:     []uint16{19132},
		Looks:     Looks,
		Proof:     true,
		Decode:    Decode,
		NewTracker: func(r *protocols.Run) protocols.Tracker {
			t := NewTracker()
			t.Later = r.Later
			return t
		},
		Window: Window,
	})
}

// examplePing is an unconnected ping: its ID, the client's time, the magic
// and the client's GUID.
func examplePing() []byte {
	b := []byte{IDUnconnectedPing, 0, 0, 0, 0, 0, 0, 0x30, 0x39}
	b = append(b, Magic[:]...)
	return append(b, 0, 0, 0, 0, 0x12, 0x34, 0x56, 0x78)
}

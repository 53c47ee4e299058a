package classic

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"strings"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/protocols"
)

// PrefSalt is the preference that gives a heartbeat salt known from
// elsewhere (-o classic.salt:SALT, or --classic-salt).
const PrefSalt = "classic.salt"

func init() {
	Registry.Roles(map[string]dissect.Role{
		"classic.motd":                    dissect.RoleMOTD,
		"classic.server_name":             dissect.RoleServerName,
		"classic.protocol_version":        dissect.RoleProtocolVersion,
		"classic.username":                dissect.RolePlayerName,
		"classic.heartbeat":               dissect.RoleNotServer,
		"classic.time":                    dissect.RoleResponseTime,
		"classic.disconnect_reason.plain": dissect.RoleReason,
		"classic.message":                 dissect.RoleText,
	})
	prefs := []protocols.Pref{{Name: PrefSalt, Desc: "a heartbeat salt known from elsewhere, to check players' verification keys against (--classic-salt)"}}
	protocols.Register(&protocols.Protocol{
		Name:         "classic",
		Registry:     Registry,
		Column:       "Classic",
		Colour:       "\x1b[35m",
		Summary:      "Minecraft Classic (TCP, fixed-length packets) and its CPE extensions: levels inflated, names verified against the heartbeat's salt",
		Example:      exampleIdentification(),
		Transport:    protocols.TCP,
		Ports:        []uint16{25565},
		Prefs:        prefs,
		Detect:       Detect,
		DetectServer: Detect, // a Classic server identifies itself with the same packet as the client
		NewConn: func(r *protocols.Run) protocols.Conn {
			c := NewConn(session(r))
			c.Later = r.Later // -2: what the first pass learned of entries it gave up on (agreed.go)
			return c
		},
		DecodesCut: true,
		Pictures:   pictures,
		Objects:    []protocols.ObjectKind{{Kind: "level", Desc: "each Classic level's blocks (.bin) and a map of it seen from above (.png)"}},
	})
	protocols.Register(&protocols.Protocol{
		Name:      "heartbeat",
		Registry:  Registry,
		Column:    "Classic",
		Colour:    "\x1b[35m",
		Summary:   "Minecraft Classic's HTTP heartbeat to a server list: the salt that players' keys are checked against",
		Example:   []byte("GET /heartbeat.jsp?port=25565&max=20&name=Example&public=True&version=7&salt=wo6kVAHjxoJcInKx&users=0 HTTP/1.1\r\nHost: www.classicube.net\r\n\r\n"),
		Transport: protocols.TCP,
		Ports:     []uint16{80},
		Shared:    &protocols.Shared{Starts: HeartbeatStarts, Then: HeartbeatThen},
		Detect:    DetectHeartbeat,
		NewConn: func(r *protocols.Run) protocols.Conn {
			h := NewHeartbeat(session(r))
			h.Later = r.Later
			return h
		},
		DecodesCut: true,
	})
}

// session is the run's heartbeat salts, which Classic's connections and
// its heartbeats share.
func session(r *protocols.Run) *Session {
	return r.Shared("classic", func() any {
		s := NewSession()
		if r.Budget != nil {
			s.levels.acct = r.Budget.Account("Classic levels", s.levels.shed)
		}
		if salt, _ := r.Prefs[PrefSalt].(string); salt != "" {
			s.SetSalt(salt)
		}
		return s
	}).(*Session)
}

// mapSide bounds a level's map: a larger level is sampled.
const mapSide = 1024

// mapPNG is the level's map seen from above (LevelMap) as a PNG, or nil
// when blocks are fewer than X×Y×Z.
func mapPNG(blocks []byte, x, y, z int) []byte {
	if x <= 0 || y <= 0 || z <= 0 || x*y*z > len(blocks) {
		return nil
	}
	var b bytes.Buffer
	if png.Encode(&b, LevelMap(blocks, x, y, z, mapSide)) != nil {
		return nil
	}
	return b.Bytes()
}

// pictures shows the map of a level the decoder inflated (the PNG object
// it attached, which --export-objects level writes too).
func pictures(p *dissect.PDU, add func(node int32, uri, caption string)) {
	node := p.Find("classic.level")
	if node < 0 {
		return
	}
	for _, o := range p.Objects {
		if o.Kind == "level" && strings.HasSuffix(o.Name, ".png") {
			add(node, "data:image/png;base64,"+base64.StdEncoding.EncodeToString(o.Data), "the level seen from above: the highest block of each column, darker lower down (north is up)")
		}
	}
}

// exampleIdentification is a player's identification: protocol 7, a name
// and a verification key, padded with spaces to 64 bytes each.
func exampleIdentification() []byte {
	pad := func(s string) []byte { return append([]byte(s), bytes.Repeat([]byte{' '}, 64-len(s))...) }
	b := append([]byte{0x00, 0x07}, pad("player")...)
	b = append(b, pad("1234567890abcdef1234567890abcdef")...)
	return append(b, 0x00)
}

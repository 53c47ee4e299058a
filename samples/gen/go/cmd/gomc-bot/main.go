// Command gomc-bot is go-mc's bot (github.com/Tnze/go-mc, which speaks 1.20.2, protocol 764,
// with its own protocol code: no minecraft-data) joining an offline-mode server for
// mcdissect's Java samples: it says a chat line, sends four positions one block apart, and
// logs the server's chat and the reason it was kicked.
//
//	gomc-bot -addr 127.0.0.1:25606 -name gopher
package main

import (
	"encoding/hex"
	"flag"
	"log"
	"time"

	"github.com/Tnze/go-mc/bot"
	"github.com/Tnze/go-mc/bot/basic"
	"github.com/Tnze/go-mc/bot/msg"
	"github.com/Tnze/go-mc/bot/playerlist"
	"github.com/Tnze/go-mc/chat"
	"github.com/Tnze/go-mc/data/packetid"
	pk "github.com/Tnze/go-mc/net/packet"
	"github.com/Tnze/go-mc/offline"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:25606", "server")
	name := flag.String("name", "gopher", "player name")
	flag.Parse()
	log.SetPrefix("[gomc-bot] ")
	log.SetFlags(log.LstdFlags | log.Lmicroseconds | log.LUTC)

	c := bot.NewClient()
	c.Auth.Name = *name
	id := offline.NameToUUID(*name)
	c.Auth.UUID = hex.EncodeToString(id[:])
	var p *basic.Player
	var m *msg.Manager
	p = basic.NewPlayer(c, basic.DefaultSettings, basic.EventsListener{
		GameStart: func() error {
			log.Printf("go-mc %d game start", bot.ProtocolVersion)
			go func() {
				time.Sleep(300 * time.Millisecond)
				if err := m.SendMessage("hello from go-mc"); err != nil {
					log.Print("chat: ", err)
				}
				time.Sleep(300 * time.Millisecond)
				for k := 1; k <= 4; k++ {
					x, y, z := 8.5+float64(k), 70.0, 8.5
					err := c.Conn.WritePacket(pk.Marshal(packetid.ServerboundMovePlayerPos, pk.Double(x), pk.Double(y), pk.Double(z), pk.Boolean(true)))
					log.Printf("position sent %v %v %v (%v)", x, y, z, err)
					time.Sleep(200 * time.Millisecond)
				}
			}()
			return nil
		},
		Disconnect: func(reason chat.Message) error {
			log.Printf("kicked %q", reason.ClearString())
			return nil
		},
		Teleported: func(x, y, z float64, yaw, pitch float32, flags byte, teleportID int32) error {
			log.Printf("teleported to %v %v %v, id %d", x, y, z, teleportID)
			return p.AcceptTeleportation(pk.VarInt(teleportID))
		},
	})
	m = msg.New(c, p, playerlist.New(c), msg.EventsHandler{
		SystemChat: func(msg chat.Message, overlay bool) error {
			log.Printf("message %q", msg.ClearString())
			return nil
		},
	})
	if err := c.JoinServer(*addr); err != nil {
		log.Fatal("join: ", err)
	}
	log.Print("login success")
	if err := c.HandleGame(); err != nil {
		log.Print("end: ", err)
	}
}

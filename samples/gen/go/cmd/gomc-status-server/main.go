// Command gomc-status-server answers Server List Ping status requests with the server
// package of github.com/Tnze/go-mc (a third-party implementation): the handshake, status
// response and pong are all written by go-mc. Only the listener and the lifetime are ours.
// It binds to a loopback address only and exits by itself after -lifetime.
package main

import (
	"flag"
	"image"
	"image/color"
	"log"
	stdnet "net"
	"os"
	"time"

	"github.com/Tnze/go-mc/chat"
	mcnet "github.com/Tnze/go-mc/net"
	"github.com/Tnze/go-mc/server"
)

type pinger struct {
	*server.PingInfo
	*server.PlayerList
}

func main() {
	listen := flag.String("listen", "127.0.0.1:25567", "TCP address (loopback only)")
	lifetime := flag.Duration("lifetime", 30*time.Second, "exit after this long")
	flag.Parse()
	host, _, err := stdnet.SplitHostPort(*listen)
	if err != nil || !stdnet.ParseIP(host).IsLoopback() {
		log.Fatalf("refusing to bind %q: loopback addresses only", *listen)
	}

	// A 64x64 icon (go-mc insists on 64x64), so the status JSON carries a favicon data URI (go-mc encodes it).
	icon := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			if ((x>>3)+(y>>3))&1 == 1 {
				icon.Set(x, y, color.RGBA{0x3c, 0x8d, 0x2f, 0xFF})
			} else {
				icon.Set(x, y, color.RGBA{0x8b, 0x5a, 0x2b, 0xFF})
			}
		}
	}
	s := server.Server{
		Logger: log.New(os.Stderr, "go-mc ", log.Lmicroseconds),
		ListPingHandler: pinger{
			server.NewPingInfo(server.ProtocolName, server.ProtocolVersion, chat.Text("go-mc §6status§r server"), icon),
			server.NewPlayerList(42),
		},
	}
	l, err := mcnet.ListenMC(*listen)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("go-mc status server on %s (protocol %d, %s) for %s", *listen, server.ProtocolVersion, server.ProtocolName, *lifetime)
	time.AfterFunc(*lifetime, func() { log.Print("lifetime over, exiting"); os.Exit(0) })
	for {
		conn, err := l.Accept()
		if err != nil {
			log.Fatal(err)
		}
		go s.AcceptConn(&conn)
	}
}

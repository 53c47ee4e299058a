// Command queryd is mcdissect's OWN stand-in for a Minecraft Query (GameSpy4, UDP) server.
//
// No installable Query server was found (see samples/README.md), so the server side of the
// query-*.pcap samples is this program; only the clients are third-party implementations.
// It follows the vanilla server's behaviour (RemoteStatusListener / QueryThreadGs4):
//
//   - requests start with FE FD; anything else (RakNet pings, junk) is ignored silently
//   - type 9 (handshake): a fresh challenge token (0..2^24-1) is issued per client address
//     (IP:port); reply 09, the 4 session-ID bytes echoed as received, token as decimal + NUL
//   - type 0 (stat): the token (bytes 7..10, big-endian int32) must match the one issued
//     to that address, else no reply at all; a 15-byte request gets the full stat, any other
//     length the basic stat (vanilla does not look at the 4 padding bytes)
//   - tokens expire after 30 s
//   - strings are ISO-8859-1 (as vanilla before 1.21.11; the version key says 1.21.1)
//   - basic stat hostport is a little-endian uint16
//
// It binds to the given address only and exits by itself after -lifetime.
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"sync"
	"time"
)

type challenge struct {
	token  int32
	issued time.Time
}

func main() {
	listen := flag.String("listen", "127.0.0.1:25585", "UDP address to bind (loopback only)")
	motd := flag.String("motd", "A §aMinecraft§r Server", "MOTD (hostname key)")
	gametype := flag.String("gametype", "SMP", "gametype")
	version := flag.String("version", "1.21.1", "version key")
	plugins := flag.String("plugins", "", "plugins key")
	worldMap := flag.String("map", "world", "map key")
	maxPlayers := flag.Int("max", 20, "maxplayers")
	nPlayers := flag.Int("players", 3, "number of online players to report (names generated)")
	hostPort := flag.Int("hostport", 25565, "hostport reported (the game's TCP port)")
	hostIP := flag.String("hostip", "127.0.0.1", "hostip reported")
	lifetime := flag.Duration("lifetime", 60*time.Second, "exit after this long")
	seed := flag.Uint64("seed", 0, "seed for tokens (0 = time based)")
	flag.Parse()

	host, _, err := net.SplitHostPort(*listen)
	if err != nil || !net.ParseIP(host).IsLoopback() {
		log.Fatalf("queryd: refusing to bind %q: loopback addresses only", *listen)
	}
	addr, err := net.ResolveUDPAddr("udp", *listen)
	if err != nil {
		log.Fatal(err)
	}
	conn, err := net.ListenUDP("udp", addr)
	if err != nil {
		log.Fatal(err)
	}
	log.SetOutput(os.Stderr)
	log.SetFlags(log.Lmicroseconds)
	log.Printf("queryd listening on %s for %s", conn.LocalAddr(), *lifetime)
	time.AfterFunc(*lifetime, func() { log.Printf("queryd: lifetime over, exiting"); os.Exit(0) })

	s := *seed
	if s == 0 {
		s = uint64(time.Now().UnixNano())
	}
	rng := rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15))

	players := make([]string, *nPlayers)
	base := []string{"Notch", "jeb_", "Dinnerbone", "Grumm", "mcdissect"}
	for i := range players {
		if i < len(base) {
			players[i] = base[i]
		} else {
			players[i] = fmt.Sprintf("Player%04d", i)
		}
	}

	var mu sync.Mutex
	challenges := map[string]challenge{}

	buf := make([]byte, 1460)
	for {
		n, from, err := conn.ReadFromUDP(buf)
		if err != nil {
			log.Fatal(err)
		}
		p := buf[:n]
		if n < 3 || p[0] != 0xFE || p[1] != 0xFD {
			log.Printf("%s: ignoring %d bytes not starting FE FD (% x)", from, n, head(p))
			continue
		}
		if n < 7 {
			log.Printf("%s: short request (%d bytes), ignored", from, n)
			continue
		}
		typ := p[2]
		ident := append([]byte(nil), p[3:7]...)
		key := from.String()
		mu.Lock()
		for k, c := range challenges {
			if time.Since(c.issued) > 30*time.Second {
				delete(challenges, k)
			}
		}
		switch typ {
		case 9:
			tok := int32(rng.IntN(1 << 24))
			challenges[key] = challenge{tok, time.Now()}
			out := []byte{9}
			out = append(out, ident...)
			out = append(out, strconv.Itoa(int(tok))...)
			out = append(out, 0)
			send(conn, from, out)
			log.Printf("%s: handshake session=% x -> token %d", from, ident, tok)
		case 0:
			c, ok := challenges[key]
			if n < 11 || !ok || int32(binary.BigEndian.Uint32(p[7:11])) != c.token {
				log.Printf("%s: stat with bad/unknown token (%d bytes: % x), no reply", from, n, head(p))
				break
			}
			var w bytes.Buffer
			w.WriteByte(0)
			w.Write(ident)
			str := func(s string) { w.Write(latin1(s)); w.WriteByte(0) }
			if n == 15 {
				w.Write([]byte("splitnum\x00\x80\x00"))
				for _, kv := range [][2]string{
					{"hostname", *motd}, {"gametype", *gametype}, {"game_id", "MINECRAFT"},
					{"version", *version}, {"plugins", *plugins}, {"map", *worldMap},
					{"numplayers", strconv.Itoa(len(players))}, {"maxplayers", strconv.Itoa(*maxPlayers)},
					{"hostport", strconv.Itoa(*hostPort)}, {"hostip", *hostIP},
				} {
					str(kv[0])
					str(kv[1])
				}
				w.WriteByte(0)
				w.Write([]byte("\x01player_\x00\x00"))
				for _, name := range players {
					str(name)
				}
				w.WriteByte(0)
				log.Printf("%s: full stat (padding % x) -> %d bytes, %d players", from, p[11:15], w.Len(), len(players))
			} else {
				str(*motd)
				str(*gametype)
				str(*worldMap)
				str(strconv.Itoa(len(players)))
				str(strconv.Itoa(*maxPlayers))
				var hp [2]byte
				binary.LittleEndian.PutUint16(hp[:], uint16(*hostPort))
				w.Write(hp[:])
				str(*hostIP)
				log.Printf("%s: basic stat (%d-byte request) -> %d bytes", from, n, w.Len())
			}
			send(conn, from, w.Bytes())
		default:
			log.Printf("%s: unknown type %d, ignored", from, typ)
		}
		mu.Unlock()
	}
}

func send(conn *net.UDPConn, to *net.UDPAddr, b []byte) {
	if _, err := conn.WriteToUDP(b, to); err != nil {
		log.Printf("send to %s: %v", to, err)
	}
}

func head(p []byte) []byte {
	if len(p) > 24 {
		return p[:24]
	}
	return p
}

// latin1 encodes s as ISO-8859-1; runes above U+00FF become '?', as Java's encoder does.
func latin1(s string) []byte {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xFF {
			out = append(out, '?')
		} else {
			out = append(out, byte(r))
		}
	}
	return out
}

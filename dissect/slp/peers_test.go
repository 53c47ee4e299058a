package slp

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/dissecttest"
)

// The play samples (samples/play-*.pcap, samples/gen/capture.sh play-*):
// mineflayer or go-mc bots against minecraft-protocol's server, in several
// versions. Their logs are the truth: every chat line, position and kick
// reason the peers logged must be a dissected field, and no byte may be
// left undissected.

// capturedPDU is one PDU of a sample, framed and decoded in capture order.
type capturedPDU struct {
	p     *dissect.PDU
	frame int
}

// readStreams frames and decodes the one TCP connection of a pcap (Ethernet,
// IPv4, loopback: in order, retransmissions dropped by sequence number)
// with fresh Conns made by mk, in capture order.
func readStreams(t *testing.T, path string, mk func() *Conn) []capturedPDU {
	return readConns(t, path, 0, mk)
}

// readConns is readStreams for every connection of a pcap to server port
// server (0: learnt from the SYN): a connection whose SYN is not in the
// capture starts where its first payload does, its first bytes framed
// after a gap as the reassembler frames them.
func readConns(t *testing.T, path string, server uint16, mk func() *Conn) []capturedPDU {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 24 || binary.LittleEndian.Uint32(b) != 0xa1b2c3d4 && binary.LittleEndian.Uint32(b) != 0xa1b23c4d {
		t.Fatalf("%s: not a little-endian pcap", path)
	}
	type conn struct {
		fr, dec *Conn
		lite    *Conn // decodes the same PDUs in Lite PDUs: same Message and Info
		next    [2]uint32
		seen    [2]bool
		gap     [2]bool
		buf     [2][]byte
		lost    [2]bool
	}
	conns := map[uint16]*conn{}
	var order []uint16
	var out []capturedPDU
	frame := 0
	for off := 24; off+16 <= len(b); {
		sec, usec := binary.LittleEndian.Uint32(b[off:]), binary.LittleEndian.Uint32(b[off+4:])
		incl := int(binary.LittleEndian.Uint32(b[off+8:]))
		pkt := b[off+16 : off+16+incl]
		off += 16 + incl
		frame++
		ts := time.Unix(int64(sec), int64(usec)*1000)
		if len(pkt) < 14+20 || binary.BigEndian.Uint16(pkt[12:]) != 0x0800 {
			continue
		}
		ip := pkt[14:]
		ihl := int(ip[0]&15) * 4
		tot := int(binary.BigEndian.Uint16(ip[2:]))
		if ip[9] != 6 {
			continue
		}
		tcp := ip[ihl:tot]
		sport, dport := binary.BigEndian.Uint16(tcp), binary.BigEndian.Uint16(tcp[2:])
		seq := binary.BigEndian.Uint32(tcp[4:])
		flags := tcp[13]
		payload := tcp[int(tcp[12]>>4)*4:]
		if flags&0x02 != 0 && server == 0 { // SYN
			server = dport
			if flags&0x10 != 0 {
				server = sport
			}
		}
		i, client := 0, sport
		if sport == server {
			i, client = 1, dport
		}
		c := conns[client]
		if c == nil {
			c = &conn{fr: mk(), dec: mk(), lite: mk()}
			conns[client] = c
			order = append(order, client)
		}
		if flags&0x02 != 0 {
			c.next[i], c.seen[i] = seq+1, true
			continue
		}
		if len(payload) == 0 {
			continue
		}
		if !c.seen[i] {
			c.next[i], c.seen[i], c.gap[i] = seq, true, true
		}
		d := int32(seq - c.next[i])
		if d+int32(len(payload)) <= 0 {
			continue // a retransmission of bytes already had
		}
		if d > 0 {
			t.Fatalf("%s frame %d: %d bytes missing", path, frame, d)
		}
		payload = payload[-d:]
		c.next[i] += uint32(len(payload))
		c.buf[i] = append(c.buf[i], payload...)
		dir := dissect.DirC2S
		if i == 1 {
			dir = dissect.DirS2C
		}
		for len(c.buf[i]) > 0 && !c.lost[i] {
			f := c.fr.Frame(dir, c.buf[i], c.gap[i])
			if f.Status == dissect.FrameLost {
				c.lost[i] = true
				p := &dissect.PDU{}
				p.Info = f.Reason
				out = append(out, capturedPDU{p: p, frame: frame})
				break
			}
			if f.Status != dissect.FrameOK {
				break
			}
			c.gap[i] = false
			p := &dissect.PDU{}
			pdu := slices.Clone(c.buf[i][:f.Len])
			m := dissect.Meta{Frame: uint64(frame), Time: ts, Client: "127.0.0.1:" + strconv.Itoa(int(client)), Server: "127.0.0.1:" + strconv.Itoa(int(server)), Dir: dir}
			c.dec.Decode(p, pdu, m)
			lp := &dissect.PDU{Lite: true}
			c.lite.Decode(lp, slices.Clone(pdu), m)
			if lp.Message != p.Message || lp.Info != p.Info || len(lp.Experts) > len(p.Experts) {
				t.Errorf("%s frame %d: Lite %q %q, full %q %q", path, frame, lp.Message, lp.Info, p.Message, p.Info)
			}
			out = append(out, capturedPDU{p: p, frame: frame})
			c.buf[i] = c.buf[i][f.Len:]
		}
	}
	for _, k := range order {
		conns[k].fr.Close(dissect.ConnEnd{})
		conns[k].dec.Close(dissect.ConnEnd{})
		conns[k].lite.Close(dissect.ConnEnd{})
	}
	return out
}

// peerLog is what the peers of a play sample logged.
type peerLog struct {
	chatIn    []string    // chat lines the server received
	chatOut   []string    // server chat lines the bot received
	positions [][3]string // positions the server received
	kick      string      // the kick reason the bot received
	joinedID  string      // the UUID the server said the player joined with
	version   string
	recipes   int // the recipes of the declare_recipes the bot received (0: none)
}

func readPeerLog(t *testing.T, path string) peerLog {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var l peerLog
	s := string(b)
	for _, m := range regexp.MustCompile(`\[server\] chat from \S+ "(.*)"`).FindAllStringSubmatch(s, -1) {
		l.chatIn = append(l.chatIn, m[1])
	}
	for _, m := range regexp.MustCompile(`\[(?:bot\]|gomc-bot\] .*) message "(.*)"`).FindAllStringSubmatch(s, -1) {
		l.chatOut = append(l.chatOut, m[1])
	}
	for _, m := range regexp.MustCompile(`\[server\] position from \S+ (\S+) (\S+) (\S+)`).FindAllStringSubmatch(s, -1) {
		l.positions = append(l.positions, [3]string{m[1], m[2], m[3]})
	}
	if m := regexp.MustCompile(`kicked .*(Kicked by mcdissect: bye \w+)`).FindStringSubmatch(s); m != nil {
		l.kick = m[1]
	}
	if m := regexp.MustCompile(`\[server\] playerJoin \S+ (\S+)`).FindStringSubmatch(s); m != nil {
		l.joinedID = m[1]
	}
	if m := regexp.MustCompile(`\[bot\] declare_recipes (\d+)`).FindStringSubmatch(s); m != nil {
		l.recipes, _ = strconv.Atoi(m[1])
	}
	if m := regexp.MustCompile(`version (\d[\d.]*)`).FindStringSubmatch(s); m != nil {
		l.version = m[1]
	}
	return l
}

// texts collects, in order, the displays of the nodes named name in PDUs
// of direction dir.
func texts(pdus []capturedPDU, dir dissect.Dir, names ...string) []string {
	return textsOf(pdus, dir, "", names...)
}

// textsOf is texts of the PDUs whose Message is msg ("" any).
func textsOf(pdus []capturedPDU, dir dissect.Dir, msg string, names ...string) []string {
	var out []string
	for _, c := range pdus {
		if c.p.Dir != dir || msg != "" && c.p.Message != msg {
			continue
		}
		for i := range c.p.Nodes {
			n := &c.p.Nodes[i]
			if slices.Contains(names, n.Name()) {
				out = append(out, strings.Trim(dissecttest.Display(n), `"`))
			}
		}
	}
	return out
}

func TestPeerLogs(t *testing.T) {
	pcaps, _ := filepath.Glob("../../samples/play-*.pcap")
	// large/: samples whose trees are too large for a golden file, such as
	// a vanilla server's whole Declare Recipes (120,000 fields)
	large, _ := filepath.Glob("../../samples/large/play-*.pcap")
	pcaps = append(pcaps, large...)
	if len(pcaps) < 5 || len(large) == 0 {
		t.Fatalf("%d play samples", len(pcaps))
	}
	for _, pcap := range pcaps {
		name := strings.TrimSuffix(filepath.Base(pcap), ".pcap")
		t.Run(name, func(t *testing.T) {
			l := readPeerLog(t, strings.TrimSuffix(pcap, ".pcap")+".log")
			var keys []*KeyLog
			hows := []string{""} // how each key log finds the secret
			if kl, err := os.ReadFile(strings.TrimSuffix(pcap, ".pcap") + ".keylog"); err == nil {
				k, err := ParseKeyLog(kl)
				if err != nil {
					t.Fatal(err)
				}
				pem, err := os.ReadFile(strings.TrimSuffix(pcap, ".pcap") + ".key.pem")
				if err != nil {
					t.Fatal(err)
				}
				k2, err := ParseKeyLog(pem)
				if err != nil {
					t.Fatal(err)
				}
				keys = append(keys, k, k2)
				hows = []string{"key log line", "server's RSA key"}
			} else {
				keys = append(keys, nil)
			}
			for j, k := range keys {
				pdus := readStreams(t, pcap, func() *Conn { return NewConnWith(Options{Keys: k}) })
				checkPeerPDUs(t, pdus, l, hows[j])
			}
		})
	}
}

// checkPeerPDUs holds a sample's dissection to its peers' log; how is
// how the key log finds the secret of an encrypted sample ("" when not).
func checkPeerPDUs(t *testing.T, pdus []capturedPDU, l peerLog, how string) {
	t.Helper()
	for _, c := range pdus {
		p := c.p
		if len(p.Nodes) == 0 {
			t.Fatalf("frame %d: framing lost: %s", c.frame, p.Info)
		}
		if err := dissect.Check(p); err != nil {
			t.Errorf("frame %d %s: %v", c.frame, p.Message, err)
		}
		for _, e := range p.Experts {
			switch e.Info.Name {
			case "slp.login.compression", "slp.login.encryption":
			default:
				t.Errorf("frame %d %s: expert %s: %s", c.frame, p.Message, e.Info.Name, e.Msg)
			}
		}
		if p.Find("mc.undissected") >= 0 {
			t.Errorf("frame %d %s: undissected bytes", c.frame, p.Message)
		}
	}
	if got := texts(pdus, dissect.DirC2S, "mc.play.chat.message", "mc.play.chat_message.message"); !slices.Equal(got, l.chatIn) || len(got) == 0 {
		t.Errorf("client chat %q, the server logged %q", got, l.chatIn)
	}
	var got0 []string
	for _, m := range []string{"Chat", "System chat"} {
		got0 = append(got0, textsOf(pdus, dissect.DirS2C, m, "mc.java.chat_text")...)
	}
	if got := got0; !slices.Equal(got, l.chatOut) || len(got) == 0 {
		t.Errorf("server chat %q, the bot logged %q", got, l.chatOut)
	}
	xs := texts(pdus, dissect.DirC2S, "mc.play.position.x", "mc.play.position_look.x")
	ys := texts(pdus, dissect.DirC2S, "mc.play.position.y", "mc.play.position_look.y")
	zs := texts(pdus, dissect.DirC2S, "mc.play.position.z", "mc.play.position_look.z")
	var got [][3]string
	for i := range xs {
		got = append(got, [3]string{xs[i], ys[i], zs[i]})
	}
	if !slices.Equal(got, l.positions) || len(got) < 4 {
		t.Errorf("positions %v, the server logged %v", got, l.positions)
	}
	kicks := textsOf(pdus, dissect.DirS2C, "Disconnect", "mc.java.chat_text")
	if l.kick == "" || !slices.ContainsFunc(kicks, func(s string) bool { return strings.Contains(s, l.kick) }) {
		t.Errorf("kick %q not among %q", l.kick, kicks)
	}
	if joined := texts(pdus, dissect.DirS2C, "slp.player_joined"); len(joined) != 1 || !strings.HasSuffix(l.kick, " "+joined[0]) {
		t.Errorf("players joined %q, the kick names %q", joined, l.kick)
	}
	if ids := texts(pdus, dissect.DirS2C, "slp.player_joined.uuid"); l.joinedID == "" || !slices.Equal(ids, []string{l.joinedID}) {
		t.Errorf("players joined with UUIDs %q, the server logged %q", ids, l.joinedID)
	}
	if got := len(texts(pdus, dissect.DirS2C, "mc.play.declare_recipes.recipes.recipe_id")); got != l.recipes {
		t.Errorf("%d recipes dissected, the bot logged %d", got, l.recipes)
	}
	if how != "" {
		n := 0
		for _, c := range pdus {
			if i := c.p.Find("slp.decrypted.secret"); i >= 0 {
				n++
				// the framing Conn looked the secret up first: the
				// decoding one must still say how it was found
				if got := valueOf(c.p, "slp.decrypted.secret_from"); got != how {
					t.Errorf("frame %d: secret found by %q, want %q", c.frame, got, how)
				}
				if !c.p.Nodes[i].Field.Sensitive {
					t.Errorf("secret not sensitive")
				}
				// --redact masks it, and the masked PDU keeps its invariants
				secret := c.p.Nodes[i].Value.Text()
				c.p.Redact()
				if got := c.p.Nodes[i].Value.Text(); got == secret || strings.Contains(c.p.Info, secret) {
					t.Errorf("secret %s not redacted: %q", secret, got)
				}
				if err := dissect.Check(c.p); err != nil {
					t.Errorf("after Redact: %v", err)
				}
			}
		}
		if n == 0 {
			t.Errorf("no PDU was decrypted")
		}
	}
}

// TestEncryptedWithoutKey: without a key the encrypted session's bytes
// are not framed, and the reason names the encrypted secret that a key
// log line would need.
func TestEncryptedWithoutKey(t *testing.T) {
	pdus := readStreams(t, "../../samples/play-online-1-20-4.pcap", NewConn)
	lost := 0
	for _, c := range pdus {
		if len(c.p.Nodes) == 0 {
			lost++
			if !strings.Contains(c.p.Info, "MC_SHARED_SECRET for the encrypted secret") {
				t.Errorf("reason %q", c.p.Info)
			}
		}
	}
	if lost != 2 {
		t.Errorf("%d directions lost, want both", lost)
	}
}

// TestEncryptedWrongKey: a key log line with the right encrypted secret
// and a wrong secret decrypts the first frame of each direction to bytes
// that are no login packet: framing gives the direction up at once (not
// waiting for the 15 KB a random length asks for) and the reason says the
// key may be wrong.
func TestEncryptedWrongKey(t *testing.T) {
	line, err := os.ReadFile("../../samples/play-online-1-20-4.keylog")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(line))
	k, err := ParseKeyLog([]byte(f[0] + " " + f[1] + " 000102030405060708090a0b0c0d0e0f\n"))
	if err != nil {
		t.Fatal(err)
	}
	pdus := readStreams(t, "../../samples/play-online-1-20-4.pcap", func() *Conn { return NewConnWith(Options{Keys: k}) })
	lost := 0
	for _, c := range pdus {
		if len(c.p.Nodes) == 0 {
			lost++
			if !strings.Contains(c.p.Info, "the secret (from the key log line) may be wrong") {
				t.Errorf("reason %q", c.p.Info)
			}
		} else if c.p.Cut() {
			t.Errorf("frame %d: %s: framing waited for a length the wrong key made", c.frame, c.p.Info)
		}
	}
	if lost != 2 {
		t.Errorf("%d directions lost, want both", lost)
	}
}

// TestMidwayVersion reads samples/slp-play-midstream.pcap, three 1.21.1
// sessions picked up in the play state (no SYN, no handshake), with the
// version named (Options.Version): every packet is a keep-alive, both
// ways, the server's IDs echoed by the clients, and nothing is left
// undissected. Without the version the play state is not read.
func TestMidwayVersion(t *testing.T) {
	pdus := readConns(t, "../../samples/slp-play-midstream.pcap", 25565, func() *Conn { return NewConnWith(Options{Version: "1.21.1"}) })
	ids := map[dissect.Dir][]string{}
	notes := 0
	for _, c := range pdus {
		p := c.p
		if len(p.Nodes) == 0 {
			t.Fatalf("frame %d: lost: %s", c.frame, p.Info)
		}
		if err := dissect.Check(p); err != nil {
			t.Fatal(err)
		}
		if p.Message != "Keep alive" || p.Find("mc.undissected") >= 0 {
			t.Errorf("frame %d: %s %s", c.frame, p.Message, p.Info)
		}
		for _, e := range p.Experts {
			if e.Info != ExpertMidway {
				t.Errorf("frame %d: %s %s", c.frame, e.Info.Name, e.Msg)
			}
			notes++
		}
		ids[p.Dir] = append(ids[p.Dir], display(t, p, "mc.play.keep_alive.keep_alive_id"))
	}
	if len(ids[dissect.DirS2C]) < 3 || !slices.Equal(ids[dissect.DirS2C], ids[dissect.DirC2S]) {
		t.Errorf("keep-alive IDs: server %v, clients %v", ids[dissect.DirS2C], ids[dissect.DirC2S])
	}
	if notes != 6 {
		t.Errorf("%d mid-way notes, want one per direction of the 3 sessions", notes)
	}
}

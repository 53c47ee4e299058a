package analyze

import (
	"encoding/binary"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// fullStat builds a full stat response listing n players, as vanilla sends it.
func fullStat(n int) []byte {
	b := []byte{0x00, 0, 0, 0, 1}
	b = append(b, "splitnum\x00\x80\x00"...)
	for _, kv := range [][2]string{{"hostname", "A Minecraft Server"}, {"gametype", "SMP"}, {"game_id", "MINECRAFT"},
		{"version", "1.20.4"}, {"plugins", ""}, {"map", "world"}, {"numplayers", fmt.Sprint(n)}, {"maxplayers", "500"},
		{"hostport", "25565"}, {"hostip", "10.0.0.2"}} {
		b = append(b, kv[0]+"\x00"+kv[1]+"\x00"...)
	}
	b = append(b, "\x00\x01player_\x00\x00"...)
	for i := 0; i < n; i++ {
		b = append(b, fmt.Sprintf("player%04d\x00", i)...)
	}
	return append(b, 0)
}

// fragments cuts an IPv4 packet into fragments of at most mtu payload
// bytes (a multiple of 8), as a router would.
func fragments(t *testing.T, ip []byte, mtu int) [][]byte {
	t.Helper()
	hdr, payload := ip[:20], ip[20:]
	var out [][]byte
	for off := 0; off < len(payload); off += mtu {
		end := min(off+mtu, len(payload))
		f := append(append([]byte(nil), hdr...), payload[off:end]...)
		binary.BigEndian.PutUint16(f[2:], uint16(len(f)))
		binary.BigEndian.PutUint16(f[4:], 0x4242)
		ff := uint16(off / 8)
		if end < len(payload) {
			ff |= 0x2000 // more fragments
		}
		binary.BigEndian.PutUint16(f[6:], ff)
		f[10], f[11] = 0, 0
		var ipl layers.IPv4
		ipl.DecodeFromBytes(f, gopacket.NilDecodeFeedback)
		out = append(out, linkFrame(layers.LinkTypeEthernet, false, f, false))
	}
	return out
}

// TestFragmentedFullStat: a 300-player full stat response, IP-fragmented
// into 1480-byte pieces, is dissected whole at the last fragment, listing
// the frames it was built from.
func TestFragmentedFullStat(t *testing.T) {
	resp := fullStat(300)
	ip := ipUDP(t, false, 25565, 40000, resp)
	frags := fragments(t, ip, 1480)
	if len(frags) < 3 {
		t.Fatalf("only %d fragments", len(frags))
	}
	// Deliver them out of order: the last first.
	order := append([][]byte{frags[len(frags)-1]}, frags[:len(frags)-1]...)
	recs, warn, err := analyzeBytes(t, pcapFile(binary.LittleEndian, false, 1, order, 0), Options{})
	if err != nil || warn != nil {
		t.Fatalf("err %v warning %v", err, warn)
	}
	if len(recs) != 1 {
		t.Fatalf("got %d records, want 1", len(recs))
	}
	r := recs[0]
	if len(r.PDU.Data) != len(resp) {
		t.Errorf("PDU of %d bytes, want %d", len(r.PDU.Data), len(resp))
	}
	if len(r.Parts) != len(frags) || r.Frame != uint64(len(frags)) {
		t.Errorf("parts %v at frame %d, want %d parts", r.Parts, r.Frame, len(frags))
	}
	players := 0
	for _, n := range r.PDU.Nodes {
		if n.Field.Name == "query.player" {
			players++
		}
	}
	if players != 300 {
		t.Errorf("%d players dissected, want 300", players)
	}
	if !strings.HasPrefix(r.PDU.Message, "Full Stat Response") {
		t.Errorf("message %q", r.PDU.Message)
	}
	_ = net.IPv4len
}

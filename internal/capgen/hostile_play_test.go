package capgen

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// TestPlayHostileStarts: every hostile play capture opens as a real
// session: the client's first bytes are a login handshake with a real
// protocol number, 765 or 47.
func TestPlayHostileStarts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		write  func(w *Writer, n int)
		protos []uint64
	}{
		{"playbombs", (*Writer).PlayZipBombs, []uint64{765}},
		{"playcounts", (*Writer).PlayDeclaredCounts, []uint64{765, 47}},
		{"playnbt", (*Writer).PlayDeepNBT, []uint64{765, 47}},
		{"playpartial", (*Writer).PlayPartialPackets, []uint64{765}},
		{"playcrypt", (*Writer).PlayEncrypted, []uint64{765}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			w, err := New(&out)
			if err != nil {
				t.Fatal(err)
			}
			tc.write(w, 2)
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			r, err := pcapgo.NewReader(&out)
			if err != nil {
				t.Fatal(err)
			}
			first := map[layers.TCPPort][]byte{}
			for {
				data, _, err := r.ReadPacketData()
				if err != nil {
					break
				}
				p := gopacket.NewPacket(data, layers.LinkTypeEthernet, gopacket.Default)
				tl, ok := p.Layer(layers.LayerTypeTCP).(*layers.TCP)
				if ok && tl.DstPort == 25565 && len(tl.Payload) > 0 && first[tl.SrcPort] == nil {
					first[tl.SrcPort] = tl.Payload
				}
			}
			seen := map[uint64]bool{}
			for port, b := range first {
				// frame length, packet 0, protocol, "localhost", port, next state 2
				_, n := binary.Uvarint(b)
				if n <= 0 || b[n] != 0 {
					t.Fatalf("client %d: %x is no handshake", port, b[:min(len(b), 16)])
				}
				proto, k := binary.Uvarint(b[n+1:])
				rest := b[n+1+k:]
				if k <= 0 || !bytes.HasPrefix(rest, []byte("\x09localhost\x63\xdd\x02")) {
					t.Fatalf("client %d: %x is no login handshake", port, b[:min(len(b), 24)])
				}
				seen[proto] = true
			}
			for _, p := range tc.protos {
				if !seen[p] {
					t.Errorf("no session of protocol %d (saw %v)", p, seen)
				}
			}
		})
	}
}

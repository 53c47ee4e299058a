package main

// Hand-made captures for recognition on any port and for what must never
// pass silently: gamedig's 11-byte Query handshake on a non-default port
// with a Bedrock (RakNet) status ping and pong beside it; a stream on
// 25565 that no protocol claims, a retransmission and an out-of-order
// segment, a status response sent one byte per segment, IPv4 fragments
// that never complete, and bare SYNs.

import (
	"encoding/binary"
	"net/netip"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

var raknetMagic = []byte{0x00, 0xff, 0xff, 0x00, 0xfe, 0xfe, 0xfe, 0xfe, 0xfd, 0xfd, 0xfd, 0xfd, 0x12, 0x34, 0x56, 0x78}

func raknetPing(time, guid uint64) []byte {
	b := binary.BigEndian.AppendUint64([]byte{0x01}, time)
	b = append(b, raknetMagic...)
	return binary.BigEndian.AppendUint64(b, guid)
}

func raknetPong(time, guid uint64, s string) []byte {
	b := binary.BigEndian.AppendUint64([]byte{0x1c}, time)
	b = binary.BigEndian.AppendUint64(b, guid)
	b = append(b, raknetMagic...)
	b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
	return append(b, s...)
}

func writeBounds(dir string) error {
	t0 := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	files := []struct {
		name string
		gen  func(w *capgen.Writer)
	}{
		{"handmade-query-gamedig.pcap", func(w *capgen.Writer) {
			// A server on UDP 25580: neither the Query port nor Bedrock's.
			lo := netip.MustParseAddr("127.0.0.1")
			srv := netip.AddrPortFrom(lo, 25580)
			q := &qSession{w: w, client: netip.AddrPortFrom(lo, 50100), server: srv, now: t0}
			// gamedig 5's handshake: FE FD 09, session 1, four zero bytes.
			q.c2s(qCat(qHandshakeReq(1), []byte{0, 0, 0, 0}))
			q.s2c(qHandshakeResp(1, 9513307))
			q.c2s(qStatReq(1, 9513307, true))
			q.s2c(qFull(1, qSplit, qVanillaKV("A Minecraft Server", "1", "25580"), []string{"Steve"}))
			// Its Bedrock probe from another port: an unconnected ping
			// (gamedig's time 0x1122334455667788), and a pong as a
			// Bedrock Dedicated Server sends it.
			r := &qSession{w: w, client: netip.AddrPortFrom(lo, 50101), server: srv, now: q.now}
			r.c2s(raknetPing(0x1122334455667788, 0))
			r.s2c(raknetPong(0x1122334455667788, 0x0123456789abcdef,
				"MCPE;Dedicated Server;766;1.21.50;3;10;13253860892328930865;Bedrock level;Survival;1;25580;25581;"))
		}},
		{"handmade-tcp-silent.pcap", func(w *capgen.Writer) {
			srv := netip.MustParseAddrPort("192.0.2.10:25565")
			// A stream on 25565 that is neither SLP nor Classic.
			c := w.TCP(netip.MustParseAddrPort("198.51.100.7:50200"), srv, t0)
			c.Handshake()
			c.MSS = 1000
			junk := []byte("SSH-2.0-OpenSSH_9.6 not a Minecraft client\r\n" + strings.Repeat("\x00\x01garbage", 300))
			c.Send(true, junk)
			c.Send(false, []byte("Protocol mismatch.\n"))
			c.Close()
			// A status ping with a retransmission and an out-of-order
			// segment in the client's stream.
			c = w.TCP(netip.MustParseAddrPort("198.51.100.7:50201"), srv, c.Now)
			c.Handshake()
			hs := qCat([]byte{16, 0x00, 0xfe, 0x05, 9}, []byte("localhost"), []byte{0x63, 0xdd, 1}, []byte{1, 0})
			c.SegmentAt(true, 10, hs[10:])
			c.SegmentAt(true, 0, hs[:10]) // fills the hole: out of order
			c.SegmentAt(true, 0, hs[:10]) // again: a retransmission
			json := `{"version":{"name":"1.21.1","protocol":767},"players":{"max":20,"online":0},"description":"one byte at a time"}`
			resp := qCat([]byte{byte(len(json) + 2), 0, byte(len(json))}, []byte(json))
			c.MSS = 1 // the server sends its response a byte per segment
			c.Send(false, resp)
			c.Close()
			// Bare SYNs (a scan): nothing to show.
			for i := range 5 {
				s := w.TCP(netip.AddrPortFrom(netip.MustParseAddr("203.0.113.9"), uint16(40000+i)), srv, c.Now)
				s.SYNOnly()
				c.Now = s.Now
			}
			// IPv4 fragments whose datagrams never complete.
			w.IncompleteFragments(2, c.Now.Add(time.Second))
		}},
	}
	for _, f := range files {
		w, err := capgen.Create(filepath.Join(dir, f.name))
		if err != nil {
			return err
		}
		f.gen(w)
		if err := w.Close(); err != nil {
			return err
		}
	}
	return nil
}

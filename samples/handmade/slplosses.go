package main

// Hand-made Server List Ping captures of imperfect captures: a busy
// server's status pings with segments the capture lost, and
// minecraft-server-util's ASCII 1.6 ping on its own.

import (
	"encoding/binary"
	"net/netip"
	"path/filepath"
	"strconv"
	"time"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

func writeSLPLosses(dir string) error {
	for _, f := range []struct {
		name string
		gen  func(w *capgen.Writer)
	}{{"status-losses", slpStatusLosses}, {"legacy-ascii", slpLegacyASCII}} {
		w, err := capgen.Create(filepath.Join(dir, "handmade-slp-"+f.name+".pcap"))
		if err != nil {
			return err
		}
		f.gen(w)
		if err := w.Close(); err != nil {
			return err
		}
	}
	return writeSLPDrops(dir)
}

// Loss patterns of slpStatusLosses, by connection number k (0..49).
const (
	lossNone          = iota
	lossHandshake     // the client's handshake segment: the connection's first captured client bytes are the status request
	lossMidStream     // the capture starts after the handshake: no SYN, first packet the status request
	lossResponseMid   // a middle segment of the status response: that response cannot be shown
	lossRequest       // the status request segment
	lossResponseFirst // the first segment of the status response: that response cannot be shown
)

// lossOf spreads the losses over the 50 connections by k's last digit:
// 0, 5 no loss; 1, 6 handshake; 2, 7 mid-stream; 3, 8 middle of the
// response; 4 request; 9 first segment of the response (10, 10, 10, 10, 5
// and 5 connections).
func lossOf(k int) int {
	switch k % 10 {
	case 1, 6:
		return lossHandshake
	case 2, 7:
		return lossMidStream
	case 3, 8:
		return lossResponseMid
	case 4:
		return lossRequest
	case 9:
		return lossResponseFirst
	}
	return lossNone
}

// slpStatusLosses: 50 status pings (handshake, request, a 1.2 KB response in
// segments of 400 bytes, ping, pong) running at once, their packets
// interleaved as a busy server's are, with segments lost in five patterns
// (lossOf). 15 responses are lost with their segments; the other 35 can be
// shown. Each connection's MOTD names its number, so a reader can count.
func slpStatusLosses(w *capgen.Writer) {
	t0 := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	server := netip.MustParseAddrPort("192.0.2.10:25565")
	const n = 50
	type conn struct {
		c                   *capgen.TCPConn
		k, loss             int
		hs, req, resp, ping []byte
	}
	conns := make([]*conn, n)
	for k := range conns {
		client := netip.AddrPortFrom(netip.AddrFrom4([4]byte{198, 51, 100, byte(10 + k)}), uint16(40000+k*17))
		pad := make([]byte, 900)
		for j := range pad {
			pad[j] = 'A' + byte((j+k)%26)
		}
		status := `{"version":{"name":"1.21.1","protocol":767},"players":{"max":100,"online":` + strconv.Itoa(k) +
			`},"description":{"text":"status ping ` + strconv.Itoa(k) + `"},"favicon":"data:image/png;base64,` + string(pad) + `"}`
		var payload [8]byte
		binary.BigEndian.PutUint64(payload[:], 0x1234_0000_0000+uint64(k)*7919)
		cn := &conn{c: w.TCP(client, server, t0), k: k, loss: lossOf(k),
			hs: slpHandshake(767, "play.example.net", slpPort(25565), 1), req: slpPacket(0),
			resp: slpPacket(0, slpString(status)), ping: slpPacket(1, payload[:])}
		cn.c.MSS = 400
		conns[k] = cn
	}
	clock := t0
	// each step runs for every connection in turn, on one clock
	step := func(f func(cn *conn)) {
		for _, cn := range conns {
			cn.c.Now = clock
			f(cn)
			if cn.c.Now.After(clock) {
				clock = cn.c.Now
			}
		}
		clock = clock.Add(time.Millisecond)
	}
	step(func(cn *conn) {
		if cn.loss == lossMidStream {
			// not captured: the SYNs and the handshake
			cn.c.Skip(true, len(cn.hs))
			return
		}
		cn.c.Handshake()
	})
	step(func(cn *conn) {
		switch cn.loss {
		case lossMidStream:
		case lossHandshake:
			cn.c.Skip(true, len(cn.hs))
		default:
			cn.c.Send(true, cn.hs)
		}
	})
	step(func(cn *conn) {
		if cn.loss == lossRequest {
			cn.c.Skip(true, len(cn.req))
			return
		}
		cn.c.Send(true, cn.req)
	})
	for seg := 0; seg*400 < len(conns[0].resp)+400; seg++ {
		step(func(cn *conn) {
			lo := seg * 400
			if lo >= len(cn.resp) {
				return
			}
			hi := min(lo+400, len(cn.resp))
			if cn.loss == lossResponseFirst && seg == 0 || cn.loss == lossResponseMid && seg == 1 {
				cn.c.Skip(false, hi-lo)
				return
			}
			cn.c.Send(false, cn.resp[lo:hi])
		})
	}
	step(func(cn *conn) { cn.c.Send(true, cn.ping) })
	step(func(cn *conn) { cn.c.Send(false, cn.ping) })
	step(func(cn *conn) { cn.c.Close() })
}

// slpLegacyASCII: minecraft-server-util 5.4.4's statusFE01FA bytes, as in
// samples/slp-legacy.pcap (frame 24): FE 01 FA, the channel and host in
// ASCII where the protocol has UTF-16BE, a data length of 16 for the 14
// that follow (msu writes 7 + the host's length), a 2-byte port; the server answers FE 01 with a kick.
func slpLegacyASCII(w *capgen.Writer) {
	t0 := time.Date(2024, 5, 2, 10, 0, 0, 0, time.UTC)
	c := w.TCP(netip.MustParseAddrPort("198.51.100.7:50101"), netip.MustParseAddrPort("192.0.2.10:25565"), t0)
	c.Handshake()
	ping := []byte{0xfe, 0x01, 0xfa, 0x00, 0x0b}
	ping = append(ping, "MC|PingHost"...)
	ping = append(ping, 0x00, 7+11, 0x4a, 0x00, 0x0b) // msu's data length: 7 + the host's length
	ping = append(ping, "example.net"...)
	ping = append(ping, 0x63, 0xdd)
	c.Send(true, ping)
	c.Send(false, slpKick("§1\x0074\x001.6.4\x00A hand-made server\x003\x0020"))
	c.Close()
}

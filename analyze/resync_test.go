package analyze

import (
	"net/netip"
	"strconv"
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/dissect"
	"github.com/mcdissect/mcdissect/dissect/slp"
	"github.com/mcdissect/mcdissect/internal/capgen"
	"github.com/mcdissect/mcdissect/record"
)

func slpFrame(body []byte) []byte { return append(slp.AppendVarInt(nil, int32(len(body))), body...) }

func slpStatusResponse(json string) []byte {
	return slpFrame(append(append([]byte{0}, slp.AppendVarInt(nil, int32(len(json)))...), json...))
}

// TestSLPDecidedByEitherSide: connections on 25565 whose client bytes do not
// start at a handshake are decided by what proves itself: the server's
// status response, or the client's status request and ping. Each case
// lists the records expected, in order, with the frames that decide them
// (the ACK that gives up lost bytes, the bytes that decide the protocol).
func TestSLPDecidedByEitherSide(t *testing.T) {
	ping := []byte{0x09, 0x01, 0, 0, 0, 0, 0, 0, 0x2e, 0x5d}
	resp := slpStatusResponse(`{"version":{"name":"1.21.1","protocol":767},"players":{"max":20,"online":1},"description":"x"}`)
	for _, tc := range []struct {
		name   string
		build  func(c *capgen.TCPConn)
		want   []string // "frame message"
		server string   // default tcpServer
	}{
		{"handshake not captured, SYN seen", func(c *capgen.TCPConn) {
			c.Handshake()                    // frames 1-3
			c.Skip(true, len(slpHandshake))  // lost
			c.Send(true, []byte{0x01, 0x00}) // 4
			c.Send(false, resp)              // 5: the server's response decides
			c.Send(true, ping)               // 6
			c.Send(false, ping)              // 7
			c.Close()
		}, []string{"5 Missing bytes", "5 Status Request", "5 Status Response", "6 Ping Request", "7 Pong Response"}, ""},
		{"no client bytes before the ping: the server's response decides", func(c *capgen.TCPConn) {
			c.Handshake()
			c.Skip(true, len(slpHandshake)+2)
			c.Send(false, resp) // 4: its ACK shows the client's bytes lost
			c.Send(true, ping)  // 5
			c.Send(false, ping) // 6
			c.Close()
		}, []string{"4 Status Response", "5 Missing bytes", "5 Ping Request", "6 Pong Response"}, ""},
		{"mcutil's lone length byte lost, on a port of no protocol: SLP, not Classic", func(c *capgen.TCPConn) {
			c.Handshake()
			c.Skip(true, 1)                // the handshake's length, written alone
			c.Send(true, slpHandshake[1:]) // 4
			c.Send(true, []byte{0x01})     // 5
			c.Send(true, []byte{0x00})     // 6
			c.Send(false, resp)            // 7
			c.Send(true, []byte{0x09})     // 8
			c.Send(true, ping[1:])         // 9
			c.Send(false, ping)            // 10
			c.Close()
		}, []string{"7 Missing bytes", "7 Undissected bytes", "7 Status Request", "7 Status Response", "9 Ping Request", "10 Pong Response"}, "10.0.0.2:25571"},
		{"only a ping and its pong captured, on a port of no protocol: the echo decides", func(c *capgen.TCPConn) {
			c.Handshake()
			c.Skip(true, len(slpHandshake)+2)
			c.Skip(false, len(resp))
			c.Send(true, ping)  // 4
			c.Send(false, ping) // 5: the same 8 bytes come back
			c.Close()
		}, []string{"5 Missing bytes", "5 Missing bytes", "5 Ping Request", "5 Pong Response"}, "10.0.0.2:25571"},
		{"a ping and a pong that does not echo it, on a port of no protocol: nothing proved", func(c *capgen.TCPConn) {
			c.Handshake()
			c.Skip(true, len(slpHandshake)+2)
			c.Skip(false, len(resp))
			c.Send(true, ping)                                        // 4
			c.Send(false, []byte{0x09, 0x01, 0, 0, 0, 0, 0, 0, 0, 1}) // 5
			c.Close()
		}, []string{"7 Missing bytes", "7 Missing bytes", "7 Undissected bytes", "7 Undissected bytes"}, "10.0.0.2:25571"},
		{"capture starts at the status request", func(c *capgen.TCPConn) {
			c.Skip(true, len(slpHandshake))
			c.Send(true, []byte{0x01, 0x00}) // 1
			c.Send(false, resp)              // 2
			c.Send(true, ping)               // 3
			c.Send(false, ping)              // 4
			c.Close()
		}, []string{"1 Status Request", "2 Status Response", "3 Ping Request", "4 Pong Response"}, ""},
		{"capture starts inside the response", func(c *capgen.TCPConn) {
			c.Skip(true, len(slpHandshake)+2)
			c.Skip(false, 40)
			c.Send(false, resp[40:]) // 1
			c.Send(true, ping)       // 2
			c.Send(false, ping)      // 3
			c.Close()
		}, []string{"2 Undissected bytes", "2 Ping Request", "3 Pong Response"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			server := tcpServer
			if tc.server != "" {
				server = netip.MustParseAddrPort(tc.server)
			}
			capt := buildCapture(t, func(w *capgen.Writer) { tc.build(w.TCP(tcpClient, server, t0)) })
			recs, _, err := analyzeBytes(t, capt, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range recs {
				got = append(got, strconv.FormatUint(r.Frame, 10)+" "+r.PDU.Message)
				if err := dissect.Check(&r.PDU); err != nil {
					t.Error(err)
				}
				if r.Kind == record.KindPDU && r.Proto != "slp" {
					t.Errorf("frame %d: protocol %s", r.Frame, r.Proto)
				}
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("records\n %q\nwant\n %q", got, tc.want)
			}
		})
	}
}

// TestCutPDUDecoded: a PDU cut by the connection's end, or by a gap, is
// decoded as far as its bytes go, the field they end in marked truncated,
// instead of being reported as undissected bytes.
func TestCutPDUDecoded(t *testing.T) {
	resp := slpStatusResponse(`{"version":{"name":"1.21.1","protocol":767},"players":{"max":20,"online":1},"description":"x"}`)
	for _, tc := range []struct {
		name  string
		build func(c *capgen.TCPConn)
	}{
		{"cut by the end", func(c *capgen.TCPConn) {
			c.Send(false, resp[:30])
		}},
		{"cut by a gap", func(c *capgen.TCPConn) {
			c.Send(false, resp[:30])
			c.Skip(false, 20)
			c.Send(false, resp[50:])
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			capt := buildCapture(t, func(w *capgen.Writer) {
				c := w.TCP(tcpClient, tcpServer, t0)
				c.Handshake()
				c.Send(true, slpHandshake)
				c.Send(true, []byte{0x01, 0x00})
				tc.build(c)
				c.Close()
			})
			recs, _, err := analyzeBytes(t, capt, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var cut *record.Record
			for _, r := range recs {
				if r.PDU.Message == "Status Response" {
					cut = r
				}
				if r.Kind == record.KindUndissected && len(r.Parts) > 0 && r.Parts[0].Frame == 6 {
					t.Errorf("the cut response is undissected: %s", r.PDU.Info)
				}
			}
			if cut == nil || len(cut.Parts) != 1 || cut.Parts[0].Frame != 6 || !strings.HasSuffix(cut.PDU.Info, "[cut: 30 of "+strconv.Itoa(len(resp))+" bytes]") || !strings.Contains(experts(cut), "mc.truncated") {
				t.Fatalf("cut response: %+v", cut)
			}
		})
	}
}

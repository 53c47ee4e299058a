package analyze

import (
	"strings"
	"testing"

	"github.com/mcdissect/mcdissect/internal/capgen"
)

// TestSharedPortIsQuiet: web traffic on the heartbeat's port 80, with its
// handshake or picked up mid-way, gives no record; a heartbeat there whose
// handshake was not captured (the live kernel filter passes a heartbeat's
// connection from its request on) is dissected whole.
func TestSharedPortIsQuiet(t *testing.T) {
	web := netipPort(tcpServer, 80)
	recs, _, err := analyzeBytes(t, buildCapture(t, func(w *capgen.Writer) {
		c := w.TCP(tcpClient, web, t0)
		c.Handshake()
		c.Send(true, []byte("GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n"))
		c.Send(false, []byte("HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n"+strings.Repeat("x", 5000)))
		c.Close()
		c = w.TCP(netipPort(tcpClient, 40001), web, t0)
		c.Send(false, []byte(strings.Repeat("y", 3000))) // a download picked up mid-way
		c.Send(true, []byte("GET /map/tiles/1.png HTTP/1.1\r\n\r\n"))
		c.Close()
		c = w.TCP(netipPort(tcpClient, 40002), web, t0)
		c.Send(true, []byte("GET /heartbeat.jsp?port=25565&max=20&name=A&public=True&version=7&salt=0123456789abcdef HTTP/1.1\r\n\r\n"))
		c.Send(false, []byte("HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\nhttp://x/play/abcde"+"f"))
		c.Close()
	}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, r.PDU.Info)
	}
	if len(got) != 2 || !strings.Contains(got[0], "Heartbeat GET") || !strings.Contains(got[1], "Heartbeat Response 200") {
		t.Errorf("records:\n%s\nwant the heartbeat's request and response only", strings.Join(got, "\n"))
	}
}

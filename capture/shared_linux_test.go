//go:build linux && !pcap

package capture

import (
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// heartbeatShared is the Classic heartbeat's shared port as mcdissect
// passes it, on port p.
func heartbeatShared(p int) SharedPorts {
	return SharedPorts{Ports: []uint16{uint16(p)},
		Starts: []string{"GET /heartbeat.jsp", "POST /heartbeat.jsp", "GET /server/heartbeat", "POST /server/heartbeat"},
		Then:   "? /\r\n"}
}

// httpServer answers every request on a connection with body, and
// returns its port.
func httpServer(t *testing.T, network, addr string, body string) int {
	t.Helper()
	l, err := net.Listen(network, addr)
	if err != nil {
		t.Skip(network, err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				b := make([]byte, 4096)
				for {
					n, err := c.Read(b)
					if err != nil || n == 0 {
						return
					}
					fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
				}
			}()
		}
	}()
	return l.Addr().(*net.TCPAddr).Port
}

// exchange connects, sends each request and reads the responses, and
// returns the client's port.
func exchange(t *testing.T, network string, port int, host string, reqs ...string) int {
	t.Helper()
	c, err := net.Dial(network, net.JoinHostPort(host, fmt.Sprint(port)))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	b := make([]byte, 1<<20)
	for _, r := range reqs {
		if _, err := io.WriteString(c, r); err != nil {
			t.Fatal(err)
		}
		c.SetReadDeadline(time.Now().Add(2 * time.Second))
		if _, err := c.Read(b); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return c.LocalAddr().(*net.TCPAddr).Port
}

// TestLiveSharedPort: on a shared port, the kernel passes the connections
// whose client starts as a heartbeat does, both directions, and nothing of
// the others.
func TestLiveSharedPort(t *testing.T) {
	for _, iface := range []string{"lo", "any"} {
		for _, fam := range []struct{ network, host string }{{"tcp4", "127.0.0.1"}, {"tcp6", "::1"}} {
			t.Run(iface+"/"+fam.network, func(t *testing.T) {
				port := httpServer(t, fam.network, net.JoinHostPort(fam.host, "0"), strings.Repeat("x", 3000))
				src := openLo(t, iface, LiveOptions{Ports: []uint16{1}, Shared: heartbeatShared(port)})
				if fi, _ := FilterInfoOf(src); !fi.SharedByConnection {
					t.Fatalf("the shared port passes whole: %s", fi.Why)
				}
				got := make(chan map[int]int, 1)
				go func() {
					seen := map[int]int{} // client port -> payload segments
					for {
						p, err := src.Next()
						if err != nil {
							got <- seen
							return
						}
						pk := gopacket.NewPacket(p.Data, p.LinkType, gopacket.Default)
						tcp, _ := pk.Layer(layers.LayerTypeTCP).(*layers.TCP)
						if tcp == nil {
							continue
						}
						client := int(tcp.SrcPort)
						if client == port {
							client = int(tcp.DstPort)
						}
						if len(tcp.Payload) > 0 {
							seen[client]++
						} else {
							seen[client] += 0
						}
					}
				}()
				time.Sleep(50 * time.Millisecond)
				web := exchange(t, fam.network, port, fam.host, "GET /index.html HTTP/1.1\r\n\r\n", "GET /map/heartbeat.jsp HTTP/1.1\r\n\r\n")
				near := exchange(t, fam.network, port, fam.host, "GET /heartbeat.jspx HTTP/1.1\r\n\r\n")
				hb := exchange(t, fam.network, port, fam.host, "GET /heartbeat.jsp?port=25565&max=20 HTTP/1.1\r\n\r\n", "GET /more HTTP/1.1\r\n\r\n")
				post := exchange(t, fam.network, port, fam.host, "POST /server/heartbeat HTTP/1.1\r\nContent-Length: 3\r\n\r\n", "a=b")
				time.Sleep(100 * time.Millisecond)
				src.Stop()
				seen := <-got
				if _, ok := seen[web]; ok {
					t.Errorf("a web connection passed: %d segments", seen[web])
				}
				if _, ok := seen[near]; ok {
					t.Errorf("GET /heartbeat.jspx passed")
				}
				// request, response, request, response (each response may take more segments)
				if seen[hb] < 4 {
					t.Errorf("the heartbeat connection: %d segments with payload, want at least 4 (%v)", seen[hb], seen)
				}
				if seen[post] < 4 {
					t.Errorf("the POST heartbeat: %d segments with payload, want at least 4 (%v)", seen[post], seen)
				}
			})
		}
	}
}

// TestLiveDiscover: with Discover, the first packets of every flow pass,
// and a port given to AddPort passes whole; the heartbeat's connections
// still pass whole beside it.
func TestLiveDiscover(t *testing.T) {
	for _, iface := range []string{"lo", "any"} {
		t.Run(iface, func(t *testing.T) {
			web := httpServer(t, "tcp4", "127.0.0.1:0", "hello")
			other := httpServer(t, "tcp4", "127.0.0.1:0", "hello")
			udp, uport := udpSink(t)
			_ = udp
			src := openLo(t, iface, LiveOptions{Ports: []uint16{1}, Shared: heartbeatShared(web), Discover: true})
			if fi, _ := FilterInfoOf(src); !fi.Discover || !fi.SharedByConnection {
				t.Fatalf("filter: %+v", fi)
			}
			type flow struct{ src, dst int }
			got := make(chan map[flow]int, 1)
			go func() {
				seen := map[flow]int{}
				for {
					p, err := src.Next()
					if err != nil {
						got <- seen
						return
					}
					pk := gopacket.NewPacket(p.Data, p.LinkType, gopacket.Default)
					if tcp, _ := pk.Layer(layers.LayerTypeTCP).(*layers.TCP); tcp != nil {
						seen[flow{int(tcp.SrcPort), int(tcp.DstPort)}]++
					}
					if u, _ := pk.Layer(layers.LayerTypeUDP).(*layers.UDP); u != nil {
						seen[flow{int(u.SrcPort), int(u.DstPort)}]++
					}
				}
			}()
			time.Sleep(50 * time.Millisecond)
			reqs := make([]string, 12)
			for i := range reqs {
				reqs[i] = "GET /x HTTP/1.1\r\n\r\n"
			}
			before := exchange(t, "tcp4", other, "127.0.0.1", reqs...)
			hb := exchange(t, "tcp4", web, "127.0.0.1", append([]string{"GET /heartbeat.jsp?port=1 HTTP/1.1\r\n\r\n"}, reqs...)...)
			c, err := net.Dial("udp4", fmt.Sprintf("127.0.0.1:%d", uport))
			if err != nil {
				t.Fatal(err)
			}
			for range 12 {
				c.Write([]byte("datagram"))
				time.Sleep(time.Millisecond)
			}
			if err := src.(PortAdder).AddPort("tcp", uint16(other)); err != nil {
				t.Fatal(err)
			}
			if err := src.(PortAdder).AddPort("udp", uint16(uport)); err != nil {
				t.Fatal(err)
			}
			after := exchange(t, "tcp4", other, "127.0.0.1", reqs...)
			for range 12 {
				c.Write([]byte("datagram"))
				time.Sleep(time.Millisecond)
			}
			udpPort := c.LocalAddr().(*net.UDPAddr).Port
			c.Close()
			time.Sleep(100 * time.Millisecond)
			src.Stop()
			seen := <-got
			// Before AddPort: the first packets of each direction only.
			if n, m := seen[flow{before, other}], seen[flow{other, before}]; n != discoverPackets || m != discoverPackets {
				t.Errorf("before AddPort: %d and %d packets of the connection's two directions, want %d each", n, m, discoverPackets)
			}
			// After: the whole connection (12 requests, 12 answers, the handshake).
			if n := seen[flow{after, other}] + seen[flow{other, after}]; n < 2*12+3 {
				t.Errorf("after AddPort: %d packets of the connection", n)
			}
			if n := seen[flow{udpPort, uport}]; n != discoverPackets+12 {
				t.Errorf("UDP: %d datagrams, want the first %d, then all 12 after AddPort", n, discoverPackets)
			}
			if n := seen[flow{hb, web}] + seen[flow{web, hb}]; n < 2*13 {
				t.Errorf("the heartbeat connection: %d packets", n)
			}
		})
	}
}

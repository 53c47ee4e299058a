package main

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLiveLoopback captures on lo while a tiny Query responder in this test
// answers handshakes: the live path (AF_PACKET by default, libpcap with
// -tags pcap) must show each datagram once, both ways. It needs root.
func TestLiveLoopback(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("live capture needs root")
	}
	if _, err := net.InterfaceByName("lo"); err != nil {
		t.Skip("no lo interface")
	}
	srv, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	port := srv.LocalAddr().(*net.UDPAddr).Port
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := srv.ReadFromUDP(buf)
			if err != nil {
				return
			}
			if n == 7 && buf[0] == 0xfe && buf[1] == 0xfd && buf[2] == 9 {
				resp := append([]byte{9}, buf[3:7]...)
				srv.WriteToUDP(append(resp, "9513307\x00"...), from)
			}
		}
	}()

	// On lo (Ethernet headers) and on any (Linux cooked headers).
	for _, iface := range []string{"lo", "any"} {
		t.Run(iface, func(t *testing.T) {
			args := []string{"-i", iface, "-a", "duration:3", "-d", "udp.port==" + strconv.Itoa(port) + ",query",
				"-T", "fields", "-e", "mc.message", "-e", "udp.srcport", "-e", "udp.dstport"}
			if withPcap {
				args = append(args, "-f", "udp port "+strconv.Itoa(port))
			}
			cmd := exec.Command(binary, args...)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			cl, err := net.DialUDP("udp", nil, &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port})
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			// Send a handshake every 100 ms while the capture runs; the first ones
			// may go out before the socket is open.
			for i := 0; i < 20; i++ {
				cl.Write([]byte{0xfe, 0xfd, 0x09, 0x00, 0x00, 0x00, byte(i)})
				time.Sleep(100 * time.Millisecond)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("%v: %s", err, errb.String())
			}
			req, resp := 0, 0
			for _, l := range lines(out.String()) {
				f := strings.Split(l, "\t")
				switch f[0] {
				case "Handshake Request":
					req++
				case "Handshake Response":
					resp++
				}
			}
			if req < 5 || resp < 5 {
				t.Errorf("%d requests, %d responses seen:\n%s\n%s", req, resp, out.String(), errb.String())
			}
			// Loopback shows each packet twice to a raw socket; we keep one copy.
			if req > 20 {
				t.Errorf("%d requests for 20 sent: loopback duplicates kept", req)
			}
		})
	}
}

// TestListInterfaces: -D lists interfaces as tshark, numbered from 1, with
// any and lo among them.
func TestListInterfaces(t *testing.T) {
	out, err := exec.Command(binary, "-D").Output()
	if err != nil {
		t.Fatal(err)
	}
	ls := lines(string(out))
	if len(ls) < 2 || !strings.HasPrefix(ls[0], "1. ") {
		t.Fatalf("-D:\n%s", out)
	}
	all := "\n" + string(out)
	if !strings.Contains(all, ". any (") {
		t.Errorf("no any in -D:\n%s", out)
	}
	if _, err := net.InterfaceByName("lo"); err == nil && !strings.Contains(all, ". lo (Loopback)\n") {
		t.Errorf("no lo (Loopback) in -D:\n%s", out)
	}
}

// TestLiveOpenErrors: a missing or down interface and a filter the build
// cannot compile are one line on stderr and a non-zero exit.
func TestLiveOpenErrors(t *testing.T) {
	cases := map[string][]string{"missing": {"-i", "mcdissect-nope0"}}
	if !withPcap {
		cases["unsupported filter"] = []string{"-i", "lo", "-f", "ether broadcast"}
	}
	ifs, _ := net.Interfaces()
	for _, i := range ifs {
		if i.Flags&net.FlagUp == 0 {
			cases["down"] = []string{"-i", i.Name}
			break
		}
	}
	want := map[string]string{"missing": "no interface", "down": "is down", "unsupported filter": "-tags pcap"}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(binary, args...)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			err := cmd.Run()
			if err == nil {
				t.Fatal("exit status 0")
			}
			ls := lines(errb.String())
			if len(ls) != 1 || !strings.Contains(ls[0], want[name]) {
				t.Errorf("stderr %q, want one line with %q", errb.String(), want[name])
			}
		})
	}
}
